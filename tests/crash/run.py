#!/usr/bin/env python3
"""Crash-consistency test for minipulumi (issue #5).

A stack of --resources `test` resources (dependencies through references
and dependsOn, parents, replacements, delete-before-replace replacements,
deletions and additions) is deployed once (v1). Then, for every kill point,
a copy of that deployment runs the next operation and is killed with
SIGKILL at a random moment (seeded):

  up       v1 -> v2 (updates, replacements, deletions, creations)
  destroy  of the v2 stack
  refresh  of the v2 stack whose world drifted (objects removed / changed)

Every call of a `test` resource sleeps __latencyMs, which spreads the
operation over time so that kills land between and inside steps.

After every kill:
  * the store opens and the snapshot passes the integrity check
    (tests/tools/mp_verify_state), and its pending operations are listed;
  * `refresh` then the operation again (`up` for up/refresh, `destroy` for
    destroy) reach exactly the state an uninterrupted run reaches: the
    resources compared by URN, type, custom, inputs, outputs, parent,
    dependencies, property dependencies, provider (without its id),
    protect, delete, pendingReplacement, initErrors (ids and timestamps
    are not compared);
  * the live world matches the state: each custom resource's world file
    holds its outputs, and a world object with no state is allowed only
    when it is the output of a `creating` pending operation left by the
    kill (a create that reached the provider but not the state: Pulumi
    keeps such operations and never adopts the object automatically, so
    the object is an orphan by design and the resource is created again).

Prints `N passed, N failed` and exits 1 on any failure; a failing kill
point prints its seed and keeps its directory.

  tests/crash/run.py --minipulumi build/src/cli/minipulumi \
      --verify build/tests/mp_verify_state --kills 500

With --pg-url URL (a PostgreSQL server, e.g. tests/pg/pgtest.py's
MP_TEST_PG_URL) the state lives in a database per directory on that
server instead of its state.db; copies are made with CREATE DATABASE ...
TEMPLATE. With --diy it lives in a file:// folder (Pulumi's DIY layout),
copied with the directory. With --bucket-url (tests/s3/s3test.py's
@S3_URL@, tests/azblob/aztest.py's @AZ_URL@) it lives under a key prefix
per directory in that bucket; a copy of a base (always a finished `up`,
nothing pending) is `stack export` from one prefix and `stack import`
into the other.
"""
import argparse
import concurrent.futures
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

PROJECT = "crash"
STACK = "dev"
TYPE = "test:index:Resource"


def urn_of(name, parent_chain=()):
    qual = "$".join(list(parent_chain) + [TYPE])
    return "urn:pulumi:%s::%s::%s::%s" % (STACK, PROJECT, qual, name)


# ---------------------------------------------------------------- programs

