#!/bin/bash
# plugin install without a version (the newest release of a GitHub source,
# served here over HTTPS by a GitHub-like API on 127.0.0.1 whose
# certificate SSL_CERT_FILE trusts; an http server cannot tell, and the
# error says a version is needed), --checksum, plugin install without
# arguments (the project's plugins), plugin ls --project, plugin rm with a
# semver range, and the @pulumi/<pkg> packages' install script calling
# `pulumi plugin install resource <pkg> v<ver> --server <url>` with
# minipulumi installed as `pulumi`.
. "$(dirname "$0")/lib.sh" "$@"
. "$PLUGINS_DIR/lib_http.sh"
export PULUMI_IGNORE_AMBIENT_PLUGINS=true
export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
export PULUMI_HOME="$T/pulumi-home"
CACHE="$PULUMI_HOME/plugins"
installed() { [ -x "$CACHE/resource-testprov-v$1/pulumi-resource-testprov" ]; }
versions() { "$M" plugin ls --json "$@" </dev/null |
  python3 -c 'import json,sys; print(" ".join(x["version"] for x in json.load(sys.stdin)))'; }
for v in 1.0.0 1.5.0 2.0.0 3.0.0 4.0.0 7.0.0; do tarball $v "$T/www/dl"; done

# No version: an http server has no "latest".
run plugin install resource testprov --server "$URL/dl"
expect_rc 1 "no version from an http server"
expect_err "GetLatestVersion is not supported for plugins from http sources" "Pulumi's words"
expect_err "needs its version: \`plugin install resource testprov VERSION --server $URL/dl\`" "and what to do"

# No version: the latest release of a GitHub source, over HTTPS.
GH="$T/gh"
REL="$GH/repos/pulumi/pulumi-testprov/releases"
mkdir -p "$REL/tags" "$GH/assets"
python3 -u - "$GH" "$PLUGINS_DIR/tls" >"$T/https.log" 2>&1 <<'PY' &
import http.server, ssl, sys, functools
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
srv = http.server.HTTPServer(("127.0.0.1", 0), handler)
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(sys.argv[2] + "/cert.pem", sys.argv[2] + "/key.pem")
srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
print("port", srv.server_address[1], flush=True)
srv.serve_forever()
PY
HTTPS_PID=$!
trap 'kill $HTTP_PID $HTTPS_PID 2>/dev/null; wait 2>/dev/null; rm -rf "$T"' EXIT
HPORT=$(server_port "$T/https.log") ||
  fail "the HTTPS server did not start: $(cat "$T/https.log")"
ASSET="pulumi-resource-testprov-v6.0.0-$PLATFORM.tar.gz"
tarball 6.0.0 "$GH/assets"
echo '{"tag_name": "v6.0.0"}' >"$REL/latest"
printf '{"assets": [{"name": "%s", "url": "https://127.0.0.1:%s/assets/%s"}]}\n' \
  "$ASSET" "$HPORT" "$ASSET" >"$REL/tags/v6.0.0"
export SSL_CERT_FILE="$PLUGINS_DIR/tls/cert.pem"
GH_OVERRIDE="^github://api.github.com/pulumi/(.*)=github://127.0.0.1:$HPORT/pulumi/\$1"
PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES="$GH_OVERRIDE" \
  run plugin install resource testprov
expect_rc 0 "no version: the latest GitHub release"
expect_err "[resource plugin testprov-6.0.0] installing" "the latest is 6.0.0"
installed 6.0.0 || fail "6.0.0 is installed"
grep -q "GET /repos/pulumi/pulumi-testprov/releases/latest" "$T/https.log" ||
  fail "the latest release was asked for: $(cat "$T/https.log")"
unset SSL_CERT_FILE
PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES="$GH_OVERRIDE" \
  run plugin install resource testprov --reinstall
expect_rc 1 "a certificate nobody trusts"
expect_err "could not get latest version for plugin testprov" "the lookup failed"

