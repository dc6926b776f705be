#!/bin/bash
# The README's quick start, word for word, after its first command: the
# main job of scripts/run-example.sh (its run_main_job, as t0900 runs it)
# on a copy of examples/random-file, then every line of the README's
# "## Quick start" sh block, taken from README.md so the README cannot
# drift. Its `meson configure`/`meson install` lines are the one exception:
# the tree under test is not reconfigured; `meson install --destdir`
# installs it into this test's folder and $HOME/.local/bin points there.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/lib.sh" "$@"
BUILD=$(cd "$(dirname "$M")/../.." && pwd)
[ -f "$BUILD/meson-private/install.dat" ] || { echo "not a meson build tree: $BUILD" >&2; exit 1; }

# -- the first command's main job, on a copy of the repository's example
R=$T/repo
mkdir -p "$R/build/src/cli" "$R/examples/random-file"
ln -s "$M" "$R/build/src/cli/minipulumi"
cp "$ROOT/examples/random-file/Pulumi.yaml" "$R/examples/random-file/"
job=$(sed -n '/^run_main_job() {$/,/^}$/p' "$ROOT/scripts/run-example.sh")
[ -n "$job" ] || fail "scripts/run-example.sh has no run_main_job"
unset MINIPULUMI_BACKEND_URL PULUMI_CONFIG_PASSPHRASE
(cd "$R" && eval "$job" && set -euo pipefail && run_main_job) </dev/null >"$T/job.out" 2>&1 ||
  fail "the main job: $(cat "$T/job.out")"
grep -q "Current stack outputs (3):" "$T/job.out" || fail "the main job's outputs: $(cat "$T/job.out")"

# -- the quick start's commands
awk '/^## Quick start$/ { q = 1 } q && /^```sh$/ { b = 1; next } b && /^```$/ { exit } b { print }' \
  "$ROOT/README.md" >"$T/quickstart.sh"
[ -s "$T/quickstart.sh" ] || fail "README.md has no sh block under '## Quick start'"
grep -q '^meson install' "$T/quickstart.sh" || fail "the quick start installs with meson install"
grep -q 'minipulumi up' "$T/quickstart.sh" || fail "the quick start runs up"

mkdir -p "$HOME/.local"
{
  echo 'set -euo pipefail'
  while IFS= read -r line; do
    case "$line" in
      "meson configure "*) echo ": skipped: $line" ;;
      "meson install "*)
        printf '%s\n' "meson install -C '$BUILD' --no-rebuild --destdir '$T/dest' >'$T/install.log'"
        printf '%s\n' "bin=\$(dirname \"\$(find '$T/dest' -path '*/bin/minipulumi' | head -n 1)\")"
        printf '%s\n' "ln -s \"\$bin\" \"\$HOME/.local/bin\"" ;;
      *) printf '%s\n' "echo '\$ '$(printf '%q' "$line")" "$line" ;;
    esac
  done <"$T/quickstart.sh"
} >"$T/run.sh"
(cd "$R" && bash "$T/run.sh") </dev/null >"$T/out" 2>"$T/err"
RC=$?
OUT=$(cat "$T/out")
ERR=$(cat "$T/err")
expect_rc 0 "the quick start, word for word"

# meson install put minipulumi in bin/ and a pulumi link beside it
bin=$(dirname "$(find "$T/dest" -path '*/bin/minipulumi' | head -n 1)")
[ -x "$bin/minipulumi" ] || fail "meson install puts bin/minipulumi"
[ -L "$bin/pulumi" ] && [ "$(readlink "$bin/pulumi")" = minipulumi ] ||
  fail "meson install puts a pulumi link to minipulumi beside it: $(ls -l "$bin")"
"$bin/pulumi" version </dev/null | grep -q minipulumi || fail "the pulumi link runs minipulumi"

# what the user sees: the stack of the first command, no passphrase error
expect_out "Current stack outputs (3):" "stack output of the first command's stack"
expect_out "~ 1 updated" "up after config set updates the file"
expect_out "Resources:" "up's summary"
case "$ERR" in *"incorrect passphrase"*) fail "the quick start's passphrase is the first command's: $ERR" ;; esac
expect_out "- 4 deleted" "destroy"
expect_out "Stack 'dev' has been removed!" "stack rm"
ls "$R/examples/random-file/out/"*.txt >/dev/null 2>&1 && fail "destroy deleted the file"
finish
