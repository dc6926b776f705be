#!/bin/bash
# issue 49 (16): a pack that crashed mid-run (it analysed the first
# resource, then exited on the one named boom) is shown failed (❌, as
# Pulumi's display marks a failed pack) in the Policies: section, never
# with ✅, in a preview and in an update; the operation fails naming it.
. "$(dirname "$0")/lib.sh" "$@"
PACK="$PACKS/midcrash"
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  fine:
    type: random:RandomPet
    properties:
      length: 1
  boom:
    type: random:RandomPet
    properties:
      length: 2
    options:
      dependsOn:
        - ${fine}
YAML
run stack init dev
for cmd in preview "up --yes"; do
  run $cmd --policy-pack "$PACK"
  expect_rc 1 "$cmd with a pack that crashes on boom"
  expect_out "error: policy pack mp-midcrash-pack: Analyze failed" "$cmd: the failure names the pack"
  case "$OUT" in
  *"✅ mp-midcrash-pack"*) fail "$cmd: the crashed pack is shown passed: $OUT" ;;
  esac
  case "$OUT" in
  *"Policies:"*) expect_out "❌ mp-midcrash-pack@v0.0.1 (local: $PACK)" "$cmd: the pack shown failed" ;;
  esac
done
finish
