#!/usr/bin/env python3
"""Soak test for minipulumi (issue 23): many consecutive operations on one
stack, the program changing at random between them.

Before each operation the program (a set of `test` resources with
references, dependsOn, parents) is mutated at random: additions, removals
(a resource with its children), renames with aliases (later dropped),
updates, replacements (create-before-delete and delete-before-replace),
protect on and off, and failures through the test provider (`__failOn`
create / update / delete, `__initError`). Now and then the operation is a
`refresh` of a world that drifted (objects changed or removed) or a
`destroy`. About one operation in ten (--kill-rate) is killed with SIGKILL
at a random moment.

After every command (the operation and each recovery step):
  * the state passes the integrity check (tests/tools/mp_verify_state), and
    `stack export` succeeds; in the exported deployment every parent,
    dependency, property dependency, deletedWith and provider reference
    names an earlier resource, and no URN is live twice.
After a kill, the user's recovery: `refresh`, completing each pending
create whose object reached the world (--import-pending-creates URN ID)
and clearing the others (--clear-pending-creates).
Then convergence: with the program without its injected failures, `up`
succeeds and `up --expect-no-changes` finds nothing to do; no pending
operation or resource pending deletion is left, the live resources are
those of the program, and the world matches the state object for object
(a create that reached the world before the kill was imported).

Prints progress, then one line
  soak: N operations, N kills, N integrity failures, N convergence failures
and exits 1 on any failure (a failing run keeps its directory and names its
seed; --seed reproduces it).

  tests/soak/run.py --minipulumi build/src/cli/minipulumi \\
      --verify build/tests/mp_verify_state --ops 1000 [--pg-url URL]

With --pg-url (e.g. tests/pg/pgtest.py's @PG_URL@) the state lives in a
database of its own on that server instead of a SQLite file.
"""
import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from timeouts import timeout_multiplier  # noqa: E402  (tests/timeouts.py)

PROJECT = "soak"
STACK = "dev"
TYPE = "test:index:Resource"


class Failure(Exception):
    def __init__(self, kind, msg):
        super().__init__(msg)
        self.kind = kind  # "integrity" or "convergence"


# ---------------------------------------------------------------- the program

class Res:
    """One resource of the program. |fail| holds injected failures of the
    current operation only (not in the converged program)."""

    def __init__(self, name, k, rk):
        self.name = name
        self.k = k
        self.rk = rk
        self.replace = False   # __replaceKeys: [rk]
        self.pdbr = False      # the provider says delete-before-replace
        self.dbr = False       # the deleteBeforeReplace option
        self.ref = None        # d: ${ref.k}
        self.deps = []         # dependsOn
        self.parent = None
        self.protect = None    # None: as its parent (Pulumi inherits it)
        self.fail_delete = False  # __failOn: [delete], kept in the program
        self.aliases = []      # old names
        self.fail = []         # __failOn of this operation only
        self.init_error = None  # __initError of this operation only

    def copy(self):
        r = Res(self.name, self.k, self.rk)
        r.__dict__.update(self.__dict__)
        r.deps = list(self.deps)
        r.aliases = list(self.aliases)
        r.fail = list(self.fail)
        return r


def render(prog, latency):
    out = ["name: %s" % PROJECT, "runtime: yaml", "resources:"]
    for r in prog.values():
        out.append("  %s:" % r.name)
        out.append("    type: test:Resource")
        out.append("    properties:")
        out.append("      k: %s" % json.dumps(r.k))
        out.append("      rk: %s" % json.dumps(r.rk))
        if latency:
            out.append("      __latencyMs: %d" % latency)
        if r.ref:
            out.append("      d: ${%s.k}" % r.ref)
        if r.replace:
            out.append("      __replaceKeys: [rk]")
        if r.pdbr:
            out.append("      __dbr: true")
        fail = list(r.fail) + (["delete"] if r.fail_delete else [])
        if fail:
            out.append("      __failOn: %s" % json.dumps(fail))
        if r.init_error:
            out.append("      __initError: %s" % json.dumps(r.init_error))
        opts = []
        if r.deps:
            opts.append("      dependsOn: [%s]" %
                        ", ".join("\"${%s}\"" % x for x in r.deps))
        if r.parent:
            opts.append("      parent: ${%s}" % r.parent)
        if r.protect is not None:
            opts.append("      protect: %s" % str(r.protect).lower())
        if r.dbr:
            opts.append("      deleteBeforeReplace: true")
        if r.aliases:
            opts.append("      aliases: [%s]" %
                        ", ".join("{name: %s}" % a for a in r.aliases))
        if opts:
            out.append("    options:")
            out.extend(opts)
    return "\n".join(out) + "\n"


