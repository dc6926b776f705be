#!/usr/bin/env bash
# A file:// checkpoint is written during an `up` without an fsync per write
# (a killed process loses nothing: each write is a rename; the crash suite
# tests that) and made durable once, at the end: the SQLite store's WAL
# with synchronous=NORMAL gives the same. Its .bak is made once, by the
# operation's first write: the checkpoint as the operation found it.
# Watched with strace: every checkpoint rename, and the fsyncs of the
# checkpoint and its folder.
. "$(dirname "$0")/lib.sh" "$@"
command -v strace >/dev/null || { fail "strace is missing (scripts/setup.sh installs it)"; finish; }
mkdir -p "$T/state"
export MINIPULUMI_BACKEND_URL="file://$T/state"
use_test_world
{
  printf 'name: proj\nruntime: yaml\nresources:\n'
  for i in $(seq 1 40); do
    printf '  r%d:\n    type: test:Resource\n    properties:\n      v: %d\n' "$i" "$i"
  done
} > Pulumi.yaml
run stack init dev
expect_rc 0 "stack init"
# (LeakSanitizer cannot run under ptrace: the ASan tree's leak check is
# left to the other tests of this run)
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
strace -f -y -qq -e trace=fsync,rename -o "$T/trace" \
  "$M" up --yes --skip-preview </dev/null >"$T/out" 2>"$T/err"
RC=$?; OUT=$(cat "$T/out"); ERR=$(cat "$T/err")
expect_rc 0 "up of 40 creates"
CK="$T/state/.pulumi/stacks/proj/dev.json"
# the checkpoint's writes: renames of a temporary file onto it
writes=$(grep -c "rename(\"$CK\.[0-9]*\.tmp\", \"$CK\")" "$T/trace")
syncs=$(grep -c "fsync([0-9]*<$CK>)" "$T/trace")
[ "$writes" -ge 10 ] || fail "expected a checkpoint write per batch of steps, saw $writes: $(cat "$T/trace")"
[ "$syncs" = 1 ] || fail "expected one fsync of the checkpoint (at the end), saw $syncs in $writes writes"
# the fsync comes after the last write of the checkpoint, then its folder's
last_write=$(grep -n "rename(\"$CK\.[0-9]*\.tmp\", \"$CK\")" "$T/trace" | tail -1 | cut -d: -f1)
sync_at=$(grep -n "fsync([0-9]*<$CK>)" "$T/trace" | tail -1 | cut -d: -f1)
[ "${sync_at:-0}" -gt "${last_write:-0}" ] || fail "the checkpoint's fsync (line $sync_at) is not after its last write (line $last_write)"
dir_sync=$(awk -v n="$sync_at" 'NR > n' "$T/trace" | grep -c "fsync([0-9]*<$T/state/.pulumi/stacks/proj>)")
[ "$dir_sync" -ge 1 ] || fail "the checkpoint's folder is not synced after its last write"
baks=$(grep -c "rename(\"$CK\.bak\.[0-9]*\.tmp\", \"$CK\.bak\")" "$T/trace")
[ "$baks" = 1 ] || fail "expected one .bak made by the operation, saw $baks"
# what is on disk is the finished update; the .bak, the stack before it
python3 - "$CK" <<'PY' || fail "the checkpoint is not the finished update"
import json, sys
d = json.load(open(sys.argv[1]))["checkpoint"]["latest"]
assert len([r for r in d["resources"] if r["type"] == "test:index:Resource"]) == 40
assert not d.get("pending_operations")
d = json.load(open(sys.argv[1] + ".bak"))["checkpoint"]["latest"]
assert not [r for r in d.get("resources", []) if r["type"] == "test:index:Resource"], d
PY
finish
