#!/bin/bash
# Issue 49 (7): plugin downloads end. A server that sends its headers and
# then nothing fails the download after the stall limit
# (MINIPULUMI_DOWNLOAD_STALL_SECONDS), in `plugin install` and in
# `preview`'s acquisition; the first Ctrl-C ends a download under way; a
# server that redirects to itself is followed 10 times, as Go's client
# does; no `.download-*` file is left in the cache. The servers are local
# (tests/cli/plugin_http.py, 127.0.0.1) and stop by themselves.
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh" "$@"
export PULUMI_HOME="$T/pulumi-home"
export PULUMI_IGNORE_AMBIENT_PLUGINS=true
export NO_PROXY=127.0.0.1 no_proxy=127.0.0.1
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
CACHE="$PULUMI_HOME/plugins"
PIDS=""
trap 'for p in $PIDS; do kill $p 2>/dev/null; wait $p 2>/dev/null; done; rm -rf "$T"' EXIT

# serve MODE: starts plugin_http.py MODE, logging to $T/MODE.log; sets $PORT.
serve() {
  python3 "$HERE/plugin_http.py" "$1" >"$T/$1.log" 2>&1 &
  PIDS="$PIDS $!"
  PORT=""
  for _ in $(seq 300); do
    PORT=$(sed -n 's/^port //p' "$T/$1.log")
    [ -n "$PORT" ] && return 0
    sleep 0.1
  done
  fail "the $1 server did not start: $(cat "$T/$1.log")"
}
no_leftovers() { # what
  local left
  left=$(ls -A "$CACHE" 2>/dev/null | grep '^\.download-')
  [ -z "$left" ] || fail "$1: partial downloads left in the cache: $left"
}
# within SECONDS CMD...: runs minipulumi like `run`, failing the test when
# it takes longer (it is then killed).
within() {
  local limit=$1; shift
  local start=$SECONDS
  timeout -s KILL "$limit" "$M" "$@" </dev/null >"$T/out" 2>"$T/err"
  RC=$?
  OUT=$(cat "$T/out"); ERR=$(cat "$T/err")
  [ "$RC" = 137 ] && fail "'$*' still ran after ${limit}s"
  ELAPSED=$((SECONDS - start))
}

serve stall
STALL_PORT=$PORT
export MINIPULUMI_DOWNLOAD_STALL_SECONDS=1
within 60 plugin install resource stally 1.0.0 --server "http://127.0.0.1:$STALL_PORT"
expect_rc 1 "a stalled download fails"
expect_err "Operation too slow" "it says the transfer stalled"
no_leftovers "plugin install, stalled"

# preview's acquisition of a program's plugin: the same limit.
cat >Pulumi.yaml <<YAML
name: proj
runtime: yaml
resources:
  a:
    type: stally:index:Thing
    options:
      version: 1.0.0
      pluginDownloadURL: http://127.0.0.1:$STALL_PORT/
YAML
run stack init dev
within 120 preview
expect_rc 1 "preview with a stalled plugin download"
expect_out "Operation too slow" "the provider's error says why"
no_leftovers "preview, stalled"

MINIPULUMI_DOWNLOAD_STALL_SECONDS=soon run plugin install resource stally 1.0.0 --server "http://127.0.0.1:$STALL_PORT"
expect_rc 1 "a stall limit that is no number"
expect_err "MINIPULUMI_DOWNLOAD_STALL_SECONDS must be a positive whole number of seconds, not 'soon'" "is refused"
unset MINIPULUMI_DOWNLOAD_STALL_SECONDS

# The first Ctrl-C ends a download under way (the stall limit is the
# default minute here).
ctrl_c() { # description CMD...
  local what=$1; shift
  local before
  before=$(grep -c '^GET' "$T/stall.log")
  setsid "$M" "$@" </dev/null >"$T/out" 2>"$T/err" &
  local pid=$!
  for _ in $(seq 600); do
    [ "$(grep -c '^GET' "$T/stall.log")" -gt "$before" ] && break
    sleep 0.1
  done
  sleep 0.5
  kill -INT "$pid"
  local waited=0
  while kill -0 "$pid" 2>/dev/null && [ $waited -lt 150 ]; do
    sleep 0.1; waited=$((waited + 1))
  done
  if kill -0 "$pid" 2>/dev/null; then
    fail "$what: still running 15 s after the first Ctrl-C: $(cat "$T/err")"
    kill -KILL "$pid"
  fi
  wait "$pid"
  RC=$?
  OUT=$(cat "$T/out"); ERR=$(cat "$T/err")
  [ "$RC" != 0 ] || fail "$what: a cancelled download fails the command"
  no_leftovers "$what"
}
ctrl_c "plugin install, Ctrl-C" plugin install resource stally 1.0.0 --server "http://127.0.0.1:$STALL_PORT"
expect_err "was cancelled" "plugin install says the download was cancelled"
ctrl_c "preview, Ctrl-C" preview
# The preview stops on either of two answers to the Ctrl-C, whichever
# reaches the display first: the download's own error, or the engine's
# stop while the provider was still loading (a busy machine makes the
# second one likely). Both say the run was cancelled; what matters here is
# that it ends, fails, installs nothing and leaves nothing behind.
case "$OUT" in
  *"was cancelled"* | *"update canceled"*) ;;
  *) fail "preview says neither that the download nor that the update was cancelled: $OUT" ;;
esac
[ -e "$CACHE/resource-stally-v1.0.0" ] && fail "nothing is installed"

serve redirect
within 60 plugin install resource loopy 1.0.0 --server "http://127.0.0.1:$PORT"
expect_rc 1 "a server that redirects to itself"
expect_err "redirects followed" "curl's words for it"
n=$(grep -c '^GET' "$T/redirect.log")
[ "$n" = 11 ] || fail "the first request and 10 redirects, not $n"
no_leftovers "redirects"
finish
