#!/usr/bin/env python3
"""The map stays true: docs/architecture.md names every file of the
folders whose files it lists one by one, and every thread.

- Every `.c` and `.h` file of src/deploy/, src/plugin/ and src/state/
  is named in a table row of docs/architecture.md: as `folder/file`
  anywhere, or as `file` in the table under the heading "The files of
  folder/".
- Every source file under src/ that starts a thread (pthread_create,
  uv_thread_create) is named as `folder/file` in a row of the table under
  "## Threads".

Each failure is printed as `file:line: ...` (the source file, line 1, or
the line that starts the thread).

    python3 tests/docs/check_architecture.py ROOT
    python3 tests/docs/check_architecture.py --self-test
Exit status 0 when the map holds, 1 otherwise.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tools"))
import tree_check  # noqa: E402

DOC = "docs/architecture.md"
LISTED = ["deploy", "plugin", "state"]
HEADING = re.compile(r'^(#{1,6})\s+(.*?)\s*$')
FILES_OF = re.compile(r'^The files of (\w+)/$')
TICKED = re.compile(r'`([^`]+)`')
THREAD = re.compile(r'\b(?:pthread_create|uv_thread_create)\s*\(')


def doc_names(root):
    """(names in any table row, names in the rows of the Threads table),
    each a set of src-relative paths such as `state/pg_lease.c`."""
    anywhere, threads = set(), set()
    folder, in_threads = None, False
    with open(os.path.join(root, DOC)) as f:
        for line in f:
            h = HEADING.match(line)
            if h:
                m = FILES_OF.match(h.group(2))
                folder = m.group(1) if m else None
                in_threads = h.group(2) == "Threads"
                continue
            if not line.startswith("|"):
                continue
            for tok in TICKED.findall(line):
                names = {tok}
                if folder and "/" not in tok:
                    names.add(folder + "/" + tok)
                anywhere |= names
                if in_threads:
                    threads |= names
    return anywhere, threads


def sources(root):
    src = os.path.join(root, "src")
    for d, dirs, files in os.walk(src):
        dirs.sort()
        for name in sorted(files):
            if name.endswith((".c", ".h")):
                yield os.path.relpath(os.path.join(d, name), src)


def check_tree(root):
    anywhere, threads = doc_names(root)
    problems = []
    for rel in sources(root):
        top = rel.split(os.sep)[0]
        if top in LISTED and rel not in anywhere:
            problems.append("src/%s:1: in no table of %s (add it to \"The "
                            "files of %s/\")" % (rel, DOC, top))
        with open(os.path.join(root, "src", rel), errors="replace") as f:
            for n, line in enumerate(f, 1):
                if THREAD.search(line) and rel not in threads:
                    problems.append("src/%s:%d: starts a thread that the "
                                    "Threads table of %s does not name"
                                    % (rel, n, DOC))
                    break
    return problems


def self_test():
    """A made-up tree: the check must name exactly the unlisted file and
    the unlisted thread."""
    doc = ("# A\n\n### The files of state/\n\n| file | what |\n| --- | --- |\n"
           "| `a.c`, `a.h` | x |\n\n## Threads\n\n| thread | owns |\n"
           "| --- | --- |\n| **t** (`plugin/host.c`) | y |\n\n## Other\n\n"
           "| `deploy/d.c` | z |\n")
    tree = {
        DOC: doc,
        "src/state/a.c": "int a;\n",
        "src/state/a.h": "int a;\n",
        "src/state/b.c": "int b;\n",
        "src/deploy/d.c": "int d;\n",
        "src/plugin/host.c": "x = uv_thread_create(&t, f, 0);\n",
        "src/cli/ticker.c": "int t;\n\npthread_create(&t, 0, f, 0);\n",
        "src/engine/e.c": "int e;\n",
    }
    want = ["src/state/b.c:1", "src/cli/ticker.c:3"]
    return tree_check.self_test(tree, check_tree, want, "omissions")


def main(argv):
    return tree_check.main(
        argv, __doc__, check_tree, self_test,
        "%d file(s) missing from " + DOC,
        "%s names every file of src/%s and every thread"
        % (DOC, "/, src/".join(LISTED) + "/"))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
