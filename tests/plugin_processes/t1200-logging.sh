#!/bin/bash
# Issue 37: -v/--verbose N with --logtostderr and --logflow, and
# --tracing file:PATH, on a provider plugin process. The lines have
# Pulumi's (glog's) shape; the level filters them; --logflow passes the
# flags on to the plugin; without --logtostderr they go to a log file in
# the temp folder; the trace is Zipkin v2 JSON of the operation's spans.
. "$(dirname "$0")/lib.sh" "$@"
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: testprov:index:Item
    properties:
      value: hello
      key: ka
YAML
run stack init dev
expect_rc 0 "stack init"

# level 9 to stderr, flowed to the plugin
run up --yes -v=9 --logtostderr --logflow
expect_rc 0 "up -v=9"
GLOG='^I[0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6} +[0-9]+ [a-z_]+\.c:[0-9]+\] '
echo "$ERR" | grep -Eq "${GLOG}Launching plugin 'pulumi-resource-testprov' from '[^']*pulumi-resource-testprov' with args: --logtostderr,-v=9,127\.0\.0\.1:[0-9]+$" ||
  fail "the plugin's launch, with the flowed flags: $ERR"
echo "$ERR" | grep -Eq "${GLOG}Provider\[pulumi-resource-testprov\]\.Create\(urn:pulumi:dev::proj::testprov:index:Item::a\) success \([0-9]+\.[0-9]{3}ms\)$" ||
  fail "the Create call and its timing: $ERR"
echo "$ERR" | grep -Eq "${GLOG}Planner decided to create 'urn:pulumi:dev::proj::testprov:index:Item::a'$" ||
  fail "the step generator's decision: $ERR"
echo "$ERR" | grep -Eq "${GLOG}update of stack 'dev' starting$" ||
  fail "the operation's start: $ERR"
no_orphans "up -v=9"

# the level filters: 3 shows the operation, not the calls
run preview -v 3 --logtostderr
expect_rc 0 "preview -v 3"
expect_err "preview of stack 'dev' starting" "level 3 line"
case "$ERR" in *"Launching plugin"*|*"Provider["*|*"Planner decided"*)
  fail "level 7 and 9 lines at -v 3: $ERR" ;; esac

# no -v: no lines
run preview --logtostderr
case "$ERR" in *"starting"*) fail "lines without -v: $ERR" ;; esac

# without --logflow the plugin gets only the engine's address
run preview -v=9 --logtostderr
echo "$ERR" | grep -Eq "Launching plugin 'pulumi-resource-testprov' from '[^']*' with args: 127\.0\.0\.1:[0-9]+$" ||
  fail "no flowed flags without --logflow: $ERR"

# without --logtostderr: glog's file in the temp folder, nothing on stderr
mkdir -p "$T/tmp"
TMPDIR="$T/tmp" run preview -v=9
expect_rc 0 "preview -v=9 to a file"
case "$ERR" in *"Launching plugin"*) fail "lines on stderr: $ERR" ;; esac
LOG=$(ls "$T"/tmp/minipulumi.*.log.INFO.* 2>/dev/null | head -1)
[ -n "$LOG" ] && grep -q "Planner decided not to update 'urn:pulumi:dev::proj::testprov:index:Item::a' due to not having changes" "$LOG" ||
  fail "the log file: $(ls "$T/tmp")"

# --tracing file:PATH: Zipkin v2 JSON, one trace, each parent a span of it
run up --yes --tracing "file:$T/up.trace"
expect_rc 0 "up --tracing"
python3 - "$T/up.trace" <<'PY' || fail "the trace file"
import json, sys
spans = json.load(open(sys.argv[1]))
ids = {s["id"] for s in spans}
names = [s["name"] for s in spans]
assert len({s["traceId"] for s in spans}) == 1, "one trace"
assert all(len(s["traceId"]) == 32 and len(s["id"]) == 16 for s in spans)
assert all(s.get("parentId", s["id"]) in ids for s in spans), "parents"
assert names[0] == "pulumi" and "parentId" not in spans[0], names
for n in ("update", "plugin launch", "/pulumirpc.ResourceProvider/Check",
          "/pulumirpc.ResourceProvider/Diff"):
    assert n in names, (n, names)
assert all(s["duration"] > 0 and s["timestamp"] > 1.6e15 for s in spans)
diff = [s for s in spans if s["name"].endswith("/Diff")][0]
assert diff["tags"]["urn"].endswith("::a"), diff
assert spans[0]["localEndpoint"]["serviceName"] == "minipulumi"
PY
run preview --tracing "http://localhost:9411/api/v2/spans"
expect_rc 2 "--tracing to a collector"
expect_err "only file:PATH" "what --tracing takes"
finish
