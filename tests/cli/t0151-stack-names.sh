#!/bin/bash
# Stack names are checked as Pulumi's tokens.ParseStackName checks them
# (1 to 100 letters, digits, `-`, `_`, `.`; the first bad character and its
# position named), and `.` and `..` are refused too, by every command and
# in every backend. Issue 49 defect 2: on a file:// folder `stack rm ..`
# deleted .pulumi/history/ of every project before it failed. On SQLite,
# on a file:// folder and on one in the legacy layout; with MP_TEST_PG_URL
# (tests/pg/pgtest.py, test t0151-stack-names-pg) on PostgreSQL only.
. "$(dirname "$0")/lib.sh" "$@"

backends="sqlite file legacy"
[ -n "${MP_TEST_PG_URL:-}" ] && backends=pg
for backend in $backends; do
  cd "$T" || exit 1
  rm -rf "$T/state" "$T/state.db" "$T/other"
  mkdir -p "$T/state" "$T/other"
  unset PULUMI_DIY_BACKEND_LEGACY_LAYOUT
  case $backend in
    sqlite) export MINIPULUMI_BACKEND_URL="$T/state.db" ;;
    file) export MINIPULUMI_BACKEND_URL="file://$T/state" ;;
    legacy) export MINIPULUMI_BACKEND_URL="file://$T/state"
            export PULUMI_DIY_BACKEND_LEGACY_LAYOUT=1 ;;
    pg) "$MP_TEST_PG_BIN/psql" -X -q -d "$MP_TEST_PG_URL" \
          -c "CREATE DATABASE t0151" || fail "createdb"
        export MINIPULUMI_BACKEND_URL=${MP_TEST_PG_URL/\/postgres\?//t0151?} ;;
  esac
  # Another project's stack, whose history a `..` would reach.
  printf 'name: other\nruntime: yaml\noutputs:\n  o: theirs\n' > "$T/other/Pulumi.yaml"
  run_in "$T/other" stack init prod
  run_in "$T/other" up --yes
  expect_rc 0 "$backend: up of other/prod"
  cd "$T/proj" || exit 1
  printf 'name: proj\nruntime: yaml\noutputs:\n  o: mine\n' > Pulumi.yaml
  run stack init dev
  run up --yes
  expect_rc 0 "$backend: up of proj/dev"

  for s in . ..; do
    for c in "stack init" "stack select" "stack select -c" "stack rm --yes" \
             "stack rm --force --yes" "cancel --yes"; do
      run $c "$s"
      expect_rc 2 "$backend: $c $s"
      expect_err "invalid stack name '$s': a stack name may not be '$s'" "$backend: $c $s"
    done
    for c in "up --yes" preview "refresh --yes" "destroy --yes" "config" \
             "config set k v" "stack output" "stack export" "stack history" \
             "stack tag set k v" "stack rename x" "stack select" "stack rm --yes"; do
      run $c -s "$s"
      expect_rc 2 "$backend: $c -s $s"
      expect_err "a stack name may not be '$s'" "$backend: $c -s $s"
    done
    run stack rename "$s" -s dev
    expect_rc 2 "$backend: stack rename to $s"
    run stack init "organization/proj/$s"
    expect_rc 2 "$backend: stack init organization/proj/$s"
    [ -f "Pulumi.$s.yaml" ] && fail "$backend: a config file Pulumi.$s.yaml"
  done

  # Pulumi's words for a bad character, and the longest name.
  run stack init 'a b'
  expect_rc 2 "$backend: a space"
  expect_err "a stack name may only contain alphanumeric, hyphens, underscores, or periods: invalid character ' ' at position 1" \
    "$backend: the character and its position"
  run stack init "$(printf 'x\ny')"
  expect_err "invalid character '\\n' at position 1" "$backend: a newline"
  run stack init "$(printf 's%.0s' $(seq 101))"
  expect_err "a stack name cannot exceed 100 characters" "$backend: 101 characters"
  run stack init "$(printf 's%.0s' $(seq 100))"
  expect_rc 0 "$backend: 100 characters"
  run stack init ...
  expect_rc 0 "$backend: '...' is a name like any other"
  run stack rm ... --yes
  expect_rc 0 "$backend: rm ..."

  # Nothing of either project was touched.
  run stack output o -s dev
  [ "$OUT" = mine ] || fail "$backend: proj/dev's output: $OUT ($ERR)"
  run stack history -s dev --json
  check "$backend: proj/dev's history" 'assert len(doc()) == 1, doc()'
  run_in "$T/other" stack output o -s prod
  [ "$OUT" = theirs ] || fail "$backend: other/prod's output: $OUT ($ERR)"
  run_in "$T/other" stack history -s prod --json
  check "$backend: other/prod's history" 'assert len(doc()) == 1, doc()'
  if [ $backend = file ] || [ $backend = legacy ]; then
    [ -d "$T/state/.pulumi/history" ] || fail "$backend: .pulumi/history is gone"
    [ -d "$T/state/.pulumi/stacks" ] || fail "$backend: .pulumi/stacks is gone"
  fi
done
finish
