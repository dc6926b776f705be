#!/bin/bash
# login, logout and whoami: which backend the commands use (--backend, then
# MINIPULUMI_BACKEND_URL or PULUMI_BACKEND_URL, then the login remembered in
# ~/.minipulumi/credentials.json, then ~/.minipulumi/state.db), Pulumi's
# messages and flag errors. With MP_TEST_PG_URL (tests/pg/pgtest.py), the
# same on PostgreSQL, checking that the password shows nowhere.
. "$(dirname "$0")/lib.sh" "$@"
export PULUMI_CONFIG_PASSPHRASE=pp
unset MINIPULUMI_BACKEND_URL PULUMI_BACKEND_URL PGPASSWORD
ME=$(id -un)
HOST=$(hostname)
CREDS=$HOME/.minipulumi/credentials.json

run whoami
expect_rc 0 "whoami"
[ "$OUT" = "$ME" ] || fail "whoami prints the user: $OUT"
run whoami -v
expect_out "User: $ME" "whoami -v user"
expect_out "Backend URL: $HOME/.minipulumi/state.db" "the default backend"

# login to a relative SQLite path: remembered absolute, used by commands
run login ./team.db
expect_rc 0 "login ./team.db"
expect_out "Logged in to $HOST as $ME ($T/proj/team.db)" "login message"
[ "$(stat -c %a "$CREDS")" = 600 ] || fail "credentials.json is private"
expect_file "$CREDS" "\"current\": \"$T/proj/team.db\"" "current login"
run stack init dev
expect_rc 0 "stack init on the login's backend"
[ -s "$T/proj/team.db" ] || fail "the stack went to the login's file"
run_in "$T" whoami -v
expect_out "Backend URL: $T/proj/team.db" "whoami -v elsewhere"
run whoami --json
check "whoami --json" 'assert doc() == {"user": "'"$ME"'", "url": "'"$T/proj/team.db"'"}, doc()'

# precedence: --backend, then the variables, then the login
MINIPULUMI_BACKEND_URL=$T/env.db run whoami -v
expect_out "Backend URL: $T/env.db" "MINIPULUMI_BACKEND_URL over the login"
PULUMI_BACKEND_URL=$T/penv.db run whoami -v
expect_out "Backend URL: $T/penv.db" "PULUMI_BACKEND_URL as a synonym"
MINIPULUMI_BACKEND_URL=$T/env.db PULUMI_BACKEND_URL=$T/penv.db run whoami -v
expect_out "Backend URL: $T/env.db" "MINIPULUMI_BACKEND_URL first"
MINIPULUMI_BACKEND_URL=$T/env.db run --backend "$T/flag.db" whoami -v
expect_out "Backend URL: $T/flag.db" "--backend over everything"
MINIPULUMI_BACKEND_URL=$T/env.db run login "$T/other.db"
expect_rc 0 "login with the variable set"
expect_err "warning: The MINIPULUMI_BACKEND_URL environment variable is set to '$T/env.db', which conflicts with the login URL '$T/other.db'" "conflict warning"

# logout forgets the current login only
run logout
expect_rc 0 "logout"
expect_out "Logged out of $T/other.db" "logout message"
run whoami -v
expect_out "Backend URL: $HOME/.minipulumi/state.db" "back to the default"
run login --local
expect_out "(file://~)" "login --local: Pulumi's DIY folder ~"
run stack init dev
expect_rc 0 "stack init in file://~"
[ -f "$HOME/.pulumi/stacks/proj/dev.json" ] || fail "login --local stores in ~/.pulumi"
run logout --local
expect_out "Logged out of file://~" "logout --local"

