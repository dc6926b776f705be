// The `union` provider (providers/union_provider.go): union types in the
// schema (string or integer, a map of maps of string-or-list, a list of
// string-or-enum, string-or-enum). union:index:Example keeps its inputs
// as outputs; union:index:EnumOutput adds type "Block". Its CheckConfig
// accepts any config.
"use strict";
const { serve, failure, urnType, version } = require("./serve");

const EXAMPLE = "union:index:Example";
const ENUM_OUTPUT = "union:index:EnumOutput";
const str = { type: "string" };
const oneOf = (...v) => ({ oneOf: v });
const arrayOf = (t) => ({ type: "array", items: t });
const mapOf = (t) => ({ type: "object", additionalProperties: t });
const ref = (name) => ({ $ref: `#/types/union:index:${name}` });
const enumType = (...values) => ({ type: "string", enum: values.map((value) => ({ value })) });

const exampleProps = {
  stringOrIntegerProperty: oneOf(str, { type: "integer" }),
  mapMapUnionProperty: mapOf(mapOf(oneOf(str, arrayOf(str)))),
  stringEnumUnionListProperty: arrayOf(oneOf(str, ref("AccessRights"))),
  typedEnumProperty: oneOf(str, ref("BlobType")),
};

serve({
  name: "union",
  version: version("18.0.0"),
  checkConfig: () => null,
  schema: {
    name: "union", version: "18.0.0",
    types: {
      "union:index:AccessRights": enumType("Listen", "Manage", "Send"),
      "union:index:BlobType": enumType("Block", "Append", "Page"),
    },
    resources: {
      [EXAMPLE]: { type: "object", properties: exampleProps, inputProperties: exampleProps },
      [ENUM_OUTPUT]: {
        type: "object", properties: { name: str, type: str }, required: ["name", "type"],
        inputProperties: { name: str }, requiredInputs: ["name"],
      },
    },
  },
  async check(urn, olds, news) {
    const t = urnType(urn);
    if (t !== EXAMPLE && t !== ENUM_OUTPUT) return { inputs: news, failures: failure("", `invalid URN type: ${t}`) };
    return { inputs: news };
  },
  async create(urn, inputs) {
    const t = urnType(urn);
    if (t === EXAMPLE) return { id: "new-resource-id", outs: inputs };
    if (t === ENUM_OUTPUT) return { id: "enum-output-id", outs: { ...inputs, type: "Block" } };
    throw new Error(`invalid URN type: ${t}`);
  },
});
