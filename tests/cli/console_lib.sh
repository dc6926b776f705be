# Shared by the console's tests (t1300, t1301, t1302, tests/console/
# browser.sh); it only defines functions, so it may be sourced before
# lib.sh: a console started and stopped as a user would, its gates asked
# with curl, and the backends each test runs on.

# start_console ARGS...: starts `minipulumi console ARGS` in the
# background; sets CPID, URL (as printed: with the token), BASE (scheme,
# host and port), PORT, TOKEN and H (the token as an Authorization
# header) once it listens.
start_console() {
  "$M" console "$@" </dev/null >"$T/console.out" 2>"$T/console.err" &
  CPID=$!
  URL=
  for _ in $(seq 1 "$(limit 600)"); do
    URL=$(grep -o 'http://[^ ]*' "$T/console.out" 2>/dev/null)
    [ -n "$URL" ] && break
    kill -0 "$CPID" 2>/dev/null || break
    sleep 0.1
  done
  if [ -z "$URL" ]; then
    fail "console did not start: $(cat "$T/console.err")"
    kill "$CPID" 2>/dev/null
    exit 1
  fi
  BASE=${URL%%/stack*}
  BASE=${BASE%%/\?*}
  PORT=${BASE##*:}
  TOKEN=${URL##*token=}
  H="Authorization: token $TOKEN"
}

# stop_console: Ctrl-C, and the console ends with status 0.
stop_console() {
  kill -INT "$CPID"
  wait "$CPID"
  local rc=$?
  [ "$rc" = 0 ] || fail "console ended with status $rc: $(cat "$T/console.err")"
}

# status_of ARGS...: the HTTP status of a curl request.
status_of() {
  curl -s -o /dev/null -w '%{http_code}' --max-time "$(limit 60)" "$@"
}

# The backends a console test runs on: SQLite and a file:// folder, or
# PostgreSQL alone under tests/pg/pgtest.py (MP_TEST_PG_URL).
console_backends() {
  if [ -n "${MP_TEST_PG_URL:-}" ]; then echo pg; else echo sqlite file; fi
}

# use_backend NAME DB: a fresh, empty store of kind NAME (sqlite, file or
# pg, in a database DB of the test's server) in MINIPULUMI_BACKEND_URL.
use_backend() {
  rm -rf "$T/state" "$T/state.db" "$T/world"/*
  mkdir -p "$T/state"
  case $1 in
    sqlite) export MINIPULUMI_BACKEND_URL="$T/state.db" ;;
    file) export MINIPULUMI_BACKEND_URL="file://$T/state" ;;
    pg) "$MP_TEST_PG_BIN/psql" -X -q -d "$MP_TEST_PG_URL" \
          -c "CREATE DATABASE $2" || fail "createdb $2"
        export MINIPULUMI_BACKEND_URL=${MP_TEST_PG_URL/\/postgres\?//$2?} ;;
  esac
}
