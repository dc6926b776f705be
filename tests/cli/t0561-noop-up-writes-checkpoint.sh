#!/bin/bash
# A no-op update writes the checkpoint once, at its end, as Pulumi's
# snapshot journaler does (pkg/backend/snapshot.go defaultServiceLoop:
# hasElidedWrites starts true and is flushed on close). On file:// that
# write moves the stack to .json.gz when PULUMI_DIY_BACKEND_GZIP is
# switched on, and back when it is switched off; a preview writes nothing.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
mkdir -p "$T/state"
export MINIPULUMI_BACKEND_URL="file://$T/state"
unset PULUMI_DIY_BACKEND_GZIP
S="$T/state/.pulumi/stacks/proj/dev"
run stack init dev
cat >> Pulumi.yaml <<'YAML'
resources:
  a:
    type: test:Resource
    properties:
      v: 1
YAML
run up --yes
expect_rc 0 "up"
[ -f "$S.json" ] || fail "no $S.json after up"
manifest_time() { # FILE
  python3 -c '
import gzip, json, sys
p = sys.argv[1]
raw = open(p, "rb").read()
if raw[:2] == b"\x1f\x8b":
    raw = gzip.decompress(raw)
d = json.loads(raw)
print(d["checkpoint"]["latest"]["manifest"]["time"])
assert any(r["urn"].endswith("::a") for r in d["checkpoint"]["latest"]["resources"])
' "$1"
}
BEFORE=$(manifest_time "$S.json")
sleep 1.1

# A no-op up rewrites the file: a new manifest time, the old one in .bak.
run up --yes
expect_rc 0 "no-op up"
AFTER=$(manifest_time "$S.json")
[ "$AFTER" != "$BEFORE" ] || fail "no-op up did not write the checkpoint ($AFTER)"
[ -f "$S.json.bak" ] || fail "no .bak after the no-op up"
[ "$(manifest_time "$S.json.bak")" = "$BEFORE" ] || fail ".bak is not the checkpoint before"

# A preview writes nothing, whatever the variable says.
export PULUMI_DIY_BACKEND_GZIP=true
run preview
expect_rc 0 "preview with gzip on"
[ -f "$S.json" ] && [ ! -f "$S.json.gz" ] || fail "preview moved the checkpoint"

# With gzip switched on, the no-op up moves the stack to .json.gz.
run up --yes
expect_rc 0 "no-op up with gzip on"
[ -f "$S.json.gz" ] || fail "no $S.json.gz after the no-op up with gzip on"
[ ! -f "$S.json" ] || fail "$S.json is still there with gzip on"
manifest_time "$S.json.gz" >/dev/null || fail "the .json.gz is not the checkpoint"

# And back when it is switched off.
export PULUMI_DIY_BACKEND_GZIP=false
run up --yes
expect_rc 0 "no-op up with gzip off"
[ -f "$S.json" ] && [ ! -f "$S.json.gz" ] || fail "the stack did not move back to .json"
run stack export
expect_rc 0 "export after the moves"
expect_out "test:index:Resource::a" "export after the moves"
finish
