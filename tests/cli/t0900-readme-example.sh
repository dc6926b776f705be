#!/bin/bash
# The README's first command: scripts/run-example.sh's main job (its
# run_main_job function, taken from the script as it is) against a fresh
# copy of examples/random-file, with the built binary and without setup or
# build; then the stack outputs and the file it wrote, and a second run.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh" "$@"
R=$T/repo
mkdir -p "$R/build/src/cli" "$R/examples"
ln -s "$M" "$R/build/src/cli/minipulumi"
cp "$ROOT/examples/random-file/Pulumi.yaml" "$ROOT/examples/random-file/README.md" "$R/examples/random-file/" 2>/dev/null ||
  { mkdir -p "$R/examples/random-file" && cp "$ROOT/examples/random-file/Pulumi.yaml" "$ROOT/examples/random-file/README.md" "$R/examples/random-file/"; }
job=$(sed -n '/^run_main_job() {$/,/^}$/p' "$ROOT/scripts/run-example.sh")
[ -n "$job" ] || fail "scripts/run-example.sh has no run_main_job"
unset MINIPULUMI_BACKEND_URL PULUMI_CONFIG_PASSPHRASE
D=$R/examples/random-file

main_job() {
  (cd "$R" && eval "$job" && set -euo pipefail && run_main_job) </dev/null >"$T/out" 2>"$T/err"
  RC=$?
  OUT=$(cat "$T/out")
  ERR=$(cat "$T/err")
}

main_job
expect_rc 0 "the main job"
expect_out "minipulumi" "version printed"
expect_out "Updating (dev)" "the update"
expect_out "+ 4 created" "three resources and the stack (default providers are not counted)"
expect_out "Current stack outputs (3):" "stack output"
expect_out "password  [secret]" "the password stays secret"
[ -f "$D/.minipulumi/state.db" ] || fail "the state store is under the project folder"
[ -f "$D/Pulumi.dev.yaml" ] || fail "the stack's config file"
pet=$(echo "$OUT" | sed -n 's/^    petName   //p')
case "$pet" in *-*) ;; *) fail "a two-word pet name: '$pet'" ;; esac
file=$D/out/$pet.txt
expect_out "filePath  $file" "the file path output"
[ -f "$file" ] || fail "the file was written: $file"
export MINIPULUMI_BACKEND_URL="sqlite://$D/.minipulumi/state.db" PULUMI_CONFIG_PASSPHRASE=minipulumi-example
run -C "$D" stack output --show-secrets password
pw=$OUT
[ "${#pw}" = 16 ] || fail "a 16 character password: '$pw'"
printf 'hello, %s!\nstack dev of random-file\npassword %s\n' "$pet" "$pw" >"$T/expected.txt"
cmp -s "$T/expected.txt" "$file" || fail "file contents: $(cat "$file")"
run -C "$D" stack output --json
check "stack output --json" '
o = doc()
assert set(o) == {"petName", "filePath", "password"}, o
assert o["password"] == "[secret]" and o["filePath"].endswith(".txt"), o
'
run -C "$D" stack export
check "the state" '
d = doc()["deployment"]
types = sorted(r["type"] for r in d["resources"])
assert types == sorted(["pulumi:pulumi:Stack", "pulumi:providers:random", "pulumi:providers:local", "local:index:File", "random:index/randomPet:RandomPet", "random:index/randomPassword:RandomPassword"]), types
assert "random:index/randomPet:RandomPet" in types and "random:index/randomPassword:RandomPassword" in types, types
f = [r for r in d["resources"] if r["type"] == "local:index:File"][0]
deps = f.get("dependencies") or []
assert any(u.endswith("::pet") for u in deps) and any(u.endswith("::password") for u in deps), deps
'

# a second run of the job changes nothing
unset MINIPULUMI_BACKEND_URL PULUMI_CONFIG_PASSPHRASE
main_job
expect_rc 0 "the main job again"
expect_out "4 unchanged" "nothing changed"
expect_out "petName   $pet" "same pet"

# and destroy cleans up the file
export MINIPULUMI_BACKEND_URL="sqlite://$D/.minipulumi/state.db" PULUMI_CONFIG_PASSPHRASE=minipulumi-example
run -C "$D" destroy -y
expect_rc 0 "destroy the example"
[ -e "$file" ] && fail "destroy deletes the file"
finish
