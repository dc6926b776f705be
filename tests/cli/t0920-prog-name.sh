#!/bin/bash
# Messages name the command as the user typed it: under a `pulumi` link
# (what `meson install` puts beside minipulumi), help pages and the texts
# that say what to run next read `pulumi ...`, never `minipulumi ...`.
. "$(dirname "$0")/lib.sh" "$@"
mkdir -p "$T/bin"
ln -s "$M" "$T/bin/pulumi"
P=$T/bin/pulumi
# runp CMD...: like run, through the `pulumi` link
runp() {
  "$P" "$@" </dev/null >"$T/out" 2>"$T/err"
  RC=$?
  OUT=$(cat "$T/out")
  ERR=$(cat "$T/err")
}
no_minipulumi_cmd() { # description: no `minipulumi <command>` in the output
  case "$OUT$ERR" in
    *'`minipulumi '* | *"'minipulumi "* | *'  minipulumi '*)
      fail "$1: names minipulumi: $OUT $ERR" ;;
  esac
}

runp up --help
expect_out "Usage:
  pulumi up [flags]" "the usage line"
no_minipulumi_cmd "up --help"
runp state rename --help
expect_out "use \`pulumi stack --show-urns\`" "a command quoted in a help page"
runp login --help
expect_out "    \$ pulumi login file://~/state" "an example line of a help page"
no_minipulumi_cmd "login --help"

runp stack
expect_rc 1 "no stack selected"
expect_err "please use \`pulumi stack select\` or \`pulumi stack init\`" "no stack"
no_minipulumi_cmd "stack without a stack"

runp stack init
expect_err "use \`pulumi stack init <name>\`" "stack init without a name"

cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  pet:
    type: random:RandomPet
YAML
runp stack init dev
expect_rc 0 "stack init"
runp stack
expect_out "run \`pulumi up\`" "stack before any update"
expect_out "Use \`pulumi stack select\` to change stack; \`pulumi stack ls\` lists known ones" "stack's footer"
runp up -y
expect_rc 0 "up"
runp stack rm dev -y
expect_rc 1 "stack rm of a stack with resources"
expect_err "Run \`pulumi destroy\` to delete the resources, then run \`pulumi stack rm\`" "stack rm's advice"
expect_err "Run \`pulumi stack rm --force\`" "stack rm's advice (force)"
no_minipulumi_cmd "stack rm"

runp stack bogus
expect_err "unknown command \"bogus\" for \"pulumi stack\"" "unknown stack subcommand"
expect_err "Run 'pulumi stack --help' for usage." "its help hint"

runp up --bogus
expect_err "Run 'pulumi up --help' for usage." "a bad flag's help hint"

runp destroy -y
expect_rc 0 "destroy"
expect_out "run \`pulumi stack rm dev\`" "destroy's closing advice"
no_minipulumi_cmd "destroy"

# a message of the language host (below the CLI) too
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
config:
  size:
    type: integer
YAML
runp preview
expect_out "set it with \`pulumi config set size <value>\`" "a missing config key"

# the binary's own name, and any other name, are what they are
run preview
expect_out "set it with \`minipulumi config set size <value>\`" "under its own name"
ln -s "$M" "$T/bin/mp"
"$T/bin/mp" preview </dev/null >"$T/out" 2>"$T/err"
case "$(cat "$T/out")" in *"\`mp config set size"*) ;; *) fail "basename of argv[0]: $(cat "$T/out")" ;; esac
finish
