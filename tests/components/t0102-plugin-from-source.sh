#!/usr/bin/env bash
# A component provider run from source: plugin-src holds PulumiPlugin.yaml
# (runtime: nodejs) and is named in Pulumi.yaml's `packages` (as `pulumi
# package add ./folder` writes it), then in `plugins.providers`; the
# engine runs it with node and the SDK's run-plugin entry point (as
# Pulumi's Node.js language host's RunPlugin does). No
# pulumi-resource-petcomp is on PATH, so only the folder can serve the
# component. No plugin process is left.
. "$(dirname "$0")/lib.sh" "$@"
export PATH="${PATH#"$COMP_DIR/provider:"}"
command -v pulumi-resource-petcomp >/dev/null &&
  fail "pulumi-resource-petcomp must not be on PATH for this test"
program consumer
cat >> Pulumi.yaml <<YAML
packages:
  petcomp: $COMP_DIR/plugin-src
YAML
run stack init dev
expect_rc 0 "stack init"

run up --yes
expect_rc 0 "up with the component provider from source (packages)"
expect_out "+ 4 created" "the component and its two children are created"
run stack output message
expect_out "hello from pet" "the method (Call) is served by the plugin from source"

cat > Pulumi.yaml <<YAML
name: consumer
runtime: nodejs
plugins:
  providers:
    - name: petcomp
      path: $COMP_DIR/plugin-src
YAML
run destroy --yes
expect_rc 0 "destroy with the component provider from source (plugins.providers)"
expect_out "- 4 deleted" "destroy deletes the component, its children and the stack"
no_orphans "after destroy"

# A folder whose runtime is not nodejs is refused, naming the folder.
mkdir -p "$T/pyplugin"
echo "runtime: python" > "$T/pyplugin/PulumiPlugin.yaml"
sed -i "s|path: .*|path: $T/pyplugin|" Pulumi.yaml
run preview
[ "$RC" -ne 0 ] || fail "a python plugin folder fails the preview"
case "$OUT$ERR" in *"runtime 'python' is not supported"*) ;; *) fail "the error names the runtime: $OUT $ERR" ;; esac
finish
