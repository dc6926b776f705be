#!/bin/bash
# The console's update pages (docs/console.md): each update keeps its
# engine events in the store as they happen, and /stack/P/S/update/N (and
# its JSON) shows its steps in order with their --diff text, its
# diagnostics and its timeline (an SVG bar per step, the longest chain
# marked), hostile names escaped and no secret in plain text; an update
# running in another process shows its steps as they start and end, and
# its server-sent events stream them. On SQLite and a file:// folder; with
# MP_TEST_PG_URL (t1301-console-updates-pg) on PostgreSQL only.
. "$(dirname "$0")/console_lib.sh"
. "$(dirname "$0")/lib.sh" "$@"
use_test_world

program() { # program LATENCY_MS V: a hostile parent, a child that waits
  cat > Pulumi.yaml <<YAML
name: proj
runtime: yaml
resources:
  first:
    type: test:Resource
    name: "<script>alert('x')</script>\"q</svg>"
    properties:
      v: "javascript:alert($2)"
      pw:
        fn::secret: sekrit-input-value-123
      __latencyMs: $1
  second:
    type: test:Resource
    properties:
      v: \${first.v}
      __latencyMs: $1
  alone:
    type: test:Resource
    properties:
      v: $2
YAML
}

backends=$(console_backends)
for backend in $backends; do
  use_backend "$backend" t1301
  cd "$T/proj" || exit 1
  rm -f Pulumi.dev.yaml
  run stack init dev
  program 200 1
  run up --yes -m "first"
  expect_rc 0 "$backend: up 1"
  program 200 2
  run up --yes -m "</td><script>alert('m')</script>"
  expect_rc 0 "$backend: up 2"
  if [ "$backend" = file ]; then
    # Pulumi's `stack history` reads only *.history.json: the events file
    # beside them is not an update
    ls "$T/state/.pulumi/history/proj/dev/" | grep -q '^dev-[0-9]*\.events\.jsonl$' ||
      fail "file: no events file: $(ls "$T/state/.pulumi/history/proj/dev/")"
    run stack history --json
    check "file: two updates in the history" 'assert len(doc()) == 2, doc()'
  fi

  start_console
  python3 - "$BASE" "$TOKEN" >"$T/check.log" 2>&1 <<'PY' ||
import json, re, sys, urllib.parse, http.client
base, token = sys.argv[1], sys.argv[2]
u = urllib.parse.urlsplit(base)
def get(path):
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
    c.request("GET", path, headers={"Authorization": "token " + token})
    r = c.getresponse()
    body = r.read().decode()
    return r.status, body
st, hist = get("/stack/proj/dev/history")
assert st == 200 and 'href="/stack/proj/dev/update/2"' in hist, hist
for n in (1, 2):
    st, body = get("/api/stack/proj/dev/update/%d" % n)
    assert st == 200, body
    assert "<" not in body and "sekrit-input-value-123" not in body, body
    up = json.loads(body)
    assert up["version"] == n and up["result"] == "succeeded" and not up["running"], up
    steps = up["steps"]
    names = [s["name"] for s in steps]
    assert names[0] == "proj-dev", names
    first = "<script>alert('x')</script>\"q</svg>"
    assert first in names and "second" in names, names
    assert all(s["status"] == "done" for s in steps), steps
    assert all(s["endMs"] >= s["startMs"] for s in steps), steps
    by = {s["name"]: s for s in steps}
    # the second waited for the first, 200 ms each: both on the longest chain
    assert by["second"]["startMs"] >= by[first]["endMs"], steps
    assert by["second"]["critical"] and by[first]["critical"], steps
    assert not by["alone"]["critical"], steps
    assert up["summary"]["result"] == "succeeded", up["summary"]
    if n == 1:
        assert by["alone"]["op"] == "create", by["alone"]
        assert "+ v: 1" in by["alone"]["diff"], by["alone"]
        # the diff as --diff prints it, the secret masked
        assert "+ pw: [secret]" in by[first]["diff"], by[first]["diff"]
    else:
        assert by["alone"]["op"] == "update", by["alone"]
        assert '~ v: 1 => 2' in by["alone"]["diff"], by["alone"]["diff"]
        assert '~ v: "javascript:alert(1)" => "javascript:alert(2)"' in \
            by[first]["diff"], by[first]["diff"]
        assert up["message"].startswith("</td>"), up
    st, page = get("/stack/proj/dev/update/%d" % n)
    assert st == 200, page
    assert "sekrit-input-value-123" not in page
    assert "<script>alert" not in page and "</svg>\"" not in page, page
    assert re.findall(r"<script[^>]*>", page) == ['<script src="/static/console.js">'], page
    # one bar per step, the chain outlined
    svg = page[page.index("<svg"):page.index("</svg>")]
    assert len(re.findall(r'<rect class="bar', svg)) == len(steps), svg
    assert len(re.findall(r'<rect class="bar critical', svg)) == \
        sum(1 for s in steps if s["critical"]), svg
    assert "&lt;script&gt;alert(&#39;x&#39;)" in svg, svg
    assert page.count('<tr class="step">') == len(steps), page
    if n == 2:
        assert "~ v: 1 =&gt; 2" in page, page
