#!/bin/bash
# A resource found under an alias keeps in the state the URN it was found
# under (`aliases`, Pulumi's ResourceV3 field, as its step generator sets
# the new state's Aliases to the alias that matched); the next run, which
# finds it under its own URN, keeps none. `stack export` shows them and
# `stack import` keeps them, on SQLite and file://. An update plan that
# does not name such a resource holds it to that alias, as Pulumi's
# checkMissingPlan holds it to oldState.GetAliases().
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
OLD=urn:pulumi:dev::proj::test:index:Resource::old
NEW=urn:pulumi:dev::proj::test:index:Resource::new
program() { # name [alias]
  cat > Pulumi.yaml <<YAML
name: proj
runtime: yaml
resources:
  $1:
    type: test:Resource
    properties:
      a: 1
${2:+    options:
      aliases:
        - $2}
YAML
}
mkdir -p "$T/diy"
for url in "$T/state.db" "file://$T/diy"; do
  export MINIPULUMI_BACKEND_URL="$url"
  run stack init dev
  program old
  run up -y --skip-preview
  expect_rc 0 "up ($url)"
  program new "$OLD"
  run up -y --skip-preview
  expect_rc 0 "up of the renamed resource ($url)"
  export_state
  check "the alias it was found under ($url)" "
r = res()
assert 'old' not in r, r
assert r['new']['aliases'] == ['$OLD'], r['new']
"
  cp "$T/export.json" "$T/aliased.json"
  # stack import keeps them
  run stack import --file "$T/aliased.json"
  expect_rc 0 "stack import ($url)"
  export_state
  check "kept through import ($url)" "
assert res()['new']['aliases'] == ['$OLD'], res()['new']
"
  # found under its own URN now: no alias kept
  run up -y --skip-preview
  expect_rc 0 "up again ($url)"
  export_state
  check "no alias once found under its own URN ($url)" "
assert 'aliases' not in res()['new'], res()['new']
"
  run stack rm -y --force dev
  rm -f Pulumi.dev.yaml
done
# A plan that does not name the aliased resource (its entry removed): the
# alias it was found under must still be the registration's.
export MINIPULUMI_BACKEND_URL="$T/state.db"
run stack init dev
program old
run up -y --skip-preview
program new "$OLD"
run up -y --skip-preview
expect_rc 0 "the rename"
strip_plan() {
  python3 - "$1" "$NEW" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
del p["resourcePlans"][sys.argv[2]]
json.dump(p, open(sys.argv[1], "w"))
PY
}
run preview --save-plan "$T/plan.json"
expect_rc 0 "preview --save-plan"
strip_plan "$T/plan.json"
program new
run up --plan "$T/plan.json" -y --skip-preview
expect_rc 1 "the alias dropped, for a resource the plan does not name"
expect_out "resource $NEW violates plan: aliases changed: deleted $OLD" "Pulumi's message"
program new "$OLD"
run up --plan "$T/plan.json" -y --skip-preview
expect_rc 0 "the same alias, for a resource the plan does not name"
finish
