#!/usr/bin/env python3
"""Whole-engine benchmark: programs of N `test` resources in a chosen
shape, each operation timed against its ideal bound (issue 13).

    bench/bench.py [--build DIR] [--shape S ...] [-n N ...] [--latency MS]
                   [--parallel P] [--runs R] [--ops OP,...] [--json FILE]
                   [--compare OTHER_BUILD] [--serial-stepgen]
                   [--world-dir DIR]
    bench/bench.py --diff OLD.json NEW.json

Shapes: independent; chains (chains of --chain-len resources, each
referring to the one before); tree (a wide tree: every resource's parent
is the one --fanout places above it); diamond (layers of --fanout
resources, each referring to two of the layer before). Every resource is
`test:Resource` with `__latencyMs` = --latency, so every provider call
sleeps that long.

Each repetition runs, on a fresh stack: create (`up`), a no-op `up`, a
no-op `preview`, an `up` updating 10 % of the resources, `refresh` and
`destroy`. Per shape, N and operation it prints the median wall time,
user+sys CPU, peak RSS, the store's size after it, the ideal bound and
wall ÷ bound. The bound is the larger of total provider time ÷ parallelism
and the provider time along the longest dependency chain (the engine's own
work counts as zero). With --compare, the same cases run on a second
build, the repetitions alternating between the two (this one first), and
the table gains the other's wall time and the new/old ratios of wall
time, CPU and peak RSS. Run on demand, never as a test.
"""
import argparse
import json
import os
import random
import shutil
import statistics
import sys
import tempfile

import benchlib

OPS = ("create", "noop", "preview", "update", "refresh", "destroy")

# Provider calls per resource for each operation (test provider: Check and
# Diff before a decision; Create, Update, Read, Delete as steps).
CALLS = {"create": 2, "noop": 2, "preview": 2, "refresh": 1, "destroy": 1}


def graph(shape, n, chain_len, fanout):
    """For resource i: the indexes it refers to, and its parent (or None)."""
    deps, parents = [[] for _ in range(n)], [None] * n
    rng = random.Random(13)
    for i in range(n):
        if shape == "chains" and i % chain_len:
            deps[i] = [i - 1]
        elif shape == "tree" and i:
            parents[i] = (i - 1) // fanout
        elif shape == "diamond" and i >= fanout:
            layer = i // fanout
            lo = (layer - 1) * fanout
            deps[i] = sorted(set(rng.sample(range(lo, lo + fanout),
                                            min(2, fanout))))
    return deps, parents


def program(shape, n, latency, chain_len, fanout, changed=()):
    deps, parents = graph(shape, n, chain_len, fanout)
    out = ["name: bench", "runtime: yaml", "resources:"]
    for i in range(n):
        out += ["  r%d:" % i, "    type: test:Resource", "    properties:",
                "      v: %d" % (i + 1000000 if i in changed else i)]
        if latency:
            out.append("      __latencyMs: %d" % latency)
        for k, d in enumerate(deps[i]):
            out.append("      ref%d: ${r%d.v}" % (k, d))
        if parents[i] is not None:
            out += ["    options:", "      parent: ${r%d}" % parents[i]]
    return "\n".join(out) + "\n"


def depth(shape, n, chain_len, fanout):
    """Resources along the longest dependency chain (deletes and reads of
    a tree or chain follow it too)."""
    deps, parents = graph(shape, n, chain_len, fanout)
    d = [1] * n
    for i in range(n):
        for j in deps[i] + ([parents[i]] if parents[i] is not None else []):
            d[i] = max(d[i], d[j] + 1)
    return max(d) if n else 0


def bound(op, shape, n, latency, parallel, chain_len, fanout):
    """The ideal wall time in seconds, or None with no latency."""
    if not latency or not parallel:
        return None
    per = CALLS.get(op, 2)
    total = n * per
    along = per
    if op == "update":
        # Check and Diff everywhere, an Update for one resource in ten.
        total = n * 2 + n // 10
        along = 2.1
    # A dependent is registered once what it refers to is answered, so
    # every operation but refresh (one batch of Reads) follows the chain.
    chain = depth(shape, n, chain_len, fanout) if op != "refresh" else 1
    return max(total * latency / 1000.0 / parallel,
               chain * along * latency / 1000.0)


def one_rep(binary, work, a, shape, n, extra):
    def prog(changed=()):
        return program(shape, n, a.latency, a.chain_len, a.fanout, changed)

    st = benchlib.Stack(binary, work, prog(), world_dir=a.world_dir)
    par = (["--parallel", str(a.parallel)] if a.parallel else []) + extra
    res = {}
    try:
        for op in a.ops:
            if op == "create":
                r = st.run(["up", "--yes", "--skip-preview"] + par)
            elif op == "noop":
                r = st.run(["up", "--yes", "--skip-preview"] + par)
            elif op == "preview":
                r = st.run(["preview"] + par)
            elif op == "update":
                st.write_program(prog(set(range(0, n, 10))))
                r = st.run(["up", "--yes", "--skip-preview"] + par)
            elif op == "refresh":
                r = st.run(["refresh", "--yes", "--skip-preview"] + par)
            elif op == "destroy":
                r = st.run(["destroy", "--yes", "--skip-preview"] + par)
            res[op] = r + (st.store_bytes(),)
    finally:
        shutil.rmtree(st.root, ignore_errors=True)
        shutil.rmtree(st.world, ignore_errors=True)
    return res