# flag errors, as Pulumi words them
run login --local x.db
expect_rc 2 "login --local with a URL"
expect_err "a URL may not be specified when --local mode is enabled" "--local and URL"
run login -c a.db b.db
expect_rc 2 "login -c and a URL"
expect_err "only one of --cloud-url or argument URL may be specified, not both" "-c and URL"
run logout --all x.db
expect_rc 2 "logout --all with a URL"
expect_err "only one of --all, --cloud-url or argument URL may be specified, not both" "--all and URL"
run login a.db b.db
expect_rc 2 "login with two URLs"
run login "ftp://user:hunter2@bucket/state"
expect_rc 1 "login to an unsupported URL"
expect_err "could not log in to the state backend 'ftp://user@bucket/state': unsupported state store URL" "unsupported URL"
case "$OUT$ERR" in *hunter2*) fail "the password of a refused URL was shown" ;; esac
run login "gs://user:hunter2@bucket/state"
expect_rc 1 "login to a Google Cloud Storage bucket"
expect_err "'gs://user@bucket/state' is a Google Cloud Storage bucket, which minipulumi does not support; the bucket backends that work are s3://BUCKET[/PREFIX] and azblob://CONTAINER[/PREFIX]" "gs:// refused"
case "$OUT$ERR" in *hunter2*) fail "the password of a gs:// URL was shown" ;; esac
run whoami -v
expect_out "Backend URL: $HOME/.minipulumi/state.db" "a failed login changes nothing"
run login "$T/one.db"
run login "$T/two.db"
run logout --all
expect_out "Logged out of everything" "logout --all"
run whoami -v
expect_out "Backend URL: $HOME/.minipulumi/state.db" "nothing remembered"

# the lock lease of the PostgreSQL backend comes from the environment
MINIPULUMI_LOCK_LEASE_SECONDS=soon run stack ls
expect_rc 2 "a lease that is not a number"
expect_err "MINIPULUMI_LOCK_LEASE_SECONDS must be a positive number of seconds, not 'soon'" "lease message"
MINIPULUMI_LOCK_LEASE_SECONDS=0 run stack ls
expect_rc 2 "a lease of zero"

# ---- PostgreSQL ----
if [ -n "${MP_TEST_PG_URL:-}" ]; then
  PW=$MP_TEST_PG_PASSWORD
  "$MP_TEST_PG_BIN/psql" -X -q -d "$MP_TEST_PG_URL" -c "CREATE DATABASE t0110" ||
    fail "createdb"
  URL=${MP_TEST_PG_URL/\/postgres\?//t0110?}
  SHOWN=${URL/:$PW@/@}
  ALL="$T/all-output"
  : >"$ALL"
  keep() { printf '%s\n%s\n' "$OUT" "$ERR" >>"$ALL"; }
  cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  pet:
    type: random:RandomPet
YAML
  run login "$URL"
  keep
  expect_rc 0 "login postgres"
  expect_out "Logged in to $HOST as $ME ($SHOWN)" "login message without the password"
  run whoami -v
  keep
  expect_out "Backend URL: $SHOWN" "whoami -v without the password"
  run stack init dev
  keep
  run up --yes -m "on postgres" --event-log "$T/events.json"
  keep
  expect_rc 0 "up on postgres"
  cat "$T/events.json" >>"$ALL"
  run stack history --json
  keep
  check "history on postgres" 'h = doc(); assert len(h) == 1 and h[0]["result"] == "succeeded" and h[0]["message"] == "on postgres", h'
  run stack ls
  keep
  expect_out "dev*" "stack ls on postgres"
  run stack
  keep
  expect_out "Managed by $SHOWN" "stack without the password"
  run stack -u
  keep
  expect_out "Managed by $SHOWN" "stack -u without the password"
  run --backend "${URL/:$PW@/:wrong-pw@}" stack ls
  keep
  expect_rc 1 "a wrong password"
  expect_err "password authentication failed" "wrong password message"
  run login "${URL/:$PW@/:wrong-pw@}"
  keep
  expect_rc 1 "login with a wrong password"
  expect_err "could not log in to the state backend '$SHOWN': cannot connect to the state store" "login failure"
  case "$ERR" in *wrong-pw*) fail "the wrong password was shown" ;; esac
  # the password from PGPASSWORD instead of the URL
  PGPASSWORD=$PW run login "$SHOWN"
  keep
  expect_rc 0 "login with PGPASSWORD"
  PGPASSWORD=$PW run stack ls
  expect_out "dev*" "PGPASSWORD used by later commands"
  run stack ls
  keep
  expect_rc 1 "no password at all"
  expect_err "cannot connect to the state store '$SHOWN'" "no password message"
  run logout
  keep
  expect_out "Logged out of $SHOWN" "logout postgres"
  grep -qF -- "$PW" "$ALL" && fail "the password appeared in an output: $(grep -F -- "$PW" "$ALL" | head -3)"
fi
finish
