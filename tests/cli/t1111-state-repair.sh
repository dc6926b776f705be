#!/bin/bash
# minipulumi state repair: a valid snapshot is left alone; an unsorted one
# with a dangling dependency is sorted and pruned (Pulumi's report, its
# confirmation) and written back valid; a cycle gets the manual-repair
# banner and nothing is written.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: test:Resource
    properties:
      v: 1
  b:
    type: test:Resource
    properties:
      v: ${a.v}
  c:
    type: test:Resource
    properties:
      v: 3
YAML
U=urn:pulumi:dev::proj::test:index:Resource
run stack init dev
run up --yes
run state repair
expect_rc 0 "valid"
expect_out "The snapshot is already valid; skipping repair" "left alone"

# break it: b before a, c depending on a resource that is not there
export_state
python3 - "$T/export.json" "$T/broken.json" "$U" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rs = d["deployment"]["resources"]
names = [r["urn"].split("::")[-1] for r in rs]
a, b = names.index("a"), names.index("b")
rs[a], rs[b] = rs[b], rs[a]
c = rs[names.index("c")]
c["dependencies"] = [sys.argv[3] + "::gone"]
json.dump(d, open(sys.argv[2], "w"))
PY
broken() { # imports $T/broken.json bypassing the checks
  local keep=${MINIPULUMI_VERIFY_WRITES-}
  unset MINIPULUMI_VERIFY_WRITES
  run stack import --force --file "$T/broken.json"
  expect_rc 0 "import of a broken snapshot with --force"
  [ -n "$keep" ] && export MINIPULUMI_VERIFY_WRITES=$keep
}
broken
run state repair
expect_rc 2 "no --yes without a terminal"
expect_out "The following resources will be reordered to appear before their dependents:

* $U::a" "reordering report"
expect_out "The following resources will be modified to remove missing dependencies:

~ $U::c
  - $U::gone [dependency]" "pruning report"
P="This command will edit your stack's state directly. Confirm?"
run_tty 20 no "$P" state repair
expect_out "Confirmation denied, not proceeding with state repair" "declined"
run_tty 20 yes "$P" state repair
expect_rc 0 "repaired on a terminal"
expect_out "State repaired successfully" "repaired"
export_state
check "sorted and pruned" '
import json
rs = json.load(open("'"$T"'/export.json"))["deployment"]["resources"]
names = [r["urn"].split("::")[-1] for r in rs]
assert names.index("a") < names.index("b"), names
c = [r for r in rs if r["urn"].endswith("::c")][0]
assert not c.get("dependencies"), c
'
run state repair
expect_out "The snapshot is already valid; skipping repair" "valid after repair"
run up --yes --expect-no-changes
expect_rc 0 "the program agrees with the repaired state"

# a cycle: the manual-repair banner, nothing written
python3 - "$T/export.json" "$T/broken.json" "$U" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["deployment"]["resources"]:
    if r["urn"].endswith("::a"):
        r["dependencies"] = [sys.argv[3] + "::b"]
json.dump(d, open(sys.argv[2], "w"))
PY
broken
run state repair --yes
expect_rc 1 "a cycle"
expect_err "error: Failed to repair the snapshot automatically: the snapshot has a cycle" "banner"
expect_err "minipulumi stack export > state.json" "manual steps"
finish
