#!/usr/bin/env python3
"""The added cost of a policy pack (issue 27): a preview of a YAML
program of N `test:Resource`s, with the no-op pack of
tests/policy/packs/noop (one policy whose check does nothing) and
without it, R runs each, alternating. Prints the median wall time of
each and the difference per resource in µs (the pack's start, about a
node start, is in it once; the second figure takes it out by timing a
preview of one resource with the pack).

    bench/bench_policy.py [--build DIR] [-n N] [--runs R] [--op up]

With `--op up` the stacks are created first and the timed runs are no-op
`up`s (P9 of issue 46). Each run's CPU time is split between the engine
and the pack's node process: the total is the run's children's rusage
(the engine and, reaped by it, the pack), the pack's own comes from a
`node` shim first on PATH that runs the real node under /usr/bin/time
(which outlives the pack's SIGINT at the end). CPU time, unlike wall
time, means something on a loaded machine.

Needs tests/policy/node_modules (scripts/npm-deps.sh tests/policy). Run
on demand, never as a test.
"""
import argparse
import os
import resource
import shutil
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACK = os.path.join(ROOT, "tests", "policy", "packs", "noop")


def program(folder, n):
    lines = [f"name: bench{n}", "runtime: yaml", "resources:"]
    for i in range(n):
        lines += [f"  r{i}:", "    type: test:Resource",
                  "    properties:", f"      content: c{i}"]
    with open(os.path.join(folder, "Pulumi.yaml"), "w") as f:
        f.write("\n".join(lines) + "\n")


OP = ["preview"]


def node_shim(folder, log):
    """A folder holding a `node` that appends its CPU (user sys) to |log|."""
    real = shutil.which("node")
    os.makedirs(folder)
    shim = os.path.join(folder, "node")
    with open(shim, "w") as f:
        f.write(f"#!/bin/sh\nexec /usr/bin/time -a -o {log} -f '%U %S' "
                f"{real} \"$@\"\n")
    os.chmod(shim, 0o755)


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def node_cpu(log):
    """The CPU of the node processes logged since the last call."""
    if not os.path.exists(log):
        return 0.0
    with open(log) as f:
        # "user sys", after a "Command terminated by signal 2" line when
        # the engine stopped the pack with SIGINT
        rows = [l.split() for l in f if l[:1].isdigit()]
    os.unlink(log)
    return sum(float(u) + float(s) for u, s in rows)


CPU = {}


def timed(mp, folder, env, extra, key=None):
    c = children_cpu()
    t = time.monotonic()
    subprocess.run([mp] + OP + extra, cwd=folder, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    wall = time.monotonic() - t
    total = children_cpu() - c
    pack = node_cpu(env["NODE_CPU_LOG"])
    if key:
        CPU.setdefault(key, []).append((total - pack, pack))
    return wall


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("-n", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--op", choices=("preview", "up"), default="preview")
    a = ap.parse_args()
    if a.op == "up":
        OP[:] = ["up", "--yes", "--skip-preview"]
    mp = os.path.join(a.build, "src", "cli", "minipulumi")
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, HOME=tmp, PULUMI_CONFIG_PASSPHRASE="bench",
                   MINIPULUMI_BACKEND_URL=os.path.join(tmp, "state.db"),
                   MINIPULUMI_TEST_WORLD=os.path.join(tmp, "world"),
                   NODE_CPU_LOG=os.path.join(tmp, "node-cpu.txt"))
        node_shim(os.path.join(tmp, "bin"), env["NODE_CPU_LOG"])
        env["PATH"] = os.path.join(tmp, "bin") + ":" + env["PATH"]
        os.makedirs(env["MINIPULUMI_TEST_WORLD"])
        small, big = os.path.join(tmp, "one"), os.path.join(tmp, "many")
        for folder, n in ((small, 1), (big, a.n)):
            os.makedirs(folder)
            program(folder, n)
            subprocess.run([mp, "stack", "init", "dev"], cwd=folder, env=env,
                           check=True, stdout=subprocess.DEVNULL)
            if a.op == "up":  # create, so that the timed ups are no-ops
                timed(mp, folder, env, [])
        pack = ["--policy-pack", PACK]
        without, with_pack, start = [], [], []
        for _ in range(a.runs):
            without.append(timed(mp, big, env, [], "big"))
            with_pack.append(timed(mp, big, env, pack, "big+pack"))
            start.append(timed(mp, small, env, pack, "one+pack") -
                         timed(mp, small, env, [], "one"))
    m0, m1, ms = (statistics.median(x) for x in (without, with_pack, start))
    print(f"{a.op} of {a.n} resources, median of {a.runs} runs:")
    print(f"  without a pack: {m0 * 1e3:.0f} ms")
    print(f"  with the no-op pack: {m1 * 1e3:.0f} ms")
    print(f"  the pack's start (preview of 1 resource, with - without): "
          f"{ms * 1e3:.0f} ms")
    print(f"  added per resource: {(m1 - m0) / a.n * 1e6:.0f} µs "
          f"(start included), {(m1 - m0 - ms) / a.n * 1e6:.0f} µs "
          f"(start taken out)")
    med = {k: (statistics.median(e for e, _ in v),
               statistics.median(p for _, p in v)) for k, v in CPU.items()}
    for k in ("big", "big+pack", "one", "one+pack"):
        print(f"  CPU {k}: engine {med[k][0] * 1e3:.0f} ms, "
              f"pack's node {med[k][1] * 1e3:.0f} ms")
    eng = ((med["big+pack"][0] - med["big"][0]) -
           (med["one+pack"][0] - med["one"][0])) / (a.n - 1)
    node = (med["big+pack"][1] - med["one+pack"][1]) / (a.n - 1)
    print(f"  CPU added per resource, start taken out: engine "
          f"{eng * 1e6:.0f} µs, pack's node {node * 1e6:.0f} µs")


if __name__ == "__main__":
    main()
