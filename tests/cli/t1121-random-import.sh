#!/bin/bash
# The built-in random provider's Read: import of the six types pulumi-random
# documents (the ID formats of terraform-provider-random's ImportState),
# the resources then matching the program without a change, a refresh that
# keeps the values, and clear errors for IDs that do not parse.
. "$(dirname "$0")/lib.sh" "$@"
run stack init dev
run import random:index/randomString:RandomString s 'aB3$xyz' --yes
expect_rc 0 "import RandomString"
expect_out " =  random:index:RandomString s imported" "the row"
expect_out "length: 7" "the length in the YAML block"
run import random:index/randomPassword:RandomPassword p 'hunter2!' --yes
expect_rc 0 "import RandomPassword"
run import random:index/randomInteger:RandomInteger i '15,1,50,myseed' --yes
expect_rc 0 "import RandomInteger"
run import random:index/randomId:RandomId d 'my-prefix-,p-9hUg' --yes
expect_rc 0 "import RandomId"
run import random:index/randomUuid:RandomUuid u aabbccdd-eeff-0011-2233-445566778899 --yes
expect_rc 0 "import RandomUuid"
run import random:index/randomBytes:RandomBytes b 'aGVsbG8=' --yes
expect_rc 0 "import RandomBytes"
export_state
check "the imported state as pulumi-random gives it" '
r = res()
s = r["s"]
assert s["id"] == "aB3$xyz" and s["outputs"]["result"] == "aB3$xyz", s
assert s["inputs"]["length"] == 7 and s["inputs"]["special"] is True, s
p = r["p"]
assert p["id"] == "none", p
assert p["outputs"]["result"]["4dabf18193072939515e22adb298388d"] == "1b47061264138c4ac30d75fd1eb44270", p
i = r["i"]
assert i["id"] == "15" and i["outputs"]["result"] == 15, i
assert i["inputs"] == {"max": 50, "min": 1, "seed": "myseed"}, i
d = r["d"]
assert d["id"] == "p-9hUg", d
# six URL-safe characters carry four bytes, as Go RawURLEncoding reads them
assert d["outputs"]["hex"] == "my-prefix-a7ef6152" and d["outputs"]["dec"] == "my-prefix-2817483090", d
assert d["outputs"]["b64Std"] == "my-prefix-p+9hUg==" and d["outputs"]["b64Url"] == "my-prefix-p-9hUg", d
assert d["inputs"] == {"byteLength": 4, "prefix": "my-prefix-"}, d
u = r["u"]
assert u["id"] == "aabbccdd-eeff-0011-2233-445566778899" and u["outputs"]["result"] == u["id"], u
b = r["b"]
assert b["id"] == "none" and b["inputs"] == {"length": 5}, b
assert b["outputs"]["hex"]["4dabf18193072939515e22adb298388d"] == "1b47061264138c4ac30d75fd1eb44270", b
'
# A program declaring what was imported: no changes (protected, as imports are).
cat > Pulumi.yaml <<'YAML'
name: proj
runtime: yaml
resources:
  s:
    type: random:RandomString
    properties: {length: 7, lower: true, minLower: 0, minNumeric: 0, minSpecial: 0, minUpper: 0, number: true, numeric: true, special: true, upper: true}
    options: {protect: true}
  i:
    type: random:RandomInteger
    properties: {min: 1, max: 50, seed: myseed}
    options: {protect: true}
  d:
    type: random:RandomId
    properties: {byteLength: 4, prefix: my-prefix-}
    options: {protect: true}
  u:
    type: random:RandomUuid
    options: {protect: true}
  b:
    type: random:RandomBytes
    properties: {length: 5}
    options: {protect: true}
  p:
    type: random:RandomPassword
    properties: {length: 8, lower: true, minLower: 0, minNumeric: 0, minSpecial: 0, minUpper: 0, number: true, numeric: true, special: true, upper: true}
    options: {protect: true}
outputs:
  dhex: ${d.hex}
YAML
run preview --expect-no-changes
expect_rc 0 "the program matches what was imported"
run refresh --yes
expect_rc 0 "refresh"
expect_out "7 unchanged" "refresh changes nothing"
run up --yes
expect_rc 0 "up"
run stack output dhex
expect_out "my-prefix-a7ef6152" "the imported RandomId feeds the program"

# IDs that do not parse: the provider's error on the resource, exit 4 (a
# resource operation failed), nothing imported.
run import random:index/randomInteger:RandomInteger bad '15,1' --yes
expect_rc 4 "integer without max"
expect_out "Invalid import usage: expecting {result},{min},{max} or {result},{min},{max},{seed}" "the integer format"
run import random:index/randomInteger:RandomInteger bad 'x,1,5' --yes
expect_rc 4 "integer not a number"
expect_out 'could not be parsed as an integer: "x"' "names the part"
run import random:index/randomUuid:RandomUuid bad not-a-uuid --yes
expect_rc 4 "bad uuid"
expect_out '"not-a-uuid" is not a UUID' "uuid error"
run import random:index/randomId:RandomId bad 'p+9hUg' --yes
expect_rc 4 "bad b64url"
expect_out "decoding error" "b64url error"
run import random:index/randomPet:RandomPet bad 'x' --yes
expect_rc 4 "pet is not importable"
expect_out "cannot be imported" "pet error"
export_state
check "no failed import reached the state" '
assert "bad" not in res(), list(res())
'
finish
