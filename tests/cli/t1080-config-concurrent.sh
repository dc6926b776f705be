#!/bin/bash
# Parallel writers of Pulumi.<stack>.yaml: each `config set` (and `--secret`,
# and `config rm`) locks the file, reads it again, writes a temporary file
# and renames it, so ten writers at once keep ten keys. Includes a stack
# whose encryption salt the secret writers write back at the same time.
. "$(dirname "$0")/lib.sh" "$@"
export PULUMI_CONFIG_PASSPHRASE=pass-word
run stack init dev
# nosalt: its salt is in the store only (as after an older minipulumi or a
# lost file), so the secret writers put it back into the file at once.
run stack init nosalt
sed -i '/^encryptionsalt:/d' Pulumi.nosalt.yaml

# parallel STACK ARGS...: ten `config set` at once: ARGS kN vN.
parallel() {
  local stack=$1 i
  shift
  local pids=()
  for i in 0 1 2 3 4 5 6 7 8 9; do
    "$M" config set -s "$stack" "$@" "k$i" "v$i" </dev/null \
      >"$T/p$i.out" 2>"$T/p$i.err" &
    pids+=($!)
  done
  for i in 0 1 2 3 4 5 6 7 8 9; do
    wait "${pids[$i]}" || fail "config set $* k$i: $(cat "$T/p$i.err")"
  done
}

# keys STACK EXPECTED-PYTHON-DICT: config --json --show-secrets equals it.
keys() {
  run config --json --show-secrets -s "$1"
  expect_rc 0 "config -s $1"
  check "$1 keeps every key" '
got = {k.split(":", 1)[1]: v["value"] for k, v in doc().items()}
want = '"$2"'
assert got == want, (sorted(got), sorted(want))
'
}
plain='{"k%d" % i: "v%d" % i for i in range(10)}'

parallel dev
keys dev "$plain"
for r in 1; do
  parallel dev --secret
  keys dev "$plain"
  run config --json -s dev
  check "round $r: all secret" 'assert all(v["secret"] for v in doc().values()), doc()'
done

parallel nosalt --secret
keys nosalt "$plain"
expect_file Pulumi.nosalt.yaml "encryptionsalt: v1:" "the salt was created once"

# Parallel removals keep the other keys.
pids=()
for i in 0 2 4 6 8; do
  "$M" config rm -s dev "k$i" </dev/null >/dev/null 2>"$T/rm$i.err" &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || fail "config rm: $(cat "$T"/rm*.err)"; done
keys dev '{"k%d" % i: "v%d" % i for i in (1, 3, 5, 7, 9)}'
ls -a | grep -q '\.tmp\.' && fail "no temporary files left: $(ls -a)"

# A failed write leaves no empty file behind.
run config set -s nosalt ':bad' v
[ "$RC" -ne 0 ] || fail "a bad key is refused"
unset PULUMI_CONFIG_PASSPHRASE
run stack init empty
[ "$RC" -ne 0 ] || fail "stack init without a passphrase is refused"
[ -e Pulumi.empty.yaml ] && fail "stack init without a passphrase writes no file"
run config set -s empty ':bad' v
[ "$RC" -ne 0 ] || fail "a bad key is refused (empty)"
[ -e Pulumi.empty.yaml ] && fail "no empty Pulumi.empty.yaml left by a failed set"
finish
