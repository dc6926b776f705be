#!/usr/bin/env python3
"""A file:// folder (Pulumi's DIY layout) against SQLite as the state
backend (issue 39).

    bench/bench_diy.py [BUILD] [--sizes 1000,10000]   (default: build)

For each size, in one run: the wall time of `minipulumi up` creating a
stack of that many `test` resources (a Pulumi YAML program, a third of
them referring to an earlier one; bench_backends.py's program) and of a
second, no-op `up`, on a SQLite file and on a file:// folder. The folder
rewrites its whole checkpoint atomically (temporary file, fsync, rename)
for each of a step's writes, as Pulumi's DIY backend does, so a create
costs O(n) per step there. Prints a table; on demand only.
"""
import argparse
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import benchlib  # noqa: E402
from bench_backends import one_run  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", nargs="?", default="build")
    ap.add_argument("--sizes", default="1000,10000")
    a = ap.parse_args()
    binary = benchlib.binary_of(a.build)
    work = tempfile.mkdtemp(prefix="mp-bench-diy-")
    rows = []
    try:
        for n in (int(x) for x in a.sizes.split(",")):
            for diy in (False, True):
                backend = ("file://" + tempfile.mkdtemp(dir=work)) if diy \
                    else None
                create, noop = one_run(binary, backend, n, work)
                rows.append((n, "file://" if diy else "SQLite", create, noop))
                print("%6d %-8s create %.2f s, no-op up %.2f s" % rows[-1],
                      flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("\n| resources | backend | up (create) | no-op up |")
    print("| --- | --- | --- | --- |")
    for n, b, c, o in rows:
        print("| %d | %s | %.2f s | %.2f s |" % (n, b, c, o))


if __name__ == "__main__":
    sys.exit(main())
