#!/bin/bash
# A type that a built-in provider does not implement goes on to the
# package's plugin (the first hour, 10): the built-in `command` serves
# command:local:Command, and a command:remote:Command of the same program
# is served by the `command` plugin (here the test plugin under that
# name), started on first use with the provider's configuration, through
# up, refresh and destroy. Without the plugin, the error names the type
# and the command that installs it.
. "$(dirname "$0")/lib.sh" "$@"
export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  here:
    type: command:local:Command
    properties:
      create: echo local
  there:
    type: command:remote:Command
    properties:
      value: remote
outputs:
  local: ${here.stdout}
  remote: ${there.length}
YAML
run stack init dev
run up --yes
expect_rc 1 "without the plugin"
expect_out "'command:remote:Command' is not implemented by minipulumi's built-in 'command' provider, and no 'command' plugin is installed to serve it; install it with \`minipulumi plugin install resource command\`" "the error names the type and what to do"
[ "$(world_count)" = 0 ] || fail "a resource was made without the plugin"

mkdir -p "$T/bin"
printf '#!/bin/sh\nexec node "%s/testprov.js" "$@"\n' "$PLUGINS_DIR" \
  >"$T/bin/pulumi-resource-command"
chmod +x "$T/bin/pulumi-resource-command"
export PATH="$T/bin:$PATH"
run up --yes
expect_rc 0 "with the plugin"
expect_out "testprov: creating there" "the plugin made the remote command"
run stack output --json
check "both outputs" 'o = doc(); assert o == {"local": "local", "remote": 6}, o'
[ "$(world_count)" = 1 ] || fail "the plugin holds $(world_count) resources, not 1"
run refresh --yes
expect_rc 0 "refresh of both"
run destroy --yes
expect_rc 0 "destroy"
[ "$(world_count)" = 0 ] || fail "the plugin's resource was not deleted"
no_orphans "after destroy"
finish
