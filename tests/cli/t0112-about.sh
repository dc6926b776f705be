#!/bin/bash
# about on a stack that holds secrets (decrypted with the passphrase), in
# Pulumi's shape (pkg/cmd/pulumi/about/about.go): the plugins with their
# versions, the current stack's resources, the backend and, for a Node.js
# program, its package.json dependencies at their installed versions.
. "$(dirname "$0")/lib.sh" "$@"
HOST=$(hostname)
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  pet:
    type: random:RandomPet
outputs:
  hidden:
    fn::secret: s3cr3t-value
YAML
run stack init dev
run config set --secret token xyz
run up --yes
expect_rc 0 "up with a secret output"

run about --json
expect_rc 0 "about --json on a stack with secrets"
check "about --json: Pulumi's shape" '
d = doc()
assert list(d) == ["plugins", "host", "backend", "currentStack", "cliAbout", "runtime", "dependencies", "errors"], list(d)
assert d["errors"] == [], d["errors"]
assert {"name": "random", "version": "0.1.0", "kind": "resource"} in d["plugins"], d["plugins"]
assert d["plugins"][0]["kind"] == "language" and d["plugins"][0]["name"] == "yaml", d["plugins"]
s = d["currentStack"]
assert s["name"] == "dev" and s["fullyQualifiedName"] == "organization/proj/dev", s
types = [r["type"] for r in s["resources"]]
assert types == ["pulumi:pulumi:Stack", "pulumi:providers:random", "random:index/randomPet:RandomPet"], types
assert s["pendingOps"] == [], s
b = d["backend"]
assert b["name"] == "'"$HOST"'" and b["url"] == "'"$T/state.db"'" and b["organizations"] == [], b
assert d["runtime"] == {"language": "yaml"}, d["runtime"]
assert d["dependencies"] == [], d["dependencies"]'
case "$OUT" in *s3cr3t*|*xyz*) fail "about shows a secret" ;; esac

run about
expect_rc 0 "about"
expect_out "Plugins
KIND      NAME    VERSION
language  yaml" "the plugins table"
expect_out "resource  random  0.1.0" "random's version"
expect_out "Current Stack: organization/proj/dev" "the current stack"
expect_out "random:index/randomPet:RandomPet  urn:pulumi:dev::proj::random:index/randomPet:RandomPet::pet" "the resources table"
expect_out "Found no pending operations associated with dev" "no pending operations"
expect_out "URL            $T/state.db" "the backend's URL"
expect_out "No dependencies found" "a YAML program has no dependencies"
[ -z "$ERR" ] || fail "about warned: $ERR"

# a wrong passphrase is one of the errors, never a failure
PULUMI_CONFIG_PASSPHRASE=wrong run about --json
expect_rc 0 "about with a wrong passphrase"
check "the passphrase error" '
d = doc(); assert d["currentStack"] is None, d
assert any("incorrect passphrase" in e for e in d["errors"]), d["errors"]'

# a Node.js program: package.json's dependencies at their installed versions
mkdir -p "$T/node/node_modules/@pulumi/pulumi" "$T/node/node_modules/left-pad"
cd "$T/node"
printf 'name: nodeproj\nruntime: nodejs\n' >Pulumi.yaml
printf '{"name": "nodeproj", "dependencies": {"@pulumi/pulumi": "^3.0.0", "left-pad": "^1.3.0", "absent": "2.0.0"}}\n' >package.json
printf '{"name": "@pulumi/pulumi", "version": "3.142.0"}\n' >node_modules/@pulumi/pulumi/package.json
printf '{"name": "left-pad", "version": "1.3.0"}\n' >node_modules/left-pad/package.json
run about --json
expect_rc 0 "about on a Node.js program"
check "the Node.js dependencies" '
d = doc()
assert d["dependencies"] == [{"name": "@pulumi/pulumi", "version": "3.142.0"}, {"name": "left-pad", "version": "1.3.0"}, {"name": "absent", "version": "2.0.0"}], d["dependencies"]
assert d["runtime"] == {"language": "nodejs"}, d'
run about
expect_out "Dependencies:
NAME            VERSION
@pulumi/pulumi  3.142.0" "the dependencies table"
finish