st, body = get("/api/stack/proj/dev/update/3")
assert st == 404 and json.loads(body)["error"].startswith("no update 3"), body
st, body = get("/stack/proj/dev/update/x")
assert st == 404, body
print("ok")
PY
    fail "$backend: update pages: $(cat "$T/check.log")"

  # A slow update in another process: its page shows it running, steps
  # appear and end; the events stream (server-sent events) sends them.
  program 2500 3
  curl -sN --max-time 240 -H "Authorization: token $TOKEN" \
    "$BASE/api/stack/proj/dev/update/3/events" >"$T/sse" 2>"$T/sse.err" &
  SPID=$!
  "$M" up --yes -m slow </dev/null >"$T/slow.out" 2>&1 &
  UPID=$!
  python3 - "$BASE" "$TOKEN" "$backend" >"$T/live.log" 2>&1 <<'PY' ||
import json, sys, time, urllib.parse, http.client
base, token, backend = sys.argv[1], sys.argv[2], sys.argv[3]
u = urllib.parse.urlsplit(base)
def get(path):
    c = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
    c.request("GET", path, headers={"Authorization": "token " + token})
    r = c.getresponse()
    return r.status, r.read().decode()
seen_running = False
deadline = time.time() + 240
while time.time() < deadline:
    st, body = get("/api/stack/proj/dev/update/3")
    if st == 200:
        up = json.loads(body)
        # a step of the slow pair (2.5 s a call): the stack's step and
        # `alone` end within milliseconds, so the page fetched next could
        # already show them done
        slow = [s for s in up["steps"] if s["status"] == "running" and
                s["name"] not in ("alone", "proj-dev")]
        if up["running"] and slow:
            seen_running = True
            st, page = get("/stack/proj/dev/update/3")
            assert 'data-live="/api/stack/proj/dev/update/3/events"' in page, page
            assert 'running"' in page, page
            if backend != "file":  # file:// lists an update once it ends
                st, page = get("/stack/proj/dev")
                assert 'data-live="/api/stack/proj/dev/update/3/events"' in page, page
                assert 'Update 3 is running' in page, page
            break
    time.sleep(0.1)
assert seen_running, "never saw update 3 running"
print("ok")
PY
    fail "$backend: live: $(cat "$T/live.log")"
  wait "$UPID" || fail "$backend: slow up: $(cat "$T/slow.out")"
  # the stream ends by itself once the update has ended
  wait "$SPID" || fail "$backend: the events stream: $? $(cat "$T/sse.err")"
  check "$backend: the server-sent events" '
import json
text = open(T + "/sse").read()
blocks = [b for b in text.split("\n\n") if b.strip() and not b.startswith(":")]
kinds = [b.split("\n")[0] for b in blocks]
assert kinds[-1] == "event: end", kinds
ups = [json.loads(b.split("\n")[1][len("data: "):]) for b in blocks
       if b.startswith("event: update")]
assert len(ups) >= 3, kinds
# steps appear, run and end, in order
assert any(s["status"] == "running" for u in ups for s in u["steps"]), ups
assert ups[0]["running"] and not ups[-1]["running"], ups
assert all(s["status"] == "done" for s in ups[-1]["steps"]), ups[-1]
counts = [len(u["steps"]) for u in ups]
# an event only when something changed
assert all(a != b for a, b in zip(ups, ups[1:])), "the same update sent twice"
assert counts == sorted(counts) and counts[0] < counts[-1], counts
assert "sekrit-input-value-123" not in text and "<" not in text'
  curl -s -H "Authorization: token $TOKEN" "$BASE/api/stack/proj/dev/update/3" >"$T/u3"
  check "$backend: update 3 ended" '
import json
up = json.load(open(T + "/u3"))
assert not up["running"] and up["result"] == "succeeded", up
assert all(s["status"] == "done" for s in up["steps"]), up["steps"]'
  stop_console
  if [ "$backend" = pg ]; then
    run stack rm --force --yes dev
  fi
done
finish
