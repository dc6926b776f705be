#!/bin/bash
# A state store that cannot be written (a read-only folder, or a read-only
# file): reading works (stack ls, stack output, stack export, preview) and
# leaves no file beside the store; every write is refused up front with a
# message saying so — `up` before it runs a preview, not at the lock.
# Run as root, the reader is `nobody` (root may write anything).
. "$(dirname "$0")/lib.sh" "$@"
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  pet:
    type: random:index/randomPet:RandomPet
outputs:
  name: ${pet.id}
YAML
mkdir "$T/store"
export MINIPULUMI_BACKEND_URL="$T/store/state.db"
run stack init dev
run up -y
expect_rc 0 "up while writable"
run stack output name
pet=$OUT

if [ "$(id -u)" = 0 ]; then
  command -v setpriv >/dev/null || { fail "setpriv is needed to test as a reader"; finish; }
  reader=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  chmod -R a+rX "$T"
else
  reader=()
fi
# rrun CMD...: `run` as the reader.
rrun() {
  "${reader[@]}" "$M" "$@" </dev/null >"$T/out" 2>"$T/err"
  RC=$?
  OUT=$(cat "$T/out")
  ERR=$(cat "$T/err")
}
ro='is read-only (the file or its folder is not writable)'

check_reader() { # what
  rrun stack ls
  expect_rc 0 "$1: stack ls"
  expect_out "dev" "$1: stack ls lists the stack"
  rrun stack output name
  expect_rc 0 "$1: stack output"
  [ "$OUT" = "$pet" ] || fail "$1: stack output: '$OUT'"
  rrun stack export
  expect_rc 0 "$1: stack export"
  rrun preview
  expect_rc 0 "$1: preview"
  rrun up -y
  expect_rc 1 "$1: up"
  expect_err "$ro" "$1: up says the store is read-only"
  expect_not_out "Previewing" "$1: up fails before its preview"
  for c in "destroy -y" "refresh -y" "stack init other" "stack select dev" \
           "stack rm -y dev" "stack rename other"; do
    rrun $c
    [ "$RC" -ne 0 ] || fail "$1: $c fails"
    expect_err "$ro" "$1: $c says the store is read-only"
  done
  [ "$(ls "$T/store")" = state.db ] || fail "$1: nothing made beside the store: $(ls "$T/store")"
}

chmod 444 "$T/store/state.db"
chmod 555 "$T/store"
check_reader "read-only folder"
chmod 777 "$T/store"
check_reader "read-only file"
chmod 755 "$T/store"
chmod 644 "$T/store/state.db"
run stack output name
[ "$OUT" = "$pet" ] || fail "the owner reads it after"
run up -y
expect_rc 0 "the owner writes it again"
finish
