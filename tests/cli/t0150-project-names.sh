#!/bin/bash
# Project names are checked as Pulumi's tokens.ValidateProjectName checks
# them (1 to 100 letters, digits, `-`, `_`, `.`, not starting with a digit
# or `-`), and `.` and `..` are refused too, wherever a name enters:
# Pulumi.yaml, `new --name`, a fully qualified stack name, the URNs of
# `stack import`. Issue 49 defect 1: `name: ..` then `stack init stacks`
# and `stack rm stacks` deleted .pulumi/stacks/ of a file:// store (every
# project's checkpoints); `name: ../../../outside/projx` wrote outside it.
# On SQLite and on a file:// folder.
. "$(dirname "$0")/lib.sh" "$@"

project() { # name (a YAML scalar, written as is)
  printf 'name: %s\nruntime: yaml\n' "$1" > Pulumi.yaml
}
yaml_program() {
  cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
outputs:
  o: kept
YAML
}

for backend in sqlite file; do
  cd "$T" || exit 1
  rm -rf "$T/state" "$T/state.db" "$T/proj" "$T/outside" "$T/new"
  mkdir -p "$T/state" "$T/proj/deep/er"
  if [ $backend = file ]; then
    export MINIPULUMI_BACKEND_URL="file://$T/state"
  else
    export MINIPULUMI_BACKEND_URL="$T/state.db"
  fi
  cd "$T/proj" || exit 1
  yaml_program
  run stack init dev
  run up --yes
  expect_rc 0 "$backend: up of proj/dev"

  # The issue's case: the project `..` and its stack `stacks`.
  project ..
  run stack init stacks
  expect_rc 2 "$backend: stack init with project '..'"
  expect_err "invalid project name '..'" "$backend: names the project"
  expect_err "change its \`name\`" "$backend: says what to do"
  run stack rm stacks --yes
  expect_rc 2 "$backend: stack rm with project '..'"
  [ $backend = file ] && [ ! -f "$T/state/.pulumi/stacks/proj/dev.json" ] &&
    fail "$backend: proj/dev's checkpoint was deleted"

  # A name that climbs out of the state folder.
  project ../../../outside/projx
  run stack init dev
  expect_rc 2 "$backend: project '../../../outside/projx'"
  expect_err "project names may only contain alphanumerics, hyphens, underscores, and periods" \
    "$backend: Pulumi's words"
  [ -e "$T/outside" ] && fail "$backend: state was written outside the folder"
  (cd deep/er && "$M" stack init dev </dev/null >/dev/null 2>&1) &&
    fail "$backend: stack init from a subfolder"
  [ -e "$T/outside" ] && fail "$backend: state was written outside the folder"

  # Names that would break a URN or a path; and what Pulumi's rule refuses.
  for name in '"a::b"' '"a\nb"' '"a b"' 'a/b' 1abc -abc . \
              "$(printf 'a%.0s' $(seq 101))"; do
    project "$name"
    run stack init dev
    expect_rc 2 "$backend: project $name"
    expect_err "invalid project name" "$backend: project $name"
  done
  for name in _a .hidden a.b-c_D9 "$(printf 'a%.0s' $(seq 100))"; do
    project "$name"
    run stack init dev
    expect_rc 0 "$backend: valid project $name"
  done
  for c in "preview" "up --yes" "config set k v" "stack ls" "stack select dev"; do
    project ..
    run $c
    expect_rc 2 "$backend: $c with project '..'"
  done

  # A fully qualified stack name holds a project name too.
  yaml_program
  for ref in organization/../dev organization/./dev "organization/a b/dev" \
             organization/1x/dev; do
    run stack init "$ref"
    expect_rc 2 "$backend: stack init $ref"
    expect_err "invalid stack name '$ref'" "$backend: stack init $ref"
    run stack output -s "$ref"
    expect_rc 2 "$backend: stack output -s $ref"
  done

  # stack import: a resource whose URN holds a project Pulumi refuses.
  run stack export -s dev
  expect_rc 0 "$backend: export"
  echo "$OUT" | sed 's/::proj::/::a b::/g' > "$T/bad.json"
  run stack import -s dev --file "$T/bad.json"
  expect_rc 1 "$backend: import of URNs with project 'a b'"
  expect_err "has an invalid project name 'a b'" "$backend: import"
  run stack output o -s dev
  [ "$OUT" = kept ] || fail "$backend: proj/dev's output after the refused import: $OUT"

  # `new --name`.
  run new yaml --dir "$T/new" --yes --generate-only --name ..
  expect_rc 2 "$backend: new --name .."
  expect_err "'..' is not a valid project name" "$backend: new --name .."
  [ -f "$T/new/Pulumi.yaml" ] && fail "$backend: new --name .. wrote a project"
  run new yaml --dir "$T/new" --yes --generate-only --name 'a::b'
  expect_rc 2 "$backend: new --name a::b"
  # The folder's name, without what a project name may not hold, or
  # "project" (Pulumi's getValidProjectName).
  for d in "my proj!:myproj" "9 lives:project" "..x:..x"; do
    rm -rf "$T/${d%:*}"
    run new yaml --dir "$T/${d%:*}" --yes --generate-only
    expect_rc 0 "$backend: new in '${d%:*}'"
    grep -qx "name: ${d#*:}" "$T/${d%:*}/Pulumi.yaml" ||
      fail "$backend: new in '${d%:*}' named the project: $(head -1 "$T/${d%:*}/Pulumi.yaml")"
    rm -rf "$T/${d%:*}"
  done

  # Every stack is still there.
  run stack ls --json
  expect_rc 0 "$backend: stack ls"
  check "$backend: proj/dev listed" 'assert "dev" in [s["name"] for s in doc()], doc()'
  run stack output o -s dev
  [ "$OUT" = kept ] || fail "$backend: proj/dev's output: $OUT"
  if [ $backend = file ]; then
    [ -d "$T/state/.pulumi/stacks" ] || fail "$backend: .pulumi/stacks is gone"
    [ -d "$T/state/.pulumi/history/proj" ] || fail "$backend: proj's history is gone"
  fi
done
finish
