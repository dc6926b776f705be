# A local HTTP server for the download tests: `python3 -m http.server`
# bound to 127.0.0.1 on a free port, serving $T/www; stopped at exit.
# Sets $PORT and $URL (http://127.0.0.1:$PORT).
export NO_PROXY=127.0.0.1 no_proxy=127.0.0.1
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
mkdir -p "$T/www"
python3 -u -m http.server --bind 127.0.0.1 --directory "$T/www" 0 \
  >"$T/http.log" 2>&1 &
HTTP_PID=$!
trap 'kill $HTTP_PID 2>/dev/null; wait $HTTP_PID 2>/dev/null; rm -rf "$T"' EXIT
# server_port LOG: the port a server started in the background names in
# LOG ("... port N ..."), once it has written it (up to 10 s).
server_port() {
  local p
  for _ in $(seq 100); do
    p=$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$1" | head -1)
    [ -n "$p" ] && { echo "$p"; return 0; }
    sleep 0.1
  done
  return 1
}
PORT=$(server_port "$T/http.log") ||
  { echo "FAIL: the HTTP server did not start: $(cat "$T/http.log")" >&2; exit 1; }
URL="http://127.0.0.1:$PORT"

# The platform part of a plugin file's name, as minipulumi computes it.
case "$(uname -m)" in aarch64|arm64) ARCH=arm64 ;; *) ARCH=amd64 ;; esac
PLATFORM="linux-$ARCH"

# tarball VERSION DIR: DIR/pulumi-resource-testprov-v<VERSION>-<platform>.tar.gz,
# a wrapper that runs the test plugin with its version baked in.
tarball() {
  local d="$T/pkg-$1"
  testprov_plugin "$1" "$d"
  mkdir -p "$2"
  tar -czf "$2/pulumi-resource-testprov-v$1-$PLATFORM.tar.gz" -C "$d" .
}
