// The `constant` provider (providers/const_provider.go): constant:index:Resource,
// whose four properties have constant values in the schema (kind
// "Constant", flag true, count 3, ratio 1.5); Check refuses any other
// value or a missing one. Its CheckConfig accepts any config.
"use strict";
const { serve, failure, urnType, version } = require("./serve");

const TYPE = "constant:index:Resource";
const CONSTANTS = { kind: "Constant", flag: true, count: 3, ratio: 1.5 };
const properties = {
  kind: { const: "Constant", type: "string" },
  flag: { const: true, type: "boolean" },
  count: { const: 3, type: "integer" },
  ratio: { const: 1.5, type: "number" },
};

serve({
  name: "constant",
  version: version("43.0.0"),
  checkConfig: () => null,
  schema: {
    name: "constant", version: "43.0.0",
    resources: { [TYPE]: { type: "object", properties, inputProperties: properties,
                           requiredInputs: ["count", "flag", "kind", "ratio"] } },
  },
  async check(urn, olds, news) {
    if (urnType(urn) !== TYPE) return { inputs: news, failures: failure("", `invalid URN type: ${urnType(urn)}`) };
    for (const [k, want] of Object.entries(CONSTANTS)) {
      if (!(k in news)) return { inputs: news, failures: failure(k, "missing value") };
      if (news[k] !== want)
        return { inputs: news, failures: failure(k, `value is not the constant ${want}: ${JSON.stringify(news[k])}`) };
    }
    return { inputs: news };
  },
  async create(urn, inputs, preview) {
    if (urnType(urn) !== TYPE) throw new Error(`invalid URN type: ${urnType(urn)}`);
    return { id: preview ? "" : "id", outs: inputs };
  },
  async diff() { return {}; },
  async delete() {},
});
