#!/usr/bin/env python3
"""A folder in Pulumi's DIY layout, written by hand (tests/diy/fixture/):
project `diyproj` with two stacks under a passphrase, `dev` with a history
entry and `prod` gzipped. minipulumi works on it in place:

  * `stack ls` lists both, `preview` finds nothing to do (the program made
    them), `config get` and `stack output --show-secrets` decrypt them;
  * `stack history` shows the hand-written entry, then the new one;
  * `up` of a change rewrites the checkpoint, keeps the old one as .bak;
  * with PULUMI_DIY_BACKEND_GZIP the checkpoint is written gzipped and the
    plain one moved to .bak, and without it the other way round;
  * a lock file of Pulumi's shape stops `up` with Pulumi's message and
    `cancel` removes it; minipulumi's own lock file (seen while a command
    resource waits) has Pulumi's fields;
  * every file minipulumi wrote parses as Pulumi's types: the field names
    and nesting of apitype.VersionedCheckpoint, CheckpointV3, DeploymentV3,
    ManifestV1, ResourceV3, OperationV2, backend.UpdateInfo and lock.go's
    lockContent, nothing else.

    fixture.py --minipulumi BIN
Prints `N passed, N failed`.
"""
import argparse
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from timeouts import timeout_multiplier  # noqa: E402  (tests/timeouts.py)

HERE = os.path.dirname(os.path.abspath(__file__))
PASS = "fixture-passphrase"

# Pulumi's JSON field names (sdk/go/common/apitype, pkg/backend/updates.go,
# pkg/backend/diy/lock.go): key -> type, or a nested schema.
RESOURCE = {k: None for k in (
    "urn custom delete id type inputs outputs parent protect taint external "
    "dependencies initErrors provider propertyDependencies pendingReplacement "
    "additionalSecretOutputs aliases customTimeouts importID retainOnDelete "
    "deletedWith replaceWith created modified sourcePosition stackTrace "
    "ignoreChanges replaceOnChanges refreshBeforeUpdate viewOf resourceHooks "
    "hideDiff replacementTrigger").split()}
RESOURCE.update({"urn": str, "custom": bool, "type": str})
MANIFEST = {"time": str, "magic": str, "version": str, "plugins": list}
DEPLOYMENT = {"manifest": MANIFEST,
              "secrets_providers": {"type": str, "state": dict},
              "resources": [RESOURCE],
              "pending_operations": [{"resource": RESOURCE, "type": str}],
              "metadata": dict}
CHECKPOINT = {"version": int, "features": list,
              "checkpoint": {"stack": str, "config": dict,
                             "latest": DEPLOYMENT}}
UPDATE_INFO = {"kind": str, "startTime": int, "message": str,
               "environment": dict, "config": dict, "version": int,
               "result": str, "endTime": int, "resourceChanges": dict}
LOCK = {"pid": int, "username": str, "hostname": str, "timestamp": str}
REQUIRED = {id(CHECKPOINT): ("version", "checkpoint"),
            id(CHECKPOINT["checkpoint"]): ("stack",),
            id(MANIFEST): ("time", "magic", "version"),
            id(RESOURCE): ("urn", "custom", "type"),
            id(LOCK): tuple(LOCK), id(UPDATE_INFO): ("kind", "startTime",
                                                    "result", "endTime")}


def conforms(value, schema, where):
    """The problems of |value| against |schema| (a type, a dict of fields,
    or a one-element list of a schema)."""
    if schema is None:
        return []
    if isinstance(schema, list):
        if not isinstance(value, list):
            return ["%s: not a list" % where]
        return [p for i, v in enumerate(value)
                for p in conforms(v, schema[0], "%s[%d]" % (where, i))]
    if isinstance(schema, dict):
        if not isinstance(value, dict):
            return ["%s: not an object" % where]
        out = ["%s: unknown field %r" % (where, k) for k in value
               if k not in schema]
        out += ["%s: no %r" % (where, k) for k in REQUIRED.get(id(schema), ())
                if k not in value]
        for k, v in value.items():
            if k in schema:
                out += conforms(v, schema[k], where + "." + k)
        return out
    if schema is int and isinstance(value, bool):
        return ["%s: a bool, not a number" % where]
    if not isinstance(value, schema):
        return ["%s: %r is not %s" % (where, value, schema.__name__)]
    return []


