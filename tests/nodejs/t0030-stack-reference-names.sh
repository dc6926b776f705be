#!/bin/bash
# Names from a Node.js program and from the Automation API.
# Issue 50 rule 11: `new pulumi.StackReference("p1/dev")` from project p3
# read p3's own `dev`; the name is parsed as Pulumi's DIY backends parse it
# (`organization name must be 'organization'`), and only
# `organization/p1/dev` reads p1's. Issue 49: the Automation API's inline
# projects and stacks are checked as Pulumi.yaml's are. On SQLite and on
# a file:// folder (tests/cli/t0152 has the other forms, from Pulumi YAML).
. "$(dirname "$0")/lib.sh" "$@"

# project NAME: programs/stackrefnames as project NAME in $T/NAME.
project() {
  rm -rf "${T:?}/$1"
  cp -r "$NODE_TESTS/programs/stackrefnames" "$T/$1"
  ln -s "$NODE_TESTS/node_modules" "$T/$1/node_modules"
  sed -i "s/^name: .*/name: $1/" "$T/$1/Pulumi.yaml"
  cd "$T/$1" || exit 1
}

for backend in sqlite file; do
  rm -rf "$T/state" "$T/state.db"
  mkdir -p "$T/state"
  if [ $backend = file ]; then
    export MINIPULUMI_BACKEND_URL="file://$T/state"
  else
    export MINIPULUMI_BACKEND_URL="$T/state.db"
  fi
  for p in p1 p3; do
    project $p
    run stack init dev
    run up --yes --skip-preview
    expect_rc 0 "$backend: up of $p/dev"
  done
  run stack init consumer

  OTHER_STACK=p1/dev run up --yes
  [ "$RC" != 0 ] || fail "$backend: StackReference(\"p1/dev\") succeeded"
  expect_out "organization name must be 'organization'" "$backend: Pulumi's words"
  run stack output theirs
  [ "$OUT" = p3 ] && fail "$backend: p1/dev read p3's own dev"

  OTHER_STACK=organization/p1/dev run up --yes
  expect_rc 0 "$backend: StackReference(\"organization/p1/dev\")"
  run stack output theirs
  [ "$OUT" = p1 ] || fail "$backend: organization/p1/dev read '$OUT'"
done

# The Automation API's inline projects, with minipulumi as `pulumi`.
mkdir -p "$T/bin"
ln -s "$M" "$T/bin/pulumi"
export PATH="$T/bin:$PATH" PULUMI_BACKEND_URL="file://$T/state"
unset MINIPULUMI_BACKEND_URL
cd "$T/p3" || exit 1
inline() { # project stack
  OUT=$(node inline.js "$1" "$2" 2>&1)
}
inline .. stacks
expect_out "refused: " "inline project '..'"
expect_out "invalid project name '..'" "inline project '..' named"
inline "a::b" dev
expect_out "invalid project name 'a::b'" "inline project 'a::b'"
inline auto-ok ..
expect_out "a stack name may not be '..'" "inline stack '..'"
inline auto-ok dev
expect_out "created" "a valid inline project"
[ -f "$T/state/.pulumi/stacks/p1/dev.json" ] || fail "p1/dev's checkpoint is gone"
[ -d "$T/state/.pulumi/history/p3" ] || fail "p3's history is gone"
finish
