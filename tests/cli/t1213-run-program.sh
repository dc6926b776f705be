#!/bin/bash
# refresh --run-program and destroy --run-program (issue 29): the program
# runs first, so the provider is configured as the program and today's
# stack config say, not as the state recorded it. The built-in `test`
# provider's world is its config `test:world`: moving it after `up` shows
# which configuration each call used. After refresh --run-program the
# state records the provider's new configuration.
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
reads() { cat "$1/calls.jsonl" 2>/dev/null | grep -c '"read"'; }
resources_in_state() {
  export_state
  grep -c '"test:index:Resource"' "$T/export.json" || true
}

# refresh
run config set test:world "$T/w1"
run up -y
expect_rc 0 "up in w1"
run config set test:world "$T/w2"
run refresh -y -f
expect_rc 0 "refresh"
[ "$(reads "$T/w1")" = 1 ] || fail "refresh read from the recorded world: $(reads "$T/w1")"
[ "$(reads "$T/w2")" = 0 ] || fail "refresh read from the program's world: $(reads "$T/w2")"
[ "$(resources_in_state)" = 1 ] || fail "refresh kept the resource"
run refresh -y -f --run-program
expect_rc 0 "refresh --run-program"
[ "$(reads "$T/w1")" = 1 ] || fail "--run-program read from the recorded world"
[ "$(reads "$T/w2")" = 1 ] || fail "--run-program did not read from the program's world: $(reads "$T/w2")"
[ "$(resources_in_state)" = 0 ] || fail "not in the program's world: the refresh drops it"
expect_not_out "+ test:index:Resource" "the program's resources are not created"
# Pulumi gives the provider the program registers its ordinary step: the
# state now records the program's configuration for it (X75).
export_state
dp_world() {
  python3 -c 'import json, sys
rs = json.load(open(sys.argv[1]))["deployment"]["resources"]
print([r["inputs"].get("world") for r in rs if r["type"] == "pulumi:providers:test"][0])' "$T/export.json"
}
[ "$(dp_world)" = "$T/w2" ] || fail "the provider keeps the recorded world: $(dp_world)"

# destroy
for flag in --run-program ""; do
  run config set test:world "$T/w1"
  run up -y
  expect_rc 0 "up in w1 ($flag)"
  export_state
  id=$(python3 -c 'import json, sys
rs = json.load(open(sys.argv[1]))["deployment"]["resources"]
print([r["id"] for r in rs if r["type"] == "test:index:Resource"][0])' "$T/export.json")
  cp "$T/w1/$id.json" "$T/w2/$id.json"
  run config set test:world "$T/w2"
  run destroy -y $flag
  expect_rc 0 "destroy $flag"
  if [ -n "$flag" ]; then
    [ -e "$T/w2/$id.json" ] && fail "destroy --run-program left the program's world"
    [ -e "$T/w1/$id.json" ] || fail "destroy --run-program deleted in the recorded world"
  else
    [ -e "$T/w1/$id.json" ] && fail "destroy left the recorded world"
    [ -e "$T/w2/$id.json" ] || fail "destroy deleted in the program's world"
  fi
  [ "$(resources_in_state)" = 0 ] || fail "destroy $flag left the resource in state"
done
finish
