#!/usr/bin/env python3
"""Pulumi's language conformance tests, run against minipulumi's embedded
YAML host (docs/language-conformance.md).

For each test: copies its program (projects/<test>/, or projects/<test>/<N>/
for run N of a test whose runs do not share a source) into a fresh
temporary project, with a fresh SQLite state store, a passphrase, a plugin
cache of its own holding the test provider plugins of providers/ at the
versions the test declares (sdks/<pkg>.yaml); then
for each run sets the run's config, runs `minipulumi preview` (when the run
asserts on it) and `minipulumi up`, exports the state and checks the run's
assertions (l1.py, l2.py: Pulumi's tests/l1_*.go and l2_*.go restated;
policy.py: tests/policy_*.go, whose runs also give policy packs of
policies/ with their config, --policy-pack and --policy-pack-config on
both commands, and assert on the engine events).

Usage: run.py [-k FILTER] [-j JOBS] [--keep] BINARY [TEST...]
Prints one line per test and `N passed, N failed`. A test listed in
EXPECTED_FAIL must fail (XFAIL); if it passes, that is a failure saying so,
so that the table is kept true.
"""

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import check  # noqa: E402
import https_fixture  # noqa: E402
import l1  # noqa: E402
import l2  # noqa: E402
import policy  # noqa: E402
import provider  # noqa: E402

STACK = "organization/%s/test"


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from timeouts import timeout_multiplier  # noqa: E402  (tests/timeouts.py)


# One command's time limit: a bound for a hang, far above any command's
# normal length even on a busy machine (a test failing for time must be a
# hang, not load).
CMD_TIMEOUT = 600 * timeout_multiplier()
PIN_VERSIONS = False

# Tests that fail for a reason outside this port, each with the reason.
EXPECTED_FAIL = {}


def all_tests():
    tests = {}
    tests.update(l1.TESTS)
    tests.update(l2.TESTS)
    tests.update(policy.TESTS)
    tests.update(provider.TESTS)
    return tests


class Env:
    """One test's temporary world: project folder, state store, HOME."""

    def __init__(self, binary, name, keep):
        self.binary = binary
        self.name = name
        self.keep = keep
        self.tmp = tempfile.mkdtemp(prefix="mplang-%s-" % name)
        self.project = os.path.join(self.tmp, "project")
        self.env = dict(os.environ)
        self.env.update({
            "HOME": self.tmp,
            "PULUMI_HOME": os.path.join(self.tmp, ".pulumi"),
            "PULUMI_CONFIG_PASSPHRASE": "language-tests",
            "MINIPULUMI_VERIFY_WRITES": "1",
            "MINIPULUMI_BACKEND_URL": os.path.join(self.tmp, "state.db"),
        })
        self.env.pop("PULUMI_PARALLEL", None)
        self.log = []

    def exec(self, argv, cwd=None, stdin=None):
        self.log.append("$ minipulumi " + " ".join(argv))
        try:
            p = subprocess.run([self.binary] + argv, cwd=cwd or self.project, env=self.env,
                               input=stdin, capture_output=True, text=True, timeout=CMD_TIMEOUT)
        except subprocess.TimeoutExpired as e:
            self.log.append("timed out after %gs" % CMD_TIMEOUT)
            text = lambda b: b.decode(errors="replace") if isinstance(b, bytes) else (b or "")
            return -1, text(e.stdout), text(e.stderr) + "\ntimed out after %gs" % CMD_TIMEOUT
        self.log.append("exit %d\n%s%s" % (p.returncode, tail(p.stdout), tail(p.stderr)))
        return p.returncode, p.stdout, p.stderr

    def use_source(self, src):
        """Replaces the project's files by those of |src| (the stack's
        config file stays)."""
        keep = {}
        if os.path.isdir(self.project):
            for f in os.listdir(self.project):
                if f.startswith("Pulumi.") and f != "Pulumi.yaml":
                    with open(os.path.join(self.project, f)) as fh:
                        keep[f] = fh.read()
            shutil.rmtree(self.project)
        shutil.copytree(src, self.project, ignore=shutil.ignore_patterns("[0-9]", "[0-9][0-9]"))
        for f, text in keep.items():
            with open(os.path.join(self.project, f), "w") as fh:
                fh.write(text)

    def cleanup(self):
        if not self.keep:
            shutil.rmtree(self.tmp, ignore_errors=True)


