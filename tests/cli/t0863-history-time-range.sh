#!/bin/bash
# issue 49 (13): a DIY history file whose times or counts no 64-bit
# integer holds (startTime 1e300: the cast was undefined behaviour), or
# whose time gmtime cannot show (year past 9999), is refused by name, as
# Pulumi's getHistory refuses it ("reading history file ..."), instead of
# printing garbage.
. "$(dirname "$0")/lib.sh" "$@"
mkdir -p "$T/state"
export MINIPULUMI_BACKEND_URL="file://$T/state"
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
outputs:
  x: 1
YAML
run stack init dev
run up --yes
expect_rc 0 "up"
h=$(ls "$T"/state/.pulumi/history/proj/dev/*.history.json)
[ -f "$h" ] || fail "no history file: $h"
cp "$h" "$T/good.json"
run stack history --json
expect_rc 0 "history of a good file"

# set KEY VALUE: the history file with KEY (a dotted path) set to the
# raw JSON number VALUE
set_field() {
  python3 - "$T/good.json" "$h" "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
keys = sys.argv[3].split(".")
o = d
for k in keys[:-1]:
    o = o.setdefault(k, {})
o[keys[-1]] = "@@"
open(sys.argv[2], "w").write(json.dumps(d).replace('"@@"', sys.argv[4]))
PY
}

for case in "startTime 1e300 not a whole number" "endTime -1e300 not a whole number" \
            "startTime 1.5 not a whole number" \
            "startTime 100000000000000000 out of range" \
            "resourceChanges.create 1e19 not a whole number"; do
  set -- $case
  set_field "$1" "$2"
  key=${1##*.}
  for fmt in --json ""; do
    run stack history $fmt
    expect_rc 1 "history $fmt with $1 $2"
    expect_err "reading history file '$h': $key" "the file and field named ($1 $2)"
    expect_err "$3 $4" "what is wrong ($1 $2)"
  done
done
# a year before 1000 (found by fuzz_diy_history): four digits, as RFC
# 3339 and Go's time.Format write it, not "537-05-03T..."
set_field startTime -45210451021
run stack history --json
expect_rc 0 "history with a start in the year 537"
expect_out '"startTime": "0537-05-03T21:22:59Z"' "a year of three digits in four"
cp "$T/good.json" "$h"
run stack history
expect_rc 0 "history once repaired"
finish
