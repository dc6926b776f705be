#!/bin/bash
# Issue 49 (3): a plugin's kind and name are checked, as Pulumi's plugin
# names are (PluginNameRegexp), before any path is made from them. A name
# with '/' and '..' given to `plugin install`, or coming from a YAML type
# token during `preview`, neither removes nor writes anything outside the
# plugin cache; an empty name is refused too.
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh" "$@"
export PULUMI_HOME="$T/pulumi-home"
export PULUMI_IGNORE_AMBIENT_PLUGINS=true
export NO_PROXY=127.0.0.1 no_proxy=127.0.0.1
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
CACHE="$PULUMI_HOME/plugins"

# ok.tgz: a plugin folder holding an executable.
mkdir -p "$T/pkg"
printf '#!/bin/sh\nexit 0\n' >"$T/pkg/pulumi-resource-x" && chmod +x "$T/pkg/pulumi-resource-x"
tar -czf "$T/ok.tgz" -C "$T/pkg" .

# A folder outside the cache that a crafted name would reach:
# <cache>/resource-x-v1.0.0/../../../outside/victim-v1.0.0 is it.
mkdir -p "$T/outside/victim-v1.0.0"
echo keep >"$T/outside/victim-v1.0.0/data"
run plugin install resource x 1.0.0 --file "$T/ok.tgz"
expect_rc 0 "a plain install"

victim_intact() { # what
  [ -f "$T/outside/victim-v1.0.0/data" ] || fail "$1: the folder outside the cache was removed"
  ls "$T/outside" | grep -q '\.lock\|\.partial' &&
    fail "$1: files were left outside the cache: $(ls "$T/outside")"
  return 0
}

run plugin install resource 'x-v1.0.0/../../../outside/victim' 1.0.0 --file "$T/ok.tgz" --reinstall
expect_rc 2 "a name with '/' and '..'"
expect_err "invalid plugin name 'x-v1.0.0/../../../outside/victim'" "the message names the name"
victim_intact "plugin install"

run plugin install resource '' 1.0.0 --file "$T/ok.tgz"
expect_rc 2 "an empty name"
expect_err "invalid plugin name ''" "the message says so"
[ -e "$CACHE/resource--v1.0.0" ] && fail "nothing is installed under an empty name"

for bad in - . .. x- _x .x 'x y' 'x/y' 'a\b'; do
  run plugin install resource "$bad" 1.0.0 --file "$T/ok.tgz"
  expect_rc 2 "name '$bad' refused"
done
run plugin install resource aws-native_2.x 1.0.0 --file "$T/ok.tgz"
expect_rc 0 "letters, digits, '-', '_' and '.' are a name"
run plugin install thing x 1.0.0 --file "$T/ok.tgz"
expect_rc 2 "a bad kind"
expect_err "unrecognized plugin kind: thing" "Pulumi's words"

# A YAML type token with the same name during preview: the program's
# plugin would be downloaded (from a server that answers with ok.tgz
# whatever is asked) and installed at that path.
python3 "$HERE/plugin_http.py" file "$T/ok.tgz" >"$T/http.log" 2>&1 &
HTTP_PID=$!
trap 'kill $HTTP_PID 2>/dev/null; wait $HTTP_PID 2>/dev/null; rm -rf "$T"' EXIT
for _ in $(seq 300); do grep -q "^port" "$T/http.log" && break; sleep 0.1; done
PORT=$(sed -n 's/^port //p' "$T/http.log")
[ -n "$PORT" ] || fail "the test server did not start: $(cat "$T/http.log")"
mkdir -p "$CACHE/resource-x"
cat >Pulumi.yaml <<YAML
name: proj
runtime: yaml
resources:
  a:
    type: x/../../../outside/victim:index:Thing
    options:
      version: 1.0.0
      pluginDownloadURL: http://127.0.0.1:$PORT/
YAML
run stack init dev
run preview
expect_rc 1 "preview of a program whose package name has '/' and '..'"
expect_out "invalid plugin name 'x/../../../outside/victim'" "the message names the package"
victim_intact "preview"
[ -e "$T/outside/victim-v1.0.0.lock" ] && fail "preview left a lock outside the cache"
grep -q '^GET' "$T/http.log" && fail "nothing was downloaded: $(cat "$T/http.log")"
finish
