#!/bin/bash
# stack rm asks for confirmation (non-interactive needs --yes) and removes
# the stack and its config file.
. "$(dirname "$0")/lib.sh" "$@"

run stack init dev
run config set k v
[ -e Pulumi.dev.yaml ] || fail "config file written"
run stack rm
expect_rc 2 "non-interactive without --yes"
expect_err "--yes must be passed in to proceed when running in non-interactive mode" "rm"
run stack rm --yes
expect_rc 0 "rm --yes"
expect_out "Stack 'dev' has been removed!" "rm --yes"
[ -e Pulumi.dev.yaml ] && fail "config file removed"
run stack ls
expect_not_out "dev" "stack gone"
run stack rm nope --yes
expect_rc 6 "rm unknown"
expect_err "no stack named 'nope' found" "rm unknown"

run stack init keep
run config set k v
run stack rm keep -y --preserve-config
expect_rc 0 "--preserve-config"
[ -e Pulumi.keep.yaml ] || fail "--preserve-config keeps the file"
finish
