#!/bin/bash
# Acquisition before the deployment starts, as Pulumi's engine does with
# the language host's required plugins: a YAML program's resources
# (options.version and pluginDownloadURL, an explicit provider's too) and
# a Node.js program's packages (a package.json under node_modules whose
# `pulumi` section says `resource: true`) get their missing plugins
# downloaded and installed, with Pulumi's "Downloading plugin" and
# "Installing plugin" lines, before the preview's header and any step;
# PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION turns it off, and the
# missing plugin then fails the update in Pulumi's words, the state intact.
. "$(dirname "$0")/lib.sh" "$@"
. "$PLUGINS_DIR/lib_http.sh"
export PULUMI_IGNORE_AMBIENT_PLUGINS=true
export PULUMI_HOME="$T/pulumi-home"
CACHE="$PULUMI_HOME/plugins"
for v in 1.0.0 3.0.0 4.0.0; do tarball $v "$T/www/dl"; done
tarball 2.0.0 "$T/www/npm"
downloads() { grep -c "GET /$1" "$T/http.log"; }
# before FIRST SECOND: FIRST comes before SECOND in the last run's stdout.
before() {
  local a b
  a=$(grep -nF -- "$1" "$T/out" | head -1 | cut -d: -f1)
  b=$(grep -nF -- "$2" "$T/out" | head -1 | cut -d: -f1)
  [ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ] ||
    fail "'$1' (line $a) comes before '$2' (line $b): $OUT"
}

cat > Pulumi.yaml <<YAML
name: proj
runtime: yaml
outputs:
  a: \${a.servedBy}
  b: \${b.servedBy}
resources:
  a:
    type: testprov:index:Item
    properties:
      value: one
    options: {version: 1.0.0, pluginDownloadURL: "$URL/dl"}
  p:
    type: pulumi:providers:testprov
    options: {version: 3.0.0, pluginDownloadURL: "$URL/dl"}
  b:
    type: testprov:index:Item
    properties:
      value: two
    options:
      provider: \${p}
YAML
run stack init dev
run up -y
expect_rc 0 "up acquiring two versions before it starts"
expect_out "Downloading plugin testprov-1.0.0 from $URL/dl/pulumi-resource-testprov-v1.0.0-$PLATFORM.tar.gz" "the resource's version, from its pluginDownloadURL"
expect_out "Installing plugin testprov-1.0.0" "Pulumi's install line"
expect_out "Downloading plugin testprov-3.0.0 from $URL/dl/" "the explicit provider's version"
expect_out "Installing plugin testprov-3.0.0" "installed"
before "Installing plugin testprov-1.0.0" "Previewing update (dev)"
before "Installing plugin testprov-3.0.0" "Previewing update (dev)"
expect_out 'a: "1.0.0"' "1.0.0 serves a"
expect_out 'b: "3.0.0"' "3.0.0 serves b"
case "$ERR" in *"[resource plugin"*) fail "nothing was left to the provider's load: $ERR" ;; esac
[ "$(downloads dl/pulumi-resource-testprov-v1.0.0)" = 1 ] || fail "1.0.0 was downloaded once: $(cat "$T/http.log")"
[ "$(downloads dl/pulumi-resource-testprov-v3.0.0)" = 1 ] || fail "3.0.0 was downloaded once"
[ "$(downloads dl/pulumi-resource-testprov-v4.0.0)" = 0 ] || fail "4.0.0 was not asked for"
for v in 1.0.0 3.0.0; do
  [ -x "$CACHE/resource-testprov-v$v/pulumi-resource-testprov" ] || fail "$v is in the cache"
done
run up -y
expect_rc 0 "the next up"
expect_not_out "Downloading plugin" "what is installed is not fetched again"

# Turned off: nothing is fetched, the update fails as Pulumi's does and
# the state keeps what it had.
export_state
cp "$T/export.json" "$T/before.json"
sed -i 's/version: 1.0.0,/version: 4.0.0,/' Pulumi.yaml
PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=1 run up -y --skip-preview
expect_rc 1 "acquisition turned off"
expect_out "no resource plugin 'pulumi-resource-testprov' found in the workspace at version v4.0.0" "Pulumi's words"
expect_not_out "Downloading plugin" "no download line"
[ "$(downloads dl/pulumi-resource-testprov-v4.0.0)" = 0 ] || fail "nothing was downloaded"
[ -e "$CACHE/resource-testprov-v4.0.0" ] && fail "nothing was installed"
export_state
check "the state is intact" '
a = doc(sys.argv[1] + "/before.json")["deployment"]["resources"]
b = doc(sys.argv[1] + "/export.json")["deployment"]["resources"]
assert a == b, (a, b)'

# A Node.js program: its packages say which plugin they need.
mkdir -p "$T/node/node_modules/@pulumi/testprov"
ln -s "$PLUGINS_DIR/node_modules/@pulumi/pulumi" "$T/node/node_modules/@pulumi/pulumi"
cat > "$T/node/node_modules/@pulumi/testprov/package.json" <<JSON
{"name": "@pulumi/testprov", "version": "2.0.0",
 "pulumi": {"resource": true, "server": "$URL/npm"}}
JSON
cd "$T/node" || exit 1
cat > Pulumi.yaml <<'YAML'
name: nodeproj
runtime: nodejs
YAML
cat > package.json <<'JSON'
{"name": "nodeproj", "main": "index.js"}
JSON
cat > index.js <<'JS'
const pulumi = require("@pulumi/pulumi");
const a = new pulumi.CustomResource("testprov:index:Item", "a",
  { value: "one", servedBy: undefined }, { version: "2.0.0" });
exports.by = a.servedBy;
JS
run stack init dev
run up -y
expect_rc 0 "up of the Node.js program"
expect_out "Downloading plugin testprov-2.0.0 from $URL/npm/pulumi-resource-testprov-v2.0.0-$PLATFORM.tar.gz" "the package's plugin, from its server"
before "Installing plugin testprov-2.0.0" "Previewing update (dev)"
expect_out 'by: "2.0.0"' "2.0.0 serves the program"
[ "$(downloads npm/pulumi-resource-testprov-v2.0.0)" = 1 ] || fail "2.0.0 was downloaded once"
no_orphans "the end"
finish
