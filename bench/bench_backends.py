#!/usr/bin/env python3
"""SQLite against PostgreSQL as the state backend (issue 14).

    bench/bench_backends.py [BUILD]   (default: build)

Starts a private PostgreSQL server with durable settings (fsync and
synchronous commit on, as a real server runs; tests/pg/pgtest.py
--durable) and measures, on a SQLite file and on a database of that
server:
  * the store's per-step persistence cost (BUILD/bench/bench_store);
  * the wall time of `minipulumi up` creating a 1,000-resource stack (a
    Pulumi YAML program of `test` resources, a third of them referring to
    an earlier one) and of a second, no-op `up`, median of --runs runs.
Prints a table; on demand only, never part of the tests.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "pg"))
import pgtest  # noqa: E402
import benchlib  # noqa: E402


def program(n):
    out = ["name: bench", "runtime: yaml", "resources:"]
    for i in range(n):
        out += ["  r%d:" % i, "    type: test:Resource", "    properties:",
                "      v: %d" % i]
        if i % 3 == 2:
            out.append("      ref: ${r%d.v}" % (i - 2))
    return "\n".join(out) + "\n"


def one_run(binary, backend, n, work):
    st = benchlib.Stack(binary, work, program(n), backend)
    create = st.up()[0]
    noop = st.up()[0]
    shutil.rmtree(st.root, ignore_errors=True)
    return create, noop


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", nargs="?", default="build")
    ap.add_argument("--resources", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    binary = benchlib.binary_of(a.build)
    bench_store = os.path.abspath(os.path.join(a.build, "bench",
                                               "bench_store"))
    bindir = pgtest.find_bin()
    if bindir is None:
        raise SystemExit("no PostgreSQL server binaries; run scripts/setup.sh")
    work = tempfile.mkdtemp(prefix="mp-bench-")
    server = pgtest.Server(bindir, durable=True)
    try:
        server.start()
        print("== per-step persistence cost (bench_store)")
        subprocess.run([bench_store, work], check=True)
        subprocess.run([bench_store, pgtest.createdb(server.url(), "store")],
                       check=True)
        print("== minipulumi up of %d resources, median of %d runs" %
              (a.resources, a.runs))
        for name, make in (("SQLite", lambda i: None),
                           ("PostgreSQL", lambda i: pgtest.createdb(
                               server.url(), "up%d" % i))):
            runs = [one_run(binary, make(i), a.resources, work)
                    for i in range(a.runs)]
            print("  %-10s create %6.2f s   no-op %6.2f s" % (
                name, statistics.median(r[0] for r in runs),
                statistics.median(r[1] for r in runs)))
    finally:
        server.stop()
        shutil.rmtree(server.root, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
