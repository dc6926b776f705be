#!/bin/bash
# `minipulumi version` prints the Pulumi CLI version it implements as semver
# (what the Automation API parses), minipulumi's own as build metadata.
. "$(dirname "$0")/lib.sh" "$@"

run version
expect_rc 0 "version"
echo "$OUT" | grep -qE '^v3\.[0-9]+\.[0-9]+\+minipulumi\.[0-9]+\.[0-9]+\.[0-9]+$' ||
  fail "version text: $OUT"
run --version
expect_rc 0 "--version"
[ "$OUT" = "$(echo "$OUT" | head -1)" ] && echo "$OUT" | grep -q "+minipulumi\." ||
  fail "--version text: $OUT"
run --color never version
expect_rc 0 "global flag before the command"
run version extra
expect_rc 2 "version with an argument"
expect_err "unknown command \"extra\"" "version with an argument"
finish
