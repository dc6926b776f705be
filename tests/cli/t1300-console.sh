#!/bin/bash
# minipulumi console (issue 48, docs/console.md): on a stack made by a real
# `up`, the console answers only with its token (403 without, 200 with,
# then the cookie alone), only to a Host header naming this machine (403
# otherwise), and only to GET/HEAD (405). Its pages and JSON show the
# stack's resources, with every hostile name and value escaped, and no
# response ever holds a secret's plain text unless --show-secrets. On
# SQLite and a file:// folder; with MP_TEST_PG_URL (tests/pg/pgtest.py,
# test t1300-console-pg) on PostgreSQL only.
. "$(dirname "$0")/console_lib.sh"
. "$(dirname "$0")/lib.sh" "$@"
use_test_world

SECRETS="sekrit-input-value-123 output-secret-xyz config-secret-abc"

for backend in $(console_backends); do
  use_backend "$backend" t1300
  cd "$T/proj" || exit 1
  rm -f Pulumi.dev.yaml
  long=$(printf 'n%.0s' $(seq 1 300))
  cat > Pulumi.yaml <<YAML
name: proj
runtime: yaml
resources:
  parent:
    type: test:Resource
    name: "<script>alert('x')</script>\"q</svg>"
    properties:
      v: "javascript:alert(1)"
      pw:
        fn::secret: sekrit-input-value-123
  child:
    type: test:Resource
    properties:
      v: 2
      dep: \${parent.v}
    options:
      parent: \${parent}
      protect: true
  longname:
    type: test:Resource
    name: $long
    properties:
      v: 3
outputs:
  answer: 42
  hidden:
    fn::secret: output-secret-xyz
