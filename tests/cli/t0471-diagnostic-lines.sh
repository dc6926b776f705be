#!/bin/bash
# The Diagnostics section, as Pulumi's display prints it: each line of a
# multi-line diagnostic indented as the first (which carries the
# severity), each resource's diagnostics under one header.
. "$(dirname "$0")/lib.sh" "$@"
cat > Pulumi.yaml <<'Y'
name: proj
runtime: yaml
resources:
  c:
    type: command:local:Command
    properties:
      create: "echo line-a >&2; echo line-b >&2; exit 3"
Y
run stack init dev
run up --yes --skip-preview
[ "$RC" != 0 ] || fail "a failing command did not fail the update"
check "continuation lines indented as the first, one header" '
sec = out.split("Diagnostics:\n")[1].split("\n\n")[0].split("\n")
assert sec == [
    "  command:local:Command (c):",
    "    error: command exited with status 3: line-a",
    "    line-b"], sec
assert out.count("  pulumi:pulumi:Stack (proj-dev):") == 1, out
'
finish