def sdk_versions(src_root):
    """(package, version) of every sdks/<pkg>.yaml under a test's folder."""
    found = set()
    for d, _, files in os.walk(src_root):
        if os.path.basename(d) != "sdks":
            continue
        for f in files:
            fields = {}
            with open(os.path.join(d, f)) as fh:
                for line in fh:
                    if line[:1].isspace():
                        continue  # a nested key (parameterization: name, version)
                    k, _, v = line.partition(":")
                    fields[k.strip()] = v.strip().strip("'\"")
            if fields.get("name") and fields.get("version"):
                found.add((fields["name"], fields["version"]))
    return found


def install_providers(env, pkgs):
    """Puts the test providers at the versions a test uses into its plugin
    cache, as `pulumi plugin install` would: one folder per version,
    resource-<pkg>-v<version>/pulumi-resource-<pkg>."""
    for pkg, version in sorted(pkgs):
        script = os.path.join(HERE, "providers", pkg + ".js")
        if not os.path.exists(script):
            continue
        d = os.path.join(env.env["PULUMI_HOME"], "plugins", "resource-%s-v%s" % (pkg, version))
        os.makedirs(d, exist_ok=True)
        exe = os.path.join(d, "pulumi-resource-" + pkg)
        with open(exe, "w") as f:
            f.write("#!/bin/sh\nLANGTEST_PROVIDER_VERSION=%s exec node %s \"$@\"\n" % (version, script))
        os.chmod(exe, 0o755)


def install_language_providers(env, names, pkgs):
    """Puts the language providers a test names (yaml-providers/<pkg>/, a
    plugin folder with PulumiPlugin.yaml) into its plugin cache at the
    versions its package declarations name, as Pulumi's runner copies
    each into the test's folder and loads it as <pkg>@<version>: a cache
    folder without an executable is a plugin from source."""
    for pkg, version in sorted(pkgs):
        if pkg not in names:
            continue
        d = os.path.join(env.env["PULUMI_HOME"], "plugins", "resource-%s-v%s" % (pkg, version))
        shutil.copytree(os.path.join(HERE, "yaml-providers", pkg), d)


def pin_versions(project_dir):
    """Development aid (--pin-versions): gives each resource of Main.yaml
    the version of its package's declaration as a `version` option, which
    minipulumi already honours, so that the providers and assertions can be
    tried before package declarations are read. Needs PyYAML."""
    import yaml
    decls = dict(sdk_versions(project_dir))
    for d, _, files in os.walk(project_dir):
        if "Main.yaml" not in files:
            continue
        path = os.path.join(d, "Main.yaml")
        with open(path) as f:
            doc = yaml.safe_load(f) or {}
        for r in (doc.get("resources") or {}).values():
            typ = r.get("type", "")
            pkg = typ.split(":")[2] if typ.startswith("pulumi:providers:") else typ.split(":")[0]
            if pkg in decls:
                opts = r.setdefault("options", {}) or {}
                opts.setdefault("version", decls[pkg])
                r["options"] = opts
        pin_invokes(doc, decls)
        with open(path, "w") as f:
            yaml.safe_dump(doc, f, allow_unicode=True, sort_keys=False)


def pin_invokes(node, decls):
    if isinstance(node, dict):
        inv = node.get("fn::invoke")
        if isinstance(inv, dict) and inv.get("function", "").split(":")[0] in decls:
            opts = inv.setdefault("options", {}) or {}
            opts.setdefault("version", decls[inv["function"].split(":")[0]])
            inv["options"] = opts
        for v in node.values():
            pin_invokes(v, decls)
    elif isinstance(node, list):
        for v in node:
            pin_invokes(v, decls)


def tail(text, n=4000):
    return text if len(text) <= n else "..." + text[-n:]


def project_name(project_dir):
    with open(os.path.join(project_dir, "Pulumi.yaml")) as f:
        for line in f:
            if line.startswith("name:"):
                return line.split(":", 1)[1].strip().strip("'\"")
    raise check.Failed("no name in Pulumi.yaml")


