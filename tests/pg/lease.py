#!/usr/bin/env python3
"""The stack lock's lease in the PostgreSQL backend, end to end (issue 14).

    lease.py --minipulumi BIN --verify mp_verify_state
             (needs MP_TEST_PG_URL: tests/pg/pgtest.py)

Runs with MINIPULUMI_LOCK_LEASE_SECONDS=1.5 (10 in `frozen`). A program's
`slow` resource stays in its provider call (no state write) until the test
opens its gate (the test provider's __waitFile): a fixed length would let
the call end before a starved test got its checks in.

  killed   `up` is SIGKILLed inside the slow call. While it ran, its lease
           stayed ahead of the server's clock (renewed without writes);
           a second `up` meanwhile fails with the lock message. After the
           kill, the next `up` takes the lock over at once (the holder's
           database session ended), warns naming the dead holder, and
           converges; the state passes the integrity check.
  frozen   `up` is SIGSTOPped inside the slow call (its connection stays
           open, nothing renews). Until the lease runs out a second `up`
           fails with the lock message; afterwards it takes over, warning
           that the holder's lease expired, and succeeds. The frozen
           process, woken, finds its lock gone and stops with the broken-
           lock error instead of writing. A last `up` changes nothing and
           the state passes the integrity check.
  cancel   `minipulumi cancel` breaks a live holder's lock at once, and that
           holder then stops at its next write.
Prints `N passed, N failed`.
"""
import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pgtest  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from timeouts import timeout_multiplier  # noqa: E402  (tests/timeouts.py)

LEASE = 1.5
# frozen: a second runner must reach its lock check within one lease of
# the freeze, which takes seconds on a starved machine
FROZEN_LEASE = 10
PROGRAM = """name: lease
runtime: yaml
resources:
  fast:
    type: test:Resource
    properties:
      v: %(v)s
  slow:
    type: test:Resource
    properties:
      v: %(v)s%(gate)s
    options:
      dependsOn: ["${fast}"]
"""
LOCKED = re.compile(r"error: the stack is currently locked by 1 lock\(s\): "
                    r"'lease/dev' is locked by process "
                    r"(\d+) on \S+ since \S+ \(operation update\); if that "
                    r"process is gone, run `minipulumi cancel` to break the "
                    r"lock")


class Failure(Exception):
    pass


