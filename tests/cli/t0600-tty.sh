#!/bin/bash
# up, preview, refresh and destroy on a terminal (a pseudo-terminal): the
# confirmation prompt without --yes (no / details / yes), the in-place
# progress display with Pulumi's rows, and the ways to be non-interactive
# on a terminal (--non-interactive, CI).
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
      __latencyMs: 400
  b:
    type: test:Resource
    properties:
      v: ${a.v}
YAML
W=$MINIPULUMI_TEST_WORLD
P="Do you want to perform this update?"
nfiles() { ls "$W"/id-*.json 2>/dev/null | wc -l; }
run stack init dev

# preview: no prompt, the in-place table with the Plan column
run_tty 20 - "$P" preview
expect_rc 0 "preview on a terminal"
expect_not_out "$P" "preview does not ask"
expect_out "Previewing update (dev)" "preview header"
check "the preview table" '
import re
plain = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", out)
assert re.search(r"Type +Name +Plan", plain), plain
assert re.search(r"\+ +pulumi:pulumi:Stack +proj-dev +create", plain), plain
assert re.search(r"\+ +└─ test:index:Resource +b +create", plain), plain
assert re.search(r"\+ +├─ test:index:Resource +a +create", plain), plain
assert "+ 3 to create" in plain, plain
'

# up, answer no: nothing happens (typed: the menu filters to it)
run_tty 20 no "$P" up
expect_rc 1 "up declined"
expect_out "$P  [Use arrows to move, type to filter]" "the arrow-key menu, as Pulumi's survey Select"
expect_out "> no" "the focus starts on no, Pulumi's default"
expect_out "$P no" "the question left with its answer"
expect_out "confirmation declined, not proceeding with the update" "declined"
expect_not_out "Updating (dev)" "no update after no"
[ "$(nfiles)" = 0 ] || fail "no resource made after no"
export_state
check "no resources after no" 'assert res() == {}, sorted(res())'

# up, answer details then yes: the diff, the prompt again, the update
run_tty 30 details,yes "$P" up
expect_rc 0 "up confirmed"
check "details, the prompt again, then the in-place progress" '
import re
plain = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", out)
assert plain.count("[Use arrows to move, type to filter]") == 2, plain
after = plain.split("[Use arrows to move, type to filter]")[1]
assert "+ test:index:Resource: (create)" in after and "[urn=urn:pulumi:dev::proj::test:index:Resource::a]" in after, after
assert "+ v: 1" in after, after
assert "Updating (dev)" in plain
up = plain.split("Updating (dev)")[1]
assert re.search(r"Type +Name +Status", up), up
assert re.search(r"\+ +[├└]─ test:index:Resource +a +creating \(0s\)", up), up
assert re.search(r"\+ +└─ test:index:Resource +b +created \([0-9.]+s\)", up), up
assert "+ 3 created" in up and "Duration: " in up, up
# drawn in place: cursor up and clear-line sequences
assert re.search(r"\x1b\[[0-9]+A", out) and "\x1b[2K" in out, repr(out[:400])
# colored op symbols
assert "\x1b[32m+" in out, repr(out[:400])
'
[ "$(nfiles)" = 2 ] || fail "two resources made after yes"
export_state
check "state after yes" 'assert {"a", "b"} <= set(res()), sorted(res())'

# no changes: Pulumi still asks; --yes never asks
run_tty 20 - "$P" up --yes
expect_rc 0 "up --yes on a terminal"
expect_not_out "$P" "--yes does not ask"
expect_out "3 unchanged" "nothing to do"

# on a terminal but non-interactive: exit 2 without --yes
run_tty 20 - "$P" up --non-interactive
expect_rc 2 "--non-interactive without --yes"
expect_out "--yes" "the error names --yes"
expect_not_out "$P" "--non-interactive does not ask"
CI=true run_tty 20 - "$P" up
expect_rc 2 "CI set, without --yes"
expect_not_out "$P" "CI does not ask"

# --color never: no color codes
run_tty 20 - "$P" preview --color never
expect_rc 0 "preview --color never"
check "no colors" 'assert "\x1b[32m" not in out and "\x1b[0m" not in out, repr(out[:300])'

# refresh: its own prompt
run_tty 20 yes "Do you want to perform this refresh?" refresh
expect_rc 0 "refresh confirmed"
expect_out "Do you want to perform this refresh?  [Use arrows to move, type to filter]" "refresh prompt"
expect_out "Refreshing (dev)" "refresh ran"

# destroy: no keeps everything, yes deletes
D="Do you want to perform this destroy?"
run_tty 20 no "$D" destroy
expect_rc 1 "destroy declined"
expect_out "confirmation declined, not proceeding with the destroy" "declined"
[ "$(nfiles)" = 2 ] || fail "no resource deleted after no"
run_tty 30 yes "$D" destroy
expect_rc 0 "destroy confirmed"
check "destroy in place" '
import re
plain = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", out)
d = plain.split("Destroying (dev)")[1]
assert re.search(r"- +[├└]─ test:index:Resource +b +deleted", d) and re.search(r"- +[├└]─ test:index:Resource +a +deleted", d), d
assert "pulumi:providers" not in d, d  # default providers are hidden
assert "- 3 deleted" in d, d
assert "The resources in the stack have been deleted" in d, d
'
[ "$(nfiles)" = 0 ] || fail "all deleted after yes"
export_state
check "empty state after destroy" 'assert res() == {}, sorted(res())'
finish