def gen_programs(rng, n, latency):
    """Two program versions as {name: decl}; decl has k, rk, replace,
    dbr, ref (name or None), deps (names), parent (name or None)."""
    v1 = {}
    names = []
    for i in range(n):
        name = "r%d" % i
        d = {"k": "v1-%d" % i, "rk": "rk-%d" % i,
             "replace": rng.random() < 0.35, "dbr": False,
             "ref": None, "deps": [], "parent": None}
        d["dbr"] = d["replace"] and rng.random() < 0.35
        if names and rng.random() < 0.5:
            d["ref"] = rng.choice(names[-30:])
        if names and rng.random() < 0.2:
            d["deps"] = sorted(set(rng.sample(names, min(2, len(names)))))
        if names and rng.random() < 0.12:
            d["parent"] = rng.choice(names)
        v1[name] = d
        names.append(name)
    parents = {d["parent"] for d in v1.values() if d["parent"]}
    deletable = [x for x in names if x not in parents]
    deleted = set(rng.sample(deletable, n // 8))
    v2 = {}
    for name in names:
        if name in deleted:
            continue
        d = dict(v1[name])
        d["deps"] = [x for x in d["deps"] if x not in deleted]
        if d["ref"] in deleted:
            d["ref"] = None
        r = rng.random()
        if r < 0.25:
            d["k"] = d["k"].replace("v1-", "v2-")
        elif r < (0.7 if d["replace"] else 0.4):
            d["rk"] = d["rk"] + "-new"  # replaces when d["replace"]
        v2[name] = d
    live = list(v2)
    for i in range(n // 8):
        name = "n%d" % i
        v2[name] = {"k": "new-%d" % i, "rk": "nk-%d" % i,
                    "replace": False, "dbr": False,
                    "ref": rng.choice(live) if rng.random() < 0.6 else None,
                    "deps": [], "parent": None}
        live.append(name)
    return render(v1, latency), render(v2, latency)


def render(prog, latency):
    out = ["name: %s" % PROJECT, "runtime: yaml", "resources:"]
    for name, d in prog.items():
        out.append("  %s:" % name)
        out.append("    type: test:Resource")
        out.append("    properties:")
        out.append("      k: %s" % json.dumps(d["k"]))
        out.append("      rk: %s" % json.dumps(d["rk"]))
        if latency:
            out.append("      __latencyMs: %d" % latency)
        if d["ref"]:
            out.append("      d: ${%s.k}" % d["ref"])
        if d["replace"]:
            out.append("      __replaceKeys: [rk]")
        if d["dbr"]:
            out.append("      __dbr: true")
        opts = []
        if d["deps"]:
            opts.append("      dependsOn: [%s]" %
                        ", ".join("\"${%s}\"" % x for x in d["deps"]))
        if d["parent"]:
            opts.append("      parent: ${%s}" % d["parent"])
        if opts:
            out.append("    options:")
            out.extend(opts)
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- running

def pg_module():
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
        __file__)), "..", "pg"))
    import pgtest
    return pgtest


def pg_db(root):
    """The database that holds the state of directory |root|."""
    return "crash_" + "".join(c if c.isalnum() else "_" for c in
                              os.path.basename(root).lower())


def backend(args, root):
    """The state backend URL of directory |root|."""
    if args.pg_url:
        return pg_module().with_db(args.pg_url, pg_db(root))
    if args.bucket_url:
        base, _, query = args.bucket_url.partition("?")
        return "%s/%s%s" % (base.rstrip("/"), pg_db(root),
                            "?" + query if query else "")
    if args.diy:
        return "file://" + os.path.join(root, "state")
    return os.path.join(root, "state.db")


def new_state(args, root, copy_of=None):
    """Creates the (empty, or copied) database of |root| with --pg-url,
    or its folder with --diy (a copy comes with the directory)."""
    if args.pg_url:
        pg_module().createdb(args.pg_url, pg_db(root),
                             pg_db(copy_of) if copy_of else None)
    elif args.diy:
        os.makedirs(os.path.join(root, "state"), exist_ok=True)
    elif args.bucket_url and copy_of:
        dump = os.path.join(root, "base-export.json")
        Env(args, copy_of).run("stack", "export", "--file", dump)
        dst = Env(args, root)
        dst.run("stack", "init", STACK)
        dst.run("stack", "import", "--file", dump)
        os.unlink(dump)


def drop_state(args, root):
    if args.pg_url:
        pg_module().dropdb(args.pg_url, pg_db(root))


class Env:
    def __init__(self, args, root):
        self.args = args
        self.root = root  # holds proj/, world/, state.db (or names the db)

    def env(self):
        e = dict(os.environ)
        e["PULUMI_CONFIG_PASSPHRASE"] = "crash-test"
        e["MINIPULUMI_TEST_WORLD"] = os.path.join(self.root, "world")
        e.pop("MINIPULUMI_BACKEND_URL", None)
        if not self.args.verify_writes:
            e.pop("MINIPULUMI_VERIFY_WRITES", None)
        return e

    def argv(self, *cmd):
        return [self.args.minipulumi, "--backend",
                backend(self.args, self.root), "--non-interactive",
                "--color", "never", "-C", os.path.join(self.root, "proj"),
                "-s", STACK] + list(cmd)

    def op_argv(self, op):
        return self.argv(op, "--yes", "--skip-preview",
                         "-p", str(self.args.parallel))

    def run(self, *cmd, check=True):
        p = subprocess.run(self.argv(*cmd), env=self.env(),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=300 * timeout_multiplier())
        log_append(self.root, cmd, p.returncode, p.stdout)
        if check and p.returncode != 0:
            raise Failure("`minipulumi %s` exited %d:\n%s" %
                          (" ".join(cmd), p.returncode, tail(p.stdout)))
        return p

    def op(self, op, check=True):
        return self.run(*self.op_argv(op)[len(self.argv()):], check=check)

    def write_program(self, text):
        with open(os.path.join(self.root, "proj", "Pulumi.yaml"), "w") as f:
            f.write(text)

    def verify(self):
        """Integrity check; returns the exported deployment."""
        path = os.path.join(self.root, "export.json")
        p = subprocess.run([self.args.verify, backend(self.args, self.root),
                            PROJECT, STACK, "--export", path],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=120 * timeout_multiplier())
        log_append(self.root, ["mp_verify_state"], p.returncode, p.stdout)
        if p.returncode != 0:
            raise Failure("state check failed (exit %d):\n%s" %
                          (p.returncode, tail(p.stdout)))
        with open(path) as f:
            return json.load(f)["deployment"]


