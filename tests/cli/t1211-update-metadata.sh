#!/bin/bash
# Each update's history entry keeps Pulumi's UpdateInfo environment
# (exec.kind and exec.agent from --exec-kind/--exec-agent, pulumi.version,
# pulumi.os, pulumi.arch, updatePlan, git.head/git.headName in a Git work
# tree) and the stack's config (secrets left out), on SQLite and file://.
. "$(dirname "$0")/lib.sh" "$@"

cat >> Pulumi.yaml <<'YAML'
outputs:
  o: hello
YAML
git init -q -b trunk . && git add Pulumi.yaml &&
  git -c user.email=t@t -c user.name=t commit -qm one
HEAD=$(git rev-parse HEAD)
mkdir -p "$T/diy"
for url in "$T/state.db" "file://$T/diy"; do
  export MINIPULUMI_BACKEND_URL="$url"
  run stack init dev
  run config set greeting hi
  run config set --secret pw hunter2
  run up -y --exec-kind auto.inline --exec-agent ci-bot
  expect_rc 0 "up ($url)"
  run up -y --exec-kind bogus
  expect_rc 0 "up with an unknown kind"
  run stack history --json
  check "history environment and config ($url)" "
h = json.loads(out)
new, old = h[0]['environment'], h[1]['environment']
assert old['exec.kind'] == 'auto.inline' and old['exec.agent'] == 'ci-bot', old
assert new['exec.kind'] == 'cli' and 'exec.agent' not in new, new
assert new['pulumi.version'].startswith('v3.'), new
assert new['pulumi.os'] == 'linux' and new['updatePlan'] == 'false', new
assert new['git.head'] == '$HEAD' and new['git.headName'] == 'refs/heads/trunk', new
assert h[0]['config']['proj:greeting'] == {'value': 'hi', 'secret': False, 'object': False}, h[0]
assert h[0]['config']['proj:pw'] == {'secret': True, 'object': False}, h[0]
assert 'hunter2' not in out
"
  run stack rm -y --force dev
  rm -f Pulumi.dev.yaml
done
# the file:// history file is Pulumi's UpdateInfo with the config's ciphertext
f=$(ls "$T"/diy/.pulumi/history/proj/dev/*.history.json 2>/dev/null | head -1)
[ -z "$f" ] || fail "history of a removed stack left: $f"
finish