def read_json(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return json.loads(data)


class Failure(Exception):
    pass


class World:
    def __init__(self, args, root):
        self.args, self.root = args, root
        self.proj = os.path.join(root, "proj")
        self.state = os.path.join(root, "state")
        shutil.copytree(os.path.join(HERE, "fixture"), self.proj)
        shutil.move(os.path.join(self.proj, "state"), self.state)
        stacks = os.path.join(self.state, ".pulumi", "stacks", "diyproj")
        with open(os.path.join(self.proj, "prod-checkpoint.json"), "rb") as f:
            with gzip.open(os.path.join(stacks, "prod.json.gz"), "wb") as g:
                g.write(f.read())
        os.remove(os.path.join(self.proj, "prod-checkpoint.json"))
        self.stacks = stacks
        self.env = dict(os.environ)
        for k in ("MINIPULUMI_BACKEND_URL", "PULUMI_DIY_BACKEND_GZIP"):
            self.env.pop(k, None)
        self.env.update({"PULUMI_CONFIG_PASSPHRASE": PASS,
                         "PULUMI_BACKEND_URL": "file://" + self.state,
                         "HOME": root})

    def run(self, *cmd, rc=0, env=None):
        e = dict(self.env, **(env or {}))
        p = subprocess.run([self.args.minipulumi, "--non-interactive",
                            "--color", "never"] + list(cmd), cwd=self.proj,
                           env=e, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=120 * timeout_multiplier())
        out = p.stdout.decode() + p.stderr.decode()
        if p.returncode != rc:
            raise Failure("`minipulumi %s` exited %d, not %d: %s" % (
                " ".join(cmd), p.returncode, rc, out[-1200:]))
        return out

    def program(self, length, extra=""):
        with open(os.path.join(self.proj, "Pulumi.yaml")) as f:
            text = f.read()
        text = text.replace("length: 2", "length: %d" % length)
        text = text.replace("length: 3", "length: %d" % length)
        if "outputs:" in text and extra:
            text = text.replace("outputs:", extra + "outputs:")
        with open(os.path.join(self.proj, "Pulumi.yaml"), "w") as f:
            f.write(text)

    def has(self, *rel):
        return os.path.exists(os.path.join(self.stacks, *rel))


def expect(cond, what):
    if not cond:
        raise Failure(what)


def case_read(w):
    out = w.run("stack", "ls", "--json")
    ls = {s["name"]: s for s in json.loads(out)}
    expect(set(ls) == {"dev", "prod"}, "stack ls lists dev and prod: %s" % out)
    expect(ls["prod"]["resourceCount"] == 3, "prod (gzipped) has 3 resources")
    w.run("preview", "-s", "dev", "--expect-no-changes")
    w.run("preview", "-s", "prod", "--expect-no-changes")
    expect(w.run("config", "get", "token", "-s", "dev").strip() == "s3cr3t-dev",
           "the passphrase decrypts dev's config")
    out = w.run("stack", "output", "token", "--show-secrets", "-s", "prod")
    expect(out.strip() == "s3cr3t-prod", "prod's checkpoint decrypts: " + out)
    h = json.loads(w.run("stack", "history", "-s", "dev", "--json"))
    expect(len(h) == 1 and h[0]["message"] == "first deployment" and
           h[0]["result"] == "succeeded", "the hand-written history: %s" % h)


def case_up_change(w):
    w.program(3)
    w.run("up", "--yes", "-s", "dev", "-m", "longer pets")
    expect(w.has("dev.json") and w.has("dev.json.bak"), "dev.json and .bak")
    bak = read_json(os.path.join(w.stacks, "dev.json.bak"))
    expect(bak["checkpoint"]["stack"] == "organization/diyproj/dev",
           "the .bak is the checkpoint before the last write")
    h = json.loads(w.run("stack", "history", "-s", "dev", "--json"))
    expect(len(h) == 2 and h[0]["message"] == "longer pets" and
           h[1]["message"] == "first deployment", "history: %s" % h)
    w.run("preview", "-s", "dev", "--expect-no-changes")


def case_gzip_both_ways(w):
    w.run("up", "--yes", "-s", "prod")  # the variable unset: plain JSON
    expect(w.has("prod.json") and not w.has("prod.json.gz") and
           w.has("prod.json.gz.bak"), "prod written plain, .gz kept as .bak")
    w.program(2)
    w.run("up", "--yes", "-s", "dev", env={"PULUMI_DIY_BACKEND_GZIP": "1"})
    expect(w.has("dev.json.gz") and not w.has("dev.json") and
           w.has("dev.json.bak"), "dev written gzipped, the plain one .bak")
    hist = os.listdir(os.path.join(w.state, ".pulumi", "history", "diyproj",
                                   "dev"))
    expect(any(n.endswith(".history.json.gz") for n in hist) and
           any(n.endswith(".checkpoint.json.gz") for n in hist),
           "gzipped history: %s" % hist)
    w.run("preview", "-s", "dev", "--expect-no-changes")


def case_pulumi_lock(w):
    d = os.path.join(w.state, ".pulumi", "locks", "organization", "diyproj",
                     "dev")
    os.makedirs(d, exist_ok=True)
    name = "5f0c8e52-3b9a-4c1e-8d7f-0a1b2c3d4e5f.json"
    with open(os.path.join(d, name), "w") as f:
        json.dump({"pid": 31337, "username": "alice", "hostname": "ci-runner",
                   "timestamp": "2024-05-08T09:10:11.987654321+02:00"}, f)
    out = w.run("up", "--yes", "-s", "dev", rc=1)
    expect("the stack is currently locked by 1 lock(s). Either wait for the "
           "other process(es) to end or delete the lock file with "
           "`minipulumi cancel`." in out, "Pulumi's message: " + out)
    expect("file://%s/.pulumi/locks/organization/diyproj/dev/%s: created by "
           "alice@ci-runner (pid 31337) at 2024-05-08T09:10:11+02:00"
           % (w.state, name) in out, "the lock named: " + out)
    w.run("cancel", "--yes", "-s", "dev")
    expect(not os.listdir(d), "cancel removed the lock file")
    # minipulumi's own lock file, seen while a command waits for a file
    go = os.path.join(w.root, "go")
    w.program(2, "  wait:\n    type: command:local:Command\n    properties:\n"
                 "      create: while [ ! -f %s ]; do sleep 0.05; done\n" % go)
    p = subprocess.Popen([w.args.minipulumi, "--non-interactive", "up",
                          "--yes", "-s", "dev"], cwd=w.proj, env=w.env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        locks = []
        for _ in range(600):
            locks = os.listdir(d)
            if locks:
                break
            time.sleep(0.05)
        expect(len(locks) == 1, "minipulumi's lock file appears")
        lock = read_json(os.path.join(d, locks[0]))
        problems = conforms(lock, LOCK, "lock")
        expect(not problems, "; ".join(problems))
        expect(lock["pid"] == p.pid, "the lock names the process")
    finally:
        open(go, "w").close()
        expect(p.wait(timeout=120 * timeout_multiplier()) == 0, "up with the command resource")
    expect(not os.listdir(d), "the lock file is gone after up")


def case_files_parse(w):
    problems = []
    pulumi = os.path.join(w.state, ".pulumi")
    for dirpath, _, names in os.walk(pulumi):
        for n in names:
            path = os.path.join(dirpath, n)
            rel = os.path.relpath(path, pulumi)
            if rel.startswith("minipulumi") or n == "meta.yaml":
                continue
            if n.endswith(".events.jsonl"):
                # minipulumi's own (each update's engine events, one JSON
                # object a line), beside the history: Pulumi's getHistory
                # reads only .history.json names
                with open(path) as f:
                    for i, line in enumerate(f):
                        try:
                            ok = isinstance(json.loads(line), dict)
                        except ValueError:
                            ok = False
                        if not ok:
                            problems.append("%s:%d is not a JSON object" %
                                            (rel, i + 1))
                continue
            schema = UPDATE_INFO if ".history.json" in n else CHECKPOINT
            problems += conforms(read_json(path), schema, rel)
    with open(os.path.join(pulumi, "meta.yaml")) as f:
        if f.read() != "version: 1\n":
            problems.append("meta.yaml is not `version: 1`")
    expect(not problems, "\n    ".join(problems))


CASES = [case_read, case_up_change, case_gzip_both_ways, case_pulumi_lock,
         case_files_parse]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minipulumi", required=True)
    args = ap.parse_args()
    args.minipulumi = os.path.abspath(args.minipulumi)
    root = tempfile.mkdtemp(prefix="mp-diy-fixture-")
    w = World(args, root)
    passed = failed = 0
    for case in CASES:
        try:
            case(w)
            passed += 1
            print("ok   " + case.__name__)
        except (Failure, subprocess.TimeoutExpired, OSError) as e:
            failed += 1
            print("FAIL %s: %s" % (case.__name__, e))
    if failed:
        print("fixture: kept %s" % root)
    else:
        shutil.rmtree(root, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
