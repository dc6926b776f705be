#!/bin/bash
# The other examples, copied to a temporary folder and driven as their
# READMEs say: examples/command (create and delete commands, one command's
# stdout feeding the next) and examples/dbr-protect (deleteBeforeReplace
# order, protect refusing a destroy).
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh" "$@"
export PULUMI_CONFIG_PASSPHRASE=pp
cp -r "$ROOT/examples/command" "$ROOT/examples/dbr-protect" "$T/"
rm -rf "$T"/command/{.minipulumi,out,Pulumi.*.yaml} "$T"/dbr-protect/{.minipulumi,out,Pulumi.*.yaml}

# command
cd "$T/command"
run stack init dev
run up -y
expect_rc 0 "command: up"
expect_out 'shout : "CREATED BY DEV"' "the second command got the first one's stdout"
expect_out 'stdout: "created by dev"' "stdout output"
[ "$(cat created.txt 2>/dev/null)" = "created by dev" ] || fail "command: created.txt"
run up -y --expect-no-changes
expect_rc 0 "command: a second up changes nothing"
run destroy -y
expect_rc 0 "command: destroy"
[ -e created.txt ] && fail "command: the delete command removed created.txt"

# dbr-protect
cd "$T/dbr-protect"
run stack init dev
run up -y
expect_rc 0 "dbr-protect: up"
[ -f out/swapped-a.txt ] && [ -f out/keeper.txt ] || fail "dbr-protect: the files: $(ls out)"
run config set suffix b
run up -y --json
expect_rc 0 "dbr-protect: up with a new suffix"
check "delete before replace" '
st = [s for s in steps(events()) if s[1] == "swapped"]
ops = [op for op, _ in st]
assert "delete-replaced" in ops and "create-replacement" in ops, st
assert ops.index("delete-replaced") < ops.index("create-replacement"), st
'
[ -f out/swapped-b.txt ] && [ ! -e out/swapped-a.txt ] || fail "dbr-protect: swapped files: $(ls out)"
run destroy -y
[ "$RC" != 0 ] || fail "dbr-protect: destroy of a protected resource fails"
expect_out 'cannot be deleted' "the protect message"
expect_out 'because it is protected' "the protect message"
[ -f out/keeper.txt ] && [ -f out/swapped-b.txt ] || fail "dbr-protect: nothing deleted: $(ls out)"
sed -i 's/protect: true/protect: false/' Pulumi.yaml
run up -y
expect_rc 0 "dbr-protect: unprotect"
export_state
check "keeper unprotected" 'assert not res()["keeper"].get("protect"), res()["keeper"]'
run destroy -y
expect_rc 0 "dbr-protect: destroy after unprotect"
[ -z "$(ls out 2>/dev/null)" ] || fail "dbr-protect: all files deleted: $(ls out)"
finish
