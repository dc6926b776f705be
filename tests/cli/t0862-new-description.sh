#!/bin/bash
# issue 49 (11): `new --description` text is written into Pulumi.yaml by
# the YAML emitter, quoted and escaped: a description holding a colon, a
# newline, a `#` or quotes neither adds keys nor breaks the file, and it
# reads back as given.
. "$(dirname "$0")/lib.sh" "$@"
desc=$'evil: x\nruntime: nodejs # a "quoted" \'word\''
mkdir "$T/p1"
run new yaml --generate-only --yes --dir "$T/p1" --name p1 --description "$desc"
expect_rc 0 "new with a hostile description"
python3 - "$T/p1/Pulumi.yaml" "$desc" >"$T/check.log" 2>&1 <<'PY' || fail "Pulumi.yaml: $(cat "$T/check.log"; cat "$T/p1/Pulumi.yaml")"
import sys, yaml
doc = yaml.safe_load(open(sys.argv[1]))
assert doc["description"] == sys.argv[2], doc
assert doc["runtime"] == "yaml", doc
assert doc["name"] == "p1", doc
assert doc["resources"]["pet"]["properties"]["length"] == 2, doc
assert doc["outputs"]["petName"] == "${pet.id}", doc
PY
# the project still loads and runs
cd "$T/p1"
run stack init dev
expect_rc 0 "stack init in the new project"
run up --yes
expect_rc 0 "up in the new project"
expect_out "petName" "the template's output"

# a description YAML would read as another type stays a string
mkdir "$T/p2"
run new typescript --generate-only --yes --dir "$T/p2" --name p2 --description "123"
expect_rc 0 "new with a numeric description"
expect_file "$T/p2/Pulumi.yaml" 'description: "123"' "quoted numeric description"
expect_file "$T/p2/Pulumi.yaml" 'typescript: true' "the runtime options"
# a description that is not UTF-8 is refused, naming the file, and
# nothing half-written stays: a bad byte, and a surrogate (which the
# emitter once wrote as an escape no YAML reader takes, and a bad byte
# made it free memory twice; tests/fuzz/corpus/fuzz_template/regress-*)
for bad in $'caf\x9b' $'x \xed\xaa\xa4 y'; do
  rm -rf "$T/p3"; mkdir "$T/p3"
  run new yaml --generate-only --yes --dir "$T/p3" --name p3 --description "$bad"
  expect_rc 2 "new with a description that is not UTF-8"
  expect_err "cannot write the project's description into Pulumi.yaml" \
    "the refusal names the file"
  [ -e "$T/p3/Pulumi.yaml" ] && fail "a Pulumi.yaml was written"
done
finish
