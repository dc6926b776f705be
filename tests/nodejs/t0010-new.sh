#!/bin/bash
# minipulumi new: each built-in template gives a project that `up` deploys
# as it is (a random pet and its output); Pulumi's refusal of a non-empty
# folder and --force; --dir, --name, --description, --stack, -c; the
# prompts on a terminal; --generate-only; unknown templates and bad names.
. "$(dirname "$0")/lib.sh" "$@"
cd "$T" || exit 1
rm -rf proj

# yaml: the stack is created and up works at once.
run new yaml --dir y --yes --name pets -d "My pets" -c greeting=hi
expect_rc 0 "new yaml"
expect_out "Created project 'pets'" "the project"
expect_out "Created stack 'dev'" "the stack"
expect_out 'To perform an initial deployment, run `cd y`, then, run `minipulumi up`' "what to do next"
grep -q '^description: My pets$' y/Pulumi.yaml || fail "the description was not written"
grep -q '^name: pets$' y/Pulumi.yaml || fail "the name was not written"
run_in y config get greeting
expect_out "hi" "-c set the config"
run_in y up --yes
expect_rc 0 "up of the yaml template"
run_in y stack output petName
[ -n "$OUT" ] || fail "no petName output"

# a non-empty folder is refused, --force writes into it
run new yaml --dir y --yes
expect_rc 1 "non-empty folder"
expect_err "is not empty; rerun in an empty directory, pass the path to an empty directory to --dir, or use --force" "Pulumi's words"
run new yaml --dir y --yes --force --generate-only --name pets
expect_rc 0 "--force"

# typescript and javascript: files only (their npm install needs the
# registry), then the tests' node_modules, a stack and up.
for lang in typescript javascript; do
  run new $lang --dir $lang --yes --generate-only
  expect_rc 0 "new $lang --generate-only"
  expect_out "Created project '$lang'" "the default name is the folder's"
  expect_not_out "Created stack" "--generate-only makes no stack"
  # The SDK pinned to the version this suite runs on the Node.js the
  # set-up installs (a caret range pulled one that warns EBADENGINE).
  python3 - "$lang/package.json" "$NODE_TESTS/node_modules/@pulumi/pulumi/package.json" <<'PY' ||
import json, sys
want = json.load(open(sys.argv[2]))["version"]
got = json.load(open(sys.argv[1]))["dependencies"]["@pulumi/pulumi"]
assert got == want, (got, want)
PY
    fail "$lang: @pulumi/pulumi is not pinned to the tested version"
  ln -s "$NODE_TESTS/node_modules" $lang/node_modules
  run_in $lang stack init dev
  run_in $lang up --yes
  expect_rc 0 "up of the $lang template"
  expect_out "random:index:RandomPet pet created" "the pet"
  run_in $lang stack output petName
  [ -n "$OUT" ] || fail "$lang: no petName output"
done
[ -f typescript/tsconfig.json ] && [ -f typescript/index.ts ] || fail "typescript files"
grep -q '"main": "index.js"' javascript/package.json || fail "javascript main"

# prompts on a terminal: name, description and stack, defaults on Enter
mkdir asked && cd asked || exit 1
run_tty 30 "asked-proj,,prod" ") " new yaml
cd "$T" || exit 1
expect_rc 0 "new with prompts"
expect_out "Project name: (asked) " "asks the name, the folder's by default"
expect_out "Project description: (A minimal Pulumi YAML program) " "asks the description"
expect_out "Stack name: (dev) " "asks the stack"
grep -q '^name: asked-proj$' asked/Pulumi.yaml || fail "the typed name"
grep -q '^description: A minimal Pulumi YAML program$' asked/Pulumi.yaml ||
  fail "Enter keeps the default description"
run_in asked stack ls
expect_out "prod" "the typed stack"

run new cobol --dir c --yes
expect_rc 2 "unknown template"
expect_err "template 'cobol' not found" "names it"
expect_err "typescript" "lists the built-in ones"
run new
expect_rc 2 "no template"
run new yaml --dir bad --yes --name 'no spaces'
expect_rc 2 "bad project name"
expect_err "project names may only contain alphanumerics, hyphens, underscores, and periods" "Pulumi's rule"
finish
