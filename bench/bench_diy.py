#!/usr/bin/env python3
"""A file:// folder (Pulumi's DIY layout) against SQLite as the state
backend (issue 39).

    bench/bench_diy.py [BUILD] [--sizes 1000,10000] [--create-max 10000]

For each size, in one run: the wall time of `minipulumi up` creating a
stack of that many `test` resources (bench_backends.py's program: a third
of them refer to an earlier one) and of a second, no-op `up`, on a SQLite
file and on a file:// folder. The folder rewrites its whole checkpoint (temporary
file, fsync, rename) for each batch of steps' writes (its writer thread
takes every change made while it wrote the previous version), so a create
costs O(n) per batch there; above --create-max resources the folder's
stack is not created by `up` but imported from the SQLite one (`stack
export` / `stack import`), and only its no-op `up` is timed. Prints a table; on demand only.
"""
import argparse
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import benchlib  # noqa: E402
from bench_backends import program  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", nargs="?", default="build")
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--create-max", type=int, default=10000)
    a = ap.parse_args()
    binary = benchlib.binary_of(a.build)
    work = tempfile.mkdtemp(prefix="mp-bench-diy-")
    rows = []
    try:
        for n in (int(x) for x in a.sizes.split(",")):
            lite = benchlib.Stack(binary, work, program(n))
            create, noop = lite.up()[0], lite.up()[0]
            rows.append((n, "SQLite", "%.2f s" % create, noop))
            print(rows[-1], flush=True)
            folder = "file://" + tempfile.mkdtemp(dir=work)
            diy = benchlib.Stack(binary, work, program(n), folder)
            if n <= a.create_max:
                create = "%.2f s" % diy.up()[0]
            else:
                export = os.path.join(work, "export.json")
                lite.run(["stack", "export", "--file", export])
                diy.run(["stack", "import", "--file", export])
                create = "not run (imported)"
            rows.append((n, "file://", create, diy.up()[0]))
            print(rows[-1], flush=True)
            for st in (lite, diy):
                shutil.rmtree(st.root, ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("\n| resources | backend | up (create) | no-op up |")
    print("| --- | --- | --- | --- |")
    for n, b, c, o in rows:
        print("| %d | %s | %s | %.2f s |" % (n, b, c, o))


if __name__ == "__main__":
    sys.exit(main())