def type_chain(prog, name):
    chain = []
    r = prog[name]
    while r.parent:
        chain.append(TYPE)
        r = prog[r.parent]
    return chain


def urn_of(prog, name):
    qual = "$".join(type_chain(prog, name) + [TYPE])
    return "urn:pulumi:%s::%s::%s::%s" % (STACK, PROJECT, qual, name)


def protected(prog, name):
    """protect as Pulumi sees it: a child without its own takes its
    parent's."""
    r = prog[name]
    while r.protect is None and r.parent:
        r = prog[r.parent]
    return bool(r.protect)


def descendants(prog, name):
    out = [name]
    i = 0
    while i < len(out):
        out += [r.name for r in prog.values() if r.parent == out[i]]
        i += 1
    return out


class Mutator:
    """Builds the next operation's program (with its injected failures)
    and the program that must converge after it."""

    def __init__(self, rng, target):
        self.rng = rng
        self.target = target  # about this many resources
        self.serial = 0

    def fresh(self, prefix):
        self.serial += 1
        return "%s%d" % (prefix, self.serial)

    def add(self, prog, touched):
        name = self.fresh("r")
        r = Res(name, "k-" + name, "rk-" + name)
        rng = self.rng
        names = list(prog)
        r.replace = rng.random() < 0.5
        r.pdbr = r.replace and rng.random() < 0.3
        if names and rng.random() < 0.5:
            r.ref = rng.choice(names)
        if names and rng.random() < 0.25:
            r.deps = sorted(set(rng.sample(names, min(2, len(names)))))
        if names and rng.random() < 0.2:
            r.parent = rng.choice(names)
        prog[name] = r
        touched.add(name)
        return name

    def remove(self, prog, name):
        """Removes |name| and its descendants and every reference to
        them; returns the removed names."""
        gone = descendants(prog, name)
        for n in gone:
            del prog[n]
        for r in prog.values():
            if r.ref in gone:
                r.ref = None
            r.deps = [d for d in r.deps if d not in gone]
        return gone

    def rename(self, prog, name, new):
        items = []
        for n, r in prog.items():
            if n == name:
                r.aliases = r.aliases + [name]
                r.name = new
                n = new
            if r.ref == name:
                r.ref = new
            r.deps = [new if d == name else d for d in r.deps]
            if r.parent == name:
                r.parent = new
            items.append((n, r))
        prog.clear()
        prog.update(items)
        return new

    def next(self, conv):
        """Returns (op_program, converged_program, labels, expect_fail)."""
        rng = self.rng
        op = {n: r.copy() for n, r in conv.items()}
        touched = set()
        labels = []
        expect_fail = False
        for _ in range(rng.randint(1, 3)):
            live = [n for n in op if n not in touched]
            kinds = ["add", "add", "update", "update", "replace", "dbr",
                     "rename", "protect", "fail_create", "fail_update",
                     "fail_replace", "init_error", "sticky", "edge"]
            if len(op) > 3:
                kinds += ["remove"] * (3 if len(op) > self.target else 1)
            if len(op) < self.target // 2:
                kinds += ["add"] * 3
            kind = rng.choice(kinds)
            if kind in ("add", "fail_create") or not live:
                name = self.add(op, touched)
                conv[name] = op[name].copy()
                if kind == "fail_create":
                    op[name].fail = ["create"]
                    expect_fail = True
                    labels.append("add-failing(%s)" % name)
                else:
                    labels.append("add(%s)" % name)
                continue
            name = rng.choice(live)
            r = op[name]
            if kind == "remove":
                gone = descendants(op, name)
                if touched & set(gone):
                    continue
                blocked = [n for n in gone
                           if protected(op, n) or op[n].fail_delete]
                self.remove(op, name)
                touched.update(gone)
                if blocked:
                    # Pulumi refuses to delete a protected resource, the
                    # provider fails the other deletes: the user takes the
                    # protection and the failure off and keeps them.
                    expect_fail = True
                    for n in gone:
                        conv[n].protect = False
                        conv[n].fail_delete = False
                    labels.append("remove-blocked(%s)" % ",".join(gone))
                else:
                    self.remove(conv, name)
                    labels.append("remove(%s)" % ",".join(gone))
            elif kind == "rename":
                new = self.fresh("n")
                self.rename(op, name, new)
                self.rename(conv, name, new)
                touched.add(new)
                labels.append("rename(%s->%s)" % (name, new))
            elif kind in ("update", "fail_update", "init_error"):
                r.k = self.fresh("k-")
                conv[name].k = r.k
                touched.add(name)
                if kind == "fail_update":
                    r.fail = ["update"]
                    expect_fail = True
                elif kind == "init_error":
                    r.init_error = "not ready"
                    expect_fail = True
                labels.append("%s(%s)" % (kind, name))
            elif kind in ("replace", "dbr", "fail_replace"):
                if protected(op, name) or r.fail_delete or not r.replace:
                    # a protected resource cannot be replaced, and the old
                    # one of a failing delete would stay forever: make it
                    # replaceable instead (an update)
                    r.replace = conv[name].replace = True
                    r.protect = conv[name].protect = False
                    r.fail_delete = conv[name].fail_delete = False
                    touched.add(name)
                    labels.append("replaceable(%s)" % name)
                    continue
                r.rk = self.fresh("rk-")
                conv[name].rk = r.rk
                if kind == "dbr":
                    r.dbr = conv[name].dbr = not r.dbr
                if kind == "fail_replace":
                    r.fail = ["create"]
                    expect_fail = True
                touched.add(name)
                labels.append("%s(%s%s)" % (
                    kind, name, ",dbr" if r.dbr or r.pdbr else ""))
            elif kind == "protect":
                r.protect = conv[name].protect = not protected(op, name)
                touched.add(name)
                labels.append("protect(%s=%s)" % (name, r.protect))
            elif kind == "sticky":
                r.fail_delete = conv[name].fail_delete = not r.fail_delete
                touched.add(name)
                labels.append("fail-delete(%s=%s)" % (name, r.fail_delete))
            elif kind == "edge":
                # a new reference or dependsOn to another resource, or the
                # aliases dropped (the state already has the new names)
                others = [n for n in op if n != name and n in conv and
                          name not in ancestors_and_refs(op, n) and
                          name not in ancestors_and_refs(conv, n)]
                if r.aliases and rng.random() < 0.5:
                    r.aliases = conv[name].aliases = []
                    labels.append("drop-aliases(%s)" % name)
                elif others and rng.random() < 0.5:
                    r.ref = conv[name].ref = rng.choice(others)
                    labels.append("ref(%s->%s)" % (name, r.ref))
                elif others:
                    d = rng.choice(others)
                    r.deps = conv[name].deps = sorted(set(r.deps + [d]))
                    labels.append("dependsOn(%s->%s)" % (name, d))
                touched.add(name)
        return op, conv, labels, expect_fail


