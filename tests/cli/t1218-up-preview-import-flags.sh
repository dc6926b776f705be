#!/bin/bash
# Pulumi's flags of up, preview and import (pkg/cmd/pulumi/operations/
# up.go, preview.go, import.go):
#  - up/preview --config-path: the --config keys are property paths;
#  - up/preview --attach-debugger: refused, saying why;
#  - up --strict: the preview records a plan and the update keeps to it
#    (refused with --skip-preview, Pulumi's words);
#  - up --refresh --run-program: the refresh configures the provider as
#    the program does (the `test` provider's world is its config);
#  - import --config-file, -d/--debug, --suppress-permalink,
#    --suppress-progress.
. "$(dirname "$0")/lib.sh" "$@"
mkdir -p "$T/w1" "$T/w2"
cat >> Pulumi.yaml <<'YAML'
resources:
  r:
    type: test:Resource
    properties:
      v: 1
YAML
run stack init dev
run config set test:world "$T/w1"

# --config-path
run up -y --config-path --config 'app.list[0]=x' --config 'obj.n=3'
expect_rc 0 "up --config-path"
run config --json
check "path config values" '
d = doc()
assert d["proj:app"]["objectValue"] == {"list": ["x"]}, d
assert d["proj:obj"]["objectValue"] == {"n": 3}, d'
run preview --config-path -c 'obj.m=true'
expect_rc 0 "preview --config-path"
run config get obj --json
check "preview set the path too" 'assert doc()["objectValue"] == {"n": 3, "m": True}, out'

# --attach-debugger
for cmd in up preview; do
  run $cmd --attach-debugger=program
  expect_rc 2 "$cmd --attach-debugger"
  expect_err "--attach-debugger is not supported" "$cmd says why"
done

# --strict
run up --strict --skip-preview
expect_rc 1 "--strict with --skip-preview"
expect_err "--strict cannot be used with --skip-preview; strict requires a preview" "Pulumi's words"
sed -i 's/v: 1/v: 2/' Pulumi.yaml
run up --strict -y --json
expect_rc 0 "up --strict"
check "the update ran under the preview's plan" '
s = steps(events())
assert ("update", "r") in s, s'
export_state
check "the change was made" 'assert res()["r"]["inputs"]["v"] == 2, res()["r"]'
ls "$TMPDIR" | grep -q strict-plan && fail "the temporary plan is removed"

# up --refresh --run-program
run config set test:world "$T/w2"
: > "$T/w1/calls.jsonl"
run up -y -r
expect_rc 0 "up --refresh"
grep -q '"read"' "$T/w1/calls.jsonl" || fail "the refresh read from the recorded world"
run config set test:world "$T/w1"
run up -y
run config set test:world "$T/w2"
: > "$T/w1/calls.jsonl"; : > "$T/w2/calls.jsonl"
run up -y -r --run-program
expect_rc 0 "up --refresh --run-program"
grep -q '"read"' "$T/w2/calls.jsonl" || fail "--run-program: the refresh read from the program's world"
grep -q '"read"' "$T/w1/calls.jsonl" && fail "--run-program: no read from the recorded world"

# import: the operation flags. The stack's file names w1, the state's
# provider and other.yaml name w2: the import reads in w2 only through
# --config-file.
run config set test:world "$T/w1"
cat > other.yaml <<'YAML'
config:
  test:world: OTHER
YAML
sed -i "s|OTHER|$T/w2|" other.yaml
f=$(ls "$T"/w2/*.json | grep -v calls.jsonl | head -1)
cp "$f" "$T/w2/someid.json"
: > "$T/w1/calls.jsonl"; : > "$T/w2/calls.jsonl"
run import test:index:Resource imp someid -y --config-file other.yaml -d --suppress-permalink --suppress-progress --generate-code=false
expect_rc 0 "import with the operation flags"
grep -q '"read"' "$T/w2/calls.jsonl" || fail "import --config-file: read in the named file's world"
grep -q '"read"' "$T/w1/calls.jsonl" && fail "import --config-file: no read in the stack file's world"
finish
