# Shared setup for the CLI tests: `. lib.sh "$@"` with the minipulumi binary
# as the first argument. Each test runs in a fresh temporary folder with its
# own state store, a project `proj` (runtime yaml) and no terminal.
set -u
M=$(realpath "$1")
T=$(mktemp -d "${TMPDIR:-/tmp}/mp-cli.XXXXXX")
trap 'rm -rf "$T"' EXIT
# What the tools under test leave in the temporary folder (ts-node's
# caches of a Node.js program, the Automation API's work folders) goes
# with the test's own folder.
mkdir "$T/tmp"
export TMPDIR="$T/tmp"
export HOME="$T/home"
mkdir -p "$HOME" "$T/proj"
export MINIPULUMI_BACKEND_URL="$T/state.db"
# MP_TEST_DIY=1: the same tests on a file:// folder in Pulumi's DIY layout
if [ "${MP_TEST_DIY:-}" = 1 ]; then
  mkdir -p "$T/state"
  export MINIPULUMI_BACKEND_URL="file://$T/state"
fi
unset PULUMI_CONFIG_PASSPHRASE_FILE CI
# As with Pulumi, a stack cannot be made without a passphrase (t0120 tests
# the prompt and the error); every test's stacks use this one.
export PULUMI_CONFIG_PASSPHRASE=cli-test-passphrase
cd "$T/proj"
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
YAML
FAILS=0

# limit SECONDS: a time limit for `timeout`, scaled by
# MINIPULUMI_TEST_TIMEOUT_MULTIPLIER as the runners' are (tests/timeouts.py).
limit() {
  awk -v s="$1" -v m="${MINIPULUMI_TEST_TIMEOUT_MULTIPLIER:-1}" \
    'BEGIN { print int(s * m + 0.999) }'
}

fail() { echo "FAIL: $*" >&2; FAILS=$((FAILS + 1)); }

# run CMD...: runs minipulumi, keeping stdout in $OUT, stderr in $ERR and
# the exit status in $RC.
run() {
  "$M" "$@" </dev/null >"$T/out" 2>"$T/err"
  RC=$?
  OUT=$(cat "$T/out")
  ERR=$(cat "$T/err")
}

expect_rc() { # expected-status description
  [ "$RC" = "$1" ] || fail "$2: exit status $RC, expected $1 (stdout: $OUT; stderr: $ERR)"
}

expect_out() { # text description
  case "$OUT" in *"$1"*) ;; *) fail "$2: stdout lacks '$1': $OUT" ;; esac
}

expect_err() { # text description
  case "$ERR" in *"$1"*) ;; *) fail "$2: stderr lacks '$1': $ERR" ;; esac
}

expect_not_out() { # text description
  case "$OUT" in *"$1"*) fail "$2: stdout has '$1': $OUT" ;; esac
}

expect_file() { # file text description
  grep -qF -- "$2" "$1" || fail "$3: '$1' lacks '$2': $(cat "$1" 2>&1)"
}

finish() {
  if [ "$FAILS" -ne 0 ]; then echo "$FAILS failure(s)" >&2; exit 1; fi
  echo ok
}

# ---- helpers for the t05xx-t09xx end-to-end scripts ----

# use_test_world: points the built-in `test` provider at $T/world.
use_test_world() {
  export MINIPULUMI_TEST_WORLD="$T/world"
  mkdir -p "$MINIPULUMI_TEST_WORLD"
}

# export_state: `stack export` into $T/export.json (fails the test if the
# export fails).
export_state() {
  "$M" stack export "$@" </dev/null >"$T/export.json" 2>"$T/export.err" ||
    fail "stack export: $(cat "$T/export.err")"
}

