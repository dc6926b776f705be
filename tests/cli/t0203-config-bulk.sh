#!/bin/bash
# config set-all, rm-all and cp, and typed values below a key with --path
# (Pulumi's rule: true/false and integers are a bool and a number there,
# text at the top level).
. "$(dirname "$0")/lib.sh" "$@"
export PULUMI_CONFIG_PASSPHRASE=p

run stack init dev
run config set --path 'opts.enabled' true
expect_rc 0 "typed bool"
run config set --path 'opts.count' 2
run config set --path 'opts.zip' 0123
run config set --path top true
expect_file Pulumi.dev.yaml "    enabled: true" "true below a key is a bool"
expect_file Pulumi.dev.yaml "    count: 2" "2 below a key is a number"
expect_file Pulumi.dev.yaml '    zip: "0123"' "a leading zero stays text"
expect_file Pulumi.dev.yaml '  proj:top: "true"' "a top-level value stays text"
run config get opts --json
expect_out '"count": 2' "objectValue holds the number"
expect_out '"enabled": true' "objectValue holds the bool"

run config set-all --plaintext a=1 --plaintext 'b=x=y' --secret s=hush \
  --plaintext "'k=1'=v"
expect_rc 0 "set-all"
run config get b
[ "$OUT" = "x=y" ] || fail "split on the first '=': $OUT"
run config get k=1
[ "$OUT" = "v" ] || fail "a quoted key may hold '=': $OUT"
run config get s
[ "$OUT" = "hush" ] || fail "secret set-all: $OUT"
expect_file Pulumi.dev.yaml "  proj:s:" "secret key written"
grep -q hush Pulumi.dev.yaml && fail "the secret is stored in clear"
run config set-all --path --plaintext 'names[0]=a' --plaintext 'names[1]=b'
run config get names
[ "$OUT" = '["a","b"]' ] || fail "set-all --path: $OUT"
run config set-all --plaintext novalue
expect_rc 2 "a pair without '='"
expect_err "config value must be in the form [key]=[value]" "Pulumi's text"

run config rm-all a b
expect_rc 0 "rm-all"
run config get a
[ "$RC" != 0 ] || fail "a still set"
run config rm-all --path 'opts.count' 'names[0]'
run config get opts
[ "$OUT" = '{"enabled":true,"zip":"0123"}' ] || fail "rm-all --path: $OUT"
run config rm-all
expect_rc 2 "rm-all without keys"

run stack init prod
run stack select dev
run config cp --dest dev
expect_rc 1 "copy onto itself"
expect_err "current stack and destination stack are the same" "Pulumi's text"
run config cp s --dest prod
expect_rc 0 "copy one secret"
run config get s --stack prod
[ "$OUT" = "hush" ] || fail "re-encrypted for prod's salt: $OUT ($ERR)"
a=$(grep -A1 'proj:s:' Pulumi.dev.yaml | tail -1)
b=$(grep -A1 'proj:s:' Pulumi.prod.yaml | tail -1)
[ -n "$b" ] && [ "$a" != "$b" ] || fail "not re-encrypted: '$a' / '$b'"
run config cp --path 'opts.enabled' -d prod
run config get opts --stack prod
[ "$OUT" = '{"enabled":true}' ] || fail "copy at a path: $OUT"
run config cp --dest prod
expect_rc 0 "copy everything"
run config get k=1 --stack prod
[ "$OUT" = "v" ] || fail "all copied: $OUT"
run config cp --dest nosuch
[ "$RC" != 0 ] || fail "copy to a missing stack succeeded"
expect_err "no stack named 'nosuch' found" "names the missing stack"
run config cp missing --dest prod
[ "$RC" != 0 ] || fail "copying a missing key succeeded"
finish
