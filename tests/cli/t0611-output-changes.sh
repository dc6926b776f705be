#!/bin/bash
# Changes to the stack's outputs, as Pulumi shows them: keys sorted and
# padded before the colon; against the last update `+` added, `-` removed,
# `~` changed (old => new); a preview lists only the changes (none: no
# Outputs section), an update every output.
. "$(dirname "$0")/lib.sh" "$@"
program() { # a-value extra-key
  cat > Pulumi.yaml <<Y
name: proj
runtime: yaml
resources:
  pet:
    type: random:RandomPet
outputs:
  a: $1
  petName: \${pet.id}
  $2: x
Y
}
program one gone
run stack init dev
run up --yes --skip-preview
expect_rc 0 "first up"
check "the first update lists every output, aligned, unmarked" '
sec = out.split("Outputs:\n")[1].split("\n\n")[0].split("\n")
assert sec[0] == "    a      : \"one\"", sec
assert sec[1] == "    gone   : \"x\"", sec
assert sec[2].startswith("    petName: \""), sec
'
run preview
expect_rc 0 "no-op preview"
expect_not_out "Outputs:" "nothing changed: no Outputs section"

program two added
run preview
check "a preview lists the changes only" '
sec = out.split("Outputs:\n")[1].split("\n\n")[0].split("\n")
assert sec == ["  ~ a      : \"one\" => \"two\"", "  + added  : \"x\"", "  - gone   : \"x\""], sec
'
run up --yes --skip-preview
check "an update lists every output, the changes marked" '
sec = out.split("Outputs:\n")[1].split("\n\n")[0].split("\n")
assert sec[:3] == ["  ~ a      : \"one\" => \"two\"", "  + added  : \"x\"", "  - gone   : \"x\""], sec
assert sec[3].startswith("    petName: \""), sec
'
run up --yes --skip-preview
check "unchanged: every output, unmarked" '
sec = out.split("Outputs:\n")[1].split("\n\n")[0].split("\n")
assert sec[0] == "    a      : \"two\"" and sec[1] == "    added  : \"x\"", sec
'
run up --yes --skip-preview --suppress-outputs
expect_not_out "Outputs:" "--suppress-outputs"
finish
