#!/bin/bash
# Messages that pointed the wrong way: each names the real problem (with
# Pulumi's wording where Pulumi has one) and where it is.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
run stack init dev

# -- refresh with a pending create names --clear-pending-creates
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  slow:
    type: test:Resource
    properties:
      __latencyMs: 2000
YAML
start_bg up -f
wait_call create slow
kill -KILL "$BG"
wait_bg
run refresh -y
expect_out "clear them with \`minipulumi refresh --clear-pending-creates\`" "refresh names the flag"
run refresh -y --clear-pending-creates
expect_rc 0 "refresh --clear-pending-creates"
expect_not_out "clear them with" "no advice when clearing them"

# -- config of the wrong type: the key and what the value is
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
config:
  s:
    type: string
  n:
    type: integer
    default: 1
YAML
run config set --path s.a 1
run preview
[ "$RC" -ne 0 ] || fail "an object for a string is refused"
expect_out "Stack 'dev' with configuration key 's' must be of type 'string'; it is an object" "wrong type"
expect_not_out "'?'" "no placeholder"
run config rm s
run config set s text
# -- integers as Pulumi parses them
for v in 1e3 0x10 99999999999999999999999 3.0 " 7"; do
  run config set n "$v"
  run preview
  [ "$RC" -ne 0 ] || fail "integer '$v' is refused"
  expect_out "Stack 'dev' with configuration key 'n' must be of type 'integer'; '$v'" "integer '$v'"
done
expect_out "' 7' is not a decimal integer" "spaces"
run config set n 99999999999999999999999
run preview
expect_out "'99999999999999999999999' is out of the range of 64-bit integers" "out of range"
for v in 42 +5 -3 012; do
  run config set n "$v"
  run preview
  expect_rc 0 "integer '$v' is accepted"
done

# -- duplicate keys in Pulumi.<stack>.yaml, as in Pulumi.yaml
printf 'config:\n  proj:s: a\n  proj:n: 1\n  proj:s: b\n' > Pulumi.dev.yaml
run config
[ "$RC" -ne 0 ] || fail "duplicate keys are refused"
expect_err "Pulumi.dev.yaml:4:3: duplicate key 'proj:s' (first at line 2)" "duplicate key"
run preview
expect_err "duplicate key 'proj:s' (first at line 2)" "preview refuses it too"
rm Pulumi.dev.yaml

# -- runtime of the wrong type
printf 'name: proj\nruntime: [yaml]\n' > Pulumi.yaml
run preview
expect_rc 2 "runtime: [yaml]"
expect_err "\`runtime\` must be a string such as \`yaml\`, or a mapping with a \`name\` string; it is an array" "runtime type"
expect_not_out "has no runtime" "not 'has no runtime'"
printf 'name: [proj]\nruntime: yaml\n' > Pulumi.yaml
run preview
expect_err "\`name\` must be a non-empty string; it is an array" "name type"

# -- non-UTF-8 program: the byte's line and column
printf 'name: proj\nruntime: yaml\noutputs:\n  o: "caf\xc3\xa9 \xff"\n' > Pulumi.yaml
run preview
[ "$RC" -ne 0 ] || fail "non-UTF-8 program refused"
expect_err "Pulumi.yaml:4:12: invalid YAML" "byte position"

# -- an index beyond 64 bits
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
variables:
  l: [1, 2]
outputs:
  o: ${l[18446744073709551616]}
YAML
run preview
[ "$RC" -ne 0 ] || fail "huge index refused"
expect_out "the index 18446744073709551616 is out of range" "huge index"
expect_not_out "18446744073709551615" "not the saturated index"

# -- stack rm says why once, in Pulumi's words
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  r:
    type: test:Resource
YAML
run up -y
run stack rm -y dev
expect_rc 1 "rm with resources"
expect_err "'dev' still has resources; removal rejected. Possible actions:" "Pulumi's words"
expect_err "- Run \`minipulumi stack rm --force\` to override this error" "the way out"
[ "$(grep -o "still has" "$T/err" | wc -l)" = 1 ] || fail "the reason is given once: $ERR"

# -- import without secrets_providers, the passphrase set
export PULUMI_CONFIG_PASSPHRASE=pass
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  p:
    type: random:index/randomPassword:RandomPassword
    properties:
      length: 8
YAML
run stack init sec
run up -y
export_state
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["deployment"].pop("secrets_providers")
json.dump(d, open(sys.argv[2], "w"))' "$T/export.json" "$T/nosp.json"
run stack import --file "$T/nosp.json"
[ "$RC" -ne 0 ] || fail "import of ciphertext without secrets_providers fails"
expect_err "failed to decrypt: snapshot contains encrypted secrets but no secrets manager could be found" "Pulumi's words"
case "$ERR" in *"set PULUMI_CONFIG_PASSPHRASE"*) fail "does not ask for a passphrase that is set: $ERR" ;; esac
finish
