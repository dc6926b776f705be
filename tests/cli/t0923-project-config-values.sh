#!/bin/bash
# A project made by `new` records its template as the stack tag
# pulumi:template in Pulumi.yaml's config (Pulumi's newcmd,
# Project.AddConfigStackTags), and the project file's `config:` takes
# Pulumi's project-wide values (`key: {value: v}`) with Pulumi's rules
# (workspace.Project.Validate, ValidateStackConfigAndApplyProjectConfig):
# what Pulumi's own templates write runs here unchanged.
. "$(dirname "$0")/lib.sh" "$@"
cd "$T" || exit 1

# new: the tag is the template name given
run new yaml --yes --dir p1 -s dev
expect_rc 0 "new yaml"
grep -A3 '^config:' p1/Pulumi.yaml > "$T/cfg"
grep -q 'pulumi:tags:' "$T/cfg" && grep -q 'pulumi:template: yaml' "$T/cfg" ||
  fail "new: Pulumi.yaml lacks the pulumi:template tag: $(cat p1/Pulumi.yaml)"
cd p1 || exit 1
run up --yes --skip-preview
expect_rc 0 "up of the project that new wrote"
expect_out "2 created" "up of the project that new wrote"
cd "$T" || exit 1

# a template that sets pulumi:tags itself keeps its own, as Pulumi's does
mkdir -p tpl
cat > tpl/Pulumi.yaml <<'YAML'
name: ${PROJECT}
runtime: yaml
config:
  pulumi:tags:
    value:
      owner: team-a
resources:
  pet:
    type: random:RandomPet
YAML
run new "$T/tpl" --yes --dir p2 -s dev
expect_rc 0 "new from a folder with its own pulumi:tags"
grep -q 'owner: team-a' p2/Pulumi.yaml || fail "the template's own tags are lost"
grep -q 'pulumi:template' p2/Pulumi.yaml &&
  fail "a template's own pulumi:tags got a tag Pulumi does not add"

# project-wide values: an own key and another namespace's key
mkdir -p p3 && cd p3 || exit 1
cat > Pulumi.yaml <<'YAML'
name: p3
runtime: yaml
config:
  greeting:
    value: hello
  size:
    type: integer
    default: 3
  other:ns:
    value: from-project
resources:
  pet:
    type: random:RandomPet
    properties:
      prefix: ${greeting}
outputs:
  greeting: ${greeting}
  size: ${size}
YAML
run stack init dev
expect_rc 0 "stack init"
run up --yes --skip-preview
expect_rc 0 "up with project values"
run stack output greeting
[ "$OUT" = hello ] || fail "a project value is not the program's: '$OUT'"
# config and config get show the project's values, as Pulumi's do
run config
expect_out "greeting" "config lists the project's value"
expect_out "other:ns" "config lists another namespace's project value"
run config get other:ns
[ "$OUT" = from-project ] || fail "config get of a project value: '$OUT' ($ERR)"
run config get size
[ "$OUT" = 3 ] || fail "config get of a project default: '$OUT' ($ERR)"
run config set greeting hi
run config get greeting
[ "$OUT" = hi ] || fail "config get: the stack's value does not win: '$OUT'"
run up --yes --skip-preview
run stack output greeting
[ "$OUT" = hi ] || fail "the stack's value does not win over the project's: '$OUT'"
cd "$T" || exit 1

# Pulumi's refusals, each naming the key
bad() { # description yaml-config-lines expected-text
  rm -rf pb && mkdir pb && cd pb || exit 1
  printf 'name: pb\nruntime: yaml\nconfig:\n%s\n' "$2" > Pulumi.yaml
  run stack init dev
  run preview
  [ "$RC" != 0 ] || fail "$1: preview passed"
  expect_err "$3" "$1"
  cd "$T" || exit 1
}
bad "default and value" '  size:
    default: 1
    value: 2' "project config 'size' cannot have both a 'default' and 'value' attribute"
bad "another namespace's type" '  aws:region:
    type: string
    value: x' "Configuration key 'aws:region' is not namespaced by the project and should not define a type"
bad "another namespace's default" '  aws:region:
    default: us-east-1' "should not define a default value. Did you mean to use the 'value' attribute instead of 'default'?"
bad "another namespace without value" '  aws:region:
    description: where' "Configuration key 'aws:region' is namespaced and must provide an attribute 'value'"

# ... checked when the project is loaded, whatever the command and runtime
rm -rf pn && mkdir pn && cd pn || exit 1
printf 'name: pn\nruntime: nodejs\nconfig:\n  aws:region:\n    default: x\n' > Pulumi.yaml
run config
[ "$RC" != 0 ] || fail "config on a Node.js project with a bad config: passed"
expect_err "Pulumi.yaml:4:3: Configuration key 'aws:region' is not namespaced" "config of a Node.js project"
cd "$T" || exit 1

exit $((FAILS > 0))
