#!/bin/bash
# issue 49 (14): `stack ls` on a DIY folder where one stack's checkpoint
# is corrupt fails with the error naming that checkpoint, as Pulumi's
# diy ListStacks returns the checkpoint's read error (exit 1), instead of
# leaving the stack out with exit 0. `stack` (the current stack's view)
# still works.
. "$(dirname "$0")/lib.sh" "$@"
mkdir -p "$T/state"
export MINIPULUMI_BACKEND_URL="file://$T/state"
for s in a b c; do
  run stack init $s
  expect_rc 0 "stack init $s"
done
run stack ls
expect_rc 0 "stack ls, all readable"
expect_out "b" "b listed"
echo '{not json' >"$T/state/.pulumi/stacks/proj/b.json"
run stack ls
expect_rc 1 "stack ls with b corrupt"
expect_err "stacks/proj/b.json' is not JSON" "the corrupt checkpoint named"
run stack ls --json
expect_rc 1 "stack ls --json with b corrupt"
expect_err "stacks/proj/b.json' is not JSON" "the corrupt checkpoint named (--json)"
run stack ls --all
expect_rc 1 "stack ls --all with b corrupt"
# the selected stack (c) still shows
run stack
expect_rc 0 "stack view of c"
expect_out "Current stack is c" "stack view"
# repaired from its backup, it is listed again
cp "$T/state/.pulumi/stacks/proj/b.json.bak" "$T/state/.pulumi/stacks/proj/b.json"
run stack ls
expect_rc 0 "stack ls once repaired"
expect_out "b " "b listed again"
finish
