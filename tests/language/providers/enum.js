// The `enum` provider (providers/enum_provider.go): enums of every kind in
// the schema (integer, string, number, values without names, enums in
// arrays, maps, objects and unions), in the modules index, mod and
// mod/nested. Each resource keeps its inputs as outputs. Its CheckConfig
// accepts any config.
"use strict";
const { serve, failure, urnType, version } = require("./serve");

const PKG = "enum";
const types = {};
const resources = {};
const ref = (tok) => ({ $ref: `#/types/${tok}` });
const enumType = (type, values) => ({ type, enum: values.map(([name, value]) => (name ? { name, value } : { value })) });

for (const mod of ["index", "mod", "mod/nested"]) {
  const intEnum = `${PKG}:${mod}:IntEnum`, stringEnum = `${PKG}:${mod}:StringEnum`;
  types[intEnum] = enumType("integer", [["IntOne", 1], ["IntTwo", 2]]);
  types[stringEnum] = enumType("string", [["StringOne", "one"], ["StringTwo", "two"]]);
  const props = { intEnum: ref(intEnum), stringEnum: ref(stringEnum) };
  resources[`${PKG}:${mod}:Res`] = { properties: props, inputProperties: props };
}
types[`${PKG}:index:NumberEnum`] = enumType("number", [["ZeroPointOne", 0.1], ["One", 1.0]]);
// values without names: the generators make identifiers of them
types[`${PKG}:index:WordyEnum`] = enumType("string", [
  [null, "A Value With Spaces."], [null, "It's got apostrophes"], [null, "_UNDERSCORE_PREFIX"], ["Named", "plain"]]);
types[`${PKG}:index:Holder`] = {
  type: "object",
  properties: { size: ref(`${PKG}:index:IntEnum`), color: ref(`${PKG}:index:StringEnum`) },
};
const deluxe = {
  numberEnum: ref(`${PKG}:index:NumberEnum`),
  wordyEnum: ref(`${PKG}:index:WordyEnum`),
  arrayOfEnum: { type: "array", items: ref(`${PKG}:index:StringEnum`) },
  mapOfEnum: { type: "object", additionalProperties: ref(`${PKG}:index:IntEnum`) },
  holder: ref(`${PKG}:index:Holder`),
  unionEnum: { oneOf: [ref(`${PKG}:index:WordyEnum`), { type: "string" }] },
};
resources[`${PKG}:index:Deluxe`] = { properties: deluxe, inputProperties: deluxe };

const known = (urn) => urnType(urn) in resources;

serve({
  name: PKG,
  version: version("30.0.0"),
  checkConfig: () => null,
  schema: { name: PKG, version: "30.0.0", resources, types },
  async check(urn, olds, news) {
    if (!known(urn)) return { inputs: news, failures: failure("", `invalid URN type: ${urnType(urn)}`) };
    return { inputs: news };
  },
  async create(urn, inputs) {
    if (!known(urn)) throw new Error(`invalid URN type: ${urnType(urn)}`);
    return { id: "new-resource-id", outs: inputs };
  },
});
