#!/bin/bash
# stack tag set|get|rm|ls [--json] and stack ls --tag, in Pulumi's words, on
# the SQLite store and on a file:// folder (Pulumi's DIY layout: the tags in
# <stack>.pulumi-tags beside the checkpoint).
. "$(dirname "$0")/lib.sh" "$@"

mkdir -p "$T/diy"
for url in "$T/state.db" "file://$T/diy"; do
  export MINIPULUMI_BACKEND_URL="$url"
  run stack init prod
  run stack init dev
  run stack tag ls
  expect_rc 0 "ls of no tags ($url)"
  [ "$OUT" = "NAME  VALUE" ] || fail "ls of no tags printed: $OUT"
  run stack tag set env dev
  expect_rc 0 "set ($url)"
  [ -z "$OUT" ] || fail "set printed: $OUT"
  run stack tag set owner team-a
  run stack tag set env development
  run stack tag get env
  expect_rc 0 "get"
  [ "$OUT" = "development" ] || fail "get after overwrite: $OUT"
  run stack tag ls
  expect_out "NAME   VALUE" "ls header"
  expect_out "env    development" "ls row"
  run stack tag ls --json
  check "ls --json is Pulumi's map" \
    'assert json.loads(out) == {"env": "development", "owner": "team-a"}, out'
  run stack tag set -s prod env production
  run stack tag ls -j -s prod
  check "tags are per stack" 'assert json.loads(out) == {"env": "production"}, out'
  # stack ls --tag NAME and NAME=VALUE (Pulumi's parseTagFilter)
  run stack ls --tag env
  expect_out "dev" "--tag name: dev"
  expect_out "prod" "--tag name: prod"
  run stack ls --tag env=production --json
  check "--tag name=value" 'assert [s["name"] for s in json.loads(out)] == ["prod"], out'
  run stack ls -t owner
  expect_out "dev" "-t owner"
  expect_not_out "prod" "-t owner leaves prod out"
  run stack ls -t nosuch
  [ "$OUT" = "NAME  LAST UPDATE  RESOURCE COUNT" ] || fail "-t nosuch: $OUT"
  # rm, and rm of a missing tag is no error (Pulumi's)
  run stack tag rm owner
  expect_rc 0 "rm"
  run stack tag rm owner
  expect_rc 0 "rm of a missing tag"
  run stack tag get owner
  expect_rc 1 "get of a removed tag"
  expect_err "stack tag 'owner' not found for stack 'dev'" "Pulumi's words"
  # bad names are refused with Pulumi Cloud's rules, nothing written
  run stack tag set 'bad name' x
  expect_rc 1 "bad name"
  expect_err "stack tag names may only contain alphanumerics, hyphens, underscores, periods, or colons" "bad name's words"
  run stack tag set "$(printf 'a%.0s' $(seq 41))" x
  expect_err "is too long (max length 40 characters)" "long name"
  run stack tag set ok "$(printf 'v%.0s' $(seq 257))"
  expect_err "value is too long (max length 256 characters)" "long value"
  run stack tag ls --json
  check "refused tags are not kept" 'assert json.loads(out) == {"env": "development"}, out'
  run stack tag get
  expect_rc 2 "get without a name"
  run stack tag get env -s nosuch
  expect_rc 6 "unknown stack"
  # tags follow a rename and go with the stack
  run stack rename dev2
  expect_rc 0 "rename"
  run stack tag get env
  [ "$OUT" = "development" ] || fail "tags after rename: $OUT"
  run stack rm -y dev2
  expect_rc 0 "rm"
  run stack init dev2
  run stack tag ls --json -s dev2
  check "a new stack of the old name has no tags" 'assert json.loads(out) == {}, out'
  run stack rm -y dev2
done
# the file:// folder holds Pulumi's file, and nothing of a removed stack
f="$T/diy/.pulumi/stacks/proj/prod.pulumi-tags"
expect_file "$f" '{"version":1,"tags":{"env":"production"}}' "DIY tags file"
[ -e "$T/diy/.pulumi/stacks/proj/dev2.pulumi-tags" ] && fail "removed stack's tags left"
[ -e "$T/diy/.pulumi/stacks/proj/dev.pulumi-tags" ] && fail "renamed stack's tags left"
finish
