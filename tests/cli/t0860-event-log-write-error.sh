#!/bin/bash
# issue 49 (9): an event log that cannot be written (/dev/full: every
# write fails with ENOSPC) fails the command with a clear error, though
# the update itself goes through and its state is saved.
. "$(dirname "$0")/lib.sh" "$@"
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  pet:
    type: random:RandomPet
outputs:
  petName: ${pet.id}
YAML
run stack init dev
expect_rc 0 "stack init"

run up --yes --event-log /dev/full
expect_rc 1 "up with an unwritable event log"
expect_err "cannot write the event log '/dev/full': No space left on device" "the write error"
run stack output petName
expect_rc 0 "the update's state is saved"
[ -n "$OUT" ] || fail "the pet is in the state"
run stack history --json
expect_out '"result": "succeeded"' "the update is in the history"

# preview, --json on stdout and the log: the same error
run preview --json --event-log /dev/full
expect_rc 1 "preview --json with an unwritable event log"
expect_err "cannot write the event log" "preview's write error"

# a log that can be written is no error
run up --yes --event-log "$T/events.jsonl"
expect_rc 0 "up with a writable event log"
[ "$(grep -c '"sequence"' "$T/events.jsonl")" -gt 3 ] || fail "event log written"
finish
