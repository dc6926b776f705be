#!/bin/bash
# issue 49 (12): `stack graph --format svg|png` with a file name that
# starts with `-` renders to that file: neither the output name nor the
# temporary DOT file beside it reaches Graphviz's `dot` as an option.
. "$(dirname "$0")/lib.sh" "$@"
if ! command -v dot >/dev/null; then
  echo "skipped: no Graphviz dot"
  exit 77
fi
use_test_world
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: test:Resource
    properties:
      v: 1
YAML
run stack init dev
run up --yes
expect_rc 0 "up"

run stack graph --format svg -- -Tpng.svg
expect_rc 0 "svg to a file named -Tpng.svg"
expect_out 'Wrote stack dependency graph to `-Tpng.svg`' "the message"
grep -q '<svg' ./-Tpng.svg 2>/dev/null || fail "-Tpng.svg is not the SVG: $(head -c 200 ./-Tpng.svg 2>&1)"
run stack graph --format png -- -V
expect_rc 0 "png to a file named -V"
[ "$(head -c 4 ./-V 2>/dev/null | tail -c 3)" = PNG ] || fail "-V is not a PNG"
ls ./-V.dot-* ./-Tpng.svg.dot-* 2>/dev/null && fail "a temporary DOT file was left"
finish
