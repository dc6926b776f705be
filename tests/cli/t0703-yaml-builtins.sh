#!/bin/bash
# The Pulumi YAML builtins added for issue 36 end to end: a program's
# outputs computed with fn::length (grapheme clusters), fn::sha1,
# fn::filebase64(sha256), fn::singleOrNone, fn::unsecret,
# fn::pulumiResourceName/Type, a config entry's name: and a subnormal
# number, through `up` and `stack output --json`.
. "$(dirname "$0")/lib.sh" "$@"
printf 'hello' > hello.txt
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
configuration:
  size:
    type: String
    name: instanceSize
variables:
  hidden:
    fn::secret: hush
resources:
  pet:
    type: random:RandomPet
    name: my-pet
outputs:
  family:
    fn::length: "\U0001F468\u200D\U0001F469\u200D\U0001F467"
  flags:
    fn::length: "\U0001F1EB\U0001F1F7\U0001F1E9\U0001F1EA"
  accent:
    fn::length: "e\u0301"
  sha:
    fn::sha1: hello
  b64:
    fn::filebase64: hello.txt
  b64sha:
    fn::filebase64sha256: hello.txt
  one:
    fn::singleOrNone: [x]
  plain:
    fn::unsecret: ${hidden}
  petName:
    fn::pulumiResourceName: ${pet}
  petType:
    fn::pulumiResourceType: ${pet}
  size: ${size}
  tiny: 5e-324
YAML
run stack init dev
run config set instanceSize big
expect_rc 0 "config set"
run up --yes
expect_rc 0 "up"
run stack output --json
expect_rc 0 "stack output"
for want in '"family": 1' '"flags": 2' '"accent": 1' \
  '"sha": "aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d"' \
  '"b64": "aGVsbG8="' \
  '"b64sha": "LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ="' \
  '"one": "x"' '"plain": "hush"' '"petName": "my-pet"' \
  '"petType": "random:index/randomPet:RandomPet"' '"size": "big"'; do
  expect_out "$want" "stack output"
done
# The subnormal survives exactly (whatever digits the JSON printer picks).
echo "$OUT" | python3 -c 'import json,sys; assert json.load(sys.stdin)["tiny"] == 5e-324' ||
  fail "stack output: tiny is not the double 5e-324: $OUT"
finish
