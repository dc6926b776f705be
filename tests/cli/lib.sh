# Shared setup for the CLI tests: `. lib.sh "$@"` with the minipulumi binary
# as the first argument. Each test runs in a fresh temporary folder with its
# own state store, a project `proj` (runtime yaml) and no terminal.
set -u
M=$(realpath "$1")
T=$(mktemp -d "${TMPDIR:-/tmp}/mp-cli.XXXXXX")
trap 'rm -rf "$T"' EXIT
export HOME="$T/home"
mkdir -p "$HOME" "$T/proj"
export MINIPULUMI_BACKEND_URL="$T/state.db"
unset PULUMI_CONFIG_PASSPHRASE PULUMI_CONFIG_PASSPHRASE_FILE CI
cd "$T/proj"
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
YAML
FAILS=0

fail() { echo "FAIL: $*" >&2; FAILS=$((FAILS + 1)); }

# run CMD...: runs minipulumi, keeping stdout in $OUT, stderr in $ERR and
# the exit status in $RC.
run() {
  "$M" "$@" </dev/null >"$T/out" 2>"$T/err"
  RC=$?
  OUT=$(cat "$T/out")
  ERR=$(cat "$T/err")
}

expect_rc() { # expected-status description
  [ "$RC" = "$1" ] || fail "$2: exit status $RC, expected $1 (stdout: $OUT; stderr: $ERR)"
}

expect_out() { # text description
  case "$OUT" in *"$1"*) ;; *) fail "$2: stdout lacks '$1': $OUT" ;; esac
}

expect_err() { # text description
  case "$ERR" in *"$1"*) ;; *) fail "$2: stderr lacks '$1': $ERR" ;; esac
}

expect_not_out() { # text description
  case "$OUT" in *"$1"*) fail "$2: stdout has '$1': $OUT" ;; esac
}

expect_file() { # file text description
  grep -qF -- "$2" "$1" || fail "$3: '$1' lacks '$2': $(cat "$1" 2>&1)"
}

finish() {
  if [ "$FAILS" -ne 0 ]; then echo "$FAILS failure(s)" >&2; exit 1; fi
  echo ok
}
