#!/bin/bash
# config set/get/rm and listing, kept in Pulumi.<stack>.yaml as Pulumi does.
. "$(dirname "$0")/lib.sh" "$@"

run stack init dev
run config
expect_rc 0 "empty list"
expect_out "KEY" "header"
run config set region us-west-2
expect_rc 0 "set"
run config set aws:region eu-central-1
expect_rc 0 "set with a namespace"
run config set port 8080
run config set flag true
expect_file Pulumi.dev.yaml "config:" "config mapping"
expect_file Pulumi.dev.yaml "  proj:region: us-west-2" "project prefix"
expect_file Pulumi.dev.yaml "  aws:region: eu-central-1" "namespace kept"
expect_file Pulumi.dev.yaml '  proj:port: "8080"' "numbers quoted to stay strings"
expect_file Pulumi.dev.yaml '  proj:flag: "true"' "booleans quoted to stay strings"
run config get region
expect_rc 0 "get"
[ "$OUT" = "us-west-2" ] || fail "get prints the raw value: $OUT"
run config get proj:region
[ "$OUT" = "us-west-2" ] || fail "get with the prefix: $OUT"
run config get aws:region --json
expect_out '"value": "eu-central-1"' "get --json"
expect_out '"secret": false' "get --json"
run config
expect_out "region      us-west-2" "list strips the project prefix"
expect_out "aws:region  eu-central-1" "list keeps other namespaces"
run config --json
expect_out '"proj:region": {' "list --json"
run config get missing
expect_rc 1 "missing key"
expect_err "configuration key 'missing' not found for stack 'dev'" "missing key"
run config rm region
expect_rc 0 "rm"
run config get region
expect_rc 1 "removed"
grep -q "proj:region" Pulumi.dev.yaml && fail "rm rewrote the file"
run config set bad: x
expect_rc 2 "bad key"
# value from standard input
printf 'from-stdin\n' | "$M" config set piped >/dev/null 2>&1 || fail "set from stdin"
run config get piped
[ "$OUT" = "from-stdin" ] || fail "stdin value: $OUT"
# hand-written files are read; unknown top-level keys survive a rewrite
cat > Pulumi.dev.yaml <<'YAML'
# a comment
environment:
  - shared
config:
  proj:name: "quoted"
  proj:list:
    - a
    - b
YAML
run config get name
[ "$OUT" = "quoted" ] || fail "hand-written value: $OUT"
run config get list
[ "$OUT" = '["a","b"]' ] || fail "list value: $OUT"
run config set other x
expect_file Pulumi.dev.yaml "environment:" "unknown keys kept"
expect_file Pulumi.dev.yaml "- shared" "unknown keys kept"
echo 'config: [' > Pulumi.dev.yaml
run config
expect_rc 2 "malformed file"
expect_err "Pulumi.dev.yaml" "malformed file named"
finish
