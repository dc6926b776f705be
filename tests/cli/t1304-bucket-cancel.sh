#!/bin/bash
# The s3:// and azblob:// backends against a server that takes a request
# and never answers (stall_bucket.py): the first Ctrl-C or SIGTERM ends
# the request at once with a clear error and a non-zero exit, and the
# stack's state is the last complete write; without a signal the request
# ends by the stall limit (MINIPULUMI_BUCKET_STALL_SECONDS) with an error.
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh" "$@"
export AWS_ACCESS_KEY_ID=AK AWS_SECRET_ACCESS_KEY=SK
export AZURE_STORAGE_ACCOUNT=devstoreaccount1 AZURE_STORAGE_KEY=a2V5
SRV=
stop_server() { [ -n "$SRV" ] && kill "$SRV" 2>/dev/null && wait "$SRV" 2>/dev/null; SRV=; }
trap 'stop_server; rm -rf "$T"' EXIT
rm -f "$T/port"
python3 "$HERE/stall_bucket.py" "$T/port" & SRV=$!
for _ in $(seq 300); do [ -s "$T/port" ] && break; sleep 0.1; done
PORT=$(cat "$T/port")
S3="s3://state/x?endpoint=http://127.0.0.1:$PORT&s3ForcePathStyle=true&region=us-east-1"
AZ="azblob://state/x?domain=127.0.0.1:$PORT&protocol=http"
export MINIPULUMI_BACKEND_URL="$S3"

stall() { rm -f "$T/port.stalled"; printf '%s' "$1" >"$T/port.stall"; }
unstall() { rm -f "$T/port.stall" "$T/port.stalled"; }
# wait_stalled: until the server holds a request (fails after 60 s)
wait_stalled() {
  for _ in $(seq "$(limit 600)"); do [ -s "$T/port.stalled" ] && return 0; sleep 0.1; done
  fail "no request reached the stalled server"
  return 1
}
# signal_bg SIG WHAT: sends SIG to the stalled command $BG, which must end
# within 20 s (a request not cancelled waits for the stall limit of 600 s
# set below, times the attempts)
signal_bg() {
  wait_stalled || return
  sleep 0.3
  kill -"$1" "$BG"
  local t0=$SECONDS
  for _ in $(seq "$(limit 200)"); do kill -0 "$BG" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$BG" 2>/dev/null; then
    fail "$2: still running $((SECONDS - t0)) s after SIG$1"
    kill -KILL "$BG"
  fi
  wait_bg
}
export MINIPULUMI_BUCKET_STALL_SECONDS=600

cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
outputs:
  v: one
YAML
run stack init dev
expect_rc 0 "stack init on the bucket"
run up --yes
expect_rc 0 "first up on the bucket"

# Ctrl-C while the checkpoint's write is held: the update fails, the
# stored checkpoint is the first update's, and the stack is not locked.
sed -i 's/v: one/v: two/' Pulumi.yaml
stall "^PUT /state/x/\.pulumi/stacks/proj/dev\.json$"
start_bg up --yes
signal_bg INT "up with its checkpoint write held"
[ "$RC" != 0 ] || fail "up cancelled during its checkpoint write exited 0"
expect_err "request to S3 for 's3://state/x/.pulumi/stacks/proj/dev.json' was cancelled" "the cancelled write's error"
unstall
run stack output v
expect_rc 0 "stack output after the cancelled write"
[ "$OUT" = one ] || fail "the state after the cancelled write: output v is '$OUT', expected the first update's 'one'"
run up --yes
expect_rc 0 "up after the cancelled one (the lock was released)"
run stack output v
[ "$OUT" = two ] || fail "the state after the next up: output v is '$OUT'"

# SIGTERM while a read is held
stall "^GET /state/x/\.pulumi/stacks/proj/dev\.json$"
start_bg stack export
signal_bg TERM "stack export with its read held"
[ "$RC" != 0 ] || fail "stack export cancelled by SIGTERM exited 0"
expect_err "GET request to S3 for 's3://state/x/.pulumi/stacks/proj/dev.json' was cancelled" "the cancelled read's error"

# Azure: every request held
stall ""
start_bg --backend "$AZ" stack ls
signal_bg INT "azblob stack ls with its request held"
[ "$RC" != 0 ] || fail "azblob stack ls cancelled exited 0"
expect_err "request to Azure for 'azblob://state/" "the cancelled Azure request's error"
expect_err "was cancelled" "the cancelled Azure request's error"

# No signal: the stall limit ends each attempt, then the command fails.
export MINIPULUMI_BUCKET_STALL_SECONDS=1
stall "^GET /state/x/\.pulumi/stacks/proj/dev\.json$"
t0=$SECONDS
timeout -s KILL "$(limit 120)" "$M" stack export </dev/null >"$T/out" 2>"$T/err"
RC=$?; ERR=$(cat "$T/err")
[ "$RC" = 137 ] && fail "stack export on a stalled server did not end by the stall limit"
[ "$RC" != 0 ] || fail "stack export on a stalled server exited 0"
expect_err "no answer from S3 for 's3://state/x/.pulumi/stacks/proj/dev.json'" "the stall's error"
expect_err "Less than 1 bytes/sec transferred the last 1 seconds" "the stall's reason"
unstall

MINIPULUMI_BUCKET_STALL_SECONDS=soon run stack ls
expect_rc 1 "a stall limit that is no number"
expect_err "MINIPULUMI_BUCKET_STALL_SECONDS must be a whole number of seconds from 1 to 86400, not 'soon'" "the bad stall limit"
finish
