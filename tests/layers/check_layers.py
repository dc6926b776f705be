#!/usr/bin/env python3
"""The layers of src/, written once, and the check that holds the code to
them.

Every `#include "..."` under src/ is read. A folder may include its own
headers and those of any folder in a LOWER layer; an include that points
up a layer, or sideways to a folder of the same layer, fails the check
(unless SIDEWAYS names that header with its reason), and so does a folder
that no layer names. Each failure is printed as `file:line: ...`.

An include only shows a dependency when a header sits with the code that
implements it. So a header may declare only functions its own folder
defines: an interface that a folder of a higher layer implements (as the
store's did in engine/) would let every user of it look like a user of
the core. Its declarations must move to that folder.

The same pass holds the second rule of the tree: only the CLI (ENV_READERS)
touches the process environment. The engine below it reads no variable and
sets none; the CLI reads them and passes the values in as options. (The
command provider hands its commands the inherited environment whole, as a
plugin process would; it reads no variable from it.)

    python3 tests/layers/check_layers.py SRC_DIR
    python3 tests/layers/check_layers.py --self-test   # the check catches
                                                        # what it should
Exit status 0 when the tree keeps to its layers, 1 otherwise.
"""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tools"))
import tree_check  # noqa: E402

# The allowed order, lowest first.
LAYERS = [
    ["engine"],
    ["providers", "state", "rpc"],
    ["monitor", "stepgen", "stepexec", "lang", "plugin"],
    ["deploy", "console"],
    ["cli"],
]

# Headers a folder may include from a folder of its own layer, each with
# the reason; every other header of that folder stays out of reach.
SIDEWAYS = {
    ("lang", "monitor/api.h"): "the monitor's entry points, which every "
                               "language host calls",
    ("lang", "monitor/service.h"): "the monitor's gRPC face, which the "
                                   "Node.js host serves to its program",
}

# Generated protobuf headers ("pulumi/*.pb-c.h", "google/...") count as the
# core's own.
GENERATED = {"google": "engine", "pulumi": "engine"}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')

# The folders that may read or change environment variables.
ENV_READERS = {"cli"}
ENV_CALL = re.compile(r'\b(secure_getenv|getenv|setenv|unsetenv|putenv|'
                      r'clearenv)\s*\(')


def layer_of(folder):
    for i, names in enumerate(LAYERS):
        if folder in names:
            return i
    return None


def check_include(folder, target, inc):
    """Returns None when |folder| may include |inc|, a header of folder
    |target|, else why not."""
    if target == folder:
        return None
    mine, theirs = layer_of(folder), layer_of(target)
    if theirs is None:
        return "includes from folder '%s', which no layer names" % target
    if theirs < mine:
        return None
    if theirs == mine and (folder, inc) in SIDEWAYS:
        return None
    if theirs == mine:
        return ("'%s' includes '%s' of the same layer; the headers allowed "
                "sideways are listed in SIDEWAYS" % (folder, target))
    return ("'%s' (layer %d) includes '%s' (layer %d): an include may only "
            "point down" % (folder, mine, target, theirs))


COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)
# At the start of a line: a function's return type, its name, its
# parameters, then `;` (a prototype) or `{` (a definition).
FUNCTION = re.compile(r'^(?!static\b|typedef\b|extern\b|#|\s)[^;{}()#=]*?'
                      r'\b(mp_\w+)\s*\([^;{]*?\)[^;{()]*(?:\(\(.*?\)\)\s*)?([;{])',
                      re.M | re.S)


