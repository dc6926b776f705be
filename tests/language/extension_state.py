#!/usr/bin/env python3
"""An extension package's state across runs (docs/plugins.md, "Components,
methods and packages"): Pulumi YAML's l2-extension-parameterized-resource program with
the extbase provider, then

  1. `up`: the Greeting keeps extensionRef, the SHA-256 of the extension's
     name, NUL, version, NUL and value (Pulumi's hashExtension), and the
     snapshot keeps `extensions` under it (name, version, base64 value),
     in a version 4 deployment with the feature extensionParameterization;
  2. a second `up` of the same program changes nothing;
  3. `stack export`, then `stack import` into a stack of a file:// folder:
     its export keeps the same extensionRef and extensions, and `destroy`
     there deletes the Greeting with a provider loaded with the extension
     from that snapshot alone (extbase.js refuses the delete otherwise),
     and a copy whose `extensions` was removed cannot be destroyed;
  4. back on the SQLite stack, a program without the extension (no
     sdks/myext.yaml, no Greeting): `up` deletes the Greeting the same way,
     and the state has no extensions left (nor the feature).

Usage: extension_state.py path/to/minipulumi"""
import hashlib
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run  # noqa: E402

PROJECT = "l2-extension-parameterized-resource"


def fail(msg, env):
    print("FAIL: " + msg)
    print("\n".join(env.log[-8:]))
    sys.exit(1)


def export(env, stack):
    rc, out, err = env.exec(["stack", "export", "--stack", stack])
    if rc != 0:
        fail("stack export %s: %s" % (stack, err), env)
    return json.loads(out)


def greeting(state):
    found = [r for r in state["deployment"].get("resources", [])
             if r["type"] == "extbase:index:Greeting"]
    return found[0] if found else None


def main():
    binary = os.path.abspath(sys.argv[1])
    env = run.Env(binary, "extension-state", keep=False)
    try:
        src = os.path.join(HERE, "projects", PROJECT)
        run.install_providers(env, {("extbase", "45.0.0")})
        env.use_source(src)
        rc, _, err = env.exec(["stack", "init", "organization/%s/test" % PROJECT])
        if rc != 0:
            fail("stack init: " + err, env)

        # 1. the first up records the extension
        failure, _, _ = run.deploy(env, "up", [])
        if failure:
            fail("up: " + failure, env)
        state = export(env, "test")
        want_ref = hashlib.sha256(b"myext\0" + b"2.0.0\0" + b"Hello").hexdigest()
        g = greeting(state)
        if g is None or g.get("extensionRef") != want_ref:
            fail("the Greeting's extensionRef is %r, not %s" % (g and g.get("extensionRef"), want_ref), env)
        if "pulumi:providers:extbase::default_45_0_0::" not in g.get("provider", ""):
            fail("the Greeting's provider is %r" % g.get("provider"), env)
        want_ext = {want_ref: {"name": "myext", "version": "2.0.0", "value": "SGVsbG8="}}
        if state["deployment"].get("extensions") != want_ext:
            fail("the snapshot's extensions are %r" % state["deployment"].get("extensions"), env)
        if state.get("version") != 4 or "extensionParameterization" not in state.get("features", []):
            fail("version %r features %r" % (state.get("version"), state.get("features")), env)
        others = [r["urn"] for r in state["deployment"]["resources"]
                  if r.get("extensionRef") and r["type"] != "extbase:index:Greeting"
                  and r["type"] != "extbase:index:GreetingComponent"]
        if others:
            fail("resources of no extension have an extensionRef: %r" % others, env)

        # 2. the same program again changes nothing
        failure, out, _ = run.deploy(env, "up", [])
        if failure:
            fail("second up: " + failure, env)
        changes = run.summary_changes(out)
        if set(changes) - {"same"}:
            fail("the second up changed %r" % changes, env)
        if export(env, "test")["deployment"].get("extensions") != want_ext:
            fail("the second up lost the extensions", env)

        # 3. export, import into a file:// stack, destroy there
        rc, text, err = env.exec(["stack", "export", "--stack", "test"])
        if rc != 0:
            fail("stack export: " + err, env)
        sqlite_url = env.env["MINIPULUMI_BACKEND_URL"]
        env.env["MINIPULUMI_BACKEND_URL"] = "file://" + os.path.join(env.tmp, "diy")
        rc, _, err = env.exec(["stack", "init", "organization/%s/test" % PROJECT])
        if rc != 0:
            fail("stack init (file://): " + err, env)
        rc, _, err = env.exec(["stack", "import", "--stack", "test"], stdin=text)
        if rc != 0:
            fail("stack import (file://): " + err, env)
        copy = export(env, "test")
        if copy["deployment"].get("extensions") != want_ext or \
                (greeting(copy) or {}).get("extensionRef") != want_ref:
            fail("the imported stack lost extensionRef or extensions: %r" % copy["deployment"].get("extensions"), env)
        path = os.path.join(env.tmp, "diy", ".pulumi", "stacks", PROJECT, "test.json")
        with open(path) as f:
            stored = json.load(f)
        if stored["checkpoint"]["latest"].get("extensions") != want_ext or \
                "extensionParameterization" not in stored.get("features", []):
            fail("the file:// checkpoint has %r" % stored["checkpoint"]["latest"].get("extensions"), env)
        rc, _, err = env.exec(["destroy", "--yes", "--non-interactive", "--stack", "test"])
        if rc != 0:
            fail("destroy (file://): " + err, env)
        if export(env, "test")["deployment"].get("resources"):
            fail("destroy left resources", env)

        # without its extension in the snapshot the Greeting cannot be
        # served: the destroy stops, naming the reference
        broken = json.loads(text)
        del broken["deployment"]["extensions"]
        rc, _, err = env.exec(["stack", "init", "organization/%s/broken" % PROJECT])
        if rc == 0:
            rc, _, err = env.exec(["stack", "import", "--force", "--stack", "broken"],
                                  stdin=json.dumps(broken))
        if rc != 0:
            fail("stack import (broken): " + err, env)
        rc, out, err = env.exec(["destroy", "--yes", "--non-interactive", "--stack", "broken"])
        if rc == 0 or ("extension blob for %s" % want_ref) not in out + err:
            fail("destroy without the extension's blob: exit %d, %s" % (rc, out + err), env)

        # 4. a program without the extension deletes the Greeting
        env.env["MINIPULUMI_BACKEND_URL"] = sqlite_url
        shutil.rmtree(os.path.join(env.project, "sdks"))
        with open(os.path.join(env.project, "Main.yaml"), "w") as f:
            f.write("outputs:\n  done: yes\n")
        failure, out, _ = run.deploy(env, "up", [])
        if failure:
            fail("up without the extension: " + failure, env)
        if run.summary_changes(out).get("delete", 0) < 1:
            fail("the Greeting was not deleted: %r" % run.summary_changes(out), env)
        state = export(env, "test")
        if greeting(state) or state["deployment"].get("extensions") or \
                "extensionParameterization" in state.get("features", []):
            fail("the extension outlived its resources: %r" % state, env)
        print("ok   extension_state")
        return 0
    finally:
        env.cleanup()


if __name__ == "__main__":
    sys.exit(main())
