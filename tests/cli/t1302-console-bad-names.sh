#!/bin/bash
# The console on a file:// backend asked for a project or stack named
# `..` (also as %2e%2e), or with a space: the store refuses the name
# before any path is built, and the console answers 404 (no such stack),
# not 500 (the store failed), in the API and in the pages.
. "$(dirname "$0")/console_lib.sh"
. "$(dirname "$0")/lib.sh" "$@"
use_backend file
run stack init dev
expect_rc 0 "stack init"
start_console
for p in "%2e%2e/dev" "proj/%2e%2e" "proj/%2e%2e/history" "a%20b/dev" "proj/a%20b"; do
  for api in /api ""; do
    code=$(curl -s --path-as-is -o "$T/body" -w '%{http_code}' \
      --max-time "$(limit 60)" -H "$H" "$BASE$api/stack/$p")
    [ "$code" = 404 ] || fail "$api/stack/$p: status $code, expected 404: $(head -c 300 "$T/body")"
    grep -q "invalid" "$T/body" || fail "$api/stack/$p: the answer does not say why"
  done
done
code=$(status_of -H "$H" "$BASE/api/stack/proj/dev")
[ "$code" = 200 ] || fail "the good stack: status $code"
stop_console
finish
