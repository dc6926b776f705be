#!/bin/bash
# minipulumi state edit: the state as JSON in $EDITOR on a terminal;
# Pulumi's "not changed" warning, the new state shown before the
# question, accept writing it, an edit that breaks the integrity check
# refused (edit again / reset / cancel) and never written, and its errors
# without a terminal or an EDITOR.
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
YAML
U=urn:pulumi:dev::proj::test:index:Resource
run stack init dev
run up --yes
expect_rc 0 "up"
export_state
P='cancel [edit]:'
# The edit's temporary file goes to TMPDIR, as with Pulumi.
export TMPDIR=$T/tmp
mkdir -p "$TMPDIR"

# Editors: each a script the test writes; edits are made with python3.
# (noop waits past a second: the manifest's time differs, the state not)
cat > "$T/noop.sh" <<'SH'
#!/bin/sh
sleep 1.1
SH
cat > "$T/protect.sh" <<SH
#!/bin/sh
python3 - "\$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["deployment"]["resources"]:
    if r["urn"] == "$U::a":
        r["protect"] = True
json.dump(d, open(sys.argv[1], "w"), indent=4)
PY
SH
# First call: b depends on a resource that does not exist (integrity
# error); second call (on the same file, as with Pulumi): the dependency
# put back and a valid edit (a's v becomes 5).
cat > "$T/twice.sh" <<SH
#!/bin/sh
n=\$(cat "$T/calls" 2>/dev/null || echo 0); n=\$((n + 1)); echo \$n > "$T/calls"
python3 - "\$1" "\$n" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["deployment"]["resources"]:
    if sys.argv[2] == "1" and r["urn"] == "$U::b":
        r["dependencies"] = ["$U::ghost"]
    if sys.argv[2] == "2" and r["urn"] == "$U::b":
        r["dependencies"] = ["$U::a"]
    if sys.argv[2] == "2" and r["urn"] == "$U::a":
        r["outputs"]["v"] = 5
json.dump(d, open(sys.argv[1], "w"), indent=4)
PY
SH
cat > "$T/broken.sh" <<'SH'
#!/bin/sh
echo '{"version": 3, "deployment": {' > "$1"
SH
chmod +x "$T"/*.sh

EDITOR="$T/noop.sh" run_tty 30 - "$P" state edit
expect_rc 0 "unchanged edit"
expect_out "Previewing state edit (dev)" "the header"
expect_out "provided state was not changed" "Pulumi's warning"

EDITOR="$T/protect.sh" run_tty 30 accept "$P" state edit
expect_rc 0 "accepted edit"
expect_out "New state:" "the new state is shown"
expect_out '"protect": true' "with the change"
expect_out "Do you want to perform this edit? accept, edit, reset or cancel" "the question"
export_state
check "a is protected now, the rest kept" '
r = res()
assert r["a"]["protect"] is True, r["a"]
assert r["b"]["inputs"] == {"v": 1}, r["b"]
'

rm -f "$T/calls"
EDITOR="$T/twice.sh" run_tty 30 edit,accept "$P" state edit
expect_rc 0 "invalid, then edited again and accepted"
expect_out "provided state is not valid" "the integrity error"
expect_out "$U::ghost" "names the missing dependency"
expect_out "Received invalid state. What would you like to do? edit, reset or cancel" "Pulumi's question"
export_state
check "only the second, valid edit was written" '
r = res()
assert r["a"]["outputs"]["v"] == 5, r["a"]
assert r["b"]["dependencies"] == ["'"$U"'::a"], r["b"]
'
cp "$T/export.json" "$T/kept.json"

EDITOR="$T/broken.sh" run_tty 30 reset,cancel "$P" state edit
expect_rc 8 "cancelled after a broken edit"
expect_out "provided state is not valid" "bad JSON is refused"
expect_out "state edit cancelled" "the cancel"
export_state
diff <(grep -v "\"time\"" "$T/export.json") <(grep -v "\"time\"" "$T/kept.json") || fail "a cancelled edit changed the state"

EDITOR="$T/noop.sh" run state edit
expect_rc 1 "no terminal"
expect_err "minipulumi state edit must be run in interactive mode" "needs a terminal"
EDITOR= run_tty 30 - "$P" state edit
expect_rc 1 "no EDITOR"
expect_out "no EDITOR environment variable set" "names EDITOR"
ls "$TMPDIR"/pulumi-state-edit-* 2>/dev/null && fail "a temporary file was left"
finish
