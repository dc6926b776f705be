#!/bin/bash
# minipulumi console in a real browser (docs/console.md, "How it is built"): a stack
# made by two real `up`s of a program whose names and values are hostile
# (`<script>`, quotes, `</svg>`, a `javascript:` URL, an event handler, a
# 300-character name), served by a running `minipulumi console`, walked by
# Debian's chromium through puppeteer-core (browser.js): stacks, stack,
# resource, graph and a node of it. curl checks the gates: no token and a
# foreign Host header are 403. On SQLite and a file:// folder; with
# MP_TEST_PG_URL (tests/pg/pgtest.py, test console-browser-pg) on
# PostgreSQL only.
#
#   bash tests/console/browser.sh build/src/cli/minipulumi
#   bash tests/console/browser.sh build/src/cli/minipulumi --screenshots docs
# The second form (run on demand) makes the stack once, on SQLite, with no
# 300-character name, and saves docs/console-stack.png,
# docs/console-resource.png and docs/console-graph.png.
here=$(cd "$(dirname "$0")" && pwd)
shots=
if [ "${2:-}" = --screenshots ]; then
  shots=$(realpath "${3:?--screenshots needs a folder}")
fi
. "$here/../cli/lib.sh" "$1"
. "$here/../cli/console_lib.sh"
use_test_world

CHROMIUM=${MP_CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$CHROMIUM" ]; then
  echo "SKIP: no $CHROMIUM (scripts/setup.sh installs Debian's chromium)"
  exit 77
fi
[ -d "$here/node_modules/puppeteer-core" ] || {
  echo "FAIL: no tests/console/node_modules: run scripts/npm-deps.sh tests/console" >&2
  exit 1
}

SECRETS="sekrit-input-value-123 output-secret-xyz config-secret-abc"
HOSTILE="<script>window.__pwned=1</script>\"q'</svg>"

backends=$(console_backends)
[ -n "$shots" ] && backends=sqlite
for backend in $backends; do
  use_backend "$backend" consolebrowser
  cd "$T/proj" || exit 1
  rm -f Pulumi.dev.yaml
  long=$(printf 'n%.0s' $(seq 1 300))
  longres="  longname:
    type: test:Resource
    name: $long
    properties:
      v: 3"
  [ -n "$shots" ] && long=web longres=
  # write_program V: the program, with the child's value V.
  write_program() {
    cat > Pulumi.yaml <<YAML
name: proj
runtime: yaml
resources:
  hostile:
    type: test:Resource
    name: "<script>window.__pwned=1</script>\"q'</svg>"
    properties:
      v: "javascript:window.__pwned=3"
      pw:
        fn::secret: sekrit-input-value-123
  child:
    type: test:Resource
    properties:
      v: $1
      dep: \${hostile.v}
      __latencyMs: ${2:-0}
    options:
      parent: \${hostile}
      protect: true
  web:
    type: test:Resource
    properties:
      v: "<img src=x onerror=\"window.__pwned=4\">"
      upstream: \${child.v}
      __latencyMs: ${2:-0}
$longres
outputs:
  answer: 42
  hidden:
    fn::secret: output-secret-xyz
YAML
  }
  write_program 1
  run stack init dev
  expect_rc 0 "$backend: stack init"
  run config set --secret dbpw config-secret-abc
  run config set plain '<b onmouseover="window.__pwned=2">bold</b>'
  run stack tag set owner '<img src=x onerror="window.__pwned=1">'
  run up --yes -m "first"
  expect_rc 0 "$backend: first up"
  write_program 2
  run up --yes -m "</td><script>window.__pwned=5</script>"
  expect_rc 0 "$backend: second up"

  start_console
  # The gates, with curl: no token, a foreign Host.
  [ "$(status_of "$BASE/")" = 403 ] || fail "$backend: no token is not 403"
  [ "$(status_of "$BASE/stack/proj/dev/graph")" = 403 ] ||
    fail "$backend: the graph without token is not 403"
  [ "$(status_of -H "Host: evil.example:$PORT" "$URL")" = 403 ] ||
    fail "$backend: a foreign Host is not 403"
  [ "$(status_of "$URL")" = 200 ] || fail "$backend: the printed URL is not 200"

  # the third update, slow (the test provider's latency), is started by
  # browser.js once the pages are walked: it follows it live
  write_program 3 2500
  MP_LIVE_CMD="'$M' up --yes -m third >'$T/live.log' 2>&1" \
  MP_SCREENSHOTS=$shots timeout "$(limit 600)" node "$here/browser.js" \
    "$URL" "$HOSTILE" "$long" $SECRETS >"$T/browser.log" 2>&1 ||
    fail "$backend: the browser's walk: $(cat "$T/browser.log")"
  grep -q "pages checked" "$T/browser.log" && echo "$backend: $(tail -1 "$T/browser.log")"
  stop_console
  if [ "$backend" = pg ]; then
    run stack rm --force --yes dev
  fi
done
finish
