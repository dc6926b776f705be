#!/bin/bash
# A StackReference's name names one stack, parsed as Pulumi's DIY backends
# parse it (pkg/backend/diy/store.go, ParseReference): `<stack>`,
# `organization/<stack>` or `organization/<project>/<stack>`. Issue 50
# rule 11: `p1/dev` from project p3 read p3's own `dev`; Pulumi refuses it
# (`organization name must be 'organization'`). A Pulumi YAML program, on
# SQLite and on a file:// folder (tests/nodejs/t0030 does it from Node.js).
. "$(dirname "$0")/lib.sh" "$@"

# program PROJECT [REF]: PROJECT's Pulumi.yaml with output `who`, reading
# REF's `who` into `theirs` when given.
program() {
  if [ -z "${2:-}" ]; then
    printf 'name: %s\nruntime: yaml\noutputs:\n  who: %s\n' "$1" "$1" > Pulumi.yaml
    return
  fi
  cat > Pulumi.yaml <<YAML
name: $1
runtime: yaml
resources:
  other:
    type: pulumi:pulumi:StackReference
    properties:
      name: "$2"
outputs:
  who: $1
  theirs: \${other.outputs["who"]}
YAML
}

for backend in sqlite file; do
  rm -rf "$T/state" "$T/state.db" "$T/p1" "$T/p3"
  mkdir -p "$T/state" "$T/p1" "$T/p3"
  if [ $backend = file ]; then
    export MINIPULUMI_BACKEND_URL="file://$T/state"
  else
    export MINIPULUMI_BACKEND_URL="$T/state.db"
  fi
  for p in p1 p3; do
    cd "$T/$p" || exit 1
    program $p
    run stack init dev
    run up --yes
    expect_rc 0 "$backend: up of $p/dev"
  done
  cd "$T/p3" || exit 1
  run stack init consumer

  # Two parts are organization/stack: p1 is no organization.
  program p3 p1/dev
  run up --yes
  [ "$RC" != 0 ] || fail "$backend: a reference to p1/dev succeeded"
  expect_out "organization name must be 'organization'" "$backend: Pulumi's words"
  run stack output theirs
  [ "$OUT" = p3 ] && fail "$backend: p1/dev read p3's own dev"

  for ref in organization/p1/.. organization/../dev "organization/p1/a b" \
             a/b/c/d; do
    program p3 "$ref"
    run up --yes
    [ "$RC" != 0 ] || fail "$backend: a reference to '$ref' succeeded"
  done
  program p3 organization/p1/..
  run up --yes
  expect_out "a stack name may not be '..'" "$backend: organization/p1/.."

  # The forms that name one stack.
  for ref in organization/p1/dev:p1 dev:p3 organization/dev:p3 \
             organization/p3/dev:p3; do
    program p3 "${ref%:*}"
    run up --yes
    expect_rc 0 "$backend: a reference to ${ref%:*}"
    run stack output theirs
    [ "$OUT" = "${ref#*:}" ] || fail "$backend: ${ref%:*} read '$OUT', not ${ref#*:}"
  done
done
finish
