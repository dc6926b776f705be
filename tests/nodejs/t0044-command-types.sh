#!/bin/bash
# The built-in `command` provider and @pulumi/command 1.x (the first
# hour, 10): local:Command and the local:run function are served by the
# built-in; remote:Command, which it does not implement, goes to the
# package's plugin, and with none installed the error names the type and
# the command that installs it (tests/plugin_processes t1400 serves it
# with a plugin).
. "$(dirname "$0")/lib.sh" "$@"
export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
node_program commandall
run stack init dev
run up --yes
expect_rc 0 "up of the local types"
run stack output --json
echo "$OUT" | python3 -c '
import json, sys
o = json.load(sys.stdin)
assert "command:local:Command" in o["types"] and "command:remote:Command" in o["types"], o
assert o["stdout"] == "hello" and o["ran"] == "ran", o
' || fail "the local types answered wrongly: $OUT"
REMOTE=1 run up --yes
expect_rc 1 "a remote:Command without the plugin"
expect_out "'command:remote:Command' is not implemented by minipulumi's built-in 'command' provider, and no 'command' plugin v1.2.1 is installed to serve it; install it with \`minipulumi plugin install resource command 1.2.1\`" "the error names the type and what to do"
run destroy --yes
expect_rc 0 "destroy"
finish