class Failure(Exception):
    pass


def tail(b, n=25):
    lines = b.decode("utf-8", "replace").splitlines()
    return "\n".join(lines[-n:])


def log_append(root, cmd, rc, out):
    with open(os.path.join(root, "log.txt"), "ab") as f:
        f.write(("$ %s  -> %s\n" % (" ".join(cmd), rc)).encode())
        f.write(out)


def make_base(args, root, program):
    os.makedirs(os.path.join(root, "proj"))
    os.makedirs(os.path.join(root, "world"))
    new_state(args, root)
    e = Env(args, root)
    e.write_program(program)
    e.run("stack", "init", STACK)
    e.op("up")
    return e


def clone(args, src, dst):
    shutil.copytree(src, dst)
    new_state(args, dst, copy_of=src)
    for f in ("log.txt", "export.json"):
        p = os.path.join(dst, f)
        if os.path.exists(p):
            os.unlink(p)
    return dst


# ---------------------------------------------------------------- comparing

def norm_state(dep):
    """{(urn, delete): fields} without ids and timestamps."""
    out = {}
    for r in dep.get("resources", []):
        prov = r.get("provider")
        key = (r["urn"], bool(r.get("delete")))
        if key in out:
            raise Failure("two entries for %s" % (key,))
        out[key] = {
            "type": r.get("type"), "custom": bool(r.get("custom")),
            "inputs": r.get("inputs") or {}, "outputs": r.get("outputs") or {},
            "parent": r.get("parent"),
            "dependencies": sorted(r.get("dependencies") or []),
            "propertyDependencies": {k: sorted(v) for k, v in
                                     (r.get("propertyDependencies") or {})
                                     .items()},
            "provider": prov.rsplit("::", 1)[0] if prov else None,
            "protect": bool(r.get("protect")),
            "pendingReplacement": bool(r.get("pendingReplacement")),
            "initErrors": r.get("initErrors") or [],
        }
    return out


def diff_states(want, got):
    msgs = []
    for k in sorted(set(want) | set(got)):
        if k not in got:
            msgs.append("missing %s" % (k,))
        elif k not in want:
            msgs.append("unexpected %s" % (k,))
        elif want[k] != got[k]:
            fields = [f for f in want[k] if want[k][f] != got[k][f]]
            msgs.append("%s differs in %s: want %s got %s" % (
                k[0], ",".join(fields),
                {f: want[k][f] for f in fields},
                {f: got[k][f] for f in fields}))
    return msgs


def world_files(root):
    w = os.path.join(root, "world")
    out = {}
    for f in os.listdir(w):
        if f.startswith(".") or not f.endswith(".json"):
            continue
        with open(os.path.join(w, f)) as fh:
            out[f[:-5]] = json.load(fh)
    return out


def check_world(root, dep, allow_orphans):
    """The world matches the state; orphans only from `creating` ops."""
    files = world_files(root)
    msgs = []
    ids = set()
    for r in dep.get("resources", []):
        if r.get("type") != TYPE or not r.get("id"):
            continue
        ids.add(r["id"])
        if r["id"] not in files:
            if not r.get("delete"):
                msgs.append("world object %s of %s is missing" %
                            (r["id"], r["urn"]))
        elif files[r["id"]] != (r.get("outputs") or {}):
            msgs.append("world object %s of %s differs from its outputs" %
                        (r["id"], r["urn"]))
    pool = [json.dumps(p, sort_keys=True) for p in allow_orphans]
    for fid, content in sorted(files.items()):
        if fid in ids:
            continue
        s = json.dumps(content, sort_keys=True)
        if s in pool:
            pool.remove(s)
        else:
            msgs.append("leaked world object %s: %s" % (fid, s[:200]))
    return msgs


