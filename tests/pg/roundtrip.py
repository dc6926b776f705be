#!/usr/bin/env python3
"""`stack export` from SQLite, `stack import` into PostgreSQL (issue 14).

    roundtrip.py --minipulumi BIN   (needs MP_TEST_PG_URL: tests/pg/pgtest.py)

A stack with providers, parents, dependencies, property dependencies, a
secret config value, secret outputs (random passwords) and a protected
resource is deployed on SQLite and exported. The export is imported into
a stack of the same name on PostgreSQL and exported again:
  * the two exports are the same bytes once timestamps (manifest time,
    created, modified) and ciphertexts are masked, and the same bytes
    with --show-secrets;
  * `up --expect-no-changes` on PostgreSQL finds nothing to do;
  * exporting from PostgreSQL and importing back into a fresh SQLite
    stack gives the same bytes again.
With --diy, the export from SQLite goes first into a file:// folder in
Pulumi's DIY layout (SQLite -> file), and PostgreSQL imports what that
folder exports (file -> PostgreSQL); every export is compared the same way.
Prints `N passed, N failed`.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pgtest  # noqa: E402
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from timeouts import timeout_multiplier  # noqa: E402  (tests/timeouts.py)

PROGRAM = """name: trip
runtime: yaml
config:
  token:
    type: string
    secret: true
resources:
  pet:
    type: random:RandomPet
    properties:
      length: 3
  pw:
    type: random:RandomPassword
    properties:
      length: 16
  parent:
    type: test:Resource
    properties:
      name: ${pet.id}
  child:
    type: test:Resource
    properties:
      secret: ${pw.result}
      token: ${token}
      list: [1, "two", {three: 3}]
    options:
      parent: ${parent}
      protect: true
      dependsOn: ["${pet}"]
outputs:
  petName: ${pet.id}
  password: ${pw.result}
