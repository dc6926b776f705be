#!/bin/bash
# Every error class of the Pulumi YAML host through the CLI: the message
# names file:line:col, the exit status is non-zero, nothing is deployed.
# Classes: a missing reference, a cycle, an unknown type, a bad option, a
# YAML syntax error, a bad expression or function, and a broken Pulumi.yaml
# (no name, no runtime).
. "$(dirname "$0")/lib.sh" "$@"
use_test_world
run stack init dev

# program NAME: the program from stdin; `preview` and `up -y` must both
# fail with TEXT (file:line:col: ...) on stdout or stderr.
fails_with() { # description text
  local what=$1 text=$2 cmd
  for cmd in preview "up -y"; do
    run $cmd
    [ "$RC" != 0 ] || fail "$what: $cmd exits 0"
    case "$OUT$ERR" in
    *"$text"*) ;;
    *) fail "$what: $cmd does not say '$text': $OUT $ERR" ;;
    esac
  done
  [ -z "$(ls "$MINIPULUMI_TEST_WORLD"/id-*.json 2>/dev/null)" ] ||
    fail "$what: something was deployed"
}

cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: test:Resource
    properties:
      v: ${nothere.id}
YAML
fails_with "missing reference" "Pulumi.yaml:7:10: resource 'a' refers to unknown resource 'nothere'"

# A misspelt property of a resource whose schema is known (Pulumi YAML's
# type check); a free-form `test` resource is not checked.
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  pet:
    type: random:RandomPet
  a:
    type: test:Resource
    properties:
      v: ${pet.length}
      w: ${a2.anything}
  a2:
    type: test:Resource
outputs:
  x: ${pet.idd}
YAML
fails_with "misspelt property" "Pulumi.yaml:14:6: output 'x': idd does not exist on pet; Existing properties are: id, urn, length, prefix, keepers and 1 other"

cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: test:Resource
    options:
      dependsOn:
        - ${ghost}
YAML
fails_with "missing dependsOn reference" "Pulumi.yaml:8:11: option 'dependsOn' of resource 'a' refers to unknown resource 'ghost'"

cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: test:Resource
outputs:
  p: ${nope}
YAML
fails_with "missing reference in outputs" "Pulumi.yaml:7:6: output 'p' refers to unknown resource 'nope'"

cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: test:Resource
    properties:
      v: ${b.v}
  b:
    type: test:Resource
    properties:
      v: ${a.v}
YAML
fails_with "cycle" "Pulumi.yaml:4:3: 'a' is part of a dependency cycle: a -> b -> a"

cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
variables:
  x: ${y}
  y: ${x}
resources:
  a:
    type: test:Resource
    properties:
      v: ${x}
YAML
fails_with "cycle of variables" "Pulumi.yaml:4:3: 'x' is part of a dependency cycle: x -> y -> x"

cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: test:Resource
    properties:
      v: ${a.id}
YAML
fails_with "self reference" "Pulumi.yaml:4:3: 'a' is part of a dependency cycle: a -> a"

cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: test:Nope
YAML
fails_with "unknown type" "Pulumi.yaml:5:11: resource 'a': unknown resource type 'test:Nope'"

cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: random:RandomPets
YAML
fails_with "unknown type of a known package" "Pulumi.yaml:5:11: resource 'a': unknown resource type 'random:RandomPets'"

cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    properties:
      v: 1
YAML
fails_with "no type" "Pulumi.yaml:5:5: resource 'a' needs a 'type' string"

cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: test:Resource
    options:
      protectt: true
YAML
fails_with "unknown option" "Pulumi.yaml:7:7: the options of resource 'a' has unknown field 'protectt'"

cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: test:Resource
    options:
      protect: maybe
YAML
fails_with "bad option value" "Pulumi.yaml:7:16: option 'protect' of resource 'a' must be a boolean"

cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: test:Resource
    options:
      dependsOn: 5
YAML
fails_with "bad dependsOn" "Pulumi.yaml:7:18: option 'dependsOn' of resource 'a' must be a list"

cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: test:Resource
    properties:
      v: ${a.
YAML
fails_with "unterminated interpolation" "Pulumi.yaml:7:10: unterminated '\${'"

cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: test:Resource
    properties:
      v:
        fn::nope: 1
YAML
fails_with "unknown function" "Pulumi.yaml:8:9: unknown function 'fn::nope'"

cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: test:Resource
  a:
    type: test:Resource
YAML
fails_with "duplicate resource" "Pulumi.yaml:6:3: duplicate key 'a' (first at line 4)"

# The same in a map large enough to be indexed: the first of 20 resources
# repeated last.
{
  printf 'name: proj\nruntime: yaml\nresources:\n'
  for i in $(seq 1 20); do printf '  r%d:\n    type: test:Resource\n' "$i"; done
  printf '  r1:\n    type: test:Resource\n'
} > Pulumi.yaml
fails_with "duplicate in a large map" "Pulumi.yaml:44:3: duplicate key 'r1' (first at line 4)"

cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: [test:Resource
YAML
fails_with "YAML syntax error" "Pulumi.yaml:6:1: invalid YAML: did not find expected ',' or ']'"

printf 'name: proj\nruntime: yaml\nresources:\n  a:\n\ttype: test:Resource\n' > Pulumi.yaml
fails_with "a tab" "Pulumi.yaml:5:1: invalid YAML:"

cat > Pulumi.yaml <<'YAML'
runtime: yaml
resources: {}
YAML
fails_with "no name" "Pulumi.yaml' has no project name; add \`name: <project>\`"

cat > Pulumi.yaml <<'YAML'
name: proj
resources: {}
YAML
fails_with "no runtime" "project 'proj' has no runtime; add \`runtime: yaml\`"

cat > Pulumi.yaml <<'YAML'
name: proj
runtime: python
YAML
fails_with "another runtime" "the 'python' runtime of project 'proj' is not supported"

# Pulumi.<stack>.yaml is read with the same parser
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
YAML
printf 'config:\n  proj:x: [1\n' > Pulumi.dev.yaml
fails_with "broken stack config" "Pulumi.dev.yaml:3:1: invalid YAML:"
rm Pulumi.dev.yaml

# a good program still works afterwards
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  a:
    type: test:Resource
YAML
run up -y
expect_rc 0 "a good program"
finish
