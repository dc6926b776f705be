#!/bin/bash
# Bad flags and bad values exit 2 with a message; good spellings parse.
. "$(dirname "$0")/lib.sh" "$@"

for c in up preview refresh destroy config cancel version; do
  run $c --no-such-flag
  expect_rc 2 "$c --no-such-flag"
  expect_err "unknown flag: --no-such-flag" "$c --no-such-flag"
done
for s in init ls select rm rename output export import history; do
  run stack $s --no-such-flag
  expect_rc 2 "stack $s --no-such-flag"
done
run up -K
expect_rc 2 "unknown shorthand"
expect_err "unknown shorthand flag: 'K'" "unknown shorthand"
run up --parallel notanumber
expect_rc 2 "bad integer"
expect_err "invalid integer value for flag --parallel" "bad integer"
run up --yes=maybe
expect_rc 2 "bad boolean"
run stack export --file
expect_rc 2 "missing value"
expect_err "flag needs an argument: --file" "missing value"
run --color purple version
expect_rc 2 "bad --color"
expect_err "unsupported color option 'purple'" "bad --color"
run frobnicate
expect_rc 2 "unknown command"
expect_err "unknown command \"frobnicate\"" "unknown command"
run stack frobnicate
expect_rc 2 "unknown stack subcommand"
run config frobnicate
expect_rc 2 "unknown config subcommand"
run config set
expect_rc 2 "config set without a key"

# the accepted spellings: --flag value, --flag=value, -s value, -svalue
run stack init dev
expect_rc 0 "stack init"
run stack init --stack=qa
expect_rc 0 "--stack=value"
run config set -s qa k v1
expect_rc 0 "-s value"
run config get -sqa k
expect_rc 0 "-svalue"
expect_out "v1" "-svalue"
run --stack qa config get k
expect_rc 0 "global flag before the command"
run config get k --stack=dev
expect_rc 1 "key only set on qa"
run config get k -- --stack
expect_rc 2 "-- ends the flags (two keys)"
# a bad global flag before any command: the hint has no double space
run --no-such-flag
expect_rc 2 "bad global flag"
expect_err "Run 'minipulumi --help' for usage." "the hint"
case "$ERR" in *"minipulumi  --help"*) fail "double space in the hint: $ERR" ;; esac
finish
