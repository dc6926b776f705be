#!/bin/bash
# Options: aliases that rename and reparent (same), protect, ignoreChanges.
. "$(dirname "$0")/lib.sh" "$@"
node_program options
run stack init dev
run up --yes
expect_rc 0 "up"
expect_out "+ 6 created" "first up (the default provider is not counted)"

STEP=2 run up --yes
expect_rc 0 "up with aliases"
expect_out "6 unchanged" "renamed and reparented resources are the same"
expect_not_out "created" "no create"
expect_not_out "deleted" "no delete"
expect_out "ignLength: 1" "ignoreChanges kept the old length"
state_json
case "$STATE" in *"RandomPet::new-name"*) ;; *) fail "not renamed: $STATE" ;; esac
case "$STATE" in *'test:index:Box$random:index/randomPet:RandomPet::kid'*) ;;
  *) fail "not reparented: $STATE" ;; esac
# No resource keeps the old name; the renamed one records the URN it was
# found under in its aliases, as Pulumi's state does.
python3 - "$STATE" <<'PY' || fail "old name left: $STATE"
import json, sys
res = json.loads(sys.argv[1])["deployment"]["resources"]
assert not [r for r in res if r["urn"].endswith("::old-name")], res
pet = [r for r in res if r["urn"].endswith("::new-name")][0]
assert [a for a in pet.get("aliases", []) if a.endswith("::old-name")], pet
PY

run destroy --yes
[ "$RC" != 0 ] || fail "destroy of a protected resource succeeded"
expect_out "protected" "protect is reported"
state_json
case "$STATE" in *"::guarded"*) ;; *) fail "protected resource gone" ;; esac

STEP=3 run up --yes
expect_rc 0 "unprotect through the program"
run destroy --yes
expect_rc 0 "destroy after unprotect"
finish
