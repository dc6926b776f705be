#!/bin/bash
# --help on every command prints its usage and exits 0.
. "$(dirname "$0")/lib.sh" "$@"

for c in version up preview refresh destroy config cancel stack; do
  run $c --help
  expect_rc 0 "$c --help"
  expect_out "Usage:" "$c --help"
  expect_out "minipulumi $c" "$c --help"
  run $c -h
  expect_rc 0 "$c -h"
done
for s in init ls select rm rename output export import history; do
  run stack $s --help
  expect_rc 0 "stack $s --help"
  expect_out "minipulumi stack $s" "stack $s --help"
  expect_out "Global Flags:" "stack $s --help"
done
run --help
expect_rc 0 "--help"
expect_out "Commands:" "--help"
run
expect_rc 0 "no command"
run help up
expect_rc 0 "help up"
expect_out "minipulumi up [flags]" "help up"
run up --help
expect_out "--target-replace" "up --help lists its flags"
expect_out "--expect-no-changes" "up --help lists its flags"
finish
