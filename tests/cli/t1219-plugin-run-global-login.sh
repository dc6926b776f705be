#!/bin/bash
# plugin run (pkg/cmd/pulumi/plugin/plugin_run.go): the newest installed
# plugin of the kind (tool by default), or NAME@VERSION, run with the
# arguments after NAME; its exit status is the command's. The global
# --profiling and --memprofilerate (Go runtime settings) and login
# --insecure and --interactive are accepted without effect, their help
# saying why; --otel-traces is refused, naming --tracing.
. "$(dirname "$0")/lib.sh" "$@"
export PULUMI_HOME="$T/pulumi-home"
C="$PULUMI_HOME/plugins"
for v in 1.0.0 1.2.0; do
  mkdir -p "$C/tool-hello-v$v"
  printf '#!/bin/sh\necho "hello %s: $*"\nexit 3\n' "$v" > "$C/tool-hello-v$v/pulumi-tool-hello"
  chmod +x "$C/tool-hello-v$v/pulumi-tool-hello"
done
mkdir -p "$C/resource-hello-v0.1.0"
printf '#!/bin/sh\necho "resource $*"\n' > "$C/resource-hello-v0.1.0/pulumi-resource-hello"
chmod +x "$C/resource-hello-v0.1.0/pulumi-resource-hello"

run plugin run hello a b
expect_rc 3 "the plugin's exit status"
expect_out "hello 1.2.0: a b" "the newest version, with the arguments"
run plugin run hello@1.0.0 -- --flag x
expect_out "hello 1.0.0: --flag x" "the named version; flags after --"
run plugin run --kind resource hello z
expect_rc 0 "--kind resource"
expect_out "resource z" "the resource plugin"
run plugin run hello@9.9.9
expect_rc 1 "a version not installed"
expect_err "minipulumi plugin install tool hello 9.9.9" "says how to install it"
run plugin run --kind nope hello
expect_rc 1 "an unknown kind"
expect_err "unrecognized plugin kind: nope" "Pulumi's words"
run plugin run
expect_rc 2 "no name"

# global flags
run --profiling prof --memprofilerate 1 version
expect_rc 0 "--profiling, --memprofilerate accepted"
run version --help
expect_out "no effect: Pulumi writes its Go runtime's CPU and memory" "--profiling says why"
run --otel-traces file:///tmp/x version
expect_rc 2 "--otel-traces refused"
expect_err "use --tracing file:PATH" "names the way"

# login
run login --insecure --interactive "file://$T/diy"
expect_rc 0 "login --insecure --interactive"
run login --help
expect_out "no effect: Pulumi's chooses among the Pulumi Cloud" "--interactive says why"
finish
