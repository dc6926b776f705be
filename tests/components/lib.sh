# Shared setup of the component tests: tests/cli/lib.sh (a fresh folder and
# state store), the component provider of tests/components/provider on
# PATH, this folder's node_modules (scripts/npm-deps.sh tests/components)
# for the programs, and a marker in the environment by which every process
# a test started is found again (no plugin may outlive a command).
COMP_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$COMP_DIR/../cli/lib.sh" "$@"
export PATH="$COMP_DIR/provider:$PATH"
export PULUMI_CONFIG_PASSPHRASE=pp
export MP_PLUGIN_TEST_MARK="$T"
[ -f "$COMP_DIR/node_modules/@pulumi/pulumi/package.json" ] ||
  { echo "FAIL: run scripts/npm-deps.sh tests/components (npm ci)" >&2
    exit 1; }

# program NAME: copies programs/NAME into the test folder, links the
# packages and enters it.
program() {
  cp -r "$COMP_DIR/programs/$1" "$T/$1"
  ln -s "$COMP_DIR/node_modules" "$T/$1/node_modules"
  cd "$T/$1" || exit 1
}

# no_orphans DESCRIPTION: fails when a process this test started (it
# carries the marker) still runs.
no_orphans() {
  local left=""
  for e in /proc/[0-9]*/environ; do
    if { tr '\0' '\n' <"$e"; } 2>/dev/null | grep -qxF "MP_PLUGIN_TEST_MARK=$T"; then
      local pid=${e#/proc/}; pid=${pid%/environ}
      local cmd
      cmd=$({ tr '\0' ' ' </proc/"$pid"/cmdline; } 2>/dev/null)
      case "$cmd" in
        *index.js*|*run-plugin*|*pulumi-resource-*) left="$left [$pid: $cmd]" ;;
      esac
    fi
  done
  [ -z "$left" ] || fail "$1: processes left running:$left"
}

# state_json: the stack's deployment as JSON in $STATE.
state_json() {
  run stack export
  STATE=$OUT
}
