#!/bin/bash
# destroy --run-program tells the program what the destroy is: Pulumi's
# DestroyV2 (pkg/engine/destroy.go) runs the update source with the
# operation's own DryRun, which newUpdateSource hands to the eval source
# (EvalSourceOptions.DryRun, the RunRequest's dryRun). So the destroy's
# preview runs the program as a preview and the destroy itself does not.
. "$(dirname "$0")/lib.sh" "$@"
node_program refreshprog
run stack init dev
run up --yes --skip-preview
expect_rc 0 "up"

export REFRESHPROG_RUNS="$T/runs.txt"
run destroy --run-program --yes
expect_rc 0 "destroy --run-program --yes"
runs=$(cat "$REFRESHPROG_RUNS")
want=$(printf 'v1 dryRun=true\nv1 dryRun=false')
[ "$runs" = "$want" ] || fail "the program's runs were: $runs (want the preview's, then the destroy's, not a preview)"
expect_out "deleted" "the stack's resources are deleted"

unset REFRESHPROG_RUNS
run up --yes --skip-preview
expect_rc 0 "up again"
export REFRESHPROG_RUNS="$T/runs2.txt"
run destroy --run-program --yes --skip-preview
expect_rc 0 "destroy --run-program --skip-preview"
runs=$(cat "$REFRESHPROG_RUNS")
[ "$runs" = "v1 dryRun=false" ] || fail "the program's runs were: $runs (want one, not a preview)"

# preview of the destroy alone (destroy --preview-only): a preview.
unset REFRESHPROG_RUNS
run up --yes --skip-preview
expect_rc 0 "up a third time"
export REFRESHPROG_RUNS="$T/runs3.txt"
run destroy --run-program --preview-only
expect_rc 0 "destroy --run-program --preview-only"
runs=$(cat "$REFRESHPROG_RUNS")
[ "$runs" = "v1 dryRun=true" ] || fail "the program's runs were: $runs (want one preview)"
finish
