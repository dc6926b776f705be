#!/usr/bin/env python3
"""Contention on one stack in the PostgreSQL backend (issue 14).

    contention.py --minipulumi BIN --verify mp_verify_state [--rounds 20]
                  [--workers 8]      (needs MP_TEST_PG_URL: tests/pg/pgtest.py)

Every round, --workers processes run `minipulumi up` on the same stack at
once, each from its own copy of the project whose program writes its own
(round, worker) into a `test` resource; a further process updates another
stack of the same database meanwhile. Checks, every round:
  * exactly one worker wins (exit 0); every other fails while the winner
    still runs (at once, not after it) with the exit status and message
    SQLite gives for a locked stack (measured first, on SQLite), naming the
    winner's process;
  * the update of the other stack succeeds (stacks lock separately);
  * no write is lost: the stack's state holds the winner's (round, worker),
    passes the integrity check and is unlocked;
  * the history has exactly one entry per winning update, in order, each
    succeeded, with the winner's message.
Prints `N passed, N failed` (one per round, plus the reference).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pgtest  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from timeouts import timeout_multiplier  # noqa: E402  (tests/timeouts.py)

PROJECT = "race"
STACK = "dev"
LATENCY_MS = 400  # the winner holds the lock at least this long


def program(rnd, worker, gate=None):
    """|gate|: the update waits for that file (the test provider's
    __waitFile), so the winner holds the lock until every loser has tried:
    a fixed latency alone lets a worker that starts late on a loaded machine
    take the lock after the winner released it."""
    wait = "      __waitFile: %s\n" % json.dumps(gate) if gate else ""
    return ("name: %s\nruntime: yaml\nresources:\n  r:\n    type: test:Resource\n"
            "    properties:\n      round: %d\n      worker: %d\n"
            "      __latencyMs: %d\n%s" % (PROJECT, rnd, worker, LATENCY_MS,
                                          wait))


class Lab:
    def __init__(self, args, root, backend):
        self.args, self.root, self.backend = args, root, backend
        self.env = dict(os.environ)
        self.env.update({"PULUMI_CONFIG_PASSPHRASE": "race", "HOME": root})
        self.env.pop("MINIPULUMI_BACKEND_URL", None)
        os.makedirs(root, exist_ok=True)

    def proj(self, name):
        return os.path.join(self.root, name)

    def argv(self, proj, stack, *cmd):
        return [self.args.minipulumi, "--backend", self.backend,
                "--non-interactive", "--color", "never", "-C", proj,
                "-s", stack] + list(cmd)

    def run(self, proj, stack, *cmd):
        p = subprocess.run(self.argv(proj, stack, *cmd), env=self.env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=120 * timeout_multiplier())
        if p.returncode != 0:
            raise Failure("`minipulumi %s` exited %d: %s" % (
                " ".join(cmd), p.returncode, p.stderr.decode()[-800:]))
        return p.stdout.decode()

    def setup(self, workers):
        """One project per worker (same project and stack, same secrets
        salt) plus one for the other stack."""
        base = self.proj("w0")
        os.makedirs(base)
        with open(os.path.join(base, "Pulumi.yaml"), "w") as f:
            f.write(program(0, 0))
        self.run(base, STACK, "stack", "init", STACK)
        self.run(base, "other", "stack", "init", "other")
        for w in range(1, workers):
            shutil.copytree(base, self.proj("w%d" % w))
        shutil.copytree(base, self.proj("other"))

    def start(self, proj, stack, message):
        env = dict(self.env)
        # each stack's resources live in a world of their own
        env["MINIPULUMI_TEST_WORLD"] = os.path.join(self.root, "world-" +
                                                    stack)
        os.makedirs(env["MINIPULUMI_TEST_WORLD"], exist_ok=True)
        return subprocess.Popen(
            self.argv(proj, stack, "up", "--yes", "--skip-preview", "-m",
                      message), env=env, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE)


class Failure(Exception):
    pass


def race(lab, rnd, workers):
    """Starts every worker (and the other stack's update) at once; returns
    [(worker, pid, status, stderr, finished_before_winner)], other's
    status."""
    gate = os.path.join(lab.root, "gate-%d" % rnd)
    for w in range(workers):
        with open(os.path.join(lab.proj("w%d" % w), "Pulumi.yaml"), "w") as f:
            f.write(program(rnd, w, gate))
    with open(os.path.join(lab.proj("other"), "Pulumi.yaml"), "w") as f:
        f.write(program(rnd, 99))
    procs = [lab.start(lab.proj("w%d" % w), STACK, "round %d worker %d" %
                       (rnd, w)) for w in range(workers)]
    other = lab.start(lab.proj("other"), "other", "other round %d" % rnd)
    order = []  # workers in the order they ended
    deadline = time.monotonic() + 120
    while len(order) < workers and time.monotonic() < deadline:
        for w, p in enumerate(procs):
            if w not in order and p.poll() is not None:
                order.append(w)
        # every loser has ended (or the wait is long past): let the winner
        # finish; two winners would both wait here until the deadline
        if not os.path.exists(gate) and (
                len(order) >= workers - 1 or
                time.monotonic() > deadline - 60):
            open(gate, "w").close()
        time.sleep(0.005)
    out = []
    for w, p in enumerate(procs):
        _, err = p.communicate(timeout=60 * timeout_multiplier())
        out.append((w, p.pid, p.returncode, err.decode(errors="replace"),
                    order.index(w) if w in order else None))
    _, oerr = other.communicate(timeout=60 * timeout_multiplier())
    return out, (other.returncode, oerr.decode(errors="replace"))


def reference(args, work):
    """The exit status and message of a locked stack on SQLite."""
    lab = Lab(args, os.path.join(work, "sqlite"), os.path.join(
        work, "sqlite", "state.db"))
    lab.setup(2)
    results, _ = race(lab, 1, 2)
    losers = [r for r in results if r[2] != 0]
    winners = [r for r in results if r[2] == 0]
    if len(winners) != 1 or len(losers) != 1:
        raise Failure("SQLite reference race: statuses %s" %
                      [r[2] for r in results])
    return losers[0][2], shape(losers[0][3], winners[0][1])


def shape(err, winner_pid):
    """The lock message with the variable parts (pid, host, time) replaced;
    None if it does not name |winner_pid|."""
    m = re.search(r"error: the stack is currently locked by 1 lock\(s\): "
                  r"'race/dev' is locked by process (\d+) "
                  r"on (\S+) since (\S+) \(operation update\); if that "
                  r"process is gone, run `minipulumi cancel` to break the "
                  r"lock", err)
    if not m or int(m.group(1)) != winner_pid:
        return None
    return err.replace(m.group(1), "<pid>").replace(m.group(2), "<host>") \
              .replace(m.group(3), "<time>")


def check_round(args, lab, rnd, results, other, ref, history):
    msgs = []
    winners = [r for r in results if r[2] == 0]
    if len(winners) != 1:
        # later rounds compare the history from here on
        history.extend("round %d worker %d" % (rnd, r[0]) for r in winners)
        return ["%d winners: statuses %s" % (len(winners),
                                               [r[2] for r in results])]
    w, wpid, _, _, wend = winners[0]
    for lw, lpid, st, err, end in results:
        if lw == w:
            continue
        if st != ref[0]:
            msgs.append("worker %d exited %d, SQLite's locked stack exits %d"
                        % (lw, st, ref[0]))
        if shape(err, wpid) != ref[1]:
            msgs.append("worker %d: not the SQLite lock message naming the "
                        "winner %d: %s" % (lw, wpid, err.strip()[-400:]))
        if end is None or end > wend:
            msgs.append("worker %d ended after the winner: it waited" % lw)
    if other[0] != 0:
        msgs.append("the other stack's update failed: %s" % other[1][-400:])
    export = os.path.join(lab.root, "export.json")
    p = subprocess.run([args.verify, lab.backend, PROJECT, STACK,
                        "--check-unlocked", "--quiet", "--export", export],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        return msgs + ["state check: %s" % p.stdout.decode()[-400:]]
    with open(export) as f:
        dep = json.load(f)["deployment"]
    rs = [r for r in dep.get("resources", []) if r["type"] ==
          "test:index:Resource"]
    got = rs[0]["inputs"] if len(rs) == 1 else None
    if not got or got.get("round") != rnd or got.get("worker") != w:
        msgs.append("lost write: state holds %s, the winner wrote round %d "
                    "worker %d" % (got, rnd, w))
    history.append("round %d worker %d" % (rnd, w))
    h = json.loads(lab.run(lab.proj("w0"), STACK, "stack", "history",
                           "--json", "--page-size", "0"))
    got_h = [(e.get("message"), e.get("result")) for e in reversed(h)]
    want_h = [(m, "succeeded") for m in history]
    if got_h != want_h:
        msgs.append("history %s, want %s" % (got_h, want_h))
    return msgs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minipulumi", required=True)
    ap.add_argument("--verify", required=True)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--workers", type=int, default=8)
    args = ap.parse_args()
    args.minipulumi = os.path.abspath(args.minipulumi)
    args.verify = os.path.abspath(args.verify)
    admin = os.environ.get("MP_TEST_PG_URL")
    if not admin:
        print("SKIP: MP_TEST_PG_URL is not set; run through tests/pg/pgtest.py")
        return 77
    work = tempfile.mkdtemp(prefix="mp-race-")
    passed = failed = 0
    try:
        ref = reference(args, work)
        print("ok   reference: SQLite's locked stack exits %d: %s" %
              (ref[0], ref[1].strip()))
        passed += 1
        lab = Lab(args, os.path.join(work, "pg"),
                  pgtest.createdb(admin, "race"))
        lab.setup(args.workers)
        history = []
        for rnd in range(1, args.rounds + 1):
            results, other = race(lab, rnd, args.workers)
            msgs = check_round(args, lab, rnd, results, other, ref, history)
            if msgs:
                failed += 1
                print("FAIL round %d:\n  %s" % (rnd, "\n  ".join(msgs)))
                for w, pid, st, err, end in results:
                    print("  worker %d pid %d exit %d ended %s: %s" % (
                        w, pid, st, end, err.strip()[-600:]))
            else:
                passed += 1
                print("ok   round %d: worker %d won" % (
                    rnd, [r[0] for r in results if r[2] == 0][0]))
            sys.stdout.flush()
    except (Failure, subprocess.TimeoutExpired, OSError, ValueError) as e:
        failed += 1
        print("FAIL: %s" % e)
    if failed == 0:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print("contention: kept %s" % work)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
