#!/usr/bin/env bash
# The s3:// backend end to end (run by tests/s3/s3test.py, which starts the
# server and sets MP_TEST_S3_URL): an update, a second `up` started while
# the first holds the stack's lock (stopped with Pulumi's text, naming the
# lock object), a server that answers 500 or 403 to everything and one that
# is down (clear errors, the state before the run intact), and the requests
# an update's writes cost.
# Usage: t0001-s3-cli.sh MINIPULUMI
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
base=${MP_TEST_S3_URL%%\?*}
query=${MP_TEST_S3_URL#*\?}
URL="$base/cli?$query"
mkdir -p "$T/p" && cd "$T/p"
cat >Pulumi.yaml <<'Y'
name: s3cli
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
"$MP" --backend "$URL" stack init dev >"$T/init.out" 2>&1 || fail "stack init: $(cat "$T/init.out")"
"$MP" --backend "$URL" up --yes -s dev >"$T/up1.out" 2>&1 &&
  ok "up on s3" || fail "up: $(cat "$T/up1.out")"
"$MP" --backend "$URL" stack output out -s dev 2>&1 | grep -q made &&
  ok "the output is in the bucket" || fail "stack output"

# two ups at once: the second finds the first one's lock object
"$MP" --backend "$URL" config set pause 6 -s dev >/dev/null 2>&1
"$MP" --backend "$URL" up --yes -s dev >"$T/a.out" 2>&1 &
A=$!
sleep 2
"$MP" --backend "$URL" up --yes -s dev >"$T/b.out" 2>&1
rcb=$?
wait $A
rca=$?
[ $rca -eq 0 ] && ok "the first up finished" || fail "first up: $(cat "$T/a.out")"
if [ $rcb -ne 0 ] &&
  grep -q "the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or delete the lock file with \`minipulumi cancel\`." "$T/b.out" &&
  grep -q "$base/cli/.pulumi/locks/organization/s3cli/dev/.*\.json: created by" "$T/b.out"; then
  ok "the second up was stopped by the lock"
else
  fail "second up (rc $rcb): $(cat "$T/b.out")"
fi
"$MP" --backend "$URL" stack export -s dev >"$T/before.json" 2>"$T/before.err" || fail "export"

# a server that answers 500 (retried, then reported) or 403
cat >"$T/fake.py" <<'P'
import http.server, sys
code = int(sys.argv[2])
class H(http.server.BaseHTTPRequestHandler):
    def answer(self):
        body = (b"<?xml version='1.0'?><Error><Code>%s</Code><Message>%s"
                b"</Message></Error>") % ((b"InternalError", b"We encountered an internal error.")
                                          if code == 500 else (b"AccessDenied", b"Access Denied"))
        self.send_response(code)
        self.send_header("Content-Length", str(len(body)))
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
for code in 500 403; do
  rm -f "$T/port" "$T/hits"
  python3 "$T/fake.py" "$T/port" $code "$T/hits" &
  FAKE=$!
  for _ in $(seq 100); do [ -s "$T/port" ] && break; sleep 0.1; done
  furl="s3://bkt/x?endpoint=http://127.0.0.1:$(cat "$T/port")&s3ForcePathStyle=true&region=us-east-1"
  "$MP" --backend "$furl" stack ls >"$T/f.out" 2>&1
  rc=$?
  kill $FAKE; wait $FAKE 2>/dev/null; FAKE=
  if [ $code = 500 ]; then
    want="cannot read 's3://bkt/x/.pulumi/meta.yaml': S3 answered 500 InternalError: We encountered an internal error."
    n=$(grep -c "GET /bkt/x/.pulumi/meta.yaml" "$T/hits")
    [ "$n" = 3 ] && ok "a 500 is tried 3 times" || fail "500 tried $n times"
  else
    want="cannot read 's3://bkt/x/.pulumi/meta.yaml': S3 answered 403 AccessDenied: Access Denied; check the AWS credentials"
    n=$(grep -c "GET /bkt/x/.pulumi/meta.yaml" "$T/hits")
    [ "$n" = 1 ] && ok "a 403 is not retried" || fail "403 tried $n times"
  fi
  [ $rc -ne 0 ] && grep -qF "$want" "$T/f.out" && ok "a server answering $code: a clear error" ||
    fail "server answering $code (rc $rc): $(cat "$T/f.out")"
done

# a server that is down
"$MP" --backend "s3://bkt/x?endpoint=http://127.0.0.1:1&s3ForcePathStyle=true&region=us-east-1" stack ls >"$T/d.out" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -qF "no answer from S3 for 's3://bkt/x/.pulumi/meta.yaml' at http://127.0.0.1:1 after 3 attempts" "$T/d.out" &&
  ok "a server that is down: a clear error" || fail "server down (rc $rc): $(cat "$T/d.out")"

# what the writes cost: at --parallel 1 no step's write is grouped with
# another's, and each of its two writes (the pending operation, the result)
# is one PUT and one look at the lock object; everything else is a small
# constant (the lock, the backup, the history, the first write's .bak)
mkdir -p "$T/many" && cd "$T/many"
{
  printf 'name: s3many\nruntime: yaml\nresources:\n'
  for i in $(seq 1 20); do
    printf '  r%d:\n    type: random:RandomString\n    properties:\n      length: %d\n' "$i" "$i"
  done
} >Pulumi.yaml
"$MP" --backend "$URL" stack init dev >"$T/m.out" 2>&1 || fail "stack init: $(cat "$T/m.out")"
before=$(wc -l <"$MP_TEST_S3_REQUESTS")
conns_before=$(wc -l <"$MP_TEST_S3_CONNECTIONS")
started=$SECONDS
"$MP" --backend "$URL" up --yes --skip-preview --parallel 1 -s dev >"$T/m.out" 2>&1 || fail "up of 20: $(cat "$T/m.out")"
took=$((SECONDS - started))
n=$(($(wc -l <"$MP_TEST_S3_REQUESTS") - before))
conns=$(($(wc -l <"$MP_TEST_S3_CONNECTIONS") - conns_before))
# the requests of a process share kept-alive connections (the loop
# thread's and the writer thread's alike), not one connection each
[ "$conns" -le 4 ] && ok "$n requests on $conns connections" ||
  fail "$n requests on $conns connections, expected a few kept alive"
# the writer looks at its lock at most once a second, not before each
# write (Pulumi's DIY backend looks only when it takes the lock)
heads=$(tail -n +$((before + 1)) "$MP_TEST_S3_REQUESTS" | grep -c "^HEAD /state/cli/.pulumi/locks/" || true)
[ "$heads" -le $((took + 2)) ] && ok "$heads looks at the lock in $took s" ||
  fail "$heads looks at the lock in $took s, expected at most one a second"
puts=$(tail -n +$((before + 1)) "$MP_TEST_S3_REQUESTS" | grep -c "^PUT /state/cli/.pulumi/stacks/s3many/dev.json$")
# 21 steps (the stack and 20 strings), two changes each (the pending
# operation, the result), at most one PUT per change; a step gives its
# slot back while its result is written, so the next step's pending
# operation may go out in the same PUT: from 21 to 44
[ "$puts" -ge 21 ] && [ "$puts" -le 44 ] && ok "a checkpoint PUT per write ($puts)" ||
  fail "checkpoint PUTs: $puts, expected 21 to 44: $(tail -n +$((before + 1)) "$MP_TEST_S3_REQUESTS" | sort | uniq -c | sort -rn | head)"
# (before: a copy to .bak, two looks for the file's forms and identity per
# write, and a look at the lock per change: about 350)
[ "$n" -le $((puts + heads + 40)) ] && ok "$n requests for 21 steps" ||
  fail "$n requests for 21 steps: $(tail -n +$((before + 1)) "$MP_TEST_S3_REQUESTS" | sort | uniq -c | sort -rn | head)"
cd "$T/p"

# the bucket's state is what the runs left
"$MP" --backend "$URL" stack export -s dev >"$T/after.json" 2>"$T/after.err"
# (the export's manifest time is the time of the export)
cmp -s <(grep -v '"time":' "$T/before.json") <(grep -v '"time":' "$T/after.json") && ok "the state is intact" ||
  fail "state changed: $(diff "$T/before.json" "$T/after.json" | head -20)"

[ $fails -eq 0 ]