# check DESCRIPTION PYTHON: runs the python3 statements PYTHON; an exception
# (a failed assert) is a failure. The code sees:
#   out          the last run's stdout as text
#   events()     the JSON lines of out (or of a file) as dicts
#   doc()        out (or a file) as one JSON document
#   steps(ev, planning=False)  [(op, name)] of the resourcePreEvents
#   outs(ev)     [(op, name)] of the resOutputsEvents (not planning)
#   res()        the resources of $T/export.json by name (`export_state`);
#                providers by `<pkg>-provider`
#   name(urn)    the last part of a URN
#   calls(op=None)  the test world's calls.jsonl entries [(op, name)]
check() {
  local what=$1 code=$2
  if ! python3 - "$T" "$code" >"$T/check.log" 2>&1 <<'PY'; then
import json, os, sys
T, code = sys.argv[1], sys.argv[2]
out = open(os.path.join(T, "out")).read()
def events(path=None):
    text = open(path).read() if path else out
    return [json.loads(l) for l in text.splitlines() if l.strip()]
def doc(path=None):
    return json.loads(open(path).read() if path else out)
def name(urn):
    return urn.split("::")[-1]
def _md(e, kind):
    return e[kind]["metadata"]
def steps(ev, planning=False):
    return [(_md(e, "resourcePreEvent")["op"], name(_md(e, "resourcePreEvent")["urn"]))
            for e in ev if "resourcePreEvent" in e
            and bool(e["resourcePreEvent"].get("planning")) == planning]
def outs(ev, planning=False):
    return [(_md(e, "resOutputsEvent")["op"], name(_md(e, "resOutputsEvent")["urn"]))
            for e in ev if "resOutputsEvent" in e
            and bool(e["resOutputsEvent"].get("planning")) == planning]
def kinds(ev):
    return [k for e in ev for k in e if k not in ("sequence", "timestamp")]
def res():
    d = json.load(open(os.path.join(T, "export.json")))
    r = {}
    for x in d["deployment"].get("resources") or []:
        n = name(x["urn"])
        if x["type"].startswith("pulumi:providers:"):
            n = x["type"].split(":")[2] + "-provider"
        r[n] = x
    return r
def calls(op=None):
    p = os.path.join(os.environ.get("MINIPULUMI_TEST_WORLD", ""), "calls.jsonl")
    if not os.path.exists(p):
        return []
    c = [json.loads(l) for l in open(p) if l.strip()]
    return [(x["op"], name(x["urn"])) for x in c if op is None or x["op"] == op]
exec(code)
PY
    fail "$what: $(cat "$T/check.log") (stdout: $(head -c 2000 "$T/out"))"
  fi
}

# run_in DIR CMD...: `run` in another folder.
run_in() {
  local d=$1
  shift
  (cd "$d" && "$M" "$@" </dev/null >"$T/out" 2>"$T/err")
  RC=$?
  OUT=$(cat "$T/out")
  ERR=$(cat "$T/err")
}

# run_tty TIMEOUT ANSWERS PROMPT CMD...: runs minipulumi CMD... on a
# pseudo-terminal (python3's pty module); each time PROMPT shows, types the
# next of the comma-separated ANSWERS and Enter ('-': types nothing). Output (with the terminal's escape
# sequences) in $OUT, the exit status in $RC (124 on timeout).
run_tty() {
  local timeout=$1 answer=$2 prompt=$3
  shift 3
  python3 - "$timeout" "$answer" "$prompt" "$M" "$@" >"$T/out" 2>"$T/err" <<'PY'
import os, pty, select, signal, sys, time
timeout, answer, prompt = float(sys.argv[1]), sys.argv[2], sys.argv[3].encode()
cmd = sys.argv[4:]
pid, fd = pty.fork()
if pid == 0:
    os.environ["COLUMNS"] = "160"
    os.execv(cmd[0], cmd)
answers = [] if answer == "-" else answer.split(",")
buf, sent, eof, end = b"", 0, False, time.time() + timeout
while time.time() < end and not eof:
    if select.select([fd], [], [], 0.1)[0]:
        try:
            d = os.read(fd, 65536)
        except OSError:
            d = b""
        eof = not d
        buf += d
    if sent < len(answers) and buf.count(prompt) > sent:
        time.sleep(0.2)
        os.write(fd, answers[sent].encode() + b"\r")
        sent += 1
if not eof:
    os.kill(pid, signal.SIGKILL)
st = os.waitpid(pid, 0)[1]
sys.stdout.buffer.write(buf)
sys.exit(124 if not eof else os.waitstatus_to_exitcode(st))
PY
  RC=$?
  OUT=$(cat "$T/out")
  ERR=$(cat "$T/err")
}

