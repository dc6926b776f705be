#!/bin/bash
# refresh and destroy end to end; destroy --remove drops the stack.
. "$(dirname "$0")/lib.sh" "$@"
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  pet:
    type: random:RandomPet
YAML

run stack init dev
run up -y
expect_rc 0 "up"
run refresh --yes
expect_rc 0 "refresh"
expect_out "Previewing refresh (dev)" "refresh preview header"
expect_out "Refreshing (dev)" "refresh header"
run refresh --preview-only
expect_rc 0 "refresh --preview-only needs no --yes"
expect_not_out "Refreshing (dev)" "only the preview"
run destroy --preview-only
expect_rc 0 "destroy --preview-only"
expect_out "Previewing destroy (dev)" "destroy preview header"
expect_out " -  random:index:RandomPet pet delete" "delete row"
run destroy --yes --skip-preview
expect_rc 0 "destroy"
expect_out "Destroying (dev)" "destroy header"
expect_out "pet deleted" "deleted status"
expect_out "deleted" "summary"
run stack output
expect_out "No output values" "nothing left"
run up -f
expect_rc 0 "-f implies yes"
run destroy -y --remove
expect_rc 0 "destroy --remove"
run stack ls
expect_not_out "dev" "stack removed"
finish
