#!/bin/bash
# up's flags end to end on the test provider, without a terminal: -y, -f,
# -r/--refresh, --diff, -j/--json, --event-log, -p, -m, -c, --show-secrets
# and --expect-no-changes (exit 7), checked on the exit codes, the JSON
# events, the test world's calls and `stack export`.
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
export PULUMI_CONFIG_PASSPHRASE=pp
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
config:
  v:
    type: string
    default: one
resources:
  a:
    type: test:Resource
    properties:
      v: ${v}
  b:
    type: test:Resource
    properties:
      v: ${a.v}
  c:
    type: test:Resource
    properties:
      w: 1
  s:
    type: test:Resource
    properties:
      secret:
        fn::secret: hush
outputs:
  av: ${a.v}
  sec: ${s.secret}
YAML
run stack init dev

run up
expect_rc 2 "up without --yes and without a terminal"
expect_err "--yes" "the error names --yes"

# -y -j --event-log -p 1 -m: one JSON event a line, also in the log file.
run up -y -j --event-log "$T/events.jsonl" -p 1 -m "first update"
expect_rc 0 "up -y --json"
expect_not_out "Updating (dev)" "no display in JSON mode"
check "up --json events" '
ev = events()
assert all(set(e) - {"sequence", "timestamp"} for e in ev)
assert kinds(ev)[0] == "preludeEvent", kinds(ev)[:3]
# each operation (preview, update) ends with summaryEvent then cancelEvent
k = kinds(ev)
assert k[-2:] == ["summaryEvent", "cancelEvent"], k[-3:]
assert k.count("cancelEvent") == 2 and k.count("preludeEvent") == 2, k
assert ev[-1]["cancelEvent"] == {} and ev[-1]["sequence"] == ev[-2]["sequence"] + 1, ev[-2:]
assert ev[0]["preludeEvent"]["config"] == {"proj:v": "one"}, ev[0]
st = steps(ev)
assert sorted(n for op, n in st if op == "create") == ["a", "b", "c", "default", "proj-dev", "s"], st
# b needs a output: a created (outputs) before b starts
o = [e for e in ev if "resOutputsEvent" in e and not e["resOutputsEvent"].get("planning")]
seq_a = [e["sequence"] for e in o if name(e["resOutputsEvent"]["metadata"]["urn"]) == "a"][0]
seq_b = [e["sequence"] for e in ev if "resourcePreEvent" in e and not e["resourcePreEvent"].get("planning") and name(e["resourcePreEvent"]["metadata"]["urn"]) == "b"][0]
assert seq_a < seq_b, (seq_a, seq_b)
md = [e["resourcePreEvent"]["metadata"] for e in ev if "resourcePreEvent" in e and name(e["resourcePreEvent"]["metadata"]["urn"]) == "a"][-1]
assert md["type"] == "test:index:Resource" and md["new"]["inputs"]["v"] == "one", md
assert md["provider"].startswith("urn:pulumi:dev::proj::pulumi:providers:test::default::"), md
sm = [e["summaryEvent"] for e in ev if "summaryEvent" in e][-1]
assert sm["resourceChanges"] == {"create": 5}, sm
assert sm["result"] == "succeeded" and sm["isPreview"] is False and sm["maybeCorrupt"] is False, sm
# the secret is masked in the events
assert "hush" not in out, "secret in the events"
assert "[secret]" in out
# the stack outputs at the end
so = [e["resOutputsEvent"]["metadata"]["new"]["outputs"] for e in o if name(e["resOutputsEvent"]["metadata"]["urn"]) == "proj-dev"][-1]
assert so["av"] == "one" and so["sec"] == "[secret]", so
'
cmp -s "$T/out" "$T/events.jsonl" || check "the event log holds the same events" '
a = [kinds([e]) for e in events()]
b = [kinds([e]) for e in events(T + "/events.jsonl")]
assert a == b, (len(a), len(b))
'
export_state
check "stack export after up" '
r = res()
assert set(r) == {"proj-dev", "test-provider", "a", "b", "c", "s"}, sorted(r)
assert r["a"]["inputs"]["v"] == "one" and r["a"]["outputs"]["v"] == "one"
assert r["b"]["dependencies"] == [r["a"]["urn"]], r["b"]
assert r["b"]["propertyDependencies"]["v"] == [r["a"]["urn"]], r["b"]
assert r["a"]["parent"] == r["proj-dev"]["urn"]
assert r["a"]["provider"].split("::")[-1] == r["test-provider"]["id"]
sec = r["s"]["inputs"]["secret"]
assert isinstance(sec, dict) and sec.get("4dabf18193072939515e22adb298388d") == "1b47061264138c4ac30d75fd1eb44270" and "ciphertext" in sec, sec
assert "hush" not in open(T + "/export.json").read()
assert r["proj-dev"]["outputs"]["av"] == "one"
'
export_state --show-secrets
check "stack export --show-secrets" '
r = res()
sec = r["s"]["inputs"]["secret"]
assert sec.get("plaintext") == "\"hush\"" or sec == "hush", sec
'
run stack history --json
check "history message (-m)" '
h = doc()
assert h[0]["message"] == "first update", h[0]
assert h[0]["resourceChanges"]["create"] == 5, h[0]
'