def functions(path):
    """(name, line, is_definition) of every function |path| declares or
    defines outside comments."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), f.read())
    for m in FUNCTION.finditer(text):
        yield (m.group(1), text.count("\n", 0, m.start(1)) + 1,
               m.group(2) == "{")


def sources(src):
    """(path, path relative to |src|) of every .c and .h under |src|."""
    for root, _dirs, files in os.walk(src):
        for name in sorted(files):
            if name.endswith((".c", ".h")):
                path = os.path.join(root, name)
                yield path, os.path.relpath(path, src)


def check_declarations(src):
    """A function a header declares is defined in that header's folder."""
    declared, defined = [], {}
    for path, rel in sources(src):
        folder = rel.split(os.sep)[0]
        for fn, line, is_def in functions(path):
            if is_def:
                defined.setdefault(fn, set()).add(folder)
            elif rel.endswith(".h"):
                declared.append((rel, line, fn, folder))
    problems = []
    for rel, line, fn, folder in sorted(declared):
        where = defined.get(fn, set())
        if where and folder not in where:
            problems.append(
                "src/%s:%d: declares %s, which src/%s/ defines; a header "
                "declares only what its own folder defines, so move the "
                "declaration to a header there"
                % (rel, line, fn, "/, src/".join(sorted(where))))
    return problems


def check_tree(src):
    problems = check_declarations(src)
    for path, rel in sources(src):
        parts = rel.split(os.sep)
        if len(parts) < 2:
            problems.append("src/%s:1: a source file directly under "
                            "src/; put it in a folder" % rel)
            continue
        folder = parts[0]
        if layer_of(folder) is None:
            problems.append("src/%s:1: folder '%s' is in no layer; add it "
                            "to LAYERS in %s" % (rel, folder, __file__))
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            for lineno, line in enumerate(f, 1):
                env = ENV_CALL.search(line)
                if env and folder not in ENV_READERS:
                    problems.append(
                        "src/%s:%d: %s(): only %s may touch the "
                        "environment; take the value as an option"
                        % (rel, lineno, env.group(1),
                           "/".join(sorted(ENV_READERS))))
                m = INCLUDE.match(line)
                if not m:
                    continue
                inc = m.group(1)
                target = inc.split("/")[0] if "/" in inc else folder
                target = GENERATED.get(target, target)
                why = check_include(folder, target, inc)
                if why:
                    problems.append('src/%s:%d: #include "%s": %s'
                                    % (rel, lineno, inc, why))
    return problems


def self_test():
    """A tree with one include and one declaration of each kind: the check
    must accept the good ones and name exactly the bad ones."""
    tree = {
        "engine/a.h": '#include "engine/b.h"\n#include "pulumi/x.pb-c.h"\n'
                      'int mp_a(void);\n',
        "engine/a.c": 'int mp_a(void) {\n  return 0;\n}\n',
        "engine/store.h": '/* int mp_store_close(void); */\n'
                          'int mp_store_open(const char *url,\n'
                          '                  int flags) __attribute__((nonnull));\n',
        "state/store.h": 'int mp_store_close(void);\n',
        "state/store.c": 'int mp_store_open(const char *url, int flags) {\n'
                         '  return 0;\n}\nint mp_store_close(void) { return 0; }\n',
        "engine/bad.c": '#include "engine/a.h"\n#include "monitor/m.h"\n',
        "monitor/m.c": '#include "engine/a.h"\n#include "stepgen/s.h"\n',
        "lang/l.c": '#include "monitor/api.h"\n#include "local.h"\n'
                     '#include "monitor/service.h"\n'
                     '#include "monitor/monitor.h"\n',
        "stepgen/s.c": '#include "lang/l.h"\n',
        "cli/c.c": '#include "deploy/d.h"\n#include "engine/a.h"\n',
        "state/s.c": '#include "deploy/d.h"\n',
        "weird/w.c": '#include "engine/a.h"\n',
        "deploy/env.c": '#include "engine/a.h"\nint p = atoi(getenv("X"));\n',
        "cli/env.c": 'const char *h = getenv("HOME");\n',
    }
    want = ["src/engine/bad.c:2", "src/monitor/m.c:2", "src/lang/l.c:4",
            "src/engine/store.h:2", "src/stepgen/s.c:1", "src/state/s.c:1",
            "src/weird/w.c:1", "src/deploy/env.c:2"]
    return tree_check.self_test(tree, check_tree, want, "lines")


def main(argv):
    return tree_check.main(
        argv, __doc__, check_tree, self_test,
        "%d line(s) break the layers",
        "every #include under %s keeps to the layers, and only %s touches "
        "the environment" % (argv[-1], "/".join(sorted(ENV_READERS))))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