def measure(binaries, a, work, extra):
    """One list of rows per binary. With several binaries the repetitions
    alternate (A B A B ...), so a change in the machine's load falls on
    both builds alike."""
    out = [[] for _ in binaries]
    for shape in a.shape:
        for n in a.n:
            reps = [[] for _ in binaries]
            for _ in range(a.runs):
                for i, binary in enumerate(binaries):
                    reps[i].append(one_rep(binary, work, a, shape, n, extra))
            for i in range(len(binaries)):
                out[i] += rows_of(reps[i], a, shape, n)
    return out


def rows_of(reps, a, shape, n):
    rows = []
    for op in a.ops:
        vals = [r[op] for r in reps]
        med = lambda k: statistics.median(v[k] for v in vals)
        b = bound(op, shape, n, a.latency, a.parallel, a.chain_len,
                  a.fanout)
        rows.append({"shape": shape, "n": n, "op": op,
                     "latency_ms": a.latency,
                     "parallel": a.parallel, "runs": a.runs,
                     "wall_s": med(0), "cpu_s": med(1),
                     "rss_mb": med(2), "store_bytes": med(3),
                     "walls": [v[0] for v in vals],
                     "bound_s": b,
                     "ratio": med(0) / b if b else None})
    return rows


def key(r):
    return (r["shape"], r["n"], r["op"])


def print_table(rows, other=None, out=sys.stdout):
    other = {key(r): r for r in (other or [])}
    head = "%-11s %7s %-8s %8s %8s %8s %9s %8s %7s" % (
        "shape", "N", "op", "wall s", "cpu s", "rss MB", "store KB",
        "bound s", "ratio")
    if other:
        head += " %9s %7s %7s %7s" % ("other s", "new/old", "cpu n/o",
                                      "rss n/o")
    print(head, file=out)
    for r in rows:
        line = "%-11s %7d %-8s %8.3f %8.3f %8.1f %9.0f %8s %7s" % (
            r["shape"], r["n"], r["op"], r["wall_s"], r["cpu_s"],
            r["rss_mb"], r["store_bytes"] / 1024.0,
            "%.3f" % r["bound_s"] if r["bound_s"] else "-",
            "%.2f" % r["ratio"] if r["ratio"] else "-")
        o = other.get(key(r))
        if o:
            line += " %9.3f %7.2f %7.2f %7.2f" % (
                o["wall_s"], r["wall_s"] / o["wall_s"],
                r["cpu_s"] / o["cpu_s"] if o["cpu_s"] else 0,
                r["rss_mb"] / o["rss_mb"] if o["rss_mb"] else 0)
        print(line, file=out)


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n", 1)[1])
    ap.add_argument("--build", default="build-rel")
    ap.add_argument("--shape", action="append",
                    choices=("independent", "chains", "tree", "diamond"))
    ap.add_argument("-n", type=int, action="append")
    ap.add_argument("--latency", type=int, default=0, help="ms per call")
    ap.add_argument("--parallel", type=int, default=32,
                    help="0: the CLI's default")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--ops", default=",".join(OPS))
    ap.add_argument("--chain-len", type=int, default=100)
    ap.add_argument("--fanout", type=int, default=10)
    ap.add_argument("--json", help="write the rows here")
    ap.add_argument("--table", help="write the table here")
    ap.add_argument("--compare", metavar="OTHER_BUILD",
                    help="run the same cases on this build too")
    ap.add_argument("--serial-stepgen", action="store_true")
    ap.add_argument("--world-dir", metavar="DIR",
                    help="the test provider's world files go under DIR "
                         "(e.g. /dev/shm) while the store stays in the "
                         "temporary folder: on a disk file system, "
                         "creating and deleting its one file per resource "
                         "costs the kernel more per file as N grows")
    ap.add_argument("--diff", nargs=2, metavar=("OLD", "NEW"),
                    help="compare two JSON files written by --json")
    a = ap.parse_args()
    if a.diff:
        with open(a.diff[0]) as f:
            old = json.load(f)
        with open(a.diff[1]) as f:
            new = json.load(f)
        print_table(new, old)
        return 0
    a.shape = a.shape or ["independent"]
    a.n = a.n or [1000]
    a.ops = [o for o in a.ops.split(",") if o]
    for o in a.ops:
        if o not in OPS:
            raise SystemExit("unknown operation %r (one of %s)" %
                             (o, ", ".join(OPS)))
    extra = ["--serial-stepgen"] if a.serial_stepgen else []
    work = tempfile.mkdtemp(prefix="mp-bench-")
    try:
        builds = [a.build] + ([a.compare] if a.compare else [])
        got = measure([benchlib.binary_of(b) for b in builds], a, work,
                      extra)
        rows, other = got[0], (got[1] if a.compare else None)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print_table(rows, other)
    if a.table:
        with open(a.table, "w") as f:
            print_table(rows, other, f)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
