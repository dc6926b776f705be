#!/bin/bash
# plugin install with downloads, from a local HTTP server (python3's
# http.server on 127.0.0.1): --server, Pulumi's URL templates (${VERSION},
# ${OS}, ${ARCH}), PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES over the default
# location and over a github:// source (named and numbered groups), an
# HTTP error in Pulumi's words, a bad override list, and the command the
# @pulumi/<pkg> npm packages run, with minipulumi installed as `pulumi`.
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
finish
