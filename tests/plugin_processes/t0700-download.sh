#!/bin/bash
# plugin install with downloads, from a local HTTP server (python3's
# http.server on 127.0.0.1): --server, Pulumi's URL templates (${VERSION},
# ${OS}, ${ARCH}), PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES over the default
# location and over a github:// source (named and numbered groups), an
# HTTP error in Pulumi's words, a bad override list, the command the
# @pulumi/<pkg> npm packages run, with minipulumi installed as `pulumi`,
# and an https download through HTTPS_PROXY trusting SSL_CERT_FILE.
. "$(dirname "$0")/lib.sh" "$@"
. "$PLUGINS_DIR/lib_http.sh"
export PULUMI_IGNORE_AMBIENT_PLUGINS=true
export PULUMI_HOME="$T/pulumi-home"
CACHE="$PULUMI_HOME/plugins"
installed() { [ -x "$CACHE/resource-testprov-v$1/pulumi-resource-testprov" ]; }

tarball 1.0.0 "$T/www/releases"
run plugin install resource testprov 1.0.0 --server "$URL/releases/"
expect_rc 0 "install from --server"
expect_err "[resource plugin testprov-1.0.0] downloading from $URL/releases/pulumi-resource-testprov-v1.0.0-$PLATFORM.tar.gz" "the URL fetched"
installed 1.0.0 || fail "1.0.0 is installed"
ls -A "$CACHE" | grep -q '^\.download' && fail "the download's temporary file is gone"

tarball 2.0.0 "$T/www/v2.0.0/linux/$ARCH"
run plugin install resource testprov 2.0.0 --server "$URL/v\${VERSION}/\${OS}/\${ARCH}"
expect_rc 0 "install from a templated URL"
installed 2.0.0 || fail "2.0.0 is installed"

tarball 3.0.0 "$T/www/mirror/pulumi-testprov"
PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES="^github://api.github.com/pulumi/(?P<repo>[^/]+)\$=$URL/mirror/\${repo}" \
  run plugin install resource testprov 3.0.0
expect_rc 0 "the default location overridden"
installed 3.0.0 || fail "3.0.0 is installed"

tarball 4.0.0 "$T/www/gh/acme/pulumi-testprov"
PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES="^https://nowhere=x,^github://api.github.com/([a-z]+)/(.*)=$URL/gh/\$1/\$2" \
  run plugin install resource testprov 4.0.0 --server github://api.github.com/acme
expect_rc 0 "a github:// source overridden"
installed 4.0.0 || fail "4.0.0 is installed"

run plugin install resource testprov 9.0.0 --server "$URL/releases"
expect_rc 1 "a version the server lacks"
expect_err "error: [resource plugin testprov-9.0.0] downloading from $URL/releases: 404 HTTP error fetching plugin from $URL/releases/pulumi-resource-testprov-v9.0.0-$PLATFORM.tar.gz" "Pulumi's words"
[ -e "$CACHE/resource-testprov-v9.0.0" ] && fail "nothing of 9.0.0 is installed"

PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES="no-equals-sign" \
  run plugin install resource testprov 9.0.0
expect_rc 1 "a bad override list"
expect_err 'expected format to be "regexp1=URL1,regexp2=URL2"' "Pulumi's words"

run plugin install resource testprov 9.0.0 --server ftp://example/x
expect_rc 1 "an unknown scheme"
expect_err "unknown plugin source scheme: ftp" "Pulumi's words"

# What `npm install @pulumi/<pkg>` runs, with minipulumi as `pulumi`.
mkdir -p "$T/bin" && ln -s "$M" "$T/bin/pulumi"
tarball 5.0.0 "$T/www/npm"
PATH="$T/bin:$PATH" pulumi plugin install resource testprov v5.0.0 --server "$URL/npm" \
  </dev/null >"$T/out" 2>"$T/err"
RC=$?; ERR=$(cat "$T/err")
expect_rc 0 "pulumi plugin install resource testprov v5.0.0 --server URL"
installed 5.0.0 || fail "5.0.0 is installed"

run plugin ls --json
check "every download is listed" '
assert [x["version"] for x in doc()] == ["5.0.0", "4.0.0", "3.0.0", "2.0.0", "1.0.0"], out'

# Through the proxy HTTPS_PROXY names, trusting the CA SSL_CERT_FILE names,
# as Pulumi's Go runtime does: tests/language/https_fixture.py answers
# CONNECT for https://plugins.invalid and serves the tarball (the name
# cannot resolve, so only the proxy can answer).
tarball 6.0.0 "$T/www/https"
TGZ="pulumi-resource-testprov-v6.0.0-$PLATFORM.tar.gz"
python3 -u "$PLUGINS_DIR/../language/https_fixture.py" --dir "$T/fx" --lifetime 300 \
  --route "https://plugins.invalid/dl/$TGZ=$T/www/https/$TGZ" >"$T/fx.log" 2>&1 &
FX_PID=$!
FX_PORT=$(server_port "$T/fx.log") || fail "the HTTPS proxy did not start: $(cat "$T/fx.log")"
CA=$(sed -n 's/.* ca \(.*\)/\1/p' "$T/fx.log")
PROXY="http://127.0.0.1:$FX_PORT"
HTTPS_PROXY=$PROXY NO_PROXY= no_proxy= \
  run plugin install resource testprov 6.0.0 --server https://plugins.invalid/dl
expect_rc 1 "a proxy whose certificate is not trusted"
expect_err "SSL certificate" "the certificate refused"
HTTPS_PROXY=$PROXY NO_PROXY=plugins.invalid SSL_CERT_FILE=$CA \
  run plugin install resource testprov 6.0.0 --server https://plugins.invalid/dl
expect_rc 1 "a host NO_PROXY names goes around the proxy"
expect_err "resolve host" "the name looked up"
https_proxy=$PROXY NO_PROXY= no_proxy= SSL_CERT_FILE=$CA \
  run plugin install resource testprov 6.0.0 --server https://plugins.invalid/dl
expect_rc 0 "install through the proxy"
installed 6.0.0 || fail "6.0.0 is installed"
kill $FX_PID 2>/dev/null; wait $FX_PID 2>/dev/null
finish
