#!/bin/bash
# minipulumi watch: a first update at start, then one per change of the
# project's files (one at a time), a failing update that does not end the
# watch, a change under node_modules that does not count, and Ctrl-C
# ending it with exit 0.
. "$(dirname "$0")/lib.sh" "$@"
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: random:RandomPet
YAML
run stack init dev

# wait_for TEXT COUNT: waits (up to 120 s, a bound, not a timing check)
# until the watch's output holds TEXT at least COUNT times.
wait_for() {
  local i
  for ((i = 0; i < 2400; i++)); do
    [ "$(grep -c -- "$1" "$T/bg.out" 2>/dev/null)" -ge "$2" ] && return 0
    sleep 0.05
  done
  fail "the watch did not print '$1' $2 time(s): $(cat "$T/bg.out" "$T/bg.err")"
  return 1
}

start_bg watch
wait_for "update succeeded; watching for changes" 1
export_state
check "the first update created a" 'assert "a" in res(), list(res())'

cat >> Pulumi.yaml <<'YAML'
  b:
    type: random:RandomPet
YAML
wait_for "change detected; updating the stack" 1
wait_for "update succeeded; watching for changes" 2
export_state
check "the change's update created b" 'assert "b" in res(), list(res())'

echo "resources: [" >> Pulumi.yaml
wait_for "update failed; watching for changes" 1
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: random:RandomPet
YAML
wait_for "update succeeded; watching for changes" 3
export_state
check "the fixed program's update deleted b" 'assert "b" not in res(), list(res())'

# node_modules is not watched: a write there starts no update (the next
# real change makes exactly one more).
mkdir -p node_modules/x
echo "x" > node_modules/x/file
sleep 1
echo "# a comment" >> Pulumi.yaml
wait_for "update succeeded; watching for changes" 4
[ "$(grep -c "change detected" "$T/bg.out")" -eq 4 ] ||
  fail "a write under node_modules started an update: $(cat "$T/bg.out")"

kill -INT "$BG"
wait_bg
expect_rc 0 "Ctrl-C ends the watch"
expect_out "[watch] stopped" "it says so"
finish
