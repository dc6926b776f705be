#!/bin/bash
# No stack selected, on a terminal: Pulumi's menu "Please choose a stack,
# or create a new one:" (the stacks sorted, then "<create a new stack>"),
# driven with the arrow keys on a pseudo-terminal; the stack chosen or
# created is selected. destroy chooses among the existing stacks only.
# Without a terminal it is still the error naming `stack select`.
. "$(dirname "$0")/lib.sh" "$@"
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
HINT="[Use arrows to move, type to filter]"
DOWN=$'\x1b[B'
strip() { python3 -c 'import re,sys; print(re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", sys.stdin.read()))'; }
run stack init prod
run stack init dev
run stack unselect
run up --yes
expect_rc 1 "no terminal: still an error"
expect_err "no stack selected" "the error without a terminal"

# up: down to prod, then yes on the confirmation
run_tty 60 "$DOWN,yes" "$HINT" up
expect_rc 0 "up after choosing prod"
PLAIN=$(printf '%s' "$OUT" | strip)
case "$PLAIN" in *"Please choose a stack, or create a new one:  $HINT"*"> dev"*"  prod"*"  <create a new stack>"*) ;;
  *) fail "the menu of stacks, sorted, then <create a new stack>: $PLAIN" ;; esac
expect_out "Please choose a stack, or create a new one: prod" "prod chosen"
expect_out "Updating (prod)" "the update ran on prod"
run stack --show-name
[ "$OUT" = prod ] || fail "prod is now selected: $OUT"

# preview: <create a new stack>, then its name
run stack unselect
run_tty 60 "$DOWN$DOWN,qa" "Please" preview
expect_rc 0 "preview on a new stack"
expect_out "Please enter your desired stack name:" "the name is asked"
expect_out "Created stack 'qa'" "the stack is created"
expect_out "Previewing update (qa)" "the preview ran on qa"
run stack --show-name
[ "$OUT" = qa ] || fail "qa is now selected: $OUT"

# destroy: the existing stacks only; Ctrl-C gives up
run stack unselect
run_tty 30 $'\x03' "$HINT" destroy
expect_rc 1 "Ctrl-C in the stack menu"
expect_out "Please choose a stack:  $HINT" "destroy's menu"
expect_not_out "<create a new stack>" "destroy offers no new stack"
finish