def ancestors_and_refs(prog, name):
    """Every resource |name| depends on, directly or not (to keep the
    graph acyclic)."""
    seen = set()
    todo = [name]
    while todo:
        r = prog[todo.pop()]
        for n in [r.ref, r.parent] + r.deps:
            if n and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


# ---------------------------------------------------------------- running

def pg_module():
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
        __file__)), "..", "pg"))
    import pgtest
    return pgtest


def tail(b, n=30):
    if isinstance(b, bytes):
        b = b.decode("utf-8", "replace")
    return "\n".join(b.splitlines()[-n:])


class Stack:
    def __init__(self, args, root):
        self.args = args
        self.root = root
        self.proj = os.path.join(root, "proj")
        self.world = os.path.join(root, "world")
        os.makedirs(self.proj)
        os.makedirs(self.world)
        if args.pg_url:
            self.db = "soak_%d" % args.seed
            pg = pg_module()
            pg.dropdb(args.pg_url, self.db)
            self.backend = pg.createdb(args.pg_url, self.db)
        elif args.diy:
            os.makedirs(os.path.join(root, "state"), exist_ok=True)
            self.backend = "file://" + os.path.join(root, "state")
        else:
            self.backend = os.path.join(root, "state.db")
        self.logf = open(os.path.join(root, "log.txt"), "ab")

    def close(self, drop):
        self.logf.close()
        if drop and self.args.pg_url:
            pg_module().dropdb(self.args.pg_url, self.db)

    def env(self):
        e = dict(os.environ)
        e["PULUMI_CONFIG_PASSPHRASE"] = "soak-test"
        e["MINIPULUMI_TEST_WORLD"] = self.world
        e["MINIPULUMI_VERIFY_WRITES"] = "1"
        e["HOME"] = self.root
        e.pop("MINIPULUMI_BACKEND_URL", None)
        return e

    def argv(self, cmd):
        return [self.args.minipulumi, "--backend", self.backend,
                "--non-interactive", "--color", "never", "-C", self.proj,
                "-s", STACK] + list(cmd)

    def log(self, cmd, rc, out, took):
        self.logf.write(("$ %s  -> %s (%.2fs)\n" % (" ".join(cmd), rc,
                                                    took)).encode())
        self.logf.write(out)
        self.logf.flush()

    def run(self, *cmd):
        t0 = time.monotonic()
        p = subprocess.run(self.argv(cmd), env=self.env(),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=600 * timeout_multiplier())
        self.log(cmd, p.returncode, p.stdout, time.monotonic() - t0)
        return p.returncode, p.stdout

    def start(self, kill, *cmd):
        """Runs |cmd|, SIGKILLed at the moment |kill| says: None (never),
        ("time", seconds) or ("step", k, delay): |delay| seconds after the
        provider's k-th call that makes a step (create, update, delete;
        read in a refresh). Returns (exit status or None when killed,
        output, step calls made)."""
        calls = os.path.join(self.world, "calls.jsonl")
        open(calls, "w").close()
        steps = ("read",) if cmd[0] == "refresh" else (
            "create", "update", "delete")
        t0 = time.monotonic()
        with open(os.path.join(self.root, "op.out"), "w+b") as outf:
            p = subprocess.Popen(self.argv(cmd), env=self.env(),
                                 stdout=outf, stderr=subprocess.STDOUT)
            killed_at = None
            while p.poll() is None and kill and killed_at is None:
                now = time.monotonic() - t0
                if kill[0] == "time" and now >= kill[1]:
                    killed_at = now
                elif kill[0] == "step" and \
                        step_calls(calls, steps) >= kill[1]:
                    time.sleep(kill[2])
                    killed_at = time.monotonic() - t0
                else:
                    time.sleep(0.002)
                    continue
                if p.poll() is None:
                    os.kill(p.pid, signal.SIGKILL)
                else:
                    killed_at = None
            p.wait()
            outf.seek(0)
            out = outf.read()
        self.log(("(killed at %.3fs) " % killed_at if killed_at else "",) +
                 cmd, p.returncode, out, time.monotonic() - t0)
        rc = None if killed_at is not None else p.returncode
        return rc, out, step_calls(calls, steps)

    def write_program(self, text):
        path = os.path.join(self.proj, "Pulumi.yaml")
        with open(path + ".tmp", "w") as f:
            f.write(text)
        os.replace(path + ".tmp", path)

    # ------------------------------------------------------------ checks

    def check(self, what, cli_export=False):
        """The integrity checks; returns the exported deployment (with
        |cli_export|, from `stack export` too)."""
        path = os.path.join(self.root, "verify.json")
        t0 = time.monotonic()
        p = subprocess.run([self.args.verify, self.backend, PROJECT, STACK,
                            "--export", path, "--quiet"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=300 * timeout_multiplier())
        self.log(["mp_verify_state"], p.returncode, p.stdout,
                 time.monotonic() - t0)
        if p.returncode != 0:
            raise Failure("integrity", "%s: mp_verify_state exited %d:\n%s" %
                          (what, p.returncode, tail(p.stdout)))
        out = path
        if cli_export:
            out = os.path.join(self.root, "export.json")
            rc, text = self.run("stack", "export", "--file", out)
            if rc != 0:
                raise Failure("integrity", "%s: stack export exited %d:\n%s"
                              % (what, rc, tail(text)))
        with open(out) as f:
            dep = json.load(f)["deployment"]
        msgs = references(dep)
        if msgs:
            raise Failure("integrity", "%s: %s" % (what, "\n".join(msgs)))
        return dep


def references(dep):
    """Every reference names an earlier resource; no URN live twice."""
    msgs = []
    seen = set()
    providers = set()
    live = set()
    for i, r in enumerate(dep.get("resources") or []):
        urn = r.get("urn")
        refs = [("parent", r.get("parent")), ("deletedWith",
                                               r.get("deletedWith"))]
        refs += [("dependency", d) for d in r.get("dependencies") or []]
        refs += [("property dependency", d) for ds in
                 (r.get("propertyDependencies") or {}).values() for d in ds]
        for what, u in refs:
            if u and u not in seen:
                msgs.append("resource %d %s: %s %s is not an earlier "
                            "resource" % (i, urn, what, u))
        prov = r.get("provider")
        if prov and prov not in providers:
            msgs.append("resource %d %s: provider %s is not an earlier "
                        "resource" % (i, urn, prov))
        if not r.get("delete"):
            if urn in live:
                msgs.append("resource %d: %s is live twice" % (i, urn))
            live.add(urn)
        seen.add(urn)
        if r.get("id"):
            providers.add("%s::%s" % (urn, r["id"]))
    return msgs


def step_calls(path, ops):
    """How many calls of |ops| the provider logged in |path|."""
    with open(path, "rb") as f:
        data = f.read()
    return sum(data.count(b'{"op":"%s"' % op.encode()) for op in ops)


def world_files(world):
    out = {}
    for f in os.listdir(world):
        if f.endswith(".json") and not f.startswith("."):
            try:
                with open(os.path.join(world, f)) as fh:
                    out[f[:-5]] = json.load(fh)
            except (OSError, ValueError) as e:
                out[f[:-5]] = {"unreadable": str(e)}
    return out


def canon(v):
    return json.dumps(v, sort_keys=True)


def check_converged(stack, dep, conv):
    msgs = []
    for p in dep.get("pending_operations") or []:
        msgs.append("pending %s of %s left" % (p.get("type"),
                                               p["resource"]["urn"]))
    want = {urn_of(conv, n): r for n, r in conv.items()}
    got = {}
    for r in dep.get("resources") or []:
        if r.get("type") != TYPE:
            continue
        if r.get("delete"):
            msgs.append("%s is still pending deletion" % r["urn"])
            continue
        if r.get("initErrors"):
            msgs.append("%s has init errors %s" % (r["urn"], r["initErrors"]))
        got[r["urn"]] = r
    for urn in sorted(set(want) | set(got)):
        if urn not in got:
            msgs.append("%s of the program is not in the state" % urn)
        elif urn not in want:
            msgs.append("%s is in the state, not in the program" % urn)
        else:
            ins = got[urn].get("inputs") or {}
            w = want[urn]
            if (ins.get("k"), ins.get("rk")) != (w.k, w.rk):
                msgs.append("%s has k=%r rk=%r, the program %r %r" % (
                    urn, ins.get("k"), ins.get("rk"), w.k, w.rk))
            if bool(got[urn].get("protect")) != protected(conv, w.name):
                msgs.append("%s protect=%s, the program %s" % (
                    urn, got[urn].get("protect"), protected(conv, w.name)))
    files = world_files(stack.world)
    ids = set()
    for r in got.values():
        ids.add(r.get("id"))
        if r.get("id") not in files:
            msgs.append("the world has no object %s of %s" % (r.get("id"),
                                                               r["urn"]))
        elif files[r["id"]] != (r.get("outputs") or {}):
            msgs.append("world object %s differs from the outputs of %s" %
                        (r["id"], r["urn"]))
    for fid in sorted(files):
        if fid not in ids:
            msgs.append("world object %s is in no resource: %s" % (
                fid, canon(files[fid])[:200]))
    return msgs


# ---------------------------------------------------------------- one op

def drift(stack, rng):
    """Changes or removes a few world objects (a refresh finds them)."""
    files = world_files(stack.world)
    for fid in sorted(files):
        r = rng.random()
        path = os.path.join(stack.world, fid + ".json")
        if r < 0.1:
            os.unlink(path)
        elif r < 0.2 and isinstance(files[fid], dict):
            files[fid]["k"] = "drifted"
            with open(path, "w") as f:
                json.dump(files[fid], f)


def recover(stack, dep, stats):
    """After a kill: refresh, completing each pending create whose object
    is in the world (its outputs are its inputs) and clearing the
    others, as a user who looked would."""
    files = world_files(stack.world)
    known = {r.get("id") for r in dep.get("resources") or []}
    free = {fid: canon(v) for fid, v in files.items() if fid not in known}
    flags = []
    for p in dep.get("pending_operations") or []:
        stats["pending " + p.get("type", "?")] = stats.get(
            "pending " + p.get("type", "?"), 0) + 1
        if p.get("type") != "creating":
            continue
        want = canon(p["resource"].get("inputs") or {})
        fid = next((f for f, c in sorted(free.items()) if c == want), None)
        if fid is not None:
            del free[fid]
            stats["imported"] = stats.get("imported", 0) + 1
            flags += ["--import-pending-creates", p["resource"]["urn"],
                      "--import-pending-creates", fid]
    rc, out = stack.run("refresh", "--yes", "--skip-preview",
                        "--clear-pending-creates", *flags)
    if rc != 0:
        raise Failure("convergence", "refresh after the kill exited %d:\n%s"
                      % (rc, tail(out)))
    return stack.check("after the refresh")


def one_op(args, stack, rng, mut, conv, stats, i, durations):
    kind = rng.choices(["up", "refresh", "destroy"], [90, 7, 3])[0]
    if kind == "up":
        op, conv, labels, expect_fail = mut.next(conv)
        stack.write_program(render(op, args.latency))
    else:
        labels = [kind]
        expect_fail = kind == "destroy" and any(
            protected(conv, n) or r.fail_delete for n, r in conv.items())
        if kind == "refresh":
            drift(stack, rng)
    kill = None
    # An armed kill can miss: the command may end before its k-th call or
    # its moment (a run asked for one in ten killed one in 11 to 14). So
    # kills are armed more often by the share that hit so far, which
    # keeps the kills near --kill-rate of the operations.
    hit_share = stats["kills"] / stats["armed"] if stats["kills"] else 1.0
    if rng.random() < min(1.0, args.kill_rate / hit_share) and durations[kind]:
        stats["armed"] += 1
        # mostly inside the steps (after one of as many provider calls as
        # such operations made so far, during its latency or just after
        # it), else at any moment of the command
        recent = durations[kind][-10:]
        if rng.random() < 0.75:
            typical = sorted(c for _, c in recent)[len(recent) // 2]
            kill = ("step", rng.randint(1, max(1, typical)),
                    rng.uniform(0, 1.5 * args.latency / 1000.0))
        else:
            est = sum(t for t, _ in recent) / len(recent)
            kill = ("time", rng.uniform(0.0, est * 1.1))
    par = rng.choice([1, 2, 4, 8, 16])
    t0 = time.monotonic()
    rc, out, calls = stack.start(kill, kind, "--yes", "--skip-preview",
                                 "-p", str(par))
    took = time.monotonic() - t0
    killed = rc is None
    if killed:
        stats["kills"] += 1
    elif not expect_fail:
        durations[kind].append((took, calls))
    line = "op %d: %s %s p=%d%s -> %s" % (
        i, kind, " ".join(labels), par,
        " killed(%s)" % ",".join(str(x)[:5] for x in kill) if killed
        else "",
        "killed" if killed else rc)
    if args.verbose:
        print(line, flush=True)
    try:
        if not killed and (rc != 0) != expect_fail:
            raise Failure("convergence", "%s exited %d, expected %s:\n%s" % (
                kind, rc, "a failure" if expect_fail else "success",
                tail(out)))
        dep = stack.check("after %s" % kind, cli_export=True)
        recovered = bool(dep.get("pending_operations")) or killed
        if recovered:
            dep = recover(stack, dep, stats)
        if recovered or not (kind == "up" and rc == 0):
            # (an up that ran to its end ran the converged program itself)
            stack.write_program(render(conv, args.latency))
            rc, out = stack.run("up", "--yes", "--skip-preview", "-p", "8")
            if rc != 0:
                raise Failure("convergence", "up of the program exited "
                              "%d:\n%s" % (rc, tail(out)))
        rc, out = stack.run("up", "--yes", "--skip-preview",
                            "--expect-no-changes")
        if rc != 0:
            raise Failure("convergence", "the next up is not a no-op "
                          "(exit %d):\n%s" % (rc, tail(out)))
        dep = stack.check("after the no-op up")
        msgs = check_converged(stack, dep, conv)
        if msgs:
            raise Failure("convergence", "\n".join(msgs[:20]))
    except Failure as e:
        stats[e.kind] += 1
        print("FAIL %s\n  %s failure (seed %d, dir %s):\n%s" % (
            line, e.kind, args.seed, stack.root, e), flush=True)
        return None
    except subprocess.TimeoutExpired as e:
        stats["convergence"] += 1
        print("FAIL %s\n  timeout: %s" % (line, e), flush=True)
        return None
    return conv


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minipulumi", required=True)
    ap.add_argument("--verify", required=True, help="mp_verify_state")
    ap.add_argument("--ops", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--resources", type=int, default=24,
                    help="about this many resources in the program")
    ap.add_argument("--kill-rate", type=float, default=0.1)
    ap.add_argument("--latency", type=int, default=5,
                    help="__latencyMs of every test resource")
    ap.add_argument("--diy", action="store_true",
                    help="state in a file:// folder (Pulumi's DIY layout)")
    ap.add_argument("--pg-url", default=None,
                    help="keep the state on this PostgreSQL server")
    ap.add_argument("--max-failures", type=int, default=1,
                    help="stop after this many failing operations")
    ap.add_argument("--workdir", default=None)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="a line per operation")
    args = ap.parse_args()
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(1 << 30)
    args.minipulumi = os.path.abspath(args.minipulumi)
    args.verify = os.path.abspath(args.verify)
    root = args.workdir or tempfile.mkdtemp(prefix="mp-soak-")
    if args.workdir:
        shutil.rmtree(root, ignore_errors=True)
    print("soak: seed %d, %d operations, about %d resources, %s, dir %s" % (
        args.seed, args.ops, args.resources,
        "PostgreSQL" if args.pg_url else "file://" if args.diy else "SQLite",
        root), flush=True)
    rng = random.Random(args.seed)
    stack = Stack(args, root)
    stats = {"kills": 0, "armed": 0, "integrity": 0, "convergence": 0}
    stack.write_program(render({}, args.latency))
    rc, out = stack.run("stack", "init", STACK)
    if rc != 0:
        print("soak: stack init exited %d:\n%s" % (rc, tail(out)))
        return 1
    mut = Mutator(rng, args.resources)
    conv = {}
    durations = {"up": [], "refresh": [], "destroy": []}
    t0 = time.monotonic()
    done = 0
    for i in range(1, args.ops + 1):
        nxt = one_op(args, stack, rng, mut, conv, stats, i, durations)
        done = i
        if nxt is None:
            # go on from the program that should have converged (the next
            # converging up may repair it), up to --max-failures
            if stats["integrity"] + stats["convergence"] >= args.max_failures:
                break
        else:
            conv = nxt
        if i % 50 == 0 or i == args.ops:
            print("soak: %d operations, %d kills, %d resources, %.0fs" % (
                i, stats["kills"], len(conv), time.monotonic() - t0),
                flush=True)
    failed = stats["integrity"] + stats["convergence"]
    stack.close(drop=not failed and not args.keep)
    if not failed and not args.keep and not args.workdir:
        shutil.rmtree(root, ignore_errors=True)
    extra = sorted(k for k in stats if k.startswith(("pending", "imp")))
    if extra:
        print("soak: after the kills: %s" % ", ".join(
            "%d %s" % (stats[k], k) for k in extra))
    print("soak: %d kills armed, %d done: %.1f%% of the operations killed" % (
        stats["armed"], stats["kills"], 100.0 * stats["kills"] / max(1, done)))
    print("soak: %d operations, %d kills, %d integrity failures, "
          "%d convergence failures (seed %d, %.0fs)" % (
              done, stats["kills"], stats["integrity"],
              stats["convergence"], args.seed, time.monotonic() - t0))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
