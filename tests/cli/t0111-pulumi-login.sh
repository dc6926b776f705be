#!/bin/bash
# An existing Pulumi CLI login is honoured: the "current" backend of
# Pulumi's credentials file ($PULUMI_CREDENTIALS_PATH, $PULUMI_HOME or
# ~/.pulumi), after --backend, the variables and minipulumi's own login;
# `minipulumi login file://...` writes it as Pulumi's DIY login does, other
# backends stay in ~/.minipulumi; `whoami -v` names the source.
. "$(dirname "$0")/lib.sh" "$@"
unset MINIPULUMI_BACKEND_URL PULUMI_BACKEND_URL PULUMI_HOME PULUMI_CREDENTIALS_PATH
PCREDS=$HOME/.pulumi/credentials.json
mkdir -p "$T/pstate" "$HOME/.pulumi"

# stacks made in a DIY folder, as the Pulumi CLI would have left them
run --backend "file://$T/pstate" stack init dev
expect_rc 0 "stack init in the DIY folder"
run --backend "file://$T/pstate" stack init prod
cat >"$PCREDS" <<JSON
{
    "current": "file://$T/pstate",
    "accessTokens": {
        "file://$T/pstate": "",
        "https://api.pulumi.com": "pul-secret-token"
    },
    "accounts": {
        "file://$T/pstate": {
            "lastValidatedAt": "0001-01-01T00:00:00Z"
        }
    }
}
JSON
run stack ls
expect_rc 0 "stack ls under a Pulumi login"
expect_out "dev" "the Pulumi login's stacks"
expect_out "prod" "the Pulumi login's stacks (prod)"
run whoami -v
expect_out "Backend URL: file://$T/pstate" "whoami -v: Pulumi's current backend"
expect_out "Backend chosen by: the Pulumi login in $PCREDS" "whoami -v names Pulumi's file"

# the variables and the flag come first, each named
PULUMI_BACKEND_URL=$T/env.db run whoami -v
expect_out "Backend URL: $T/env.db" "PULUMI_BACKEND_URL over the login"
expect_out "Backend chosen by: the PULUMI_BACKEND_URL environment variable" "source: variable"
run --backend "$T/flag.db" whoami -v
expect_out "Backend chosen by: the --backend flag" "source: flag"

# PULUMI_HOME and PULUMI_CREDENTIALS_PATH move Pulumi's file, as in Pulumi
mkdir -p "$T/ph" "$T/cp" "$T/phstate" "$T/cpstate"
printf '{"current": "file://%s/phstate", "accessTokens": {"file://%s/phstate": ""}}\n' "$T" "$T" >"$T/ph/credentials.json"
printf '{"current": "file://%s/cpstate", "accessTokens": {"file://%s/cpstate": ""}}\n' "$T" "$T" >"$T/cp/credentials.json"
PULUMI_HOME=$T/ph run whoami -v
expect_out "Backend URL: file://$T/phstate" "PULUMI_HOME's credentials"
expect_out "the Pulumi login in $T/ph/credentials.json" "source: PULUMI_HOME"
PULUMI_HOME=$T/ph PULUMI_CREDENTIALS_PATH=$T/cp run whoami -v
expect_out "Backend URL: file://$T/cpstate" "PULUMI_CREDENTIALS_PATH first"

# a Pulumi Cloud login cannot be used: say so and how to choose
printf '{"current": "https://api.pulumi.com", "accessTokens": {"https://api.pulumi.com": "pul-x"}}\n' >"$T/ph/credentials.json"
PULUMI_HOME=$T/ph run stack ls
expect_rc 2 "a Pulumi Cloud login"
expect_err "the Pulumi CLI is logged in to 'https://api.pulumi.com' (in '$T/ph/credentials.json'), a Pulumi Cloud backend, which minipulumi cannot use; choose a backend with \`minipulumi login <url>\`" "Pulumi Cloud message"

# minipulumi's own login (a backend only minipulumi can use) comes first,
# and leaves Pulumi's file alone
cp "$PCREDS" "$T/before.json"
run login "$T/mine.db"
expect_rc 0 "login to SQLite"
cmp -s "$PCREDS" "$T/before.json" || fail "a SQLite login changed Pulumi's file: $(cat "$PCREDS")"
run whoami -v
expect_out "Backend URL: $T/mine.db" "minipulumi's login first"
expect_out "Backend chosen by: the minipulumi login in $HOME/.minipulumi/credentials.json" "source: minipulumi login"
run logout
expect_rc 0 "logout of SQLite"
run whoami -v
expect_out "Backend URL: file://$T/pstate" "back to Pulumi's login"

# a file:// login is written to Pulumi's file, as Pulumi's DIY login writes
# it, keeping the Pulumi Cloud token
mkdir -p "$T/other"
run login "file://$T/other"
expect_rc 0 "login file://"
[ "$(stat -c %a "$PCREDS")" = 600 ] || fail "Pulumi's credentials file stays private"
cp "$PCREDS" "$T/out"
check "Pulumi's credentials file after login" '
d = doc(); u = "file://" + T + "/other"
assert list(d) == ["current", "accessTokens", "accounts"], list(d)
assert d["current"] == u, d
assert d["accessTokens"][u] == "" and d["accessTokens"]["https://api.pulumi.com"] == "pul-secret-token", d
assert d["accounts"][u] == {"lastValidatedAt": "0001-01-01T00:00:00Z"}, d'
run whoami -v
expect_out "Backend URL: file://$T/other" "the file:// login is current"
expect_out "Backend chosen by: the Pulumi login in $PCREDS" "a file:// login is Pulumi's"
# a fresh home: the folder ~/.pulumi is made, mode 0700
HOME=$T/home2 run login "file://$T/other"
expect_rc 0 "login file:// with no ~/.pulumi"
[ "$(stat -c %a "$T/home2/.pulumi")" = 700 ] || fail "~/.pulumi made private"
HOME=$T/home2 run logout
expect_rc 0 "logout file://"
[ -e "$T/home2/.pulumi/credentials.json" ] && fail "no token left: Pulumi's file goes, as Pulumi's StoreCredentials"

# logout --all forgets the file:// logins, never a Pulumi Cloud token
run logout --all
expect_rc 0 "logout --all"
cp "$PCREDS" "$T/out"
check "Pulumi's credentials file after logout --all" '
d = doc()
assert "current" not in d, d
assert d["accessTokens"] == {"https://api.pulumi.com": "pul-secret-token"}, d'
run whoami -v
expect_out "Backend URL: $HOME/.minipulumi/state.db" "nothing left: the default"
expect_out "Backend chosen by: minipulumi's default (no login)" "source: default"
finish
