#!/bin/bash
# issue 49 (6): `state edit` of a secret in the plaintext form that
# `stack export --show-secrets` writes encrypts it with the stack's
# secrets manager, as `stack import` does: before, its plaintext was
# stored as the "ciphertext", in the clear, and the stack no longer
# loaded.
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
      s:
        fn::secret: kept-secret
YAML
U=urn:pulumi:dev::proj::test:index:Resource
run stack init dev
run up --yes
expect_rc 0 "up"
P='cancel [edit]:'
export TMPDIR=$T/tmp
mkdir -p "$TMPDIR"
cat > "$T/plain.sh" <<SH
#!/bin/sh
python3 - "\$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["deployment"]["resources"]:
    if r["urn"] == "$U::a":
        r["outputs"]["pw"] = {"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
                              "plaintext": "\"hunter2-in-clear\""}
json.dump(d, open(sys.argv[1], "w"), indent=4)
PY
SH
chmod +x "$T/plain.sh"

EDITOR="$T/plain.sh" run_tty 60 accept "$P" state edit
expect_rc 0 "the edit with a plaintext secret is accepted"
expect_out "New state:" "the new state is shown"
expect_not_out "hunter2-in-clear" "the shown state has no plaintext"

# the store holds no plaintext
if [ "${MP_TEST_DIY:-}" = 1 ]; then
  grep -rq "hunter2-in-clear" "$T/state" && fail "the plaintext is in the checkpoint"
else
  grep -aq "hunter2-in-clear" "$T/state.db" && fail "the plaintext is in the state database"
fi
# the stack loads, its secrets decrypt: the new one and the kept one
run stack export
expect_rc 0 "stack export after the edit"
expect_not_out "hunter2-in-clear" "export without --show-secrets"
export_state --show-secrets
check "both secrets decrypt" '
a = res()["a"]["outputs"]
assert a["pw"]["plaintext"] == "\"hunter2-in-clear\"", a["pw"]
assert a["s"]["plaintext"] == "\"kept-secret\"", a["s"]
'
run up --yes
expect_rc 0 "up after the edit"
finish
