#!/bin/bash
# Help pages and the errors around a run's start: a list flag says
# "(repeatable)" once; `-h, --help` sits in the flags' column; --backend's
# help and an unknown backend URL's error list every kind of URL; the
# Cloud-only commands name file:// among the backends; an error that stops
# a run before it starts is not printed under an "Updating (dev)" header.
. "$(dirname "$0")/lib.sh" "$@"

for c in "new" "watch" "config set-all" "up" "stack init"; do
  run $c --help
  expect_rc 0 "$c --help"
  case "$OUT" in *"(repeatable) (repeatable)"*) fail "$c --help: (repeatable) twice" ;; esac
  # the -h row's text starts where the other flags' texts do
  col() { printf '%s\n' "$OUT" | awk -v t="$1" 'i = index($0, t) { print i; exit }'; }
  [ "$(col "help for this command")" = "$(col "the stack to operate on")" ] ||
    fail "$c --help: -h's text at column $(col "help for this command"), the flags' at $(col "the stack to operate on")"
  expect_out "  -h, --help                       help for this command" "$c --help: the -h row"
done
run new --help
expect_out "Config to save (repeatable)" "new --config says repeatable once"

# --backend's help names every kind of state store URL
run up --help
for u in "sqlite://" "file://" "postgres://" "postgresql://"; do
  expect_out "$u" "--backend's help names $u"
done
# as does the error for an unknown one
run --backend bogus://x stack ls
expect_rc 1 "an unknown backend URL"
for u in "sqlite://" "file://" "postgres://" "postgresql://"; do
  expect_err "$u" "the unknown URL's error names $u"
done

# Cloud-only commands name every backend minipulumi keeps state in
run org
expect_rc 2 "org"
expect_err "a file:// folder" "org names file://"
run org --help
expect_out "a file:// folder" "org --help names file://"

# no header over an error that stops the run before it starts
run stack init dev
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  pet:
    type: random:RandomPet
YAML
PULUMI_CONFIG_PASSPHRASE=wrong run up -y
expect_rc 2 "up with a wrong passphrase"
expect_err "incorrect passphrase" "the passphrase error"
expect_not_out "Updating (dev)" "no Updating header before the passphrase error"
expect_not_out "Previewing update" "no Previewing header before the passphrase error"
PULUMI_CONFIG_PASSPHRASE=wrong run destroy -y
expect_not_out "Destroying (dev)" "no Destroying header before the passphrase error"
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: python
YAML
run preview
expect_err "runtime of project 'proj' is not supported" "an unsupported runtime"
expect_not_out "Previewing update" "no header before the runtime error"
# a run that starts still has its header
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  pet:
    type: random:RandomPet
YAML
run up -y
expect_rc 0 "up"
expect_out "Updating (dev)" "the header of a run that starts"
finish
