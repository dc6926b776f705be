#!/bin/bash
# The s3:// and azblob:// backends against a hostile server
# (hostile_bucket.py): a listing that always says "more" with the same
# continuation token or marker ends with a clear error instead of asking
# for ever; an answer that announces more than 2 GiB is refused before
# it is read.
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh" "$@"
export AWS_ACCESS_KEY_ID=AK AWS_SECRET_ACCESS_KEY=SK
export AZURE_STORAGE_ACCOUNT=devstoreaccount1 AZURE_STORAGE_KEY=a2V5
SRV=
stop_server() { [ -n "$SRV" ] && kill "$SRV" 2>/dev/null && wait "$SRV" 2>/dev/null; SRV=; }
trap 'stop_server; rm -rf "$T"' EXIT
start_server() { # mode
  rm -f "$T/port"
  python3 "$HERE/hostile_bucket.py" "$T/port" "$1" & SRV=$!
  for _ in $(seq 300); do [ -s "$T/port" ] && break; sleep 0.1; done
  PORT=$(cat "$T/port")
}
# bucket_run LIMIT URL ARGS...: minipulumi on the bucket, killed after LIMIT s
bucket_run() {
  local lim=$1 url=$2; shift 2
  timeout -s KILL "$(limit "$lim")" "$M" --backend "$url" "$@" </dev/null >"$T/out" 2>"$T/err"
  RC=$?
  OUT=$(cat "$T/out"); ERR=$(cat "$T/err")
}

start_server looplist
bucket_run 60 "s3://state/x?endpoint=http://127.0.0.1:$PORT&s3ForcePathStyle=true&region=us-east-1" stack ls
[ "$RC" = 137 ] && fail "s3 stack ls on a looping listing never ended"
expect_rc 1 "s3 stack ls on a looping listing"
expect_err "gave the same continuation token" "s3 looping listing"
bucket_run 60 "azblob://state/x?domain=127.0.0.1:$PORT&protocol=http" stack ls
[ "$RC" = 137 ] && fail "azblob stack ls on a looping listing never ended"
expect_rc 1 "azblob stack ls on a looping listing"
expect_err "gave the same continuation token" "azblob looping listing"
stop_server

start_server bigclaim
bucket_run 60 "s3://state/x?endpoint=http://127.0.0.1:$PORT&s3ForcePathStyle=true&region=us-east-1" stack ls
expect_rc 1 "s3 stack ls on a 4 GiB answer"
expect_err "is larger than 2 GiB" "s3 4 GiB answer"
bucket_run 60 "azblob://state/x?domain=127.0.0.1:$PORT&protocol=http" stack ls
expect_rc 1 "azblob stack ls on a 4 GiB answer"
expect_err "is larger than 2 GiB" "azblob 4 GiB answer"
stop_server
finish