def creating_inputs(dep):
    return [(p["resource"].get("inputs") or {})
            for p in dep.get("pending_operations", [])
            if p.get("type") == "creating"]


# ---------------------------------------------------------------- one kill

def kill_run(env, op, at):
    """Starts `op`, SIGKILLs it after |at| seconds; returns whether it was
    still running then."""
    p = subprocess.Popen(env.op_argv(op), env=env.env(),
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         start_new_session=True)
    try:
        p.wait(timeout=at)
        killed = False
    except subprocess.TimeoutExpired:
        os.kill(p.pid, signal.SIGKILL)
        p.wait()
        killed = True
    out = p.stdout.read()
    p.stdout.close()
    log_append(env.root, ["(killed at %.3fs) %s" % (at, op)],
               p.returncode, out)
    if not killed and p.returncode not in (0,):
        raise Failure("`%s` failed without a kill (exit %d):\n%s" %
                      (op, p.returncode, tail(out)))
    return killed


def one_case(args, mode, base, ref, duration, idx, seed):
    rng = random.Random(seed)
    at = rng.uniform(0.0, duration * 1.05)
    root = clone(args, base, os.path.join(args.workdir, "%s-%03d" % (mode, idx)))
    env = Env(args, root)
    info = {"mode": mode, "idx": idx, "seed": seed, "at": at, "root": root}
    try:
        killed = kill_run(env, mode, at)
        info["killed"] = killed
        dep = env.verify()
        info["pending"] = ["%s %s" % (p["type"], p["resource"]["urn"])
                           for p in dep.get("pending_operations", [])]
        orphans = creating_inputs(dep)
        env.op("refresh")
        dep = env.verify()
        env.op("destroy" if mode == "destroy" else "up")
        dep = env.verify()
        bad = [p for p in dep.get("pending_operations", [])
               if p.get("type") != "creating"]
        msgs = ["pending %s on %s left after recovery" %
                (p["type"], p["resource"]["urn"]) for p in bad]
        msgs += diff_states(ref, norm_state(dep))
        msgs += check_world(root, dep, orphans)
        if msgs:
            raise Failure("\n".join(msgs[:20]))
        info["ok"] = True
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
            drop_state(args, root)
    except (Failure, subprocess.TimeoutExpired, OSError, ValueError) as e:
        info["ok"] = False
        info["error"] = str(e)
    return info


# ---------------------------------------------------------------- modes

def prepare(args, mode, programs, work):
    """Builds the base directory for |mode| and the reference result;
    returns (base, ref_state, duration of the uninterrupted operation)."""
    v1, v2 = programs
    base = os.path.join(work, "base-v1")
    if not os.path.exists(base):
        make_base(args, base, v1)
    if mode == "up":
        root = base
    else:
        root = os.path.join(work, "base-v2")
        if not os.path.exists(root):
            clone(args, base, root)
            e = Env(args, root)
            e.write_program(v2)
            e.op("up")
        if mode == "refresh":
            root = os.path.join(work, "base-drift")
            clone(args, os.path.join(work, "base-v2"), root)
            drift(root, random.Random(args.seed + 7))
    # The uninterrupted run, timed, then the same recovery commands.
    refdir = clone(args, root, os.path.join(work, "ref-" + mode))
    e = Env(args, refdir)
    if mode == "up":
        e.write_program(v2)
    t0 = time.monotonic()
    e.op(mode)
    duration = time.monotonic() - t0
    e.op("refresh")
    e.op("destroy" if mode == "destroy" else "up")
    dep = e.verify()
    msgs = check_world(refdir, dep, [])
    if msgs:
        raise Failure("reference run of %s: %s" % (mode, "\n".join(msgs)))
    if mode == "up":
        # Kill points run v2 on copies of the v1 base.
        kbase = os.path.join(work, "base-up")
        clone(args, base, kbase)
        Env(args, kbase).write_program(v2)
        root = kbase
    return root, norm_state(dep), duration