class Case:
    def __init__(self, args, admin, name, lease=LEASE):
        self.args = args
        self.root = tempfile.mkdtemp(prefix="mp-lease-%s-" % name)
        self.url = pgtest.createdb(admin, "lease_" + name)
        self.admin = admin
        self.db = "lease_" + name
        self.world = os.path.join(self.root, "world")
        self.proj = os.path.join(self.root, "proj")
        os.makedirs(self.world)
        os.makedirs(self.proj)
        self.env = dict(os.environ)
        self.env.update({"PULUMI_CONFIG_PASSPHRASE": "lease",
                         "HOME": self.root,
                         "MINIPULUMI_TEST_WORLD": self.world,
                         "MINIPULUMI_BACKEND_URL": self.url,
                         "MINIPULUMI_LOCK_LEASE_SECONDS": str(lease)})
        self.gate = os.path.join(self.root, "gate")

    def program(self, v, slow=True):
        """|slow|: the slow resource waits for the gate (open_gate)."""
        gate = "\n      __waitFile: %s" % json.dumps(self.gate) if slow else ""
        with open(os.path.join(self.proj, "Pulumi.yaml"), "w") as f:
            f.write(PROGRAM % {"v": json.dumps(v), "gate": gate})

    def open_gate(self):
        open(self.gate, "w").close()

    def argv(self, *cmd):
        return [self.args.minipulumi, "--non-interactive", "--color", "never",
                "-C", self.proj, "-s", "dev"] + list(cmd)

    def run(self, *cmd):
        p = subprocess.run(self.argv(*cmd), env=self.env,
                           timeout=120 * timeout_multiplier(),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        return p.returncode, p.stdout.decode(), p.stderr.decode()

    def up(self, *extra):
        return self.run("up", "--yes", "--skip-preview", *extra)

    def start_up(self):
        """Starts `up`; its output goes to files (read by finish)."""
        calls = os.path.join(self.world, "calls.jsonl")
        self.calls_start = os.path.getsize(calls) if os.path.exists(calls) \
            else 0
        self.bg_out = open(os.path.join(self.root, "bg.out"), "w+")
        return subprocess.Popen(self.argv("up", "--yes", "--skip-preview"),
                                env=self.env, stdout=self.bg_out,
                                stderr=subprocess.STDOUT)

    def finish(self, p):
        """Waits for |p|; returns its output."""
        p.wait(timeout=60 * timeout_multiplier())
        self.bg_out.seek(0)
        out = self.bg_out.read()
        self.bg_out.close()
        return out

    def wait_slow_call(self, p):
        """Waits until |p| is inside the slow resource's create call."""
        calls = os.path.join(self.world, "calls.jsonl")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and p.poll() is None:
            if os.path.exists(calls):
                with open(calls) as f:
                    f.seek(self.calls_start)
                    for line in f:
                        c = json.loads(line)
                        if c.get("urn", "").endswith("::slow") and \
                                not c.get("preview") and \
                                c.get("op") in ("create", "update"):
                            return
            time.sleep(0.02)
        raise Failure("`up` never reached the slow call")

    def sql(self, q):
        return pgtest.psql(self.url, q).strip()

    def verify(self):
        p = subprocess.run([self.args.verify, self.url, "lease", "dev",
                            "--check-unlocked", "--quiet"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if p.returncode != 0:
            raise Failure("state check: " + p.stdout.decode())

    def close(self, ok):
        if ok:
            shutil.rmtree(self.root, ignore_errors=True)
            pgtest.dropdb(self.admin, self.db)


def expect(cond, what):
    if not cond:
        raise Failure(what)


def locked_by(err):
    m = LOCKED.search(err)
    return int(m.group(1)) if m else None


def case_killed(c):
    c.program("one")
    expect(c.run("stack", "init", "dev")[0] == 0, "stack init")
    p = c.start_up()
    c.wait_slow_call(p)
    time.sleep(LEASE * 1.5)  # more than a lease without a state write
    expect(c.sql("SELECT expires > clock_timestamp() FROM minipulumi.locks")
           == "t", "the lease was not renewed during the slow call")
    rc, _, err = c.up()
    expect(rc == 1 and locked_by(err) == p.pid,
           "a second up while the first runs: exit %d, %s" % (rc, err[-300:]))
    p.send_signal(signal.SIGKILL)
    c.finish(p)
    c.program("one", slow=False)
    rc, out, err = c.up()
    expect(rc == 0, "up after the kill: exit %d: %s" % (rc, err[-500:]))
    want = ("broke a stale lock left by process %d on " % p.pid)
    expect(want in out and "its database session has ended" in out,
           "no takeover warning naming process %d: %s" % (p.pid, out[-600:]))
    c.verify()
    rc, out, err = c.up("--expect-no-changes")
    expect(rc == 0, "a last up found changes: %s" % (out + err)[-500:])


def case_frozen(c):
    c.program("one", slow=False)
    expect(c.run("stack", "init", "dev")[0] == 0, "stack init")
    expect(c.up()[0] == 0, "first up")
    c.program("two")
    p = c.start_up()
    c.wait_slow_call(p)
    p.send_signal(signal.SIGSTOP)
    try:
        rc, _, err = c.up()
        expect(rc == 1 and locked_by(err) == p.pid,
               "a frozen holder within its lease: exit %d, %s" % (rc, err))
        # past the lease (judged by the server's clock), the next runner
        # takes over; poll rather than assume how long the lease takes
        deadline = time.monotonic() + 30
        while c.sql("SELECT expires < clock_timestamp() FROM "
                    "minipulumi.locks") != "t":
            expect(time.monotonic() < deadline, "the lease never expired")
            time.sleep(0.1)
        c.program("two", slow=False)
        rc, out, err = c.up()
        expect(rc == 0, "up after the lease expired: %s" % err[-500:])
        want = "broke a stale lock left by process %d on " % p.pid
        expect(want in out and "its lease expired at " in out,
               "no expiry warning naming process %d: %s" % (p.pid, out[-600:]))
    finally:
        c.open_gate()
        p.send_signal(signal.SIGCONT)
    out = c.finish(p)
    expect(p.returncode != 0 and "was broken while this update ran" in out,
           "the woken holder did not stop at its lock: exit %d, %s" %
           (p.returncode, out[-500:]))
    c.verify()
    rc, out, err = c.up("--expect-no-changes")
    expect(rc == 0, "a last up found changes: %s" % (out + err)[-500:])


def case_cancel(c):
    c.program("one")
    expect(c.run("stack", "init", "dev")[0] == 0, "stack init")
    p = c.start_up()
    c.wait_slow_call(p)
    rc, out, err = c.run("cancel", "--yes")
    expect(rc == 0 and "has been canceled" in out,
           "cancel: exit %d %s %s" % (rc, out, err))
    c.open_gate()
    out = c.finish(p)
    expect(p.returncode != 0 and "was broken while this update ran" in out,
           "the canceled holder went on: exit %d, %s" % (p.returncode,
                                                         out[-500:]))
    c.program("one", slow=False)
    rc, out, err = c.up()
    expect(rc == 0, "up after cancel: %s" % err[-500:])
    c.verify()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minipulumi", required=True)
    ap.add_argument("--verify", required=True)
    args = ap.parse_args()
    args.minipulumi = os.path.abspath(args.minipulumi)
    args.verify = os.path.abspath(args.verify)
    admin = os.environ.get("MP_TEST_PG_URL")
    if not admin:
        print("SKIP: MP_TEST_PG_URL is not set; run through tests/pg/pgtest.py")
        return 77
    passed = failed = 0
    for name, fn in (("killed", case_killed), ("frozen", case_frozen),
                     ("cancel", case_cancel)):
        c = Case(args, admin, name,
                 FROZEN_LEASE if name == "frozen" else LEASE)
        try:
            fn(c)
            passed += 1
            print("ok   %s" % name)
            c.close(True)
        except (Failure, subprocess.TimeoutExpired, OSError,
                RuntimeError) as e:
            failed += 1
            print("FAIL %s (kept %s): %s" % (name, c.root, e))
        sys.stdout.flush()
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