# --checksum.
TGZ="$T/www/dl/pulumi-resource-testprov-v7.0.0-$PLATFORM.tar.gz"
SUM=$(sha256sum "$TGZ" | cut -d' ' -f1)
run plugin install resource testprov 7.0.0 --server "$URL/dl" --checksum 00ff
expect_rc 1 "a wrong checksum"
expect_err "invalid checksum, expected 00ff, actual $SUM" "Pulumi's words"
installed 7.0.0 && fail "nothing installed after a wrong checksum"
run plugin install resource testprov 7.0.0 --server "$URL/dl" --checksum xyz
expect_rc 2 "a checksum that is not hex"
expect_err "--checksum was not a valid hex string: encoding/hex: invalid byte: U+0078 'x'" "Pulumi's words"
run plugin install resource testprov 7.0.0 --server "$URL/dl" --checksum "$SUM"
expect_rc 0 "the right checksum"
installed 7.0.0 || fail "7.0.0 is installed"
run plugin install --checksum "$SUM"
expect_rc 2 "--checksum without a plugin"
expect_err "--checksum is only valid if a specific package is being installed" "Pulumi's words"

# Without arguments: the project's plugins.
cat > Pulumi.yaml <<YAML
name: proj
runtime: yaml
resources:
  a:
    type: testprov:index:Item
    properties: {value: one}
    options: {version: 4.0.0, pluginDownloadURL: "$URL/dl"}
  b:
    type: testprov:index:Item
    properties: {value: two}
    options: {version: 7.0.0}
  pet:
    type: random:RandomPet
YAML
run plugin install
expect_rc 0 "plugin install: the project's plugins"
expect_err "[resource plugin testprov-4.0.0] installing" "the missing one"
installed 4.0.0 || fail "4.0.0 is installed"
case "$ERR" in *"testprov-7.0.0] installing"*|*random*) fail "only what is missing: $ERR" ;; esac

# ls --project: the installed plugins the project uses.
run plugin ls --project --json
expect_rc 0 "plugin ls --project"
check "the project's versions only" '
assert sorted(x["version"] for x in doc()) == ["4.0.0", "7.0.0"], out'
[ "$(versions)" = "7.0.0 6.0.0 4.0.0" ] || fail "plugin ls lists all: $(versions)"

# rm with a range.
for v in 1.0.0 1.5.0 2.0.0; do
  run plugin install resource testprov $v --server "$URL/dl"
done
run plugin rm resource testprov '>=1.0.0 <2.0.0' --yes
expect_rc 0 "rm with a range"
expect_out "removed: resource testprov-1.0.0" "1.0.0 is in the range"
expect_out "removed: resource testprov-1.5.0" "so is 1.5.0"
[ "$(versions)" = "7.0.0 6.0.0 4.0.0 2.0.0" ] || fail "the rest stays: $(versions)"
run plugin rm resource testprov '2.x || >= 7.0.0' -y
expect_rc 0 "rm with a wildcard and an alternative"
[ "$(versions)" = "6.0.0 4.0.0" ] || fail "2.0.0 and 7.0.0 went: $(versions)"
run plugin rm resource testprov '>=banana' -y
expect_rc 2 "a range that does not parse"
expect_err "invalid plugin semver" "Pulumi's words"

# What an @pulumi/<pkg> package's install script runs, with minipulumi
# installed as `pulumi`.
mkdir -p "$T/bin" && ln -s "$M" "$T/bin/pulumi"
cat >"$T/install-plugin.js" <<'JS'
const res = require("child_process").spawnSync("pulumi",
  ["plugin", "install"].concat(process.argv.slice(2)), {stdio: "inherit"});
process.exit(res.status === null ? 1 : res.status);
JS
PATH="$T/bin:$PATH" node "$T/install-plugin.js" resource testprov v3.0.0 --server "$URL/dl" \
  </dev/null >"$T/out" 2>"$T/err"
RC=$?; ERR=$(cat "$T/err")
expect_rc 0 "the npm install script"
installed 3.0.0 || fail "3.0.0 is installed"
finish