def drift(root, rng):
    w = os.path.join(root, "world")
    for fid in sorted(world_files(root)):
        r = rng.random()
        p = os.path.join(w, fid + ".json")
        if r < 0.1:
            os.unlink(p)
        elif r < 0.2:
            with open(p) as f:
                obj = json.load(f)
            obj["k"] = "drifted"
            with open(p, "w") as f:
                json.dump(obj, f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minipulumi", required=True)
    ap.add_argument("--verify", required=True, help="mp_verify_state")
    ap.add_argument("--kills", type=int, default=50,
                    help="kill points per mode listed in --modes")
    ap.add_argument("--modes", default="up,destroy,refresh")
    ap.add_argument("--mode-kills", default="",
                    help="per-mode counts, e.g. up=50,destroy=10")
    ap.add_argument("--seed", type=int, default=20240605)
    ap.add_argument("--resources", type=int, default=120)
    ap.add_argument("--latency", type=int, default=8,
                    help="__latencyMs of every test resource")
    ap.add_argument("--parallel", type=int, default=8)
    ap.add_argument("--jobs", type=int, default=4,
                    help="kill points run at once")
    ap.add_argument("--verify-writes", action="store_true",
                    help="keep MINIPULUMI_VERIFY_WRITES for the engine")
    ap.add_argument("--keep", action="store_true",
                    help="keep passing cases' directories")
    ap.add_argument("--workdir", default=None)
    ap.add_argument("--bucket-url", default=None,
                    help="the state in this s3:// or azblob:// bucket")
    ap.add_argument("--diy", action="store_true",
                    help="state in a file:// folder (Pulumi's DIY layout)")
    ap.add_argument("--pg-url", default=None,
                    help="keep the state on this PostgreSQL server")
    args = ap.parse_args()
    args.minipulumi = os.path.abspath(args.minipulumi)
    args.verify = os.path.abspath(args.verify)
    counts = {}
    if args.mode_kills:
        for item in args.mode_kills.split(","):
            m, n = item.split("=")
            counts[m] = int(n)
    else:
        for m in args.modes.split(","):
            counts[m] = args.kills
    work = args.workdir or tempfile.mkdtemp(prefix="mp-crash-")
    args.workdir = work
    os.makedirs(work, exist_ok=True)
    print("crash: seed %d, %d resources, latency %dms, workdir %s" %
          (args.seed, args.resources, args.latency, work), flush=True)
    programs = gen_programs(random.Random(args.seed), args.resources,
                            args.latency)
    passed = failed = killed = 0
    for mode, n in counts.items():
        try:
            base, ref, duration = prepare(args, mode, programs, work)
        except Failure as e:
            print("FAIL %s setup (seed %d): %s" % (mode, args.seed, e))
            failed += n
            continue
        print("crash: %s takes %.2fs uninterrupted; %d kill points" %
              (mode, duration, n), flush=True)
        seeds = random.Random("%d-%s" % (args.seed, mode))
        cases = [(i, seeds.randrange(1 << 31)) for i in range(n)]
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
            futs = [ex.submit(one_case, args, mode, base, ref, duration, i, s)
                    for i, s in cases]
            for f in futs:
                info = f.result()
                killed += 1 if info.get("killed") else 0
                if info["ok"]:
                    passed += 1
                    if args.keep or os.environ.get("CRASH_VERBOSE"):
                        print("ok %s #%d at %.3fs killed=%s pending=%s" % (
                            mode, info["idx"], info["at"],
                            info.get("killed"), info.get("pending")))
                else:
                    failed += 1
                    print("FAIL %s #%d (run seed %d, case seed %d, kill at "
                          "%.3fs, dir %s):\n%s" % (
                              mode, info["idx"], args.seed, info["seed"],
                              info["at"], info["root"], info["error"]),
                          flush=True)
    print("crash: %d of the kill points stopped a running command" % killed)
    if failed == 0 and not args.keep and args.workdir and \
            args.workdir.startswith(tempfile.gettempdir()):
        shutil.rmtree(work, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
