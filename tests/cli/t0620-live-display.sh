#!/bin/bash
# The live display on a terminal moves between events: a ticker redraws
# the table, so a long step shows `updating (1s)`, `(2s)`... with Pulumi's
# growing dots while no event arrives, and the Stack row stays `running`
# until the end. A Ctrl-C prints Pulumi's cancelling line once.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
prog() { # v latency
  cat > Pulumi.yaml <<YAML
name: proj
runtime: yaml
resources:
  a:
    type: test:Resource
    properties:
      v: $1
      __latencyMs: $2
YAML
}
prog 1 0
run stack init dev
run up --yes
expect_rc 0 "first up"
prog 2 3500
run_tty 60 - "-" up --yes --skip-preview
expect_rc 0 "the slow update"
check "the table moved while no event came" '
import re
plain = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", out)
body = plain.split("Updating (dev)")[1]
secs = set(int(s) for s in re.findall(r"test:index:Resource +a +updating \(([0-9]+)s\)", body))
# events come at the start and the end of the step only: later seconds
# can only have been drawn by the ticker
assert {1, 2} & secs and max(secs) >= 2, (secs, body[-2000:])
assert re.search(r"updating \([0-9]+s\)\.", body), "no spinner dots"
assert re.search(r"pulumi:pulumi:Stack +proj-dev +running\.*\s+~ +└─ test:index:Resource +a +updating \([1-9]s\)", body), "stack row running"
assert re.search(r"test:index:Resource +a +updated \([0-9.]+s\)", body), body[-1500:]
'

# Ctrl-C on the terminal: the cancelling line, once, and exit 8
prog 3 4000
python3 - "$M" >"$T/out" 2>&1 <<'PY'
import os, pty, select, signal, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], [sys.argv[1], "up", "--yes", "--skip-preview"])
buf, sent, end = b"", False, time.time() + 60
while time.time() < end:
    if select.select([fd], [], [], 0.1)[0]:
        try:
            d = os.read(fd, 65536)
        except OSError:
            d = b""
        if not d:
            break
        buf += d
    if not sent and b"updating (1s)" in buf:
        os.write(fd, b"\x03")
        sent = True
st = os.waitpid(pid, 0)[1]
sys.stdout.buffer.write(buf)
sys.stdout.write("\nEXIT %d\n" % os.waitstatus_to_exitcode(st))
PY
OUT=$(cat "$T/out")
expect_out "EXIT 8" "cancelled"
check "the cancelling line once, with the warning of an update" '
assert out.count("^C received; cancelling. If you would like to terminate immediately, press ^C again.") == 1, out[-2000:]
assert out.count("Note that terminating immediately may lead to orphaned resources and other inconsistencies.") == 1, out[-2000:]
'
check "no header is drawn over an empty table" '
import re
plain = re.sub(r"\x1b\[[0-9;]*[A-Za-z]", "", out).replace("\r", "")
lines = [l for l in plain.split("\n") if l.strip()]
for i, l in enumerate(lines):
    if re.match(r"^ +Type +Name +(Status|Plan)", l):
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        assert "pulumi:pulumi:Stack" in nxt, (l, nxt)
'

finish