# -p: a bad count is a usage error (its effect is measured on deletes in
# t0530); -p 2 on a fresh stack works.
run up -y -p many
expect_rc 2 "-p needs a number"
run stack init par
run up -y -p 2 -s par
expect_rc 0 "up -p 2"
run stack select dev

run up -y --expect-no-changes
expect_rc 0 "up --expect-no-changes without changes"
expect_out "5 unchanged" "nothing changed"

# -c and --diff: the config is saved and the update shows the property diff.
run up -y -c v=two --diff
expect_rc 0 "up -c --diff"
expect_out '~ v: "one" => "two"' "--diff shows the change"
expect_out "~ 2 updated" "summary"
expect_file Pulumi.dev.yaml "proj:v: two" "-c is saved in the stack's config file"
export_state
check "state after -c" '
r = res()
assert r["a"]["outputs"]["v"] == "two" and r["b"]["outputs"]["v"] == "two"
'

# --expect-no-changes with changes: the update is applied, the exit is 7.
run up -y --json --expect-no-changes -c v=three
expect_rc 7 "up --expect-no-changes with changes"
check "the changes were made" '
ev = events()
assert ("update", "a") in steps(ev) and ("update", "b") in steps(ev), steps(ev)
'
export_state
check "state after the exit 7" 'assert res()["a"]["outputs"]["v"] == "three"'

# --show-secrets shows the secret output.
run up -y
expect_out "sec: [secret]" "a secret output masked"
expect_not_out "hush" "no secret"
run up -y --show-secrets
expect_rc 0 "up --show-secrets"
expect_out 'sec: "hush"' "--show-secrets"
run up -y --json --show-secrets
check "--json --show-secrets" 'assert "hush" in out'

# -f: no preview, straight to the update.
run up -f -c v=four --json
expect_rc 0 "up -f"
check "-f has no preview events" '
ev = events()
assert steps(ev, planning=True) == [], steps(ev, planning=True)
assert ("update", "a") in steps(ev)
'
run up -f -c v=four
expect_not_out "Previewing update" "-f skips the preview"
expect_out "Updating (dev)" "-f updates"

# -r: a resource deleted behind the engine's back is seen and created again;
# without -r the engine goes by its state.
id=$(python3 -c 'import json,sys; print([r["id"] for r in json.load(open(sys.argv[1]))["deployment"]["resources"] if r["urn"].endswith("::a")][0])' "$T/export.json")
rm "$MINIPULUMI_TEST_WORLD/$id.json"
run up -y --expect-no-changes
expect_rc 0 "up without -r trusts the state"
: >"$MINIPULUMI_TEST_WORLD/calls.jsonl"
run up -y -r --json
expect_rc 0 "up --refresh"
check "--refresh reads, then creates the vanished resource" '
c = [x for x in calls() if x[0] in ("read", "create", "update")]
assert ("read", "a") in c and ("create", "a") in c, c
assert c.index(("read", "a")) < c.index(("create", "a")), c
ev = events()
assert ("refresh", "a") in steps(ev), steps(ev)
assert ("create", "a") in steps(ev), steps(ev)
assert [s for s in steps(ev) if s[0] not in ("same", "refresh")] == [("create", "a")], steps(ev)
'
export_state
check "a has a new id" 'assert res()["a"]["id"] != "'"$id"'" and res()["a"]["outputs"]["v"] == "four"'
run up -y -r --expect-no-changes
expect_rc 0 "up -r with nothing drifted"
finish
