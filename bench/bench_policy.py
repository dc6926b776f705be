#!/usr/bin/env python3
"""The added cost of a policy pack (issue 27): a preview of a YAML
program of N `test:Resource`s, with the no-op pack of
tests/policy/packs/noop (one policy whose check does nothing) and
without it, R runs each, alternating. Prints the median wall time of
each and the difference per resource in µs (the pack's start, about a
node start, is in it once; the second figure takes it out by timing a
preview of one resource with the pack).

    bench/bench_policy.py [--build DIR] [-n N] [--runs R]

Needs tests/policy/node_modules (scripts/npm-deps.sh tests/policy). Run
on demand, never as a test.
"""
import argparse
import os
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


def timed(mp, folder, env, extra):
    t = time.monotonic()
    subprocess.run([mp, "preview"] + extra, cwd=folder, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    return time.monotonic() - t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("-n", type=int, default=1000)
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    mp = os.path.join(a.build, "src", "cli", "minipulumi")
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, HOME=tmp, PULUMI_CONFIG_PASSPHRASE="bench",
                   MINIPULUMI_BACKEND_URL=os.path.join(tmp, "state.db"),
                   MINIPULUMI_TEST_WORLD=os.path.join(tmp, "world"))
        os.makedirs(env["MINIPULUMI_TEST_WORLD"])
        small, big = os.path.join(tmp, "one"), os.path.join(tmp, "many")
        for folder, n in ((small, 1), (big, a.n)):
            os.makedirs(folder)
            program(folder, n)
            subprocess.run([mp, "stack", "init", "dev"], cwd=folder, env=env,
                           check=True, stdout=subprocess.DEVNULL)
        pack = ["--policy-pack", PACK]
        without, with_pack, start = [], [], []
        for _ in range(a.runs):
            without.append(timed(mp, big, env, []))
            with_pack.append(timed(mp, big, env, pack))
            start.append(timed(mp, small, env, pack) - timed(mp, small, env, []))
    m0, m1, ms = (statistics.median(x) for x in (without, with_pack, start))
    print(f"preview of {a.n} resources, median of {a.runs} runs:")
    print(f"  without a pack: {m0 * 1e3:.0f} ms")
    print(f"  with the no-op pack: {m1 * 1e3:.0f} ms")
    print(f"  the pack's start (preview of 1 resource, with - without): "
          f"{ms * 1e3:.0f} ms")
    print(f"  added per resource: {(m1 - m0) / a.n * 1e6:.0f} µs "
          f"(start included), {(m1 - m0 - ms) / a.n * 1e6:.0f} µs "
          f"(start taken out)")


if __name__ == "__main__":
    main()
