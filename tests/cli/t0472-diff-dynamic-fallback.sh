#!/bin/bash
# (Node.js) A dynamic provider's Diff sends no detailed diff and names no
# key: `preview --diff` compares the old and new inputs, as Pulumi does,
# the changed one marked and the others listed unchanged (not only [id]
# and [urn]), and the Info column names the changed key. A program that
# writes to its stdout, its stderr and the engine's log has one header
# over the stack's diagnostics, a multi-line warning indented line by line.
. "$(dirname "$0")/../nodejs/lib.sh" "$@"
node_program dynamic
export DYN_LOG="$T/calls.log"
run stack init dev
run up --yes --skip-preview
expect_rc 0 "up"

STEP=2 run preview --diff
expect_rc 0 "preview --diff"
check "the input diff of the dynamic resource" '
after = out.split("::pulumi-nodejs:dynamic:Resource::a]\n")[1].split("\n")
blk = []
for l in after:
    if not l.startswith("      "):
        break
    blk.append(l)
assert blk == [
    "        kind: \"k1\"",
    "        log : \"" + T + "/calls.log\"",
    "      ~ name: \"one\" => \"uno\""], blk
'
STEP=2 run preview
expect_rc 0 "preview"
expect_out "pulumi-nodejs:dynamic:Resource a update [diff: ~name]" "the Info column"

node_program logs
run stack init logs
run preview
expect_rc 0 "preview of the logging program"
check "one header over the stack's diagnostics, every line indented" '
sec = out.split("Diagnostics:\n")[1].split("\n\n")[0].split("\n")
assert sec[0] == "  pulumi:pulumi:Stack (logs-logs):", sec
assert sorted(sec[1:]) == sorted([
    "    to stdout", "    to stderr",
    "    warning: a warning", "    on two lines"]), sec
i = sec.index("    warning: a warning")
assert sec[i + 1] == "    on two lines", sec
assert out.count("pulumi:pulumi:Stack (logs-logs):") == 1, out
'
finish
