#!/bin/bash
# local:index:File end to end: respelling the path (`out.txt` ->
# `./out.txt`) is the same file and the same resource, so nothing is
# replaced and the file stays; a path is relative to the program's folder
# wherever minipulumi runs from; a file the stack did not write is not
# overwritten (unless `overwrite: true`) nor deleted; a file changed
# since it was written, or turned into a FIFO or a symbolic link, is left
# in place on destroy with a warning. Only files in the test's folder are
# used: a FIFO, a symbolic link and a file made beforehand.
. "$(dirname "$0")/lib.sh" "$@"
program() { # PATH [EXTRA PROPERTY LINE]
  cat > Pulumi.yaml <<YAML
name: proj
runtime: yaml
resources:
  f:
    type: local:index:File
    properties:
      path: $1
      content: hello
${2:-}
YAML
}
run stack init dev

# (a) the same file spelled another way
program out.txt
run up -y
expect_rc 0 "create out.txt"
program ./out.txt
run up -y --json
expect_rc 0 "respell the path"
check "respelling is no change" '
st = [s for s in steps(events()) if s[0] != "same"]
assert st == [], st
'
[ "$(cat out.txt 2>/dev/null)" = hello ] || fail "out.txt still exists"
program "sub/../out.txt"
run preview --json
check "sub/../out.txt is the same file too" '
assert doc()["changeSummary"] == {"same": 2}, doc()["changeSummary"]
'

# relative to the program's folder, from anywhere
mkdir -p "$T/elsewhere"
program new.txt
run_in "$T/elsewhere" -C "$T/proj" up -y
expect_rc 0 "up from another folder"
[ -f "$T/proj/new.txt" ] || fail "new.txt is written in the program's folder"
[ -e "$T/elsewhere/new.txt" ] && fail "nothing is written where minipulumi ran"
run destroy -y
expect_rc 0 "destroy"
[ -e new.txt ] && fail "destroy removes the file it wrote"

# (b) a file the stack did not write
echo "precious" > theirs.txt
program theirs.txt
run up -y
expect_rc 4 "create over a file the stack did not write"
expect_out "'theirs.txt' already exists and this stack did not create it" "refused"
[ "$(cat theirs.txt)" = precious ] || fail "theirs.txt untouched"
export_state
check "nothing recorded for it" 'assert "f" not in res(), sorted(res())'
run destroy -y
[ "$(cat theirs.txt)" = precious ] || fail "theirs.txt survives destroy"
program theirs.txt "      overwrite: true"
run up -y
expect_rc 0 "overwrite: true takes it over"
[ "$(cat theirs.txt)" = hello ] || fail "theirs.txt overwritten on request"
run destroy -y
[ -e theirs.txt ] && fail "a taken-over file is the stack's to delete"

# never anything but a regular file
mkfifo pipe
ln -s "$T/target.txt" link.txt
echo "target" > "$T/target.txt"
for p in pipe link.txt; do
  program "$p" "      overwrite: true"
  run up -y
  expect_rc 4 "create over $p"
  expect_out "not a regular file" "$p refused"
done
[ -p pipe ] || fail "the FIFO is still there"
[ -L link.txt ] || fail "the link is still there"
[ "$(cat "$T/target.txt")" = target ] || fail "the link's target untouched"

# destroy leaves what changed since it was written, with a warning
program mine.txt
run up -y
expect_rc 0 "create mine.txt"
echo "edited" > mine.txt
run destroy -y
expect_rc 0 "destroy with an edited file"
expect_out "'mine.txt' changed since this stack wrote it; it was left in place" "warning"
[ "$(cat mine.txt)" = edited ] || fail "the edited file is kept"
rm mine.txt
run up -y
rm mine.txt && mkfifo mine.txt
run destroy -y
expect_rc 0 "destroy with a FIFO in place of the file"
expect_out "'mine.txt' is a FIFO, not a regular file; it was left in place" "FIFO warning"
[ -p mine.txt ] || fail "the FIFO is kept"
finish