def set_config(env, project, config):
    """Makes the stack's config exactly |config|: plain and structured
    values written into Pulumi.test.yaml (kept beside its encryption
    salt), secrets through `config set --secret`."""
    path = os.path.join(env.project, "Pulumi.test.yaml")
    salt = []
    if os.path.exists(path):
        with open(path) as f:
            salt = [l for l in f if l.startswith("encryptionsalt:")]
    values = {}
    for key, v in config.items():
        full = key if ":" in key else "%s:%s" % (project, key)
        if isinstance(v, check.Obj):
            values[full] = v.value
        elif isinstance(v, str):
            values[full] = v
    with open(path, "w") as f:
        f.writelines(salt)
        f.write("config: %s\n" % json.dumps(values, ensure_ascii=False))
    for key, v in config.items():
        if isinstance(v, check.Sec):
            full = key if ":" in key else "%s:%s" % (project, key)
            rc, _, err = env.exec(["config", "set", "--secret", full, v.text])
            if rc != 0:
                raise check.Failed("config set --secret %s failed: %s" % (full, err.strip()))


def make_stack_ref(env, name, outputs):
    """A stack |name| (org/project/stack) whose Stack resource has
    |outputs|, for a StackReference to read."""
    _, proj, stack = name.split("/")
    where = os.path.join(env.tmp, "ref-" + proj)
    os.makedirs(where, exist_ok=True)
    with open(os.path.join(where, "Pulumi.yaml"), "w") as f:
        f.write("name: %s\nruntime: yaml\n" % proj)
    rc, _, err = env.exec(["stack", "init", name], cwd=where)
    if rc != 0:
        raise check.Failed("stack init %s failed: %s" % (name, err.strip()))

    def wire(v):
        if isinstance(v, check.Secret):
            return {check.SIG_KEY: check.SECRET_SIG, "plaintext": json.dumps(v.value)}
        return v

    urn = "urn:pulumi:%s::%s::pulumi:pulumi:Stack::%s-%s" % (stack, proj, proj, stack)
    doc = {"version": 3, "deployment": {
        "manifest": {"time": "2025-01-01T00:00:00Z", "magic": "", "version": ""},
        "resources": [{"urn": urn, "custom": False, "type": "pulumi:pulumi:Stack",
                       "outputs": {k: wire(v) for k, v in outputs.items()}}]}}
    rc, _, err = env.exec(["stack", "import", "--stack", name], cwd=where,
                          stdin=json.dumps(doc))
    if rc != 0:
        raise check.Failed("stack import %s failed: %s" % (name, err.strip()))


def summary_changes(stdout):
    """The resourceChanges of the `--json` event stream's summary."""
    changes = {}
    for ev in check.events(stdout):
        if "summaryEvent" in ev:
            changes = ev["summaryEvent"].get("resourceChanges", {}) or {}
    return changes


def deploy(env, cmd, flags):
    """Runs `cmd` (up or preview); returns (error text or None, the engine
    events as JSON lines, stderr). A preview's `--json` prints a digest, so
    its events come from --event-log."""
    argv = [cmd, "--non-interactive", "--json", "--stack", "test"] + flags
    log = os.path.join(env.tmp, "events.jsonl")
    if os.path.exists(log):
        os.unlink(log)
    if cmd == "up":
        argv += ["--yes", "--skip-preview"]
    else:
        argv += ["--event-log", log]
    rc, out, err = env.exec(argv)
    if cmd != "up":
        out = open(log).read() if os.path.exists(log) else ""
    failure = None
    if rc != 0:
        failure = "\n".join(m for m in error_messages(out) + [err.strip()] if m) or "exit %d" % rc
    return failure, out, err


def error_messages(stdout):
    """The error diagnostics of a `--json` event stream."""
    return [e["diagnosticEvent"].get("message", "").strip() for e in check.events(stdout)
            if e.get("diagnosticEvent", {}).get("severity") == "error"]


def export(env):
    rc, out, err = env.exec(["stack", "export", "--show-secrets", "--stack", "test"])
    if rc != 0:
        return None
    return json.loads(out)


