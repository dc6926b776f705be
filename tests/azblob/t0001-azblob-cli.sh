#!/usr/bin/env bash
# The azblob:// backend end to end (run by tests/azblob/aztest.py, which
# starts Azurite and sets MP_TEST_AZ_URL): `login`, an update, a no-op
# preview, `stack ls`, a second `up` started while the first holds the
# stack's lock (stopped with Pulumi's text, naming the lock blob), a
# migration to a file:// folder and back by export and import, stacks
# written by hand in Pulumi's layout (listed, a no-op preview), a wrong
# account key (Azurite checks the signature), a server that answers 500,
# 503 with a long Retry-After, or 403, and one that is down (clear errors,
# the state before the run intact).
# Usage: t0001-azblob-cli.sh MINIPULUMI
set -u
MP=$(readlink -f "$1")
T=$(mktemp -d)
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok   $*"; }
cleanup() {
  [ -n "${FAKE:-}" ] && kill "$FAKE" 2>/dev/null
  rm -rf "$T"
}
trap cleanup EXIT
export HOME=$T PULUMI_CONFIG_PASSPHRASE=pw
unset MINIPULUMI_BACKEND_URL PULUMI_BACKEND_URL
base=${MP_TEST_AZ_URL%%\?*}
query=${MP_TEST_AZ_URL#*\?}
URL="$base/cli?$query"
mkdir -p "$T/p" && cd "$T/p"
cat >Pulumi.yaml <<'Y'
name: azcli
runtime: yaml
config:
  pause:
    type: string
    default: "0"
resources:
  slow:
    type: command:local:Command
    properties:
      create: sleep ${pause} && echo made
outputs:
  out: ${slow.stdout}
Y
"$MP" login "$URL" >"$T/login.out" 2>&1 && ok "login azblob://" || fail "login: $(cat "$T/login.out")"
"$MP" whoami -v >"$T/who.out" 2>&1
grep -qF "$URL" "$T/who.out" && ok "whoami -v shows the URL" || fail "whoami: $(cat "$T/who.out")"
"$MP" stack init dev >"$T/init.out" 2>&1 || fail "stack init: $(cat "$T/init.out")"
"$MP" up --yes -s dev >"$T/up1.out" 2>&1 &&
  ok "up on azblob" || fail "up: $(cat "$T/up1.out")"
"$MP" stack output out -s dev 2>&1 | grep -q made &&
  ok "the output is in the container" || fail "stack output"
"$MP" preview -s dev >"$T/prev.out" 2>&1 && grep -q "2 unchanged" "$T/prev.out" &&
  ok "preview is a no-op" || fail "preview: $(cat "$T/prev.out")"
"$MP" stack ls >"$T/ls.out" 2>&1 && grep -q "^dev" "$T/ls.out" &&
  ok "stack ls lists dev" || fail "stack ls: $(cat "$T/ls.out")"

# two ups at once: the second finds the first one's lock blob
"$MP" config set pause 6 -s dev >/dev/null 2>&1
"$MP" up --yes -s dev >"$T/a.out" 2>&1 &
A=$!
sleep 2
"$MP" up --yes -s dev >"$T/b.out" 2>&1
rcb=$?
wait $A
rca=$?
[ $rca -eq 0 ] && ok "the first up finished" || fail "first up: $(cat "$T/a.out")"
if [ $rcb -ne 0 ] &&
  grep -q "the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with \`minipulumi cancel\`." "$T/b.out" &&
  grep -q "$base/cli/.pulumi/locks/organization/azcli/dev/.*\.json: created by" "$T/b.out"; then
  ok "the second up was stopped by the lock"
else
  fail "second up (rc $rcb): $(cat "$T/b.out")"
fi
"$MP" stack export -s dev >"$T/before.json" 2>"$T/before.err" || fail "export"

# migration by export and import: the container -> a file:// folder ->
# another prefix of the container, the same deployment at each step
F="file://$T/fstate"
mkdir -p "$T/fstate"
URL2="$base/cli2?$query"
"$MP" --backend "$F" stack init dev >"$T/m1.out" 2>&1 &&
  "$MP" --backend "$F" stack import --file "$T/before.json" -s dev >>"$T/m1.out" 2>&1 &&
  "$MP" --backend "$F" stack export -s dev >"$T/f.json" 2>>"$T/m1.out" &&
  "$MP" --backend "$URL2" stack init dev >>"$T/m1.out" 2>&1 &&
  "$MP" --backend "$URL2" stack import --file "$T/f.json" -s dev >>"$T/m1.out" 2>&1 &&
  "$MP" --backend "$URL2" stack export -s dev >"$T/a2.json" 2>>"$T/m1.out" ||
  fail "migration: $(cat "$T/m1.out")"
cmp -s <(grep -v '"time":' "$T/before.json") <(grep -v '"time":' "$T/a2.json") &&
  ok "migrated to file:// and back to azblob:// unchanged" ||
  fail "migration changed the state: $(diff "$T/before.json" "$T/a2.json" | head -20)"
"$MP" --backend "$URL2" stack output out -s dev 2>&1 | grep -q made &&
  ok "the migrated stack's output" || fail "migrated stack output"

# a stack written by hand in Pulumi's layout (tests/diy/fixture, dev plain
# and prod gzipped), put in the container as blobs: found and previewed
# as a no-op
FX=$(dirname "$(readlink -f "$0")")/../diy/fixture
cp -r "$FX" "$T/fx"
gzip -c "$T/fx/prod-checkpoint.json" >"$T/fx/state/.pulumi/stacks/diyproj/prod.json.gz"
python3 "$(dirname "$(readlink -f "$0")")/aztest.py" upload "$T/fx/state" handmade ||
  fail "uploading the fixture"
HURL="$base/handmade?$query"
( cd "$T/fx" && export PULUMI_CONFIG_PASSPHRASE=fixture-passphrase &&
  "$MP" --backend "$HURL" stack ls >"$T/h.out" 2>&1 &&
  grep -q "^dev" "$T/h.out" && grep -q "^prod" "$T/h.out" &&
  "$MP" --backend "$HURL" preview -s dev --expect-no-changes >>"$T/h.out" 2>&1 &&
  "$MP" --backend "$HURL" preview -s prod --expect-no-changes >>"$T/h.out" 2>&1 ) &&
  ok "a stack written by hand in Pulumi's layout: listed, a no-op preview" ||
  fail "hand-written stacks: $(cat "$T/h.out")"

# a wrong key: refused by the emulator's signature check, nothing written
"$MP" config set pause 0 -s dev >/dev/null 2>&1
AZURE_STORAGE_KEY=d3Jvbmcga2V5IHdyb25nIGtleQ== "$MP" up --yes -s dev >"$T/wk.out" 2>&1
rc=$?
[ $rc -ne 0 ] &&
  grep -qF "cannot read 'azblob://state/cli/.pulumi/meta.yaml': Azure answered 403 " "$T/wk.out" &&
  grep -qF "Server failed to authenticate the request." "$T/wk.out" &&
  grep -qF "check AZURE_STORAGE_ACCOUNT and AZURE_STORAGE_KEY" "$T/wk.out" &&
  ok "a wrong key: a clear error" || fail "wrong key (rc $rc): $(cat "$T/wk.out")"

# a server that answers 500 (retried), 503 with a Retry-After past 60 s
# (not retried, as the Azure SDK's policy) or 403 (not retried)
cat >"$T/fake.py" <<'P'
import http.server, sys
code, after = int(sys.argv[2]), sys.argv[4]
words = {500: (b"InternalError", b"The server encountered an internal error."),
         503: (b"ServerBusy", b"The server is currently unable to receive requests."),
         403: (b"AuthorizationFailure", b"This request is not authorized to perform this operation.")}
class H(http.server.BaseHTTPRequestHandler):
    def answer(self):
        c, m = words[code]
        body = (b"\xef\xbb\xbf<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>%s</Code>"
                b"<Message>%s\nRequestId:1\nTime:now</Message></Error>") % (c, m)
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("x-ms-error-code", c.decode())
        if after != "-":
            self.send_header("Retry-After", after)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)
        with open(sys.argv[3], "a") as f:
            f.write("%s %s\n" % (self.command, self.path))
    do_GET = do_PUT = do_HEAD = do_DELETE = answer
    def log_message(self, *a): pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
