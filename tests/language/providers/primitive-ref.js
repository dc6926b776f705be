// The `primitive-ref` provider (providers/primitive_ref_provider.go): one
// resource, primitive-ref:index:Resource, whose one input `data` is an
// object type of primitives (boolean, float, integer, string, boolArray,
// stringMap); the inputs are echoed as its outputs.
"use strict";
const { serve, failure, urnType, version } = require("./serve");
const { isObject, primitivesFailure } = require("./primitive-fields");

const TYPE = "primitive-ref:index:Resource";
const prim = (type) => ({ type });
const dataProps = {
  boolean: prim("boolean"),
  float: prim("number"),
  integer: prim("integer"),
  string: prim("string"),
  boolArray: { type: "array", items: prim("boolean") },
  stringMap: { type: "object", additionalProperties: prim("string") },
};
const resProps = { data: { $ref: "#/types/primitive-ref:index:Data" } };
const schema = {
  name: "primitive-ref",
  version: version("11.0.0"),
  types: {
    "primitive-ref:index:Data": { type: "object", properties: dataProps, required: Object.keys(dataProps) },
  },
  resources: {
    [TYPE]: { type: "object", properties: resProps, required: ["data"], inputProperties: resProps,
              requiredInputs: ["data"] },
  },
};

// The Go provider's checks of a Data object, or null.
function dataFailure(data) {
  return primitivesFailure(data) ||
    (Object.keys(data).length !== 6
      ? failure("", `too many properties: ${JSON.stringify(data)}`) : null);
}

serve({
  name: "primitive-ref",
  version: schema.version,
  schema,
  async check(urn, olds, news) {
    const no = (fs) => ({ inputs: news, failures: fs });
    if (urnType(urn) !== TYPE) return no(failure("", `invalid URN type: ${urnType(urn)}`));
    if (!("data" in news)) return no(failure("data", "missing value"));
    if (!isObject(news.data)) return no(failure("data", "value is not a object"));
    if (Object.keys(news).length !== 1) return no(failure("", `too many properties: ${JSON.stringify(news)}`));
    const f = dataFailure(news.data);
    return f ? no(f) : { inputs: news };
  },
  async create(urn, inputs, preview) {
    if (urnType(urn) !== TYPE) throw new Error(`invalid URN type: ${urnType(urn)}`);
    return { id: preview ? "" : "id", outs: inputs };
  },
});

