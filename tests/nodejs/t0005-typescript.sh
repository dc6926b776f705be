#!/bin/bash
# A TypeScript program on @pulumi/random and @pulumi/command, run through
# ts-node, served by the built-in random and command providers.
. "$(dirname "$0")/lib.sh" "$@"
node_program ts
run stack init dev
run up --yes
expect_rc 0 "up"
expect_out "command:local:Command echo" "the command resource"
WORD=$(echo "$OUT" | sed -n 's/.*wordId: *"\(.*\)"/\1/p')
[ -n "$WORD" ] || fail "no wordId output: $OUT"
expect_out "echoed: \"made-$WORD\"" "the command ran with the pet's name"
state_json
case "$STATE" in *'pulumi:providers:command::default_1_2_1'*) ;;
  *) fail "the SDK's default provider version is not in the state: $STATE" ;; esac
run destroy --yes
expect_rc 0 "destroy"
finish
