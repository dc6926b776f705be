#!/bin/bash
# config set refuses to store in plain text a value that looks like a
# secret (a key naming a password, secret or token, and a value random
# enough by zxcvbn's measure), as Pulumi does, unless --secret or
# --plaintext says what is meant. Its subcommands have their own pages.
. "$(dirname "$0")/lib.sh" "$@"

run stack init dev
run config set dbPassword 'Xk9#mQ2$vL7!pR4w'
expect_rc 2 "random password refused"
expect_err "config value for 'proj:dbPassword' looks like a secret; rerun with --secret to encrypt it, or --plaintext if you meant to store in plaintext" "Pulumi's message"
grep -q 'Xk9' Pulumi.dev.yaml 2>/dev/null && fail "refused value written"
# the value may also come from standard input
printf 'aB3dE6gH9jK2mN5p\n' | "$M" config set apiToken >/dev/null 2>"$T/err"
[ $? = 2 ] || fail "stdin value refused"
run config set --plaintext dbPassword 'Xk9#mQ2$vL7!pR4w'
expect_rc 0 "--plaintext stores it"
expect_file Pulumi.dev.yaml 'Xk9#mQ2$vL7!pR4w' "stored as text"
run config set --secret dbPassword 'Xk9#mQ2$vL7!pR4w'
expect_rc 0 "--secret encrypts it"
expect_file Pulumi.dev.yaml "secure: v1:" "encrypted"
# a guessable value, or a key that names no secret, is stored as asked
run config set dbPassword hunter2
expect_rc 0 "weak value under a password key"
run config set region 'Xk9#mQ2$vL7!pR4w'
expect_rc 0 "random value under an ordinary key"
run config set --path 'db.secretKey' 'aB3dE6gH9jK2mN5p'
expect_rc 2 "a path whose last name is a secret"

# each subcommand has its own page; an unknown one lists them all
run config set --help
expect_rc 0 "config set --help"
expect_out "minipulumi config set <key> [value]" "set's page"
expect_out "--plaintext" "set's flags"
run config get -h
expect_out "minipulumi config get <key>" "get's page"
run config rm --help
expect_out "minipulumi config rm <key>" "rm's page"
run config --help
for s in set get rm set-all rm-all cp; do expect_out "  $s " "config's page lists $s"; done
run config frob x
expect_rc 2 "unknown subcommand"
expect_err "expected one of set, get, rm, set-all, rm-all, cp or refresh" "lists them"
# flags before the subcommand still reach it
run config -s dev get region
expect_rc 0 "-s before the subcommand"
finish