open(sys.argv[1], "w").write(str(s.server_address[1]))
s.serve_forever()
P
for spec in 500:- 503:120 403:-; do
  code=${spec%%:*} after=${spec#*:}
  rm -f "$T/port" "$T/hits"
  python3 "$T/fake.py" "$T/port" "$code" "$T/hits" "$after" &
  FAKE=$!
  for _ in $(seq 100); do [ -s "$T/port" ] && break; sleep 0.1; done
  furl="azblob://bkt/x?domain=127.0.0.1:$(cat "$T/port")&protocol=http"
  "$MP" --backend "$furl" stack ls >"$T/f.out" 2>&1
  rc=$?
  kill $FAKE; wait $FAKE 2>/dev/null; FAKE=
  n=$(grep -c "GET /devstoreaccount1/bkt/x/.pulumi/meta.yaml" "$T/hits")
  case $code in
    500) want="cannot read 'azblob://bkt/x/.pulumi/meta.yaml': Azure answered 500 InternalError: The server encountered an internal error."
         [ "$n" = 4 ] && ok "a 500 is tried 4 times" || fail "500 tried $n times" ;;
    503) want="Azure answered 503 ServerBusy: The server is currently unable to receive requests."
         [ "$n" = 1 ] && ok "a 503 asking for 120 s is not retried" || fail "503 tried $n times" ;;
    403) want="Azure answered 403 AuthorizationFailure: This request is not authorized to perform this operation.; check AZURE_STORAGE_ACCOUNT and AZURE_STORAGE_KEY"
         [ "$n" = 1 ] && ok "a 403 is not retried" || fail "403 tried $n times" ;;
  esac
  [ $rc -ne 0 ] && grep -qF "$want" "$T/f.out" && ok "a server answering $code: a clear error" ||
    fail "server answering $code (rc $rc): $(cat "$T/f.out")"
done

# a server that is down
"$MP" --backend "azblob://bkt/x?domain=127.0.0.1:1&protocol=http" stack ls >"$T/d.out" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -qF "no answer from Azure for 'azblob://bkt/x/.pulumi/meta.yaml' at http://127.0.0.1:1/devstoreaccount1 after 4 attempts" "$T/d.out" &&
  ok "a server that is down: a clear error" || fail "server down (rc $rc): $(cat "$T/d.out")"

# the container's state is what the runs left
"$MP" stack export -s dev >"$T/after.json" 2>"$T/after.err"
# (the export's manifest time is the time of the export)
cmp -s <(grep -v '"time":' "$T/before.json") <(grep -v '"time":' "$T/after.json") && ok "the state is intact" ||
  fail "state changed: $(diff "$T/before.json" "$T/after.json" | head -20)"

[ $fails -eq 0 ]
