#!/bin/bash
# fn::invoke through the engine: `command:local:run` (pulumi-command's
# function) runs in preview and up, its stdout feeds a resource; an
# unknown function fails with Pulumi's text and a file:line:col.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh" "$@"
export PULUMI_CONFIG_PASSPHRASE=pp
mkdir -p "$T/inv" && cd "$T/inv"
cat > Pulumi.yaml <<'YAML'
name: inv
runtime: yaml
variables:
  greeting:
    fn::invoke:
      function: command:local:run
      arguments:
        command: printf 'hi %s' "$WHO"
        environment:
          WHO: invoke
      return: stdout
resources:
  f:
    type: local:File
    properties:
      path: ${pulumi.cwd}/out.txt
      content: ${greeting}
outputs:
  greeting: ${greeting}
YAML
run stack init dev
run preview
expect_rc 0 "preview with an invoke"
[ -e out.txt ] && fail "preview wrote the file"
run up -y
expect_rc 0 "up with an invoke"
expect_out 'greeting: "hi invoke"' "the invoke's stdout is an output"
[ "$(cat out.txt)" = "hi invoke" ] || fail "out.txt: $(cat out.txt)"

cat > Pulumi.yaml <<'YAML'
name: inv
runtime: yaml
variables:
  nope:
    fn::invoke:
      function: command:local:nothing
      arguments: {}
outputs:
  x: ${nope}
YAML
run up -y
[ "$RC" -ne 0 ] || fail "an unknown function must fail"
expect_out 'unknown function command:local:nothing' "Pulumi's text for an unknown function"
expect_out "no 'command' plugin is installed to serve it; install it with" "what to do when the package's plugin has it"
expect_out 'Pulumi.yaml:' "the failure names the file"
finish
