#!/usr/bin/env python3
"""Every document a comment or a page cites is in the repository.

Someone with only a clone must be able to follow every citation. So the
check reads the sources, scripts, tests, schema and docs, and fails on:

- a cited `*.md` name (`docs/rpc.md`, `README.md`) that is no file,
  relative to the citing file or to the repository's root;
- a citation of the design notes the project began from, which are not in
  the repository, by a name without `.md` ("STYLE rule 4", "BEHAVIOUR
  C.7", "provider-implementers-guide", "../shared/design/");
- a section cited by title after it (`docs/rpc.md, "Threads"`) that is no
  heading of that file (a heading that begins with the title counts);
- a relative Markdown link (`[x](../y.md#z)`) to no file, or to an
  anchor that no heading of the target makes;
- in the docs, a repository path in backquotes (`tests/cli/t0800-...sh`)
  that does not exist, or a conformance scenario name (S17, X22) with no
  file in tests/conformance/scenarios/.

Each failure is printed as `file:line: ...`.

    python3 tests/docs/check_citations.py ROOT
    python3 tests/docs/check_citations.py --self-test   # the check catches
                                                         # what it should
Exit status 0 when every citation resolves, 1 otherwise.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tools"))
import tree_check  # noqa: E402

# What is read, under the root: these folders (build trees and
# node_modules skipped) and these files.
FOLDERS = ["src", "tests", "bench", "scripts", "docs", "snapshots", "proto",
           "examples"]
FILES = ["README.md", "meson.build", "meson_options.txt", ".clang-format"]
TEXT = (".c", ".h", ".py", ".sh", ".md", ".build", ".txt", ".sql", ".scn",
        ".js", ".proto", ".yaml", ".yml")
SKIP_DIRS = {".git", "node_modules"}

# A path-like token ending in .md; `$X/` or `${X}/` in front is a variable.
MD_NAME = re.compile(r'(?<![\w./-])((?:\$\{?\w+\}?/)?[\w./-]*[\w-]\.md)\b')
# A title in quotes after a cited .md: `x.md, "T"`, `x.md "T"`, across a
# comment's line break.
TITLE = re.compile(r'\.md\b,?(?:[ \t]|\n[ \t]*(?:\*|#|--|//)?)+"([^"]{1,120})"')
# The design notes outside the repository, cited without `.md`.
OUTSIDE = re.compile(r'\b(?:(?:STYLE|BEHAVIOUR|ARCHITECTURE|ANCHORS|'
                     r'NODEJS-SDK-CONTRACT)\b(?!\.md)(?![_\w])|'
                     r'provider-implementers-guide|resource-registration\.txt|'
                     r'shared/design/|shared/seeds/)')
LINK = re.compile(r'\[[^\]]*\]\(([^)\s]+)\)')
# In the docs: `src/...`, `tests/...` and so on in backquotes.
REPO_PATH = re.compile(r'`((?:src|tests|docs|bench|scripts|snapshots|proto|'
                       r'examples)/[^`\s]*)`')
SCENARIO = re.compile(r'\b([SX]\d\d[a-z]?)\b')
HEADING = re.compile(r'^#{1,6}\s+(.*?)\s*#*\s*$')


def is_build_tree(path):
    return (os.path.exists(os.path.join(path, "build.ninja")) or
            os.path.isdir(os.path.join(path, "meson-private")))


def files_to_read(root):
    for name in FILES:
        if os.path.isfile(os.path.join(root, name)):
            yield name
    for folder in FOLDERS:
        top = os.path.join(root, folder)
        for d, dirs, files in os.walk(top):
            dirs[:] = sorted(x for x in dirs if x not in SKIP_DIRS and
                             not is_build_tree(os.path.join(d, x)))
            for name in sorted(files):
                if name.endswith(TEXT) or name == "meson.build":
                    yield os.path.relpath(os.path.join(d, name), root)


def slug(title):
    """The anchor a Markdown heading makes (GitHub's rule)."""
    s = title.strip().lower().replace("`", "")
    s = re.sub(r'[^\w\- ]', '', s)
    return s.replace(" ", "-")


def headings(root, rel, cache):
    if rel not in cache:
        titles = []
        with open(os.path.join(root, rel), encoding="utf-8",
                  errors="replace") as f:
            in_code = False
            for line in f:
                if line.startswith("```"):
                    in_code = not in_code
                m = None if in_code else HEADING.match(line)
                if m:
                    titles.append(m.group(1).replace("`", ""))
        cache[rel] = titles
    return cache[rel]


def resolve(root, rel, name):
    """The repository-relative path |name| (cited in |rel|) names, or
    None."""
    if name.startswith("$"):
        name = name.split("/", 1)[1]
    for base in (os.path.dirname(rel), ""):
        cand = os.path.normpath(os.path.join(base, name))
        if cand.startswith(".."):
            continue
        if os.path.exists(os.path.join(root, cand)):
            return cand
    return None


def title_ok(titles, title):
    want = " ".join(title.split()).lower()
    for t in titles:
        t = t.lower()
        if t == want or t.startswith(want + ":") or t.startswith(want + " ("):
            return True
    return False


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


def check_file(root, rel, scenarios, cache):
    problems = []
    with open(os.path.join(root, rel), encoding="utf-8",
              errors="replace") as f:
        text = f.read()
    is_md = rel.endswith(".md")
    # A link's target is checked as a link, not again as a name.
    names = LINK.sub(lambda m: " " * len(m.group(0)), text) if is_md else text
    is_doc = is_md and (rel.startswith("docs/") or "/" not in rel or
                        rel.endswith("README.md"))
    is_rules = is_md and rel.startswith("docs/")

    def fail(pos, msg):
        problems.append("%s:%d: %s" % (rel, line_of(text, pos), msg))

    for m in MD_NAME.finditer(names):
        name = m.group(1)
        word = max(text.rfind(c, 0, m.start()) for c in " \t\n(\"'<[") + 1
        if "://" in text[word:m.end()]:
            continue  # part of a URL
        target = resolve(root, rel, name)
        if target is None or not os.path.isfile(os.path.join(root, target)):
            fail(m.start(), "cites '%s', which is not a file in the "
                            "repository" % name)
    for m in OUTSIDE.finditer(names):
        fail(m.start(), "cites '%s' of the design notes, which are not in "
                        "the repository; cite docs/ instead" % m.group(0))
    for m in TITLE.finditer(names):
        # the .md name that ends where this match starts
        cited = [n for n in MD_NAME.finditer(names, max(0, m.start() - 300),
                                             m.start() + 3)
                 if n.end() == m.start() + 3]
        if not cited:
            continue
        target = resolve(root, rel, cited[0].group(1))
        if target is None or not os.path.isfile(os.path.join(root, target)):
            continue  # reported above
        title = re.sub(r'\s*\n[ \t]*(?:\*|#|--|//)?[ \t]*', ' ', m.group(1))
        if not title_ok(headings(root, target, cache), title):
            fail(m.start(1), 'cites section "%s" of %s, which has no such '
                             'heading' % (title, target))
    if is_md:
        for m in LINK.finditer(text):
            link = m.group(1)
            if re.match(r'^[a-z]+:', link):
                continue
            path, _, anchor = link.partition("#")
            target = resolve(root, rel, path) if path else rel
            if target is None:
                fail(m.start(), "links to '%s', which is not in the "
                                "repository" % path)
                continue
            if anchor and target.endswith(".md"):
                if anchor not in [slug(t) for t in
                                  headings(root, target, cache)]:
                    fail(m.start(), "links to '#%s' of %s, which no heading "
                                    "makes" % (anchor, target))
    if is_doc:
        for m in REPO_PATH.finditer(text):
            path = m.group(1).rstrip(".,:;")
            if re.search(r'[*<>{}]|NNNN|\.\.\.', path):
                continue  # a pattern, not a path
            if not path_or_prefix(root, path):
                fail(m.start(), "names '%s', which is not in the repository"
                     % path)
    if is_rules:
        for m in SCENARIO.finditer(text):
            if m.group(1) not in scenarios:
                fail(m.start(), "names scenario %s, which has no file in "
                                "tests/conformance/scenarios/" % m.group(1))
    return problems


def path_or_prefix(root, path):
    """|path| exists, or names the start of a file's name
    (`tests/nodejs/t0008` for t0008-more-options.sh, `bench/bench_rpc` for
    the program bench_rpc.c builds)."""
    full = os.path.join(root, path.rstrip("/"))
    if os.path.exists(full):
        return True
    d, base = os.path.split(full)
    return os.path.isdir(d) and any(f.startswith(base) for f in os.listdir(d))


def scenario_names(root):
    d = os.path.join(root, "tests", "conformance", "scenarios")
    names = set()
    if os.path.isdir(d):
        for f in os.listdir(d):
            m = re.match(r'^([SX]\d\d[a-z]?)-.*\.scn$', f)
            if m:
                names.add(m.group(1))
    return names


def check_tree(root):
    scenarios = scenario_names(root)
    cache = {}
    problems = []
    me = os.path.realpath(__file__)
    for rel in files_to_read(root):
        if os.path.realpath(os.path.join(root, rel)) == me:
            continue  # its self-test cites what does not exist
        problems += check_file(root, rel, scenarios, cache)
    return problems


def self_test():
    """A tree with one citation of each kind: the check must accept the
    good ones and name exactly the bad ones."""
    tree = {
        "README.md": "# Top\n\n## Secrets\n\nSee [rpc](docs/rpc.md#threads-how) "
                     "and [gone](docs/gone.md).\n",
        "docs/rpc.md": "# RPC\n\n## Threads: how\n\nSee ../README.md and "
                       "[top](../README.md#secrets), [bad](#nowhere).\n"
                       "Runs `tests/x/t1.sh` and `tests/x/t9.sh`, "
                       "`tests/cli/tNNNN-*.sh`; scenarios S01 and S99.\n",
        "src/a/a.c": '/* docs/rpc.md, "Threads"; README.md "Secrets";\n'
                     ' * docs/rpc.md, "Nope"; STYLE.md rule 4 */\n'
                     '/* YAML_PLAIN_SCALAR_STYLE; STYLE rule 26 */\n',
        "src/a/b.h": '/* (docs/rpc.md,\n * "Threads") and (docs/rpc.md,\n'
                     ' * "Wrong\n * title") */\n',
        "tests/x/t1.sh": "# BEHAVIOUR.md E; see https://e.org/a/X.md\n"
                         'cp "$ROOT/docs/rpc.md" .\n',
        "tests/conformance/scenarios/S01-a.scn": "# ok\n",
        "tests/node_modules/m/README.md": "see MISSING.md\n",
    }
    want = ["README.md:5", "docs/rpc.md:5", "docs/rpc.md:6", "docs/rpc.md:6",
            "src/a/a.c:2", "src/a/a.c:2", "src/a/a.c:3", "src/a/b.h:3",
            "tests/x/t1.sh:1"]
    return tree_check.self_test(tree, check_tree, want, "citations")


def main(argv):
    return tree_check.main(
        argv, __doc__, check_tree, self_test,
        "%d citation(s) lead nowhere in the repository",
        "every document cited under %s is in the repository" % argv[-1])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
