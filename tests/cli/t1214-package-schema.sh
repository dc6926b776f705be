#!/bin/bash
# package get-schema launches a provider plugin (the Node.js test provider,
# by name on PATH, by binary path and by folder) and prints its GetSchema
# answer; built-in providers have no schema. A plugin folder run from
# source by path: a Pulumi YAML component provider (served in-process). schema check validates a
# schema file (JSON or YAML) and names each error's place.
BIN=$(realpath "$(dirname "$0")/../plugin_processes/bin")
. "$(dirname "$0")/lib.sh" "$@"

# ---- package get-schema ----
PATH="$BIN:$PATH" run package get-schema testprov
expect_rc 0 "get-schema by name"
check "get-schema by name" '
s = json.loads(out)
assert s["name"] == "testprov", s
assert s["version"] == "1.2.3", s
assert "testprov:index:Item" in s["resources"], s
assert out.startswith("{\n  \"name\""), out[:40]'
run package get-schema "$BIN/pulumi-resource-testprov"
expect_rc 0 "get-schema by path"
expect_out '"testprov:index:echo"' "the function is in the schema"
run package get-schema "$BIN/"
expect_rc 0 "get-schema by folder"
expect_out '"name": "' "a schema from the folder's plugin"
mkdir -p "$T/yamlcomp"
cat > "$T/yamlcomp/PulumiPlugin.yaml" <<'YAML'
name: yamlcomp
version: 4.5.6
runtime: yaml
components:
  Box:
    inputs:
      size:
        type: integer
    outputs:
      size: ${size}
YAML
run package get-schema "$T/yamlcomp/"
expect_rc 0 "get-schema of a Pulumi YAML component provider folder"
check "the YAML component provider's schema" '
s = json.loads(out)
assert s["name"] == "yamlcomp" and s["version"] == "4.5.6", s
box = s["resources"]["yamlcomp:index:Box"]
assert box["isComponent"] is True, box
assert box["inputProperties"]["size"]["type"] == "integer", box'
run package get-schema random
expect_rc 1 "a built-in provider"
expect_err "built-in provider, which has no schema" "says why"
PULUMI_IGNORE_AMBIENT_PLUGINS=1 run package get-schema nosuchpkg@1.0.0
expect_rc 1 "an unknown plugin"
expect_err "pulumi-resource-nosuchpkg" "names the plugin"
run package get-schema "$T/nothing/here"
expect_rc 1 "a path with no plugin"
expect_err "$T/nothing/here is neither a plugin binary" "names the path"

# ---- schema check ----
PATH="$BIN:$PATH" "$M" package get-schema testprov >"$T/good.json"
run schema check "$T/good.json"
expect_rc 0 "the provider's own schema is valid"
cat > "$T/good.yaml" <<'YAML'
name: acme
version: 0.1.0
types:
  acme:index:Spec:
    type: object
    properties:
      tags: {type: object, additionalProperties: {type: string}}
resources:
  acme:index:Thing:
    properties:
      spec: {$ref: "#/types/acme:index:Spec"}
      ports: {type: array, items: {type: integer}}
      any: {$ref: "pulumi.json#/Any"}
YAML
run schema check "$T/good.yaml"
expect_rc 0 "a good YAML schema"
[ -z "$ERR" ] || fail "a good schema gets no diagnostics: $ERR"

cat > "$T/bad.json" <<'JSON'
{
  "version": "not-a-version",
  "types": {
    "acme:Spec": {"type": "object"}
  },
  "resources": {
    "acme:index:Thing": {
      "properties": {
        "spec": {"$ref": "#/types/acme:index:Missing"},
        "list": {"type": "array"},
        "kind": {"type": "strng"},
        "owner": {"$ref": "#/resources/acme:index:Nobody"}
      }
    }
  }
}
JSON
run schema check "$T/bad.json"
expect_rc 1 "a bad schema"
expect_err "$T/bad.json:1:1: #/name: missing required property 'name'" "name"
expect_err "$T/bad.json:2:14: #/version: invalid semantic version 'not-a-version'" "version"
expect_err "$T/bad.json:4:5: #/types/acme:Spec: invalid token 'acme:Spec'" "token"
expect_err "#/resources/acme:index:Thing/properties/spec/\$ref: reference '#/types/acme:index:Missing' does not resolve: no such type" "type ref"
expect_err "#/resources/acme:index:Thing/properties/owner/\$ref: reference '#/resources/acme:index:Nobody' does not resolve: no such resource" "resource ref"
expect_err "#/resources/acme:index:Thing/properties/list: array type must specify items" "items"
expect_err "$T/bad.json:11:26: #/resources/acme:index:Thing/properties/kind/type: unknown primitive type 'strng'" "type"
expect_err "7 errors in $T/bad.json" "the count"

printf '{"name": "acme",\n "resources": {\n' > "$T/broken.json"
run schema check "$T/broken.json"
expect_rc 1 "a file that does not parse"
expect_err "error: $T/broken.json:" "the parse error has a place"
run schema check "$T/absent.json"
expect_rc 1 "a missing file"
expect_err "absent.json" "names the file"
finish
