#!/usr/bin/env python3
"""Lifecycle fuzzing for minipulumi (issue #5), in the style of Pulumi's
lifecycle fuzzing (pkg/engine/lifecycletest/fuzzing).

Each case, from its own seed:
  * a valid prior snapshot: the stack, the default `test` provider and up
    to two explicit ones, components, `test` resources with parents
    (components or other resources), dependencies, property dependencies,
    explicit providers, protect, initErrors, pendingReplacement entries,
    `delete: true` copies, and pending operations (creating, updating,
    deleting); the world holds an object per live custom resource (a few
    are missing: drift), plus orphans of pending creates;
  * a Pulumi YAML program registering any subset of the prior's `test`
    resources (same or changed properties, parents, providers and
    dependencies) plus new ones; `test` resources fail at random
    (__failOn: check, diff, create, update, delete, read), some replace
    (__replaceKeys, __dbr);
  * one operation: preview, up, refresh or destroy, with random targets
    (--target, --target-dependents), --parallel and --continue-on-error.

The prior is written with tests/tools/mp_load_state (which keeps pending
operations; `stack import` drops them). After the operation, whatever its
outcome:
  * the snapshot passes the integrity check and the stack is unlocked
    (tests/tools/mp_verify_state --check-unlocked);
  * the command ended by itself (no signal, no sanitizer report, no
    timeout) with exit status 0 or a plain failure status;
  * preview changed neither the state nor the world; refresh changed no
    world object.

The engine runs with MINIPULUMI_VERIFY_WRITES=1, so any write that breaks
the integrity rules fails the operation on the spot.

A failing case prints its seed and writes a scenario file (program, prior
deployment, world, command) to --fail-dir; `run.py --replay FILE` runs it
again and keeps its directory. Prints `N passed, N failed`.

  tests/fuzz/run.py --minipulumi build/src/cli/minipulumi \
      --verify build/tests/mp_verify_state \
      --load build/tests/mp_load_state --cases 10000

With --pg-url URL (a PostgreSQL server, e.g. tests/pg/pgtest.py's
MP_TEST_PG_URL) each case keeps its state in a database of its own on that
server instead of a state.db file; with --diy, in a file:// folder in
Pulumi's DIY layout.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from timeouts import timeout_multiplier  # noqa: E402  (tests/timeouts.py)

PROJECT = "fuzz"
STACK = "dev"
TYPE = "test:index:Resource"
PTYPE = "pulumi:providers:test"
CTYPE = "fuzz:index:Component"
STACK_TYPE = "pulumi:pulumi:Stack"
OPS = ["check", "diff", "create", "update", "delete", "read"]
PASS = "fuzz-test"


def urn(qual_type, name):
    return "urn:pulumi:%s::%s::%s::%s" % (STACK, PROJECT, qual_type, name)


STACK_URN = urn(STACK_TYPE, "%s-%s" % (PROJECT, STACK))
DEFAULT_PROV = urn(PTYPE, "default")


# ------------------------------------------------------------- the prior

class Prior:
    """A generated prior snapshot: resources in order, pending ops, and
    the world files to plant."""

    def __init__(self):
        self.res = []        # checkpoint dicts, in order
        self.pending = []    # {"resource":..., "type":...}
        self.world = {}      # id -> outputs
        self.tests = []      # live test resources: dicts with meta
        self.next_id = 1


def qual(parent_res, t):
    """The qualified type of a child of |parent_res| (None: the stack)."""
    if parent_res is None or parent_res["type"] == STACK_TYPE:
        return t
    pq = parent_res["urn"].split("::")[2]
    return pq + "$" + t


def gen_inputs(rng, tag, fail_p=0.08):
    inp = {"k": "%s-%d" % (tag, rng.randrange(3))}
    if rng.random() < 0.4:
        inp["rk"] = "rk-%d" % rng.randrange(3)
        inp["__replaceKeys"] = ["rk"]
        if rng.random() < 0.4:
            inp["__dbr"] = True
    if rng.random() < fail_p:
        inp["__failOn"] = sorted(rng.sample(OPS, rng.randint(1, 2)))
    if rng.random() < 0.05:
        inp["__latencyMs"] = rng.randint(1, 5)
    return inp


def gen_prior(rng):
    p = Prior()
    p.res.append({"urn": STACK_URN, "custom": False, "type": STACK_TYPE})
    provs = []
    if rng.random() < 0.9:
        d = {"urn": DEFAULT_PROV, "custom": True, "id": "prov-default",
             "type": PTYPE, "inputs": {}, "outputs": {}}
        p.res.append(d)
        provs.append(d)
    for i in range(rng.randint(0, 2)):
        d = {"urn": urn(PTYPE, "p%d" % i), "custom": True,
             "id": "prov-p%d" % i, "type": PTYPE, "inputs": {},
             "outputs": {}, "parent": STACK_URN}
        p.res.append(d)
        provs.append(d)
    comps = []
    for i in range(rng.randint(0, 2)):
        d = {"urn": urn(CTYPE, "c%d" % i), "custom": False, "type": CTYPE,
             "parent": STACK_URN}
        p.res.append(d)
        comps.append(d)
    if not provs:
        return p
    n = rng.randint(2, 14)
    for i in range(n):
        parent = None
        r = rng.random()
        if comps and r < 0.2:
            parent = rng.choice(comps)
        elif p.tests and r < 0.35:
            parent = rng.choice(p.tests)
        name = "t%d" % i
        prov = rng.choice(provs)
        inputs = gen_inputs(rng, "a")
        d = {"urn": urn(qual(parent, TYPE), name), "custom": True,
             "id": "id-%d" % p.next_id, "type": TYPE, "inputs": inputs,
             "outputs": dict(inputs),
             "parent": parent["urn"] if parent else STACK_URN,
             "provider": "%s::%s" % (prov["urn"], prov["id"])}
        p.next_id += 1
        earlier = [x["urn"] for x in p.tests]
        if earlier and rng.random() < 0.4:
            deps = sorted(set(rng.sample(earlier, min(len(earlier),
                                                      rng.randint(1, 2)))))
            d["dependencies"] = deps
            if rng.random() < 0.6:
                d["propertyDependencies"] = {"k": deps[:1]}
        if comps and rng.random() < 0.1:
            d["dependencies"] = sorted(set(d.get("dependencies", []) +
                                           [rng.choice(comps)["urn"]]))
        if rng.random() < 0.08:
            d["protect"] = True
        if rng.random() < 0.05:
            d["initErrors"] = ["init failed before"]
        if rng.random() < 0.06:
            d["pendingReplacement"] = True
        elif rng.random() < 0.9:
            p.world[d["id"]] = dict(inputs)  # else: drifted away
        if rng.random() < 0.08:
            # An old copy awaiting deletion (a create-before-replace that
            # was interrupted before the delete).
            old_in = gen_inputs(rng, "old", fail_p=0.15)
            old = dict(d, id="id-%d" % p.next_id, inputs=old_in,
                       outputs=dict(old_in), delete=True)
            old.pop("pendingReplacement", None)
            old.pop("protect", None)
            p.next_id += 1
            if rng.random() < 0.8:
                p.world[old["id"]] = dict(old_in)
            p.res.append(old)
        p.res.append(d)
        p.tests.append(d)
    for _ in range(rng.choice([0, 0, 0, 1, 1, 2])):
        kind = rng.choice(["creating", "updating", "deleting"])
        if kind == "creating":
            inputs = gen_inputs(rng, "pc")
            r = {"urn": urn(TYPE, "pc%d" % rng.randrange(4)), "custom": True,
                 "type": TYPE, "inputs": inputs, "parent": STACK_URN,
                 "provider": "%s::%s" % (provs[0]["urn"], provs[0]["id"])}
            if rng.random() < 0.5:
                p.world["id-%d" % p.next_id] = dict(inputs)  # an orphan
                p.next_id += 1
        else:
            r = dict(rng.choice(p.tests))
        p.pending.append({"resource": r, "type": kind})
    return p


def deployment(p, secrets):
    dep = {"manifest": {"time": "2024-01-01T00:00:00Z",
                        "magic": hashlib.sha256(b"0.1.0").hexdigest(),
                        "version": "0.1.0"},
           "resources": p.res}
    if secrets:
        dep["secrets_providers"] = secrets
    if p.pending:
        dep["pending_operations"] = p.pending
    return {"version": 3, "deployment": dep}


# ------------------------------------------------------------- the program

def yname(u):
    return u.rsplit("::", 1)[1]


def gen_program(rng, p):
    """A Pulumi YAML program over a random subset of |p|'s test resources
    plus new ones. Returns (text, urns it registers)."""
    decls = {}   # name -> dict(props, parent, deps, provider, protect)
    order = []
    reg_urns = {}  # name -> urn
    provs = set()
    for t in p.tests:
        name = yname(t["urn"])
        par = t.get("parent")
        if rng.random() < 0.3:
            continue  # not registered: deleted by up
        pname = None
        if par and par != STACK_URN:
            pn = yname(par)
            if pn not in decls:
                continue  # parent is a component or not registered
            pname = pn
        if rng.random() < 0.1 and order:
            pname = rng.choice(order)  # reparented: a new URN
        props = dict(t.get("inputs") or {})
        r = rng.random()
        if r < 0.3:
            props["k"] = "b-%d" % rng.randrange(3)
        elif r < 0.45 and "rk" in props:
            props["rk"] = "rk-%d" % rng.randrange(3, 6)
        if rng.random() < 0.15:
            if "__failOn" in props:
                del props["__failOn"]
            else:
                props["__failOn"] = sorted(rng.sample(OPS, 1))
        prov = None
        if t.get("provider") and not t["provider"].startswith(DEFAULT_PROV):
            prov = yname(t["provider"].rsplit("::", 1)[0])
        if rng.random() < 0.1:
            prov = rng.choice([None, "p0", "p1"])
        if prov:
            provs.add(prov)
        deps = [yname(u) for u in t.get("dependencies", [])
                if yname(u) in decls]
        ref = None
        if order and rng.random() < 0.3:
            ref = rng.choice(order)
        decls[name] = {"props": props, "parent": pname, "deps": deps,
                       "provider": prov, "ref": ref,
                       "protect": t.get("protect") if rng.random() < 0.8
                       else not t.get("protect")}
        order.append(name)
    for i in range(rng.randint(0, 5)):
        name = "n%d" % i
        pname = rng.choice(order) if order and rng.random() < 0.2 else None
        prov = rng.choice(["p0", "p1"]) if rng.random() < 0.15 else None
        if prov:
            provs.add(prov)
        deps = sorted(set(rng.sample(order, min(len(order), 1)))) \
            if order and rng.random() < 0.4 else []
        ref = rng.choice(order) if order and rng.random() < 0.3 else None
        decls[name] = {"props": gen_inputs(rng, "n", fail_p=0.15),
                       "parent": pname, "deps": deps, "provider": prov,
                       "ref": ref, "protect": rng.random() < 0.03}
        order.append(name)
    out = ["name: %s" % PROJECT, "runtime: yaml", "resources:"]
    for pv in sorted(provs):
        out += ["  %s:" % pv, "    type: %s" % PTYPE]
    for name in order:
        d = decls[name]
        out += ["  %s:" % name, "    type: test:Resource", "    properties:"]
        for k, v in sorted(d["props"].items()):
            out.append("      %s: %s" % (k, json.dumps(v)))
        if d["ref"]:
            out.append("      d: ${%s.k}" % d["ref"])
        opts = []
        if d["parent"]:
            opts.append("      parent: ${%s}" % d["parent"])
        if d["deps"]:
            opts.append("      dependsOn: [%s]" % ", ".join(
                '"${%s}"' % x for x in d["deps"]))
        if d["provider"]:
            opts.append("      provider: ${%s}" % d["provider"])
        if d["protect"]:
            opts.append("      protect: true")
        if opts:
            out += ["    options:"] + opts
    # The URNs the program registers, for targets.
    urns = {}
    for name in order:
        chain = []
        x = decls[name]["parent"]
        while x:
            chain.append(TYPE)
            x = decls[x]["parent"]
        urns[name] = urn("$".join(chain + [TYPE]), name)
    return "\n".join(out) + "\n", sorted(urns.values())


def gen_command(rng, p, prog_urns):
    op = rng.choice(["preview", "up", "up", "refresh", "destroy"])
    args = [op]
    if op != "preview":
        args += ["--yes", "--skip-preview"]
    args += ["-p", str(rng.choice([1, 2, 4, 8, 16]))]
    pool = sorted(set([r["urn"] for r in p.res] + prog_urns))
    if rng.random() < 0.3 and pool:
        for u in rng.sample(pool, min(len(pool), rng.randint(1, 2))):
            args += ["--target", u]
        if op in ("up", "preview", "destroy") and rng.random() < 0.4:
            args.append("--target-dependents")
    if op in ("up", "destroy") and rng.random() < 0.3:
        args.append("--continue-on-error")
    return args


def gen_case(seed):
    rng = random.Random(seed)
    p = gen_prior(rng)
    text, urns = gen_program(rng, p)
    return {"seed": seed, "prior": p, "program": text,
            "command": gen_command(rng, p, urns)}


# ------------------------------------------------------------- running

class Failure(Exception):
    pass


def world_state(wdir):
    out = {}
    for f in sorted(os.listdir(wdir)):
        if f.endswith(".json") and not f.startswith("."):
            with open(os.path.join(wdir, f)) as fh:
                out[f] = fh.read()
    return out


def world_calls(wdir):
    path = os.path.join(wdir, "calls.jsonl")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def norm(dep):
    return json.dumps({"resources": dep.get("resources", []),
                       "pending": dep.get("pending_operations", [])},
                      sort_keys=True)


def pg_module():
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
        __file__)), "..", "pg"))
    import pgtest
    return pgtest


class Runner:
    def __init__(self, args, secrets, stack_cfg):
        self.args = args
        self.secrets = secrets
        self.stack_cfg = stack_cfg

    def pg_db(self, root):
        return "fuzz_" + "".join(c if c.isalnum() else "_" for c in
                                 os.path.basename(root).lower())

    def backend(self, root):
        """The state backend URL of case directory |root|."""
        if self.args.pg_url:
            return pg_module().with_db(self.args.pg_url, self.pg_db(root))
        if self.args.diy:
            return "file://" + os.path.join(root, "state")
        return os.path.join(root, "state.db")

    def new_state(self, root):
        if self.args.pg_url:
            pg_module().createdb(self.args.pg_url, self.pg_db(root))
        elif self.args.diy:
            os.makedirs(os.path.join(root, "state"), exist_ok=True)

    def drop_state(self, root):
        if self.args.pg_url:
            pg_module().dropdb(self.args.pg_url, self.pg_db(root))

    def env(self, root):
        e = dict(os.environ)
        e["PULUMI_CONFIG_PASSPHRASE"] = PASS
        e["MINIPULUMI_TEST_WORLD"] = os.path.join(root, "world")
        e["MINIPULUMI_VERIFY_WRITES"] = "1"
        e.pop("MINIPULUMI_BACKEND_URL", None)
        return e

    def cli(self, root, cmd):
        return [self.args.minipulumi, "--backend",
                self.backend(root), "--non-interactive",
                "--color", "never", "-C", os.path.join(root, "proj"),
                "-s", STACK] + cmd

    def verify(self, root, export):
        p = subprocess.run([self.args.verify,
                            self.backend(root), PROJECT, STACK,
                            "--check-unlocked", "--quiet", "--export",
                            export], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=60 * timeout_multiplier())
        if p.returncode != 0:
            raise Failure("state check failed (exit %d): %s" % (
                p.returncode, p.stdout.decode(errors="replace").strip()))
        with open(export) as f:
            return json.load(f)["deployment"]

    def setup(self, root, case, dep_json, world):
        self.new_state(root)
        os.makedirs(os.path.join(root, "proj"))
        os.makedirs(os.path.join(root, "world"))
        with open(os.path.join(root, "proj", "Pulumi.yaml"), "w") as f:
            f.write(case["program"])
        with open(os.path.join(root, "proj", "Pulumi.%s.yaml" % STACK),
                  "w") as f:
            f.write(self.stack_cfg)
        prior_path = os.path.join(root, "prior.json")
        with open(prior_path, "w") as f:
            json.dump(dep_json, f, indent=1)
        for fid, content in world.items():
            with open(os.path.join(root, "world", fid + ".json"), "w") as f:
                json.dump(content, f)
        with open(os.path.join(root, "world", ".counter"), "w") as f:
            f.write("1000\n")
        p = subprocess.run([self.args.load, self.backend(root),
                            PROJECT, STACK, prior_path],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           env=self.env(root), timeout=60 * timeout_multiplier())
        if p.returncode != 0:
            raise Failure("generated prior refused (a generator bug?): %s"
                          % p.stdout.decode(errors="replace").strip())

    def run_case(self, case, root, dep_json, world):
        self.setup(root, case, dep_json, world)
        cmd = case["command"]
        before = self.verify(root, os.path.join(root, "before.json"))
        wdir = os.path.join(root, "world")
        world_before = world_state(wdir)
        ncalls = len(world_calls(wdir))
        try:
            p = subprocess.run(self.cli(root, cmd), env=self.env(root),
                               stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT,
                               timeout=self.args.timeout)
        except subprocess.TimeoutExpired:
            raise Failure("`minipulumi %s` did not finish in %ds" %
                          (" ".join(cmd), self.args.timeout))
        out = p.stdout.decode(errors="replace")
        with open(os.path.join(root, "output.txt"), "w") as f:
            f.write("$ minipulumi %s -> %d\n%s" % (" ".join(cmd),
                                                  p.returncode, out))
        msgs = []
        if p.returncode < 0 or p.returncode >= 64:
            msgs.append("`minipulumi %s` ended with status %d" %
                        (" ".join(cmd), p.returncode))
        for bad in ("AddressSanitizer", "runtime error:", "LeakSanitizer",
                    "internal error", "Assertion", "panic"):
            if bad in out:
                msgs.append("output mentions %r" % bad)
        try:
            after = self.verify(root, os.path.join(root, "after.json"))
        except Failure as e:
            msgs.append(str(e))
            after = None
        op = cmd[0]
        if after is not None and op == "preview" and norm(before) != \
                norm(after):
            msgs.append("preview changed the state")
        if op == "preview" and world_state(wdir) != world_before:
            msgs.append("preview changed the world")
        if op == "refresh":
            writes = [c for c in world_calls(wdir)[ncalls:]
                      if c["op"] in ("create", "update", "delete")]
            if writes:
                msgs.append("refresh made world-changing calls: %s" %
                            ", ".join("%s %s" % (c["op"], c["urn"])
                                      for c in writes[:5]))
        if msgs:
            raise Failure("\n".join(msgs) + "\n--- output (tail):\n" +
                          "\n".join(out.splitlines()[-15:]))
        return p.returncode

    def one(self, seed=None, scenario=None, keep=False):
        if scenario is None:
            case = gen_case(seed)
            dep_json = deployment(case["prior"], self.secrets)
            world = case["prior"].world
        else:
            case = scenario
            seed = case["seed"]
            dep_json = case["prior"]
            world = case["world"]
        root = tempfile.mkdtemp(prefix="case-%d-" % seed,
                                dir=self.args.workdir)
        try:
            rc = self.run_case(case, root, dep_json, world)
            if not keep:
                shutil.rmtree(root, ignore_errors=True)
                self.drop_state(root)
            return seed, None, rc, root
        except (Failure, OSError, ValueError) as e:
            path = os.path.join(self.args.fail_dir, "fuzz-case-%d.json" %
                                seed)
            os.makedirs(self.args.fail_dir, exist_ok=True)
            with open(path, "w") as f:
                json.dump({"seed": seed, "command": case["command"],
                           "program": case["program"], "prior": dep_json,
                           "world": world,
                           "how": "tests/fuzz/run.py --replay %s (plus the "
                                  "--minipulumi/--verify/--load paths); "
                                  "the case directory is kept" % path},
                          f, indent=1)
            return seed, "%s\n(scenario: %s, directory: %s)" % (e, path,
                                                               root), None, \
                root


def template_secrets(args, work):
    """A passphrase secrets provider made once (key derivation is slow),
    shared by every case: its deployment JSON block and stack config."""
    root = os.path.join(work, "template")
    os.makedirs(os.path.join(root, "proj"))
    with open(os.path.join(root, "proj", "Pulumi.yaml"), "w") as f:
        f.write("name: %s\nruntime: yaml\n" % PROJECT)
    r = Runner(args, None, "")
    r.new_state(root)
    p = subprocess.run(r.cli(root, ["stack", "init", STACK]),
                       env=r.env(root), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=120 * timeout_multiplier())
    if p.returncode != 0:
        raise SystemExit("fuzz: cannot create the template stack: %s" %
                         p.stdout.decode(errors="replace"))
    export = os.path.join(root, "export.json")
    dep = r.verify(root, export)
    cfg_path = os.path.join(root, "proj", "Pulumi.%s.yaml" % STACK)
    cfg = open(cfg_path).read() if os.path.exists(cfg_path) else ""
    return dep.get("secrets_providers"), cfg


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minipulumi", required=True)
    ap.add_argument("--verify", required=True, help="mp_verify_state")
    ap.add_argument("--load", required=True, help="mp_load_state")
    ap.add_argument("--cases", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1,
                    help="case i uses seed SEED+i")
    ap.add_argument("--jobs", type=int, default=max(2, os.cpu_count() or 2))
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--workdir", default=None)
    ap.add_argument("--fail-dir", default=None,
                    help="where failing scenarios go (default: workdir)")
    ap.add_argument("--replay", default=None, help="a scenario file")
    ap.add_argument("--show", type=int, default=None,
                    help="print the scenario of this seed and exit")
    ap.add_argument("--stats", action="store_true",
                    help="print the operations' exit statuses")
    ap.add_argument("--diy", action="store_true",
                    help="state in a file:// folder (Pulumi's DIY layout)")
    ap.add_argument("--pg-url", default=None,
                    help="keep each case's state on this PostgreSQL server")
    args = ap.parse_args()
    for k in ("minipulumi", "verify", "load"):
        setattr(args, k, os.path.abspath(getattr(args, k)))
    if args.show is not None:
        c = gen_case(args.show)
        print(json.dumps({"command": c["command"],
                          "prior": deployment(c["prior"], None),
                          "world": c["prior"].world}, indent=1))
        print(c["program"])
        return 0
    work = args.workdir or tempfile.mkdtemp(prefix="mp-fuzz-")
    args.workdir = work
    os.makedirs(work, exist_ok=True)
    args.fail_dir = os.path.abspath(args.fail_dir or work)
    secrets, cfg = template_secrets(args, work)
    runner = Runner(args, secrets, cfg)
    if args.replay:
        with open(args.replay) as f:
            sc = json.load(f)
        seed, err, rc, root = runner.one(scenario=sc, keep=True)
        print("replay of seed %d in %s: %s" % (seed, root,
                                               "FAIL\n" + err if err else
                                               "ok (exit %s)" % rc))
        print("%d passed, %d failed" % (0 if err else 1, 1 if err else 0))
        return 1 if err else 0
    print("fuzz: %d cases from seed %d, workdir %s" % (args.cases, args.seed,
                                                       work), flush=True)
    passed = failed = 0
    statuses = {}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        futs = [ex.submit(runner.one, args.seed + i)
                for i in range(args.cases)]
        for f in futs:
            seed, err, rc, root = f.result()
            if err:
                failed += 1
                print("FAIL seed %d: %s" % (seed, err), flush=True)
            else:
                passed += 1
                statuses[rc] = statuses.get(rc, 0) + 1
    if args.stats:
        print("fuzz: exit statuses of passing cases: %s" %
              ", ".join("%s: %d" % kv for kv in sorted(statuses.items())))
    if failed == 0:
        shutil.rmtree(os.path.join(work, "template"), ignore_errors=True)
        try:
            os.rmdir(work)  # only when nothing else is left in it
        except OSError:
            pass
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
