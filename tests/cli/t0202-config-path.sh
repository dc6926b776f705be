#!/bin/bash
# config --path sets, reads and removes nested values.
. "$(dirname "$0")/lib.sh" "$@"
export PULUMI_CONFIG_PASSPHRASE=p

run stack init dev
run config set --path 'data.tags[0]' first
expect_rc 0 "list element"
run config set --path 'data.tags[1]' second
run config set --path 'data.inner.name' n
run config set --path 'data.pw' --secret s
expect_rc 0 "nested secret"
run config set --path 'data.tags[5]' x
expect_rc 2 "index past the end"
run config get data
[ "$OUT" = '{"inner":{"name":"n"},"pw":"s","tags":["first","second"]}' ] ||
  fail "object value: $OUT"
run config get --path 'data.tags[1]'
[ "$OUT" = "second" ] || fail "path get: $OUT"
run config get --path data.pw
[ "$OUT" = "s" ] || fail "nested secret decrypted: $OUT"
run config get data --json
expect_out '"objectValue": {' "objectValue"
expect_out '"secret": true' "secret inside"
expect_file Pulumi.dev.yaml "    tags:" "nested layout"
expect_file Pulumi.dev.yaml "      secure: v1:" "nested secure"
run config rm --path data.inner
run config get data
[ "$OUT" = '{"pw":"s","tags":["first","second"]}' ] || fail "path rm: $OUT"
run config set plain v
run config set --path plain.x y
expect_rc 2 "path below a string"
# as in Pulumi, a value on the way down is never replaced by a list or a
# map: the command fails and the file keeps it
run config set --path 'deep[0]' word
run config set --path 'deep[0][0]' x
expect_rc 2 "an index below a string element"
expect_err "a list was expected for index 0" "Pulumi's words for it"
run config set --path 'deep[0].k' x
expect_rc 2 "a key below a string element"
expect_err "a map was expected for key 'k'" "Pulumi's words for a key"
run config set --path 'obj.n' 1
run config set --path 'obj.n.k' x
expect_rc 2 "a key below a number"
run config set --path 'obj.n[0]' x
expect_rc 2 "an index below a number"
run config set --path 'obj[0]' x
expect_rc 2 "an index below a map"
run config set --path 'data.pw.x' x
expect_rc 2 "a key below a secret"
run config get deep
[ "$OUT" = '["word"]' ] || fail "the string element stays: $OUT"
run config get obj
[ "$OUT" = '{"n":1}' ] || fail "the number stays: $OUT"
finish