YAML
  run stack init dev
  run config set --secret dbpw config-secret-abc
  run config set plain '<b>bold</b>'
  run stack tag set owner '<img src=x onerror=alert(1)>'
  run up --yes -m "</td><script>alert('m')</script>"
  expect_rc 0 "$backend: up"

  start_console
  case "$URL" in
    "http://127.0.0.1:"*"/?token="*) ;;
    *) fail "$backend: the URL: $URL" ;;
  esac
  token=${URL##*token=}

  # The gates: no token, a wrong one, a foreign Host, a write.
  [ "$(status_of "$BASE/")" = 403 ] || fail "$backend: no token is not 403"
  [ "$(status_of "$BASE/api/stacks")" = 403 ] || fail "$backend: API without token"
  [ "$(status_of "$BASE/?token=0$token")" = 403 ] || fail "$backend: wrong token"
  [ "$(status_of -H "Host: evil.example:$PORT" "$URL")" = 403 ] ||
    fail "$backend: foreign Host is not 403"
  [ "$(status_of -H "Host: evil.example" "$URL")" = 403 ] ||
    fail "$backend: foreign Host without port is not 403"
  [ "$(status_of -H "Host: localhost:1" "$URL")" = 403 ] ||
    fail "$backend: another port is not 403"
  [ "$(status_of -H "Host: localhost:$PORT" "$URL")" = 200 ] ||
    fail "$backend: localhost is refused"
  [ "$(status_of -X POST "$URL")" = 405 ] || fail "$backend: POST is not 405"
  # The token, then the cookie alone.
  curl -s -D "$T/headers" -c "$T/jar" -o "$T/page" "$URL"
  expect_file "$T/headers" "HTTP/1.1 200" "$backend: the token's page"
  expect_file "$T/headers" "Set-Cookie: minipulumi-console-$PORT=$token" \
    "$backend: the token goes into a cookie"
  expect_file "$T/headers" "Content-Security-Policy: default-src 'none'" "$backend: CSP"
  grep -qi "Access-Control-Allow" "$T/headers" && fail "$backend: a CORS header"
  [ "$(status_of -b "$T/jar" "$BASE/stack/proj/dev")" = 200 ] ||
    fail "$backend: the cookie is not enough"
  [ "$(status_of -H "Authorization: token $token" "$BASE/api/stacks")" = 200 ] ||
    fail "$backend: the Authorization header is not enough"
  [ "$(status_of -b "$T/jar" "$BASE/stack/proj/nope")" = 404 ] ||
    fail "$backend: a missing stack is not 404"

  # Every page and API answer reachable from the stacks page: the
  # resources are there, hostile text escaped, no secret in plain text.
  python3 - "$BASE" "$token" "$long" $SECRETS >"$T/crawl.log" 2>&1 <<'PY' ||
import json, re, sys, urllib.parse, http.client
base, token, long, secrets = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
host, port = urllib.parse.urlsplit(base).hostname, urllib.parse.urlsplit(base).port
cookie = "minipulumi-console-%d=%s" % (port, token)

def get(path):
    c = http.client.HTTPConnection(host, port, timeout=60)
    c.request("GET", path, headers={"Cookie": cookie})
    r = c.getresponse()
    body = r.read().decode()
    assert r.status == 200, (path, r.status, body)
    return r.getheader("Content-Type"), body

seen, todo, pages = set(), ["/", "/api/stacks"], {}
while todo:
    p = todo.pop()
    if p in seen:
        continue
    seen.add(p)
    ctype, body = get(p)
    pages[p] = body
    for s in secrets:
        assert s not in body, ("secret in", p)
    if ctype.startswith("text/html"):
        # every </svg> closes one of the console's own drawings
        assert "<script>alert" not in body and body.count("</svg>") == body.count("<svg "), p
        assert "onerror=alert(1)>" not in body, p
        assert 'href="javascript' not in body, p
        # every script is the console's own
        assert re.findall(r"<script[^>]*>", body) == ['<script src="/static/console.js">'], p
        for href in re.findall(r'href="([^"]*)"', body):
            href = href.replace("&amp;", "&")
            assert href.startswith("/"), (p, href)
            if not href.startswith("/static/"):
                todo.append(href)
                todo.append("/api" + href if href != "/" else "/api/stacks")
    elif ctype == "application/json":
        assert "<" not in body and ">" not in body, p
        json.loads(body)

stack = pages["/stack/proj/dev"]
for want in ["proj-dev", "pulumi:providers:test", "child", "protected",
             "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;q&lt;/svg&gt;",
             "&lt;img src=x onerror=alert(1)&gt;", "&lt;b&gt;bold&lt;/b&gt;",
             "[secret]", long]:
    assert want in stack, want
# the tree: the child under its parent, the parent under the stack
assert 'proj-dev</a><ul class="restree"><li>' in stack, stack
assert re.search(r'<a [^>]*>&lt;script&gt;[^<]*</a><ul class="restree"><li>'
                 r'<span class="type">test:index:Resource</span> '
                 r'<a [^>]*>child</a>', stack), stack
api = json.loads(pages["/api/stack/proj/dev"])
names = sorted(r["name"] for r in api["resources"])
assert names == sorted(["proj-dev", "default", "<script>alert('x')</script>\"q</svg>",
                        "child", long]), names
assert api["outputs"] == {"answer": 42, "hidden": "[secret]"}, api["outputs"]
assert api["config"]["proj:dbpw"] == {"value": "[secret]", "secret": True}, api["config"]
assert api["tags"] == {"owner": "<img src=x onerror=alert(1)>"}, api["tags"]
res = [p for p in pages if p.startswith("/api/stack/proj/dev/resource") and "svg" in p]
assert res, sorted(pages)
r = json.loads(pages[res[0]])
assert r["inputs"]["pw"] == "[secret]" and r["inputs"]["v"] == "javascript:alert(1)", r
assert any(u.endswith("::child") for u in r["children"]), r
assert any(u.endswith("::child") for u in r["dependents"]), r
assert r["provider"]["urn"].endswith("pulumi:providers:test::default"), r
hist = json.loads(pages["/api/stack/proj/dev/history"])
assert hist[0]["version"] == 1 and hist[0]["kind"] == "update", hist
assert hist[0]["result"] == "succeeded" and hist[0]["message"].startswith("</td>"), hist
assert hist[0]["environment"]["exec.kind"] == "cli", hist
assert "&lt;/td&gt;&lt;script&gt;alert(&#39;m&#39;)" in pages["/stack/proj/dev/history"]
stacks = json.loads(pages["/api/stacks"])
assert [(s["project"], s["stack"], s["resourceCount"]) for s in stacks] == \
    [("proj", "dev", 5)], stacks
assert len(pages) >= 16, sorted(pages)
print("crawled", len(pages))
PY
    fail "$backend: crawl: $(cat "$T/crawl.log")"

  # Filters: by name and by tag.
  curl -s -b "$T/jar" "$BASE/api/stacks?q=nomatch" >"$T/f1"
  [ "$(cat "$T/f1")" = "[]" ] || fail "$backend: name filter: $(cat "$T/f1")"
  curl -s -b "$T/jar" "$BASE/api/stacks?tag=owner" >"$T/f2"
  expect_file "$T/f2" '"stack":"dev"' "$backend: tag filter"
  curl -s -b "$T/jar" "$BASE/api/stacks?tag=owner%3Dother" >"$T/f3"
  [ "$(cat "$T/f3")" = "[]" ] || fail "$backend: tag=value filter: $(cat "$T/f3")"
  stop_console

  # --show-secrets: the plain text is shown (the passphrase is in the
  # environment); --stack: the URL opens the stack's page.
  start_console --show-secrets --stack dev
  case "$URL" in
    *"/stack/proj/dev?token="*) ;;
    *) fail "$backend: --stack URL: $URL" ;;
  esac
  curl -s "$URL" >"$T/shown"
  curl -s -H "Authorization: token ${URL##*token=}" \
    "$BASE/api/stack/proj/dev/resource?urn=urn%3Apulumi%3Adev%3A%3Aproj%3A%3Atest%3Aindex%3AResource%3A%3A%3Cscript%3Ealert%28%27x%27%29%3C%2Fscript%3E%22q%3C%2Fsvg%3E" \
    >>"$T/shown"
  for s in $SECRETS; do
    expect_file "$T/shown" "$s" "$backend: --show-secrets shows $s"
  done
  stop_console
  if [ "$backend" = pg ]; then
    run stack rm --force --yes dev
  fi
done

# --open starts xdg-open with the URL; --host warns when not loopback;
# --port must be a port.
mkdir -p "$T/bin"
printf '#!/bin/sh\necho "$1" > "%s/opened"\n' "$T" > "$T/bin/xdg-open"
chmod +x "$T/bin/xdg-open"
PATH="$T/bin:$PATH" start_console --open
for _ in $(seq 1 100); do [ -s "$T/opened" ] && break; sleep 0.1; done
[ "$(cat "$T/opened" 2>/dev/null)" = "$URL" ] || fail "--open: $(cat "$T/opened" 2>&1)"
stop_console
start_console --host 0.0.0.0
expect_file "$T/console.err" "which is not a loopback address" "--host 0.0.0.0 warns"
stop_console
start_console --host localhost
grep -q "not a loopback" "$T/console.err" && fail "--host localhost warns"
stop_console
run console --port 70000
expect_rc 2 "--port 70000"
expect_err "is not a port" "--port 70000"
finish
