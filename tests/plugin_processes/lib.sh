# Shared setup of the plugin tests: tests/cli/lib.sh (a fresh folder, state
# store and project), the test plugins of tests/plugin_processes/bin on
# PATH, and a marker in the environment by which every process a test
# started is found again (no plugin may outlive a command).
PLUGINS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$PLUGINS_DIR/../cli/lib.sh" "$@"
export PATH="$PLUGINS_DIR/bin:$PATH"
export PULUMI_CONFIG_PASSPHRASE=pp
export TESTPROV_STATE="$T/world"
export MP_PLUGIN_TEST_MARK="$T"
[ -d "$PLUGINS_DIR/node_modules/@pulumi/pulumi" ] ||
  { echo "FAIL: run scripts/npm-deps.sh tests/plugin_processes (npm ci)" >&2
    exit 1; }

# no_orphans DESCRIPTION: fails when a process started by this test (it
# carries the marker) is still running.
no_orphans() {
  local left=""
  for e in /proc/[0-9]*/environ; do
    if { tr '\0' '\n' <"$e"; } 2>/dev/null | grep -qxF "MP_PLUGIN_TEST_MARK=$T"; then
      local pid=${e#/proc/}; pid=${pid%/environ}
      local cmd
      cmd=$({ tr '\0' ' ' </proc/"$pid"/cmdline; } 2>/dev/null)
      case "$cmd" in
        *testprov.js*|*pulumi-resource-*) left="$left [$pid: $cmd]" ;;
      esac
    fi
  done
  [ -z "$left" ] || fail "$1: processes left running:$left"
}

# world_count: how many resources the test plugin holds.
world_count() { ls "$TESTPROV_STATE" 2>/dev/null | grep -c '\.json$'; }

# testprov_plugin VERSION DIR: DIR/pulumi-resource-testprov, a wrapper that
# runs the test plugin with its version baked in (what the cache's folders
# and the tarballs of the install and download tests hold).
testprov_plugin() {
  mkdir -p "$2"
  printf '#!/bin/sh\nTESTPROV_VERSION=%s exec node "%s/testprov.js" "$@"\n' \
    "$1" "$PLUGINS_DIR" >"$2/pulumi-resource-testprov"
  chmod +x "$2/pulumi-resource-testprov"
}