def run_test(binary, name, test, keep):
    env = Env(binary, name, keep)
    fixture = None
    try:
        src_root = os.path.join(check_root(), name)
        install_providers(env, sdk_versions(src_root) | set(test.providers))
        install_language_providers(env, getattr(test, "language_providers", ()),
                                   sdk_versions(src_root))
        # A test's https URLs (its `https`: URL -> a file of its folder) are
        # served by a local intercepting proxy (https_fixture.py).
        if getattr(test, "https", None):
            fixture = https_fixture.Fixture(
                {u: os.path.join(src_root, f) for u, f in test.https.items()}, env.tmp).start()
            env.env.update(fixture.env())
        for i, run in enumerate(test.runs):
            src = src_root
            if not test.share_source and os.path.isdir(os.path.join(src_root, str(i))):
                src = os.path.join(src_root, str(i))
            env.use_source(src)
            if PIN_VERSIONS:
                pin_versions(env.project)
            project = project_name(env.project)
            if i == 0:
                rc, _, err = env.exec(["stack", "init", STACK % project])
                if rc != 0:
                    raise check.Failed("stack init failed: " + err.strip())
                for ref, outs in test.stack_refs.items():
                    make_stack_ref(env, ref, outs)
            set_config(env, project, run.config)
            packs = policy.policy_flags(env.project, run)
            if run.preview is not None:
                err, out, errtext = deploy(env, "preview", packs)
                run.preview(check.Result(env.project, err, None, summary_changes(out), out, errtext))
            err, out, errtext = deploy(env, "up", run.flags + packs)
            state = export(env)
            res = check.Result(env.project, err, state, summary_changes(out), out, errtext)
            try:
                run.check(res)
            except check.Failed as e:
                raise check.Failed("run %d: %s" % (i, e))
        return None, env.log
    except check.Failed as e:
        return str(e), env.log
    except Exception:  # a bug in a test's code: report it as its failure
        return traceback.format_exc(), env.log
    finally:
        if fixture:
            fixture.stop()
        env.cleanup()


def check_root():
    return os.path.join(HERE, "projects")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary")
    ap.add_argument("tests", nargs="*")
    ap.add_argument("-k", dest="filter", default="")
    ap.add_argument("-j", dest="jobs", type=int, default=2)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("-v", dest="verbose", action="store_true")
    ap.add_argument("--shard", default=None, metavar="I/N",
                    help="only every N-th of the selected tests, from the I-th (1..N): "
                         "meson runs the shards of a long suite side by side")
    ap.add_argument("--pin-versions", action="store_true",
                    help="development aid: see pin_versions")
    args = ap.parse_intermixed_args()
    binary = os.path.abspath(args.binary)
    global PIN_VERSIONS
    PIN_VERSIONS = args.pin_versions
    tests = all_tests()
    names = args.tests or sorted(tests)
    for n in names:
        if n not in tests:
            print("unknown test %s" % n)
            return 2
    names = [n for n in names if args.filter in n]
    if args.shard:
        try:
            i, n = (int(x) for x in args.shard.split("/"))
            if not 1 <= i <= n:
                raise ValueError
        except ValueError:
            print("--shard takes I/N with 1 <= I <= N, not %r" % args.shard)
            return 2
        names = names[i - 1::n]
    if any(n.startswith(("l2-", "provider-")) for n in names) and not os.path.isdir(
            os.path.join(HERE, "node_modules", "@pulumi", "pulumi")):
        print("FAIL: the test providers need tests/language/node_modules: "
              "run scripts/npm-deps.sh tests/language")
        return 1
    if any(n.startswith("policy-") for n in names) and not os.path.isdir(
            os.path.join(HERE, "node_modules", "@pulumi", "policy")):
        print("FAIL: the policy packs need @pulumi/policy in tests/language/node_modules: "
              "run scripts/npm-deps.sh tests/language")
        return 1
    passed = failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futs = {n: pool.submit(run_test, binary, n, tests[n], args.keep) for n in names}
        for n in names:
            why, log = futs[n].result()
            xfail = EXPECTED_FAIL.get(n)
            if why is None and xfail is None:
                print("PASS  %s" % n)
                passed += 1
            elif why is not None and xfail is not None:
                print("XFAIL %s (%s)" % (n, xfail))
                if args.verbose:
                    print("      " + why.replace("\n", "\n      "))
                passed += 1
            elif why is None:
                print("FAIL  %s: passes, but EXPECTED_FAIL says it fails (%s); "
                      "remove it from the table" % (n, xfail))
                failed += 1
            else:
                print("FAIL  %s: %s" % (n, why))
                print("      " + "\n".join(log[-6:]).replace("\n", "\n      "))
                failed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
