#!/bin/bash
# Acquisition on `up`: a program that pins a version nobody installed gets
# it downloaded (from its pluginDownloadURL, or the default location after
# PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES) and installed into the cache before
# the deployment starts (t1000 has more of that), with progress messages;
# a failed download is tried again when the provider loads, which reports
# it; two `up`s acquiring the
# same plugin at once both succeed and leave one whole plugin;
# PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION turns it off; a version the
# server lacks fails with Pulumi's words and the state intact. The server
# is python3's http.server on 127.0.0.1.
. "$(dirname "$0")/lib.sh" "$@"
. "$PLUGINS_DIR/lib_http.sh"
export PULUMI_IGNORE_AMBIENT_PLUGINS=true
export PULUMI_HOME="$T/pulumi-home"
CACHE="$PULUMI_HOME/plugins"
for v in 1.0.0 2.0.0; do tarball $v "$T/www/dl"; done
tarball 4.0.0 "$T/www/mirror/pulumi-testprov"

program() { # options
  cat > Pulumi.yaml <<YAML
name: proj
runtime: yaml
outputs:
  by: \${a.servedBy}
resources:
  a:
    type: testprov:index:Item
    properties:
      value: one
    options: {$1}
YAML
}
downloads() { grep -c "GET /$1" "$T/http.log"; }

run stack init dev
program "version: 1.0.0, pluginDownloadURL: '$URL/dl'"
run up -y --skip-preview
expect_rc 0 "up acquiring 1.0.0"
expect_out 'by: "1.0.0"' "the acquired plugin serves"
expect_out "Installing plugin testprov-1.0.0" "progress: what is installed"
expect_out "Downloading plugin testprov-1.0.0 from $URL/dl/pulumi-resource-testprov-v1.0.0-$PLATFORM.tar.gz" "progress: from where"
[ -x "$CACHE/resource-testprov-v1.0.0/pulumi-resource-testprov" ] || fail "1.0.0 is in the cache"
export_state
check "the default provider records where its plugin comes from" '
p = res()["testprov-provider"]
assert p["inputs"]["__internal"]["pluginDownloadURL"].endswith("/dl"), p
assert "pluginDownloadURL" not in p["outputs"], p
assert p["inputs"]["version"] == "1.0.0", p'
run up -y --skip-preview
expect_rc 0 "the next up"
expect_not_out "Installing plugin" "an installed plugin is not acquired again"
[ "$(downloads dl/pulumi-resource-testprov-v1.0.0)" = 1 ] || fail "1.0.0 was downloaded once: $(cat "$T/http.log")"

program "version: 2.0.0, pluginDownloadURL: '$URL/dl'"
PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true run up -y --skip-preview
expect_rc 1 "acquisition turned off"
expect_out "no resource plugin 'pulumi-resource-testprov' found in the workspace at version v2.0.0" "Pulumi's words"
[ "$(downloads dl/pulumi-resource-testprov-v2.0.0)" = 0 ] || fail "nothing was downloaded"

export_state
cp "$T/export.json" "$T/before.json"
program "version: 3.0.0, pluginDownloadURL: '$URL/dl'"
run up -y --skip-preview
expect_rc 1 "a version the server lacks"
expect_out "Could not automatically download and install resource plugin 'pulumi-resource-testprov' at version v3.0.0, install the plugin using \`pulumi plugin install resource testprov v3.0.0 --server $URL/dl\`" "Pulumi's words"
expect_out "404 HTTP error fetching plugin from $URL/dl/pulumi-resource-testprov-v3.0.0-$PLATFORM.tar.gz" "and why"
export_state
check "the state is intact" '
a = doc(sys.argv[1] + "/before.json")["deployment"]["resources"]
b = doc(sys.argv[1] + "/export.json")["deployment"]["resources"]
assert a == b, (a, b)'

# Two ups at once, each needing 2.0.0.
program "version: 2.0.0, pluginDownloadURL: '$URL/dl'"
run stack init a
run stack init b
"$M" up -s a -y --skip-preview </dev/null >"$T/a.out" 2>"$T/a.err" &
pa=$!
"$M" up -s b -y --skip-preview </dev/null >"$T/b.out" 2>"$T/b.err" &
pb=$!
wait $pa || fail "the first concurrent up: $(cat "$T/a.out" "$T/a.err")"
wait $pb || fail "the second concurrent up: $(cat "$T/b.out" "$T/b.err")"
grep -q 'by: "2.0.0"' "$T/a.out" || fail "2.0.0 serves stack a: $(cat "$T/a.out")"
grep -q 'by: "2.0.0"' "$T/b.out" || fail "2.0.0 serves stack b: $(cat "$T/b.out")"
[ -x "$CACHE/resource-testprov-v2.0.0/pulumi-resource-testprov" ] || fail "2.0.0 is in the cache"
[ -e "$CACHE/resource-testprov-v2.0.0.partial" ] && fail "2.0.0 is whole"
ls -A "$CACHE" | grep -q '^\.download' && fail "no download is left behind"

# No pluginDownloadURL: the default location, overridden to the local server.
program "version: 4.0.0"
PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES="^github://api.github.com/pulumi/(.*)=$URL/mirror/\$1" \
  run up -s dev -y --skip-preview
expect_rc 0 "the default location overridden"
expect_out '=> "4.0.0"' "4.0.0 serves"
no_orphans "the end"
finish
