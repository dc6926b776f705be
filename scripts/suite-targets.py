#!/usr/bin/env python3
"""Prints the ninja targets that the tests of one meson suite need, one a
line, relative to the build tree: `suite-targets.py BUILD_DIR SUITE`.
scripts/test.sh builds only these in a tree that runs one suite (TSan),
rather than every target of the project."""
import json
import os
import subprocess
import sys


def introspect(build, what):
    out = subprocess.check_output(["meson", "introspect", build, what])
    return json.loads(out)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: suite-targets.py BUILD_DIR SUITE")
    build, suite = sys.argv[1], sys.argv[2]
    files = {t["id"]: t["filename"] for t in introspect(build, "--targets")}
    needed = set()
    for test in introspect(build, "--tests"):
        # suites are "project:suite" for subprojects' tests, else "suite"
        if suite in (s.split(":")[-1] for s in test["suite"]):
            needed.update(test["depends"])
    if not needed:
        sys.exit("suite-targets.py: no test of %s is in suite %r" % (build, suite))
    root = os.path.abspath(build)
    for target in sorted(needed):
        for f in files[target]:
            print(os.path.relpath(f, root))


if __name__ == "__main__":
    main()
