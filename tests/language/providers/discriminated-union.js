// The `discriminated-union` provider
// (providers/discriminated_union_provider.go): discriminated-union:index:Example
// takes a union of two object types told apart by their constant
// `discriminantKind` (variant1, variant2), alone and in an array, and keeps
// its inputs as outputs. Its CheckConfig accepts any config.
"use strict";
const { serve, failure, urnType, version } = require("./serve");

const PKG = "discriminated-union";
const EXAMPLE = `${PKG}:index:Example`;
const V1 = `#/types/${PKG}:index:VariantOne`, V2 = `#/types/${PKG}:index:VariantTwo`;
const variant = (kind, field) => ({
  type: "object",
  properties: { discriminantKind: { type: "string", const: kind }, [field]: { type: "string" } },
  required: ["discriminantKind"],
});
const union = {
  oneOf: [{ $ref: V1 }, { $ref: V2 }],
  discriminator: { propertyName: "discriminantKind", mapping: { variant1: V1, variant2: V2 } },
};
const props = { unionOf: union, arrayOfUnionOf: { type: "array", items: union } };

serve({
  name: PKG,
  version: version("31.0.0"),
  checkConfig: () => null,
  schema: {
    name: PKG, version: "31.0.0",
    types: { [`${PKG}:index:VariantOne`]: variant("variant1", "field1"),
             [`${PKG}:index:VariantTwo`]: variant("variant2", "field2") },
    resources: { [EXAMPLE]: { type: "object", properties: props, inputProperties: props } },
  },
  async check(urn, olds, news) {
    if (urnType(urn) !== EXAMPLE) return { inputs: news, failures: failure("", `invalid URN type: ${urnType(urn)}`) };
    return { inputs: news };
  },
  async create(urn, inputs) {
    if (urnType(urn) !== EXAMPLE) throw new Error(`invalid URN type: ${urnType(urn)}`);
    return { id: "new-resource-id", outs: inputs };
  },
});
