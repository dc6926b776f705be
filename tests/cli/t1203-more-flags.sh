#!/bin/bash
# Issue 37's flags, each with what it changes: stack output --shell,
# stack ls --project and -Q, import --from, destroy --refresh,
# preview --import-file,
# --show-config, --secrets-provider, --suppress-permalink and
# --show-full-output (accepted: no permalink, no truncation).
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: test:Resource
    properties:
      content: hello
outputs:
  plain: simple
  spaced: "two words"
  quoted: "it's $HOME"
  empty: ""
  num: 42
  list: [1, "x"]
YAML
run stack init dev
run config set region eu-west-1
run config set --secret dbPassword 'Xk9#mQ2$vL7!pR4w'

# --show-config lists the configuration before the preview, secrets hidden
run preview --show-config
expect_rc 0 "preview --show-config"
expect_out "Configuration:
    proj:dbPassword: [secret]
    proj:region: eu-west-1" "config shown"
run preview
expect_not_out "Configuration:" "not shown by default"

# preview --import-file: the planned creates, as an import file whose IDs
# are left to fill in; `import --file` then reads it
run preview --import-file "$T/to-import.json"
expect_rc 0 "preview --import-file"
check "import file" '
d = doc(T + "/to-import.json")
assert d["resources"] == [{"type": "test:index:Resource", "name": "a", "id": ""}], d'
run preview --import-file "$T/no/such/dir/f.json"
[ "$RC" != 0 ] || fail "an unwritable import file is an error"
expect_err "could not write the import file" "names the file"

# --secrets-provider: passphrase is the one there is
run up --yes --secrets-provider awskms://alias/x
expect_rc 2 "unknown secrets provider"
expect_err "unsupported secrets provider 'awskms://alias/x'; minipulumi has 'passphrase'" "names the one there is"
run up --yes --secrets-provider passphrase --suppress-permalink --show-full-output
expect_rc 0 "up with accepted flags"
expect_not_out "Permalink" "no permalink"

# stack output --shell: lines a POSIX shell can eval, sorted by name
run stack output --shell
expect_rc 0 "stack output --shell"
expect_out "empty=''
list=\\[1,\\\"x\\\"]
num=42
plain=simple
quoted='it'\\''s \$HOME'
spaced='two words'" "shell lines"
( eval "$OUT"; [ "$spaced" = "two words" ] && [ "$quoted" = "it's \$HOME" ] && [ "$num" = 42 ] && [ -z "$empty" ] && [ "$list" = '[1,"x"]' ] ) ||
  fail "the lines do not eval to the outputs: $OUT"
run stack output --shell spaced
[ "$OUT" = "spaced='two words'" ] || fail "one output: $OUT"
run stack output --shell --json
expect_rc 2 "--shell with --json"
expect_err "only one of --json and --shell may be set" "Pulumi's words"

# stack ls --project and -Q
mkdir "$T/other" && printf 'name: other\nruntime: yaml\n' > "$T/other/Pulumi.yaml"
run_in "$T/other" stack init prod
run stack ls --project other
expect_rc 0 "ls --project"
expect_out "other/prod" "the other project's stack"
expect_not_out "dev" "only that project"
run stack ls -Q
expect_out "organization/proj/dev*" "fully qualified"
run -Q stack ls
expect_out "organization/proj/dev*" "-Q before the command"

# import --from: no converters
run import --from terraform state.tfstate
expect_rc 2 "import --from"
expect_err "--from terraform: converters are not available in minipulumi" "clear"

# destroy --refresh: the state is refreshed first (a Read per resource)
: > "$MINIPULUMI_TEST_WORLD/calls.jsonl"
run destroy --yes --refresh
expect_rc 0 "destroy --refresh"
check "read before delete" '
c = calls()
assert ("read", "a") in c and ("delete", "a") in c, c
assert c.index(("read", "a")) < c.index(("delete", "a")), c'
finish
