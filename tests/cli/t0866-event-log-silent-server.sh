#!/bin/bash
# issue 49 (8): --event-log tcp:// to a server that accepts the
# connection but never reads nor answers. Once the operation is done the
# command waits for the server a bounded time (30 s), then fails saying
# the events were dropped; a SIGTERM during that wait ends it at once
# (the first one, not only the second). The operation's state is saved
# either way.
. "$(dirname "$0")/lib.sh" "$@"
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  pet:
    type: random:RandomPet
outputs:
  petName: ${pet.id}
YAML
run stack init dev
expect_rc 0 "stack init"

# The silent server: accepts, holds every connection, reads nothing.
python3 - "$T/port" <<'PY' &
import socket, sys, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
s.bind(("127.0.0.1", 0))
s.listen(8)
open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1]))
import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
held = []
s.settimeout(1)
end = time.time() + 600
while time.time() < end:
    try:
        c, _ = s.accept()
        held.append(c)
    except socket.timeout:
        pass
PY
SERVER=$!
trap 'kill $SERVER 2>/dev/null; rm -rf "$T"' EXIT
for _ in $(seq 100); do [ -f "$T/port" ] && break; sleep 0.1; done
PORT=$(cat "$T/port")

# bounded: the command ends by itself, with the error, the state saved
start=$(date +%s)
timeout -k 10 200 "$M" up --yes --event-log "tcp://127.0.0.1:$PORT" </dev/null >"$T/out" 2>"$T/err"
RC=$?
OUT=$(cat "$T/out")
ERR=$(cat "$T/err")
took=$(($(date +%s) - start))
[ "$RC" != 124 ] || fail "up hung on a server that never reads (killed after 200 s)"
expect_rc 1 "up with a silent event server"
expect_err "the --event-log server (127.0.0.1:$PORT) did not take the engine events within 30 s" "the bounded wait"
[ "$took" -lt 150 ] || fail "the wait took $took s"
run stack output petName
expect_rc 0 "the update's state is saved"
[ -n "$OUT" ] || fail "the pet is in the state"

# the first SIGTERM during the wait ends it
"$M" up --yes --event-log "tcp://127.0.0.1:$PORT" </dev/null >"$T/bg.out" 2>"$T/bg.err" &
BG=$!
for _ in $(seq 600); do
  grep -q "^Duration:" "$T/bg.out" 2>/dev/null && break
  sleep 0.1
done
grep -q "^Duration:" "$T/bg.out" || fail "the second up did not finish its work: $(cat "$T/bg.out" "$T/bg.err")"
sleep 1
kill -TERM $BG
for _ in $(seq 100); do kill -0 $BG 2>/dev/null || break; sleep 0.1; done
if kill -0 $BG 2>/dev/null; then
  fail "the first SIGTERM was ignored"
  kill -KILL $BG
fi
wait $BG
RC=$?
ERR=$(cat "$T/bg.err")
OUT=$(cat "$T/bg.out")
expect_rc 8 "up ended by SIGTERM while waiting"
expect_err "interrupted while sending the engine events to the --event-log server" "says what was interrupted"
finish
