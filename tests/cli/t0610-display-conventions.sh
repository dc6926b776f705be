#!/bin/bash
# Pulumi's display conventions: default providers are hidden and left out
# of the counts (here and in --json), type names are short
# (`random:index:RandomPet`), and the Info column says what changes
# (`[diff: ~length]`), in lines and in the terminal's table; an unknown
# value reads `output<string>`; --show-sames, --show-replacement-steps,
# --suppress-outputs, --suppress-progress; `update` and `down`.
. "$(dirname "$0")/lib.sh" "$@"
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
config:
  len:
    type: integer
    default: 4
resources:
  pet:
    type: random:RandomPet
  s:
    type: random:RandomString
    properties:
      length: ${len}
outputs:
  petName: ${pet.id}
YAML
run stack init dev
run preview
expect_rc 0 "preview"
expect_out " +  random:index:RandomPet pet create" "short type name"
expect_out " +  random:index:RandomString s create" "short type name"
expect_not_out "random:index/randomPet" "no long type names"
expect_not_out "pulumi:providers" "default providers hidden"
expect_out "    + 3 to create" "counted without the default provider"
expect_out "    petName: output<string>" "an unknown output"
run up --yes --json
check "JSON counts leave default providers out" '
sm = [e["summaryEvent"] for e in events() if "summaryEvent" in e][-1]
assert sm["resourceChanges"] == {"create": 3}, sm
'
run preview -c len=6
expect_out " +- random:index:RandomString s replace [diff: ~length]" "the short diff"
expect_out "    +-1 to replace" "one replace"
expect_out "2 unchanged" "stack and pet unchanged"
run_tty 20 - "-" preview -c len=6
check "the table has an Info column" '
import re
plain = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", out)
assert re.search(r"Type +Name +Plan +Info", plain), plain
assert re.search(r"\+- +└─ random:index:RandomString +s +replace +\[diff: ~length\]", plain), plain
assert "pulumi:providers" not in plain, plain
'

# --show-sames, --show-replacement-steps, --suppress-outputs,
# --suppress-progress
run preview
expect_not_out "random:index:RandomPet pet" "sames hidden"
run preview --show-sames
expect_out "random:index:RandomPet pet" "--show-sames"
run preview -c len=6 --show-replacement-steps
expect_out "++ random:index:RandomString s create replacement [diff: ~length]" "--show-replacement-steps"
expect_out "-- random:index:RandomString s delete original" "--show-replacement-steps"
run preview -c len=6
expect_not_out "create replacement" "one replace row by default"
expect_not_out "Outputs:" "a preview leaves unchanged outputs out (t0611)"
run preview --suppress-outputs
expect_not_out "Outputs:" "--suppress-outputs"
run_tty 20 - "-" preview --suppress-progress
check "no redraw in place" '
import re
assert not re.search(r"\x1b\[[0-9]+A", out), repr(out[:300])
'

# update and down are up and destroy
run update --yes
expect_rc 0 "update"
expect_out "Updating (dev)" "update is up"
run down --yes
expect_rc 0 "down"
expect_out "Destroying (dev)" "down is destroy"
finish
