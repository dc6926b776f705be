#!/bin/bash
# `minipulumi version` keeps the README's output text.
. "$(dirname "$0")/lib.sh" "$@"

run version
expect_rc 0 "version"
echo "$OUT" | grep -qE '^minipulumi version [0-9]+\.[0-9]+\.[0-9]+$' ||
  fail "version text: $OUT"
run --color never version
expect_rc 0 "global flag before the command"
run version extra
expect_rc 2 "version with an argument"
expect_err "unknown command \"extra\"" "version with an argument"
finish
