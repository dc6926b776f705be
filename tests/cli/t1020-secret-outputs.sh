#!/bin/bash
# Outputs computed from a secret input are secret: command:local:Command's
# stdout/stderr when any input is secret (as pulumi-command does), the
# results of random resources computed from a secret input, and
# local:index:File's sha256 of secret content. The plaintext (and its hash)
# reaches neither the state database, `stack export`, `stack output`
# (text or --json), the display, nor the --json events; a failing
# command's error does not quote its output; a secret spelled into an id
# (RandomPet's prefix, a File's path) is refused.
. "$(dirname "$0")/lib.sh" "$@"
export PULUMI_CONFIG_PASSPHRASE=pass-word
SECRET=hunter2-plaintext-7c1f
SHA=$(printf '%s' "$SECRET" | sha256sum | cut -d' ' -f1)
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
config:
  pw:
    type: string
    secret: true
resources:
  cmd:
    type: command:local:Command
    properties:
      create: echo ${pw}; echo ${pw} >&2
  envcmd:
    type: command:local:Command
    properties:
      create: echo "$PW"
      environment:
        PW: ${pw}
  str:
    type: random:index/randomString:RandomString
    properties:
      length: 12
      overrideSpecial: ${pw}
  num:
    type: random:index/randomInteger:RandomInteger
    properties:
      min: 1
      max: 1000000
      seed: ${pw}
  rid:
    type: random:index/randomId:RandomId
    properties:
      byteLength: 4
      prefix: ${pw}
  file:
    type: local:index:File
    properties:
      path: out.txt
      content: ${pw}
outputs:
  out: ${cmd.stdout}
  err: ${cmd.stderr}
  env: ${envcmd.stdout}
  str: ${str.result}
  num: ${num.result}
  hex: ${rid.hex}
  sha: ${file.sha256}
YAML
run stack init dev
run config set --secret pw "$SECRET"

# no_leak WHAT TEXT: neither the plaintext nor its hash is in TEXT.
no_leak() {
  case "$2" in *"$SECRET"* | *"$SHA"*) fail "$1 shows the secret: $(printf '%s' "$2" | grep -n -e "$SECRET" -e "$SHA" | head -3)" ;; esac
}
run preview --json
expect_rc 0 "preview"
no_leak "preview --json" "$OUT"
run up -y
expect_rc 0 "up"
no_leak "up's display" "$OUT$ERR"
[ "$(cat out.txt)" = "$SECRET" ] || fail "the file holds the secret"
run up -y --json
expect_rc 0 "up --json"
no_leak "up --json" "$OUT"
run refresh -y --json
expect_rc 0 "refresh --json"
no_leak "refresh --json" "$OUT"
for f in "$MINIPULUMI_BACKEND_URL"*; do
  grep -qaF -e "$SECRET" -e "$SHA" "$f" && fail "the store file $f holds the secret"
done
run stack export
expect_rc 0 "stack export"
no_leak "stack export" "$OUT"
run stack output
no_leak "stack output" "$OUT"
run stack output --json
no_leak "stack output --json" "$OUT"
check "every derived output is secret" '
d = doc()
for k in ("out", "err", "env", "str", "num", "hex", "sha"):
    assert d[k] == "[secret]", (k, d[k])
'
export_state
check "secret in the state, ids do not spell results out" '
r = res()
sig = "4dabf18193072939515e22adb298388d"
def secret(v):
    return isinstance(v, dict) and v.get(sig) == "1b47061264138c4ac30d75fd1eb44270"
for name, keys in (("cmd", ("stdout", "stderr")), ("envcmd", ("stdout",)),
                   ("str", ("result",)), ("num", ("result",)),
                   ("rid", ("hex", "b64Url", "b64Std", "dec")),
                   ("file", ("sha256",))):
    for k in keys:
        assert secret(r[name]["outputs"][k]), (name, k, r[name]["outputs"][k])
assert r["str"]["id"] == "none" and r["num"]["id"] == "none", (r["str"]["id"], r["num"]["id"])
'
run stack output out --show-secrets
[ "$OUT" = "$SECRET" ] || fail "--show-secrets still shows the value: $OUT"

# A failing command whose input is secret: the error does not quote it.
python3 - <<'PY'
text = open("Pulumi.yaml").read()
bad = """  bad:
    type: command:local:Command
    properties:
      create: echo ${pw} >&2; exit 3
"""
open("Pulumi.yaml", "w").write(text.replace("outputs:", bad + "outputs:"))
PY
run up -y
expect_rc 4 "a failing command"
expect_out "command exited with status 3 (its output is not shown: an input is secret)" "the error says why the output is missing"
no_leak "the failing command's error" "$OUT$ERR"

# Secrets spelled into an id are refused.
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
config:
  pw:
    type: string
    secret: true
resources:
  pet:
    type: random:index/randomPet:RandomPet
    properties:
      prefix: ${pw}
YAML
run preview
[ "$RC" -ne 0 ] || fail "secret pet prefix is refused"
expect_out "prefix value {[secret]} has a problem: cannot be secret" "RandomPet prefix"
no_leak "the refusal" "$OUT$ERR"
# one program each: after the first refusal the preview stops, so a second
# resource's check may or may not have run
sed -i '/^  pet:/,$d' Pulumi.yaml
cat >> Pulumi.yaml <<'YAML'
  f:
    type: local:index:File
    properties:
      path: ${pw}
      content: x
YAML
run preview
[ "$RC" -ne 0 ] || fail "secret file path is refused"
expect_out "path value {[secret]} has a problem: cannot be secret" "File path"
no_leak "the refusal" "$OUT$ERR"
finish
