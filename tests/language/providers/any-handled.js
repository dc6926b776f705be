// The `any-handled` provider (providers/any_handled_provider.go): one
// resource, any-handled:index:Resource, whose one input `value` has the
// schema type `any`; the inputs are echoed as its outputs. Its
// CheckConfig takes any config.
"use strict";
const { serve, failure, urnType, version } = require("./serve");

const TYPE = "any-handled:index:Resource";
const props = { value: { $ref: "pulumi.json#/Any" } };
const schema = {
  name: "any-handled",
  version: version("42.0.0"),
  resources: {
    [TYPE]: { type: "object", properties: props, required: ["value"], inputProperties: props,
              requiredInputs: ["value"] },
  },
};

serve({
  name: "any-handled",
  version: schema.version,
  schema,
  checkConfig: () => null,
  async check(urn, olds, news) {
    if (urnType(urn) !== TYPE) return { inputs: news, failures: failure("", `invalid URN type: ${urnType(urn)}`) };
    if (!("value" in news)) return { inputs: news, failures: failure("value", "missing value") };
    return { inputs: news };
  },
  async create(urn, inputs, preview) {
    if (urnType(urn) !== TYPE) throw new Error(`invalid URN type: ${urnType(urn)}`);
    return { id: preview ? "" : "id", outs: inputs };
  },
});
