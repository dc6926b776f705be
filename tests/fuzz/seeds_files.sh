#!/usr/bin/env bash
# Writes the seeds of the file targets of issue 49 (tests/fuzz/corpus/):
# plan files, file:// checkpoints, history and lock files from real runs
# of the CLI on the built-in test provider (secrets under the fuzz salt
# and passphrase, fuzz_util.h), plugin archives, policy configs with
# their schemas, release answers and template inputs. Run from the
# worktree with a built CLI:  tests/fuzz/seeds_files.sh build/src/cli/minipulumi
set -euo pipefail
M=$(realpath "$1")
C=$(realpath "$(dirname "$0")")/corpus
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export HOME=$T/home MINIPULUMI_TEST_WORLD=$T/world PULUMI_CONFIG_PASSPHRASE=fuzz
export MINIPULUMI_BACKEND_URL=file://$T/state
unset PULUMI_CONFIG_PASSPHRASE_FILE CI
mkdir -p "$HOME" "$T/state" "$T/p"
SALT=$(sed -n 's/^ *"\(v1:ozj[^"]*\)"$/\1/p' "$(dirname "$0")/targets/fuzz_util.h")
cd "$T/p"
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
config:
  n:
    type: integer
resources:
  parent:
    type: test:Resource
    properties:
      n: ${n}
      secret: ${pw}
  child:
    type: test:Resource
    properties:
      tags: [a, b]
      nested: {k: v, list: [1, 2.5, true]}
    options:
      parent: ${parent}
      protect: true
      ignoreChanges: [tags]
      customTimeouts: {create: 5m}
outputs:
  out: ${parent.n}
YAML
"$M" stack init dev >/dev/null
echo "encryptionsalt: $SALT" > Pulumi.dev.yaml
"$M" config set n 1 >/dev/null
"$M" config set --secret pw s3cret >/dev/null
mkdir -p "$C/fuzz_plan_file" "$C/fuzz_diy_checkpoint" "$C/fuzz_diy_history" \
  "$C/fuzz_diy_lock"
"$M" preview --save-plan "$C/fuzz_plan_file/create" >/dev/null
"$M" up --yes >/dev/null
cp "$T/state/.pulumi/stacks/proj/dev.json" "$C/fuzz_diy_checkpoint/two-resources"
"$M" config set n 2 >/dev/null
"$M" preview --save-plan "$C/fuzz_plan_file/update" >/dev/null
"$M" up --yes >/dev/null
"$M" refresh --yes >/dev/null
cp "$T/state/.pulumi/stacks/proj/dev.json" "$C/fuzz_diy_checkpoint/after-refresh"
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
YAML
"$M" preview --save-plan "$C/fuzz_plan_file/delete" >/dev/null || true
"$M" state unprotect --all --yes >/dev/null
"$M" up --yes >/dev/null
cp "$T/state/.pulumi/stacks/proj/dev.json" "$C/fuzz_diy_checkpoint/empty"
gzip -c "$C/fuzz_diy_checkpoint/two-resources" >"$C/fuzz_diy_checkpoint/gzip"
i=0
for f in "$T"/state/.pulumi/history/proj/dev/*.history.json; do
  i=$((i + 1)); cp "$f" "$C/fuzz_diy_history/update-$i"
done
gzip -c "$f" >"$C/fuzz_diy_history/gzip"
# Lock files as Pulumi's lock.go and diy_lock.c write them.
printf '{"pid":4242,"username":"alice","hostname":"build-7","timestamp":"2026-11-27T18:20:44.123456789Z"}' \
  >"$C/fuzz_diy_lock/other-host"
printf '{"pid":1,"username":"root","hostname":"localhost","timestamp":"2026-11-27T18:20:44Z"}' \
  >"$C/fuzz_diy_lock/this-host"
gzip -c "$C/fuzz_diy_lock/other-host" >"$C/fuzz_diy_lock/gzip"
