#!/bin/bash
# stack rename renames the stack, its config file and the selection.
. "$(dirname "$0")/lib.sh" "$@"

run stack init dev
run config set k v
run stack rename prod
expect_rc 0 "rename"
expect_out "Renamed dev to prod" "rename"
[ -e Pulumi.prod.yaml ] || fail "config file follows"
[ -e Pulumi.dev.yaml ] && fail "old config file gone"
run stack
expect_out "Current stack is prod:" "selection follows"
run config get k
expect_out "v" "config kept"
run stack init other
run stack rename prod
expect_rc 1 "rename onto an existing stack"
expect_err "stack 'prod' already exists" "rename onto an existing stack"
run stack rename 'no good'
expect_rc 2 "invalid new name"
run stack rename
expect_rc 2 "missing new name"
run stack rename x -s ghost
expect_rc 6 "rename unknown stack"
finish
