#!/bin/bash
# stack export without --show-secrets writes each secret as the ciphertext
# stored, so it needs no passphrase: it works with a wrong or missing one
# and gives the same bytes as with the right one (a user who lost the
# passphrase can still back the state up). Only --show-secrets decrypts.
. "$(dirname "$0")/lib.sh" "$@"
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
config:
  pw:
    type: string
    secret: true
resources:
  pass:
    type: random:index:RandomPassword
    properties:
      length: 24
outputs:
  pw: ${pw}
  generated: ${pass.result}
YAML
export PULUMI_CONFIG_PASSPHRASE=right-one
run stack init dev
run config set --secret pw s3cr3t-plaintext-value
run up -y
expect_rc 0 "up"
run stack output generated --show-secrets
generated=$OUT
[ ${#generated} = 24 ] || fail "the generated password: '$generated'"

run stack export --file "$T/right.json"
expect_rc 0 "export with the right passphrase"
export PULUMI_CONFIG_PASSPHRASE=wrong-one
run stack export --file "$T/wrong.json"
expect_rc 0 "export with a wrong passphrase"
unset PULUMI_CONFIG_PASSPHRASE
run stack export --file "$T/none.json"
expect_rc 0 "export without a passphrase"
# same FILE FILE: equal exports but for the manifest's time of writing.
same() {
  python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for d in (a, b):
    d["deployment"]["manifest"].pop("time", None)
sys.exit(0 if a == b else 1)
PY
}
same "$T/right.json" "$T/wrong.json" || fail "wrong passphrase: same export"
same "$T/right.json" "$T/none.json" || fail "no passphrase: same export"
for f in right wrong none; do
  grep -q "s3cr3t-plaintext-value" "$T/$f.json" && fail "$f: plaintext config"
  grep -qF -- "$generated" "$T/$f.json" && fail "$f: plaintext password"
done

# The ciphertexts are those in the store, byte for byte.
python3 - "$T/none.json" "$MINIPULUMI_BACKEND_URL" >"$T/cmp.log" 2>&1 <<'PY' || fail "ciphertexts as stored: $(cat "$T/cmp.log")"
import json, sqlite3, sys
def ciphers(v, out):
    if isinstance(v, dict):
        if v.get("4dabf18193072939515e22adb298388d") == "1b47061264138c4ac30d75fd1eb44270":
            out.add(v["ciphertext"])
        for x in v.values():
            ciphers(x, out)
    elif isinstance(v, list):
        for x in v:
            ciphers(x, out)
    return out
exported = ciphers(json.load(open(sys.argv[1])), set())
db = sqlite3.connect(sys.argv[2])
stored = set()
for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'"):
    for row in db.execute("SELECT * FROM %s" % table):
        for cell in row:
            if isinstance(cell, str) and cell.startswith("{"):
                try:
                    ciphers(json.loads(cell), stored)
                except ValueError:
                    pass
assert exported, "no secrets exported"
assert exported <= stored, (exported - stored)
PY

# Only --show-secrets needs the key.
export PULUMI_CONFIG_PASSPHRASE=wrong-one
run stack export --show-secrets
[ "$RC" -ne 0 ] || fail "--show-secrets with a wrong passphrase fails"
expect_err "incorrect passphrase" "--show-secrets names the problem"
export PULUMI_CONFIG_PASSPHRASE=right-one
run stack export --show-secrets
expect_rc 0 "--show-secrets with the right passphrase"
expect_out "$generated" "--show-secrets shows the password"

# The passphrase-less backup imports and decrypts again.
run stack init restored
run stack import --file "$T/none.json" --force
expect_rc 0 "import the backup"
run stack output generated --show-secrets
[ "$OUT" = "$generated" ] || fail "restored password: '$OUT'"
finish