# start_bg CMD...: starts minipulumi CMD... in the background (stdout in
# $T/bg.out, stderr in $T/bg.err); its pid in $BG.
start_bg() {
  "$M" "$@" </dev/null >"$T/bg.out" 2>"$T/bg.err" &
  BG=$!
}

# wait_call OP NAME [SECONDS]: waits until the test world's calls.jsonl has
# a non-preview OP call on resource NAME; fails the test after SECONDS (10).
wait_call() {
  local i n=$((${3:-10} * 20))
  for ((i = 0; i < n; i++)); do
    grep -q "\"op\":\"$1\",\"urn\":\"[^\"]*::$2\".*\"preview\":false" \
      "$MINIPULUMI_TEST_WORLD/calls.jsonl" 2>/dev/null && return 0
    sleep 0.05
  done
  fail "no $1 call on $2 within ${3:-10}s"
  return 1
}

# wait_bg: waits for $BG; its exit status in $RC, output in $OUT / $ERR.
wait_bg() {
  { wait "$BG"; } 2>/dev/null
  RC=$?
  cp "$T/bg.out" "$T/out"
  OUT=$(cat "$T/bg.out")
  ERR=$(cat "$T/bg.err")
}

# expect_pending LIST DESCRIPTION: the stack's pending operations are the
# python list LIST of (type, name), e.g. '[("creating", "slow")]'.
expect_pending() {
  export_state
  check "$2" '
import json
d = json.load(open(T + "/export.json"))["deployment"]
p = sorted((x["type"], name(x["resource"]["urn"])) for x in d.get("pending_operations") or [])
assert p == '"$1"', p
'
}

# ---- the `sleep N` processes a test's commands start ----
# The commands inherit MP_TEST_RUN, which names this run: another run of
# the same script on the machine (a second worktree's suite) has sleeps of
# the same numbers, which are neither counted nor killed here.
export MP_TEST_RUN="$$-$RANDOM-$T"

# live_sleeps N: pids of this run's live (non-zombie) `sleep N` processes.
live_sleeps() {
  python3 - "$1" <<'PY'
import os, sys
want = b"sleep\x00" + sys.argv[1].encode() + b"\x00"
tag = b"MP_TEST_RUN=" + os.environ["MP_TEST_RUN"].encode()
for p in os.listdir("/proc"):
    if not p.isdigit():
        continue
    try:
        cmd = open("/proc/%s/cmdline" % p, "rb").read()
        state = open("/proc/%s/stat" % p).read().rsplit(")", 1)[1].split()[0]
        env = open("/proc/%s/environ" % p, "rb").read().split(b"\x00")
    except OSError:
        continue
    if cmd.startswith(want) and state != "Z" and tag in env:
        print(p)
PY
}

# await_sleeps N none|some: waits (at most 15 s) until no `sleep N` is
# alive, or one is. Returns 0 when it happened.
await_sleeps() {
  local i
  for ((i = 0; i < 150; i++)); do
    if [ -z "$(live_sleeps "$1")" ]; then [ "$2" = none ] && return 0
    else [ "$2" = some ] && return 0; fi
    sleep 0.1
  done
  return 1
}

# kill_sleeps_at_exit N...: on exit, kills what is left of `sleep N...`
# (should the test fail) and removes the test's folder.
kill_sleeps_at_exit() {
  SLEEPS_TO_KILL="$*"
  trap 'for n in $SLEEPS_TO_KILL; do for p in $(live_sleeps "$n"); do kill -9 "$p" 2>/dev/null; done; done; rm -rf "$T"' EXIT
}

# sleepy_program N [PREFIX]: Pulumi.yaml with one command:local:Command,
# `slow`, that runs `sleep N` (after PREFIX) until $T/fast exists.
sleepy_program() {
  cat > Pulumi.yaml <<YAML
name: proj
runtime: yaml
resources:
  slow:
    type: command:local:Command
    properties:
      create: "${2:-}[ -e '$T/fast' ] || sleep $1; echo done"
YAML
}
