#!/usr/bin/env python3
"""The layers of src/, written once, and the check that holds the code to
them.

Every `#include "..."` under src/ is read. A folder may include its own
headers and those of any folder in a LOWER layer; an include that points
up a layer, or sideways to a folder of the same layer, fails the check
(unless SIDEWAYS names that edge with its reason), and so does a folder
that no layer names. Each failure is printed as `file:line: ...`.

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
import tempfile

# The allowed order, lowest first.
LAYERS = [
    ["engine"],
    ["providers", "state", "rpc"],
    ["monitor", "stepgen", "stepexec", "lang", "plugin"],
    ["deploy"],
    ["cli"],
]

# Edges between folders of one layer that are allowed, with the reason.
SIDEWAYS = {
    ("lang", "monitor"): "the monitor owns its API header (monitor/api.h), "
                         "which the language host includes",
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


def check_include(folder, target):
    """Returns None when |folder| may include |target|'s folder, else why
    not."""
    if target == folder:
        return None
    mine, theirs = layer_of(folder), layer_of(target)
    if theirs is None:
        return "includes from folder '%s', which no layer names" % target
    if theirs < mine:
        return None
    if theirs == mine and (folder, target) in SIDEWAYS:
        return None
    if theirs == mine:
        return ("'%s' includes '%s' of the same layer; allowed sideways "
                "edges are listed in SIDEWAYS" % (folder, target))
    return ("'%s' (layer %d) includes '%s' (layer %d): an include may only "
            "point down" % (folder, mine, target, theirs))


def check_tree(src):
    problems = []
    for root, _dirs, files in os.walk(src):
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, src)
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
                    why = check_include(folder, target)
                    if why:
                        problems.append('src/%s:%d: #include "%s": %s'
                                        % (rel, lineno, inc, why))
    return problems


def self_test():
    """A tree with one include of each kind: the check must accept the
    good ones and name exactly the bad ones."""
    tree = {
        "engine/a.h": '#include "engine/b.h"\n#include "pulumi/x.pb-c.h"\n',
        "engine/bad.c": '#include "engine/a.h"\n#include "monitor/m.h"\n',
        "monitor/m.c": '#include "engine/a.h"\n#include "stepgen/s.h"\n',
        "lang/l.c": '#include "monitor/api.h"\n#include "local.h"\n',
        "stepgen/s.c": '#include "lang/l.h"\n',
        "cli/c.c": '#include "deploy/d.h"\n#include "engine/a.h"\n',
        "state/s.c": '#include "deploy/d.h"\n',
        "weird/w.c": '#include "engine/a.h"\n',
        "deploy/env.c": '#include "engine/a.h"\nint p = atoi(getenv("X"));\n',
        "cli/env.c": 'const char *h = getenv("HOME");\n',
    }
    with tempfile.TemporaryDirectory() as d:
        for rel, text in tree.items():
            os.makedirs(os.path.join(d, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(d, rel), "w") as f:
                f.write(text)
        got = sorted(p.split(": ")[0] for p in check_tree(d))
    want = sorted(["src/engine/bad.c:2", "src/monitor/m.c:2",
                   "src/stepgen/s.c:1", "src/state/s.c:1", "src/weird/w.c:1",
                   "src/deploy/env.c:2"])
    if got != want:
        print("self-test failed: flagged %s, expected %s" % (got, want))
        return 1
    print("self-test: the check flags exactly the %d bad lines" % len(want))
    return 0


def main(argv):
    if len(argv) == 2 and argv[1] == "--self-test":
        return self_test()
    if len(argv) != 2:
        print(__doc__)
        return 2
    problems = check_tree(argv[1])
    for p in problems:
        print(p)
    if problems:
        print("%d line(s) break the layers" % len(problems))
        return 1
    print("every #include under %s keeps to the layers, and only %s "
          "touches the environment" % (argv[1], "/".join(sorted(ENV_READERS))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
