#!/bin/bash
# What the Automation API relies on, from the command line: install, the
# --client and --event-log tcp:// addresses refused with a clear error
# before anything runs, --config-file, and the lock error's words.
. "$(dirname "$0")/lib.sh" "$@"

# Started as `pulumi` (a link), it names itself so.
mkdir -p "$T/as-pulumi"
ln -s "$M" "$T/as-pulumi/pulumi"
OUT=$("$T/as-pulumi/pulumi" --help)
case "$OUT" in "pulumi - "*"Usage:"*"pulumi [global flags]"*) ;; *) fail "usage as pulumi: $OUT" ;; esac
ERR=$("$T/as-pulumi/pulumi" nope 2>&1)
case "$ERR" in *'unknown command "nope" for "pulumi"'*"Run 'pulumi --help'"*) ;; *) fail "unknown command as pulumi: $ERR" ;; esac

run install
expect_rc 0 "install of a YAML project"
expect_out "Nothing to install" "install of a YAML project"

# A Node.js project: npm install in the program's folder (a fake npm on
# PATH records where it ran).
mkdir -p "$T/bin" "$T/node/src"
cat > "$T/bin/npm" <<'SH'
#!/bin/sh
pwd > "$NPM_RAN_IN"
echo "$*" >> "$NPM_RAN_IN"
SH
chmod +x "$T/bin/npm"
printf 'name: n\nruntime: nodejs\nmain: src\n' > "$T/node/Pulumi.yaml"
export NPM_RAN_IN="$T/npm-ran"
PATH="$T/bin:$PATH" run -C "$T/node" install
expect_rc 0 "install of a Node.js project"
expect_out "Finished installing dependencies" "install of a Node.js project"
[ "$(head -1 "$T/npm-ran")" = "$T/node/src" ] &&
  [ "$(tail -1 "$T/npm-ran")" = "install" ] ||
  fail "npm install ran as: $(cat "$T/npm-ran")"

run stack init dev
run up --yes --client 10.0.0.1:80
expect_rc 2 "--client off this host"
[ -z "$OUT" ] || fail "--client off this host: ran anyway: $OUT"
expect_err "--client '10.0.0.1:80': expected the address of a language runtime on this host" "--client off this host"
run preview --event-log tcp://example.com:1
expect_rc 2 "--event-log to another host"
expect_err "--event-log 'tcp://example.com:1': expected a file or tcp://127.0.0.1:PORT" "--event-log to another host"
run up --yes --event-log tcp://127.0.0.1:1
expect_rc 1 "--event-log to a closed port"
expect_err "engine events (--event-log)" "--event-log to a closed port"

# --config-file: the stack's config from another file.
printf 'config:\n  proj:greeting: from-file\n' > "$T/other.yaml"
run config get greeting
expect_rc 1 "no greeting in Pulumi.dev.yaml"
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
config:
  greeting:
    type: string
outputs:
  said: ${greeting}
YAML
run up --yes --config-file "$T/other.yaml"
expect_rc 0 "up --config-file"
run stack output said
expect_out "from-file" "the output of up --config-file"

# about --json: Pulumi's keys, the current stack and its resources.
run about --json
expect_rc 0 "about --json"
echo "$OUT" | python3 -c '
import json, sys
a = json.load(sys.stdin)
assert set(a) == {"plugins", "host", "backend", "currentStack", "cliAbout",
                  "runtime", "dependencies", "errors"}, sorted(a)
assert a["cliAbout"]["version"].startswith("3.206.0+minipulumi."), a["cliAbout"]
assert a["runtime"] == {"language": "yaml"}, a["runtime"]
assert a["currentStack"]["name"] == "dev", a["currentStack"]
assert a["backend"]["user"], a["backend"]
' || fail "about --json: $OUT"

# destroy --exclude-protected: what is protected and what it needs stay
# (gone is listed after kept: the stack's children listed before kept
# count as what kept needs, tests/cli/t0560-destroy-exclude-protected.sh).
use_test_world
run stack init prot
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  base:
    type: test:Resource
    properties:
      v: 1
  kept:
    type: test:Resource
    properties:
      v: ${base.v}
    options:
      protect: true
  gone:
    type: test:Resource
    properties:
      v: ${base.v}
    options:
      dependsOn: ["${kept}"]
YAML
run up --yes -s prot
expect_rc 0 "up of the protected stack"
run destroy --yes -s prot --exclude-protected
expect_rc 0 "destroy --exclude-protected"
run stack export -s prot
echo "$OUT" | grep -q 'test:index:Resource::gone' && fail "gone is still there"
echo "$OUT" | grep -q 'test:index:Resource::kept' || fail "kept was destroyed"
echo "$OUT" | grep -q 'test:index:Resource::base' || fail "base, which kept needs, was destroyed"
run destroy --yes -s prot --exclude-protected
expect_rc 0 "destroy --exclude-protected with only protected left"
expect_out "There were no unprotected resources to destroy. There are still 4 protected resources" "nothing left"
finish
