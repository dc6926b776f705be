#!/bin/bash
# Plugins that fail to start: one that writes a bad port line and keeps
# running, one that exits at once, and one
# that answers Configure with an error. Each is a provider that cannot
# load, not a resource failure: exit status 1 (docs/plugins.md), even
# with --continue-on-error, and the words say what the plugin did, not
# what minipulumi did to it afterwards (it is stopped, not "killed by
# signal 9"). No plugin process is left.
. "$(dirname "$0")/lib.sh" "$@"
mkdir -p "$T/bin"
export PATH="$T/bin:$PATH"
# pulumi-resource-badport: writes a bad port line and waits
cat > "$T/bin/pulumi-resource-badport" <<'SH'
#!/bin/sh
echo "badport: about to wait" >&2
echo "listening on port seven"
exec sleep 300
SH
chmod +x "$T/bin/pulumi-resource-badport"
run stack init dev

program() { # type
  cat > Pulumi.yaml <<YAML
name: proj
runtime: yaml
resources:
  a:
    type: $1
    properties:
      value: aaa
YAML
}

program badport:index:Item
run up -y --skip-preview
expect_rc 1 "a bad port line"
expect_out "could not read plugin [$T/bin/pulumi-resource-badport]: it wrote an invalid port to stdout" "the bad port's words"
expect_out "badport: about to wait" "... with its stderr"
expect_not_out "killed by signal" "... not the engine's own kill"
no_orphans "a bad port line"
run up -y --skip-preview --continue-on-error
expect_rc 1 "a bad port line, --continue-on-error"

expect_out "it wrote an invalid port to stdout; minipulumi stopped it" "... which the engine stopped"

program testprov:index:Item
TESTPROV_START=exit run up -y --skip-preview
expect_rc 1 "a plugin that exits at once"
expect_out "exited with status 3" "... says how it ended"

TESTPROV_CONFIGURE=fail run up -y --skip-preview
expect_rc 1 "a plugin whose Configure fails"
expect_out "testprov: no credentials" "the Configure error"
expect_not_out "killed by signal" "... not the engine's own kill"
TESTPROV_CONFIGURE=fail run up -y --skip-preview --continue-on-error
expect_rc 1 "a plugin whose Configure fails, --continue-on-error"
export_state
grep -q '::a"' "$T/export.json" && fail "a is in the state without its provider"
no_orphans "Configure fails"

run up -y --skip-preview
expect_rc 0 "the next up, with a plugin that works"
finish