"""

MASKS = [
    (re.compile(r'"(time|created|modified)": "[^"]*"'), r'"\1": "<time>"'),
    (re.compile(r'"ciphertext": "[^"]*"'), '"ciphertext": "<ciphertext>"'),
]


def mask(text):
    for rx, rep in MASKS:
        text = rx.sub(rep, text)
    return text


class Failure(Exception):
    pass


class Cli:
    def __init__(self, args, root):
        self.args, self.root = args, root
        self.proj = os.path.join(root, "proj")
        os.makedirs(self.proj)
        os.makedirs(os.path.join(root, "world"))
        with open(os.path.join(self.proj, "Pulumi.yaml"), "w") as f:
            f.write(PROGRAM)
        self.env = dict(os.environ)
        self.env.update({"PULUMI_CONFIG_PASSPHRASE": "trip", "HOME": root,
                         "MINIPULUMI_TEST_WORLD": os.path.join(root,
                                                               "world")})
        self.env.pop("MINIPULUMI_BACKEND_URL", None)

    def run(self, backend, *cmd):
        p = subprocess.run([self.args.minipulumi, "--backend", backend,
                            "--non-interactive", "--color", "never", "-C",
                            self.proj, "-s", "dev"] + list(cmd),
                           env=self.env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=120 * timeout_multiplier())
        if p.returncode != 0:
            raise Failure("`minipulumi %s` on %s exited %d: %s" % (
                " ".join(cmd), backend.split(":")[0], p.returncode,
                (p.stdout + p.stderr).decode()[-800:]))
        return p.stdout.decode()

    def export(self, backend, name, *flags):
        path = os.path.join(self.root, name)
        self.run(backend, "stack", "export", "--file", path, *flags)
        with open(path) as f:
            return path, f.read()


def compare(what, a, b):
    if a == b:
        return []
    la, lb = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return ["%s differ at line %d:\n    %s\n    %s" % (what, i + 1,
                                                             x, y)]
    return ["%s differ in length: %d and %d lines" % (what, len(la),
                                                     len(lb))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minipulumi", required=True)
    ap.add_argument("--diy", action="store_true",
                    help="pass through a file:// folder between the two")
    ap.add_argument("--via", action="append", default=[],
                    help="a bucket URL to pass through after the folder")
    args = ap.parse_args()
    args.minipulumi = os.path.abspath(args.minipulumi)
    admin = os.environ.get("MP_TEST_PG_URL")
    if not admin:
        print("SKIP: MP_TEST_PG_URL is not set; run through tests/pg/pgtest.py")
        return 77
    work = tempfile.mkdtemp(prefix="mp-trip-")
    msgs = []
    try:
        cli = Cli(args, work)
        lite = os.path.join(work, "state.db")
        pg = pgtest.createdb(admin, "trip")
        cli.run(lite, "stack", "init", "dev")
        cli.run(lite, "config", "set", "--secret", "token", "tok-3x4mpl3")
        cli.run(lite, "up", "--yes", "--skip-preview")
        a_path, a = cli.export(lite, "sqlite.json")
        _, a_plain = cli.export(lite, "sqlite-plain.json", "--show-secrets")
        if a.count('"urn"') < 7 or '"protect": true' not in a:
            msgs.append("the SQLite export lacks the stack's resources")
        if "tok-3x4mpl3" in a or "tok-3x4mpl3" not in a_plain:
            msgs.append("the secret is not where it belongs in the exports")
        hops = []
        if args.diy:
            folder = os.path.join(work, "diy")
            os.makedirs(folder)
            hops.append(("file://", "file://" + folder))
        for i, url in enumerate(args.via):
            base, _, query = url.partition("?")
            scheme = base.split("://")[0] + "://"
            hops.append((scheme, "%s/trip%d%s" % (base.rstrip("/"), i,
                                                  "?" + query if query
                                                  else "")))
        for i, (name, url) in enumerate(hops):
            cli.run(url, "stack", "init", "dev")
            cli.run(url, "stack", "import", "--file", a_path)
            cli.run(url, "up", "--yes", "--skip-preview", "--expect-no-changes")
            a_path, d = cli.export(url, "hop%d.json" % i)
            _, d_plain = cli.export(url, "hop%d-plain.json" % i,
                                    "--show-secrets")
            msgs += compare("the SQLite and %s exports" % name, mask(a),
                            mask(d))
            msgs += compare("the %s exports with --show-secrets" % name,
                            mask(a_plain), mask(d_plain))
        cli.run(pg, "stack", "init", "dev")
        cli.run(pg, "stack", "import", "--file", a_path)
        b_path, b = cli.export(pg, "postgres.json")
        _, b_plain = cli.export(pg, "postgres-plain.json", "--show-secrets")
        msgs += compare("the SQLite and PostgreSQL exports", mask(a), mask(b))
        msgs += compare("the exports with --show-secrets", mask(a_plain),
                        mask(b_plain))
        cli.run(pg, "up", "--yes", "--skip-preview", "--expect-no-changes")
        back = os.path.join(work, "back.db")
        cli.run(back, "stack", "init", "dev")
        cli.run(back, "stack", "import", "--file", b_path)
        _, c = cli.export(back, "back.json")
        msgs += compare("the export back in SQLite", mask(a), mask(c))
    except (Failure, subprocess.TimeoutExpired, OSError, RuntimeError) as e:
        msgs.append(str(e))
    for m in msgs:
        print("FAIL " + m)
    if not msgs:
        print("ok   export from SQLite, import into %sPostgreSQL and back" %
              "".join("%s, then " % n for n, _ in hops))
        shutil.rmtree(work, ignore_errors=True)
    else:
        print("roundtrip: kept %s" % work)
    print("%d passed, %d failed" % (0 if msgs else 1, 1 if msgs else 0))
    return 1 if msgs else 0


if __name__ == "__main__":
    sys.exit(main())
