# Shared setup for the Node.js program tests: `. lib.sh "$@"` with the
# minipulumi binary as the first argument. On top of tests/cli/lib.sh (a
# fresh temporary folder and state store), `node_program NAME` copies
# programs/NAME there, links this folder's node_modules (installed by
# scripts/npm-deps.sh tests/nodejs) and enters it.
NODE_TESTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$NODE_TESTS/../cli/lib.sh" "$@"
export PULUMI_CONFIG_PASSPHRASE=pp
if [ ! -f "$NODE_TESTS/node_modules/@pulumi/pulumi/package.json" ]; then
  echo "FAIL: $NODE_TESTS/node_modules is not installed; run" \
       "scripts/npm-deps.sh tests/nodejs" >&2
  exit 1
fi

node_program() { # NAME
  cp -r "$NODE_TESTS/programs/$1" "$T/$1"
  ln -s "$NODE_TESTS/node_modules" "$T/$1/node_modules"
  cd "$T/$1" || exit 1
}

# state_json: the stack's deployment as JSON in $STATE.
state_json() {
  run stack export
  STATE=$OUT
}
