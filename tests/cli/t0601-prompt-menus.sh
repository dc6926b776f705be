#!/bin/bash
# Pulumi's prompts on a terminal are arrow-key menus (the survey library's
# Select): the yes / no / details confirmation starts on "no", the arrows
# move, Enter chooses, typing filters, and the question is left with its
# answer. Driven on a pseudo-terminal with the keys a user presses.
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
P="Do you want to perform this update?"
HINT="[Use arrows to move, type to filter]"
DOWN=$'\x1b[B'
UP=$'\x1b[A'
run stack init dev
strip() { python3 -c 'import re,sys; print(re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", sys.stdin.read()))'; }

# Enter alone takes the focus: "no", Pulumi's default
run_tty 30 "" "$HINT" up
expect_rc 1 "Enter on the default"
PLAIN=$(printf '%s' "$OUT" | strip)
case "$PLAIN" in *"$P  $HINT"*"> no"*) ;; *) fail "the menu with the focus on no: $PLAIN" ;; esac
case "$PLAIN" in *"  yes"*"  details"*) ;; *) fail "the three options: $PLAIN" ;; esac
expect_out "$P no" "the answer left after the question"
expect_out "confirmation declined" "no declines"

# down to details (its diff, the menu again on "no"), then up to yes
run_tty 40 "$DOWN,$UP" "$HINT" up
expect_rc 0 "details then yes with the arrows"
PLAIN=$(printf '%s' "$OUT" | strip)
case "$PLAIN" in *"$P details"*"+ test:index:Resource: (create)"*"$P yes"*"Updating (dev)"*) ;;
  *) fail "details, then yes, then the update: $PLAIN" ;; esac
[ "$(ls "$MINIPULUMI_TEST_WORLD"/id-*.json | wc -l)" = 1 ] || fail "the resource was made"

# typing filters: "de" leaves details alone
sed -i 's/v: 1/v: 2/' Pulumi.yaml
run_tty 40 "de,ye" "$HINT" up
expect_rc 0 "typed filters"
expect_out "$P details" "de chose details"
expect_out "$P yes" "ye chose yes"

# Ctrl-C in the menu cancels, and the terminal is given back
run_tty 30 $'\x03' "$HINT" destroy
expect_rc 1 "Ctrl-C in the menu"
expect_out "confirmation declined" "Ctrl-C declines"
finish
