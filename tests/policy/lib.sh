# Shared setup of the policy tests: tests/cli/lib.sh, and $PACKS, the
# test packs (tests/policy/packs/*, on tests/policy/node_modules).
PACKS=$(realpath "$(dirname "${BASH_SOURCE[0]}")/packs")
. "$(dirname "${BASH_SOURCE[0]}")/../cli/lib.sh" "$@"
if [ ! -d "$PACKS/../node_modules/@pulumi/policy" ]; then
  echo "tests/policy/node_modules is missing: run scripts/npm-deps.sh tests/policy" >&2
  exit 1
fi
