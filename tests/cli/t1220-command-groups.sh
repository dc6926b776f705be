#!/bin/bash
# Every command made of subcommands (stack, stack tag, config, state,
# plugin, package, schema) runs through one table (cli/command_table.h):
# the same page, the same "unknown command" error naming what the group
# has, aliases, and flags before the subcommand (as cobra's persistent
# flags: `pulumi stack -s dev output`).
. "$(dirname "$0")/lib.sh" "$@"

for g in "stack" "stack tag" "config" "state" "plugin" "package" "schema"; do
  run $g frob
  expect_rc 2 "$g frob"
  expect_err "unknown command \"frob\" for \"minipulumi $g\"; expected " "$g frob"
  expect_err "Run 'minipulumi $g --help' for usage." "$g frob"
  run $g --help
  expect_rc 0 "$g --help"
  expect_out "Subcommands:" "$g --help"
done
run state frob
expect_err "expected one of delete, unprotect, rename, repair, move, edit, protect, taint, untaint or upgrade" "state's names"
run schema frob
expect_err "; expected check" "a group of one"
# a group without a subcommand of its own to run shows its page, exit 2
run state
expect_rc 2 "bare state"
expect_out "  delete     Deletes one or more resources" "bare state's table"
# `stack` without a subcommand shows the current stack: --help names its flags
run stack --help
expect_out "--show-urns" "stack's own flags on its page"
expect_out "  tag        Manage stack tags" "stack's table"
# aliases run the subcommand under its own name
run state rm --help
expect_out "minipulumi state delete" "state rm is state delete"
run config remove-all --help
expect_out "minipulumi config rm-all" "config remove-all is rm-all"
run config copy --help
expect_out "minipulumi config cp" "config copy is cp"
run stack list --help
expect_out "minipulumi stack ls" "stack list is stack ls"
# flags before the subcommand reach it
run stack init dev
expect_rc 0 "stack init"
run stack init prod
run config -s dev set region west
expect_rc 0 "config -s dev set"
run stack -s dev tag set owner me
expect_rc 0 "stack -s dev tag set"
run stack tag -s dev get owner
expect_rc 0 "stack tag -s dev get"
expect_out "me" "the tag set on dev"
run stack -s dev output --json
expect_rc 0 "stack -s dev output"
run config -s dev get region
expect_out "west" "dev's value"
run config get region
expect_rc 1 "the selected stack (prod) lacks it"
# a flag of the group's own is not the subcommand's
run stack -u output
expect_rc 2 "-u before output"
expect_err "unknown shorthand flag: 'u' in -u" "-u is stack's, not output's"
finish
