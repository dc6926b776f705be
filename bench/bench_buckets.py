#!/usr/bin/env python3
"""The state backends side by side: SQLite, a file:// folder and an
s3:// bucket on a local S3 server (issue 47's goals).

    bench/bench_buckets.py [BUILD] [--sizes 1000,10000]
        (s3:// needs ./scripts/npm-deps.sh tests/s3)

For each size, in one run: the wall time of `minipulumi up` creating a
stack of that many `test` resources (bench_backends.py's program) and of
a second, no-op `up`, on each backend; for s3:// also the requests the
server answered during each, per step. The server (tests/s3's s3rver) is
reached directly, not through the signature-checking proxy of the tests,
so that the figures are the backend's own; its log has a line per request.
Prints a table with the ratios to SQLite; on demand only, never in CI.
"""
import argparse
import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "tests", "s3"))
import benchlib  # noqa: E402
from bench_backends import program  # noqa: E402
import s3test  # noqa: E402


class S3:
    """A private s3rver with a bucket `state`; counts the requests it logs."""

    def __init__(self, work):
        if not os.path.exists(s3test.S3RVER):
            raise SystemExit("bench_buckets: s3rver is not installed; run "
                             "./scripts/npm-deps.sh tests/s3")
        self.data = tempfile.mkdtemp(dir=work)
        self.logpath = os.path.join(work, "s3rver.log")
        self.log = open(self.logpath, "w")
        self.proc, port = s3test.start(self.data, self.log)
        self.url = ("s3://state/%%s?endpoint=http://127.0.0.1:%d&"
                    "s3ForcePathStyle=true&region=us-east-1" % port)
        self.env = {"AWS_ACCESS_KEY_ID": "S3RVER",
                    "AWS_SECRET_ACCESS_KEY": "S3RVER"}

    def requests(self):
        self.log.flush()
        with open(self.logpath, errors="replace") as f:
            return sum(1 for line in f if "info" in line and "ms" in line)

    def stop(self):
        s3test.stop(self.proc)
        self.log.close()


def timed(stack, env=None, counter=None):
    before = counter.requests() if counter else 0
    wall = stack.run(["up", "--yes", "--skip-preview"], env=env)[0]
    return wall, (counter.requests() - before) if counter else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", nargs="?", default="build")
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--backends", default="SQLite,file://,s3://",
                    help="which of SQLite,file://,s3:// (SQLite first)")
    a = ap.parse_args()
    names = [b for b in ("SQLite", "file://", "s3://")
             if b in a.backends.split(",")]
    binary = benchlib.binary_of(a.build)
    work = tempfile.mkdtemp(prefix="mp-bench-buckets-")
    s3 = S3(work) if "s3://" in names else None
    rows = []
    try:
        for n in (int(x) for x in a.sizes.split(",")):
            text = program(n)
            base = None
            for name in names:
                backend = env = None
                if name == "file://":
                    backend = "file://" + tempfile.mkdtemp(dir=work)
                elif name == "s3://":
                    backend = s3.url % ("n%d" % n)
                    env = s3.env
                st = benchlib.Stack(binary, work, text, backend,
                                    extra_env=env)
                counter = s3 if name == "s3://" else None
                create, creq = timed(st, env, counter)
                noop, nreq = timed(st, env, counter)
                if base is None:
                    base = (create, noop)
                rows.append((n, name, create, noop, base, creq, nreq))
                print("%d %s: create %.2f s, no-op %.2f s" % (
                    n, name, create, noop), flush=True)
                shutil.rmtree(st.root, ignore_errors=True)
    finally:
        if s3:
            s3.stop()
        shutil.rmtree(work, ignore_errors=True)
    print("\n| resources | backend | up (create) | ÷ SQLite | no-op up | "
          "÷ SQLite | requests per step (create, no-op) |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for n, name, c, o, base, creq, nreq in rows:
        reqs = ("%.2f, %d in all" % (creq / float(n), nreq)
                if creq is not None else "")
        print("| %d | %s | %.2f s | %.2f | %.2f s | %.2f | %s |" % (
            n, name, c, c / base[0], o, o / base[1], reqs))


if __name__ == "__main__":
    sys.exit(main())
