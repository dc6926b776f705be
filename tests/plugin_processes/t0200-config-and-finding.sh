#!/bin/bash
# Provider configuration and where plugins come from: an explicit provider
# whose config changes (the plugin has no DiffConfig: the engine decides,
# an update in place); Pulumi.yaml's plugins.providers naming a plugin for
# a package, even a built-in one; a plugin that takes no secrets (they are
# stripped on the way in and the outputs marked secret again); a package
# that no plugin serves fails with Pulumi's words and the state intact.
. "$(dirname "$0")/lib.sh" "$@"
mkdir -p plugs
cat > plugs/pulumi-resource-random <<EOF2
#!/bin/sh
exec node "$PLUGINS_DIR/testprov.js" "\$@"
EOF2
chmod +x plugs/pulumi-resource-random

program() { # region
  cat > Pulumi.yaml <<YAML
name: proj
runtime: yaml
plugins:
  providers:
    - name: random
      path: ./plugs
config:
  tok:
    type: string
outputs:
  seen: \${c.secretSeen}
  sec: \${c.secret}
  rseen: \${r.secretSeen}
resources:
  prov:
    type: pulumi:providers:testprov
    properties:
      region: $1
  c:
    type: testprov:index:Item
    properties:
      value: sea
      secret: \${tok}
    options:
      provider: \${prov}
  r:
    type: random:index/randomString:RandomString
    properties:
      value: served by the project's plugin
YAML
}

program r1
run stack init dev
run config set --secret tok s3cr3t
TESTPROV_NO_SECRETS=1 run up -y --skip-preview
expect_rc 0 "up with an explicit provider"
expect_out 'seen : "plain"' "a plugin without acceptSecrets gets the plain value"
expect_out "sec  : [secret]" "... and the output is marked secret again"
expect_out 'rseen: "none"' "the package named in plugins.providers is served by that plugin, not the built-in"
export_state
grep -q s3cr3t "$T/export.json" && fail "the secret output is in plain text in the state"
grep -q '"region": "r1"' "$T/export.json" || fail "the provider's config is in the state"

program r2
run up -y --skip-preview
expect_rc 0 "up with a changed provider config"
expect_out "~ 1 updated" "the provider is updated in place (DiffConfig unimplemented: the engine compares)"
expect_out "3 unchanged" "its resource is unchanged"
export_state
grep -q '"region": "r2"' "$T/export.json" || fail "the new config is in the state"

# a package no plugin serves: its default provider cannot load, which
# ends the update as in Pulumi (a provider's Check failing is not a
# resource failure), with Pulumi's words; the state is left as it was
cp Pulumi.yaml Pulumi.good
cat >> Pulumi.yaml <<'YAML'
  n:
    type: nope:index:Thing
    properties: {}
  d:
    type: testprov:index:Item
    properties:
      value: independent
YAML
run up -y --skip-preview --continue-on-error
expect_rc 1 "up with a package that no plugin serves"
expect_out "no resource plugin 'pulumi-resource-nope' found in the workspace or on your \$PATH" "Pulumi's words"
export_state
grep -q '::c"' "$T/export.json" || fail "the state still has c"
grep -q 'nope' "$T/export.json" && fail "nothing of the unserved package is in the state"
mv Pulumi.good Pulumi.yaml
run up -y --skip-preview
expect_rc 0 "without it, up converges"
no_orphans "after the runs"
finish
