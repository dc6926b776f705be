#!/bin/bash
# Versions from the plugin cache ($PULUMI_HOME/plugins, Pulumi's layout):
# two versions of the test plugin are installed; a program pins each in
# turn and one pins neither. Each resource is served by the version asked
# (the plugin writes its version into the outputs), the default provider is
# named after it, a new major version replaces what the provider manages
# (the plugin's DiffConfig says so) and a new minor one keeps it; a
# version nobody has fails with Pulumi's words and the state intact.
# `plugin ls --json` and `plugin rm` see and remove what is installed.
. "$(dirname "$0")/lib.sh" "$@"
# The plugin on PATH would win over the cache (as in Pulumi): ignore it.
export PULUMI_IGNORE_AMBIENT_PLUGINS=true
export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
export PULUMI_HOME="$T/pulumi-home"

# install VERSION: resource-testprov-v<VERSION>/pulumi-resource-testprov.
install() { testprov_plugin "$1" "$PULUMI_HOME/plugins/resource-testprov-v$1"; }
install 1.0.0
install 1.1.0
install 2.0.0

program() { # version-option-line...
  cat > Pulumi.yaml <<YAML
name: proj
runtime: yaml
outputs:
  a: \${a.servedBy}
resources:
  a:
    type: testprov:index:Item
    properties:
      value: one
    options: {$1}
YAML
  if [ $# -ge 2 ]; then cat >> Pulumi.yaml <<YAML
  b:
    type: testprov:index:Item
    properties:
      value: two
    options: {$2}
YAML
  fi
}

run stack init dev
program "version: 1.0.0"
run up -y --skip-preview
expect_rc 0 "up pinning 1.0.0"
expect_out 'a: "1.0.0"' "1.0.0 serves the resource that pins it"
export_state
check "the state names the version" '
r = res()
p = r["testprov-provider"]
assert p["urn"].endswith("::default_1_0_0"), p["urn"]
assert p["inputs"]["version"] == "1.0.0", p
assert r["a"]["outputs"]["servedBy"] == "1.0.0"
assert "default_1_0_0" in r["a"]["provider"]
open(sys.argv[1] + "/id-a", "w").write(r["a"]["id"])'

program "version: 1.1.0"
run up -y --skip-preview
expect_rc 0 "up pinning 1.1.0"
export_state
check "a new minor version keeps the resource (DiffConfig: no replacement)" '
r = res()
assert r["testprov-provider"]["urn"].endswith("::default_1_1_0")
assert r["a"]["id"] == open(sys.argv[1] + "/id-a").read(), r["a"]
assert "default_1_1_0" in r["a"]["provider"]'

program "version: 2.0.0" "version: 1.0.0"
run up -y --skip-preview
expect_rc 0 "up pinning 2.0.0 and 1.0.0"
expect_out '"1.0.0" => "2.0.0"' "2.0.0 serves the resource that now pins it"
export_state
check "a new major version replaces; each resource its own version" '
r = res()
assert r["a"]["id"] != open(sys.argv[1] + "/id-a").read(), r["a"]
assert r["a"]["outputs"]["servedBy"] == "2.0.0"
assert r["b"]["outputs"]["servedBy"] == "1.0.0"
provs = sorted(x["urn"].split("::")[-1] for x in doc(sys.argv[1] + "/export.json")["deployment"]["resources"] if x["type"] == "pulumi:providers:testprov")
assert provs == ["default_1_0_0", "default_2_0_0"], provs'

program "" ""
run up -y --skip-preview
expect_rc 0 "up pinning nothing"
export_state
check "without a version the newest installed serves" '
r = res()
assert r["testprov-provider"]["urn"].endswith("::default"), r["testprov-provider"]
assert "version" not in r["testprov-provider"].get("inputs", {})
assert r["b"]["outputs"]["servedBy"] == "2.0.0", r["b"]'
cp "$T/export.json" "$T/before.json"

program "version: 3.0.0"
run up -y --skip-preview
expect_rc 1 "up pinning a version nobody has"
expect_out "no resource plugin 'pulumi-resource-testprov' found in the workspace at version v3.0.0 or on your \$PATH (looked for resource-testprov-v3.0.0 in $PULUMI_HOME/plugins and $HOME/.minipulumi/plugins)" "Pulumi's words, the version and where"
export_state
check "the state is intact" '
a = doc(sys.argv[1] + "/before.json")["deployment"]["resources"]
b = doc(sys.argv[1] + "/export.json")["deployment"]["resources"]
assert a == b, (a, b)'

run plugin ls --json
expect_rc 0 "plugin ls --json"
check "plugin ls --json lists the versions, newest first" '
d = doc()
assert [(x["name"], x["kind"], x["version"]) for x in d] == [("testprov", "resource", v) for v in ("2.0.0", "1.1.0", "1.0.0")], d
assert all(x["size"] > 0 and "installTime" in x and "lastUsedTime" in x for x in d), d'
run plugin ls
expect_out "TOTAL plugin cache size:" "plugin ls's table"
run plugin rm resource testprov 1.1.0 --yes
expect_rc 0 "plugin rm of one version"
expect_out "removed: resource testprov-1.1.0" "Pulumi's words"
[ -e "$PULUMI_HOME/plugins/resource-testprov-v1.1.0" ] && fail "1.1.0 is still there"
[ -e "$PULUMI_HOME/plugins/resource-testprov-v2.0.0" ] || fail "2.0.0 went too"
run plugin rm resource nothing --yes
expect_out "no plugins found to uninstall" "nothing to remove"
run plugin rm
expect_rc 2 "plugin rm with nothing named"
expect_err "please pass --all if you'd like to remove all plugins" "Pulumi's words"
run plugin rm --all --yes
expect_out "removed: resource testprov-2.0.0" "--all removes the rest"
run plugin ls --json
check "nothing is left" 'assert doc() == [], out'
no_orphans "the end"
finish
