// The `ref-ref` provider (providers/ref_ref_provider.go): one resource,
// ref-ref:index:Resource, whose one input `data` is an object type of
// primitives plus `innerData` (another object type of primitives), an
// optional `optionalInner` and an optional list `innerDataList` of them;
// the inputs are echoed as its outputs.
"use strict";
const { serve, failure, urnType, version } = require("./serve");
const { isObject, primitivesFailure } = require("./primitive-fields");

const TYPE = "ref-ref:index:Resource";
const prim = (type) => ({ type });
const innerProps = {
  boolean: prim("boolean"),
  float: prim("number"),
  integer: prim("integer"),
  string: prim("string"),
  boolArray: { type: "array", items: prim("boolean") },
  stringMap: { type: "object", additionalProperties: prim("string") },
};
const inner = { $ref: "#/types/ref-ref:index:InnerData" };
const dataProps = { ...innerProps, innerData: inner, optionalInner: inner,
                    innerDataList: { type: "array", items: inner } };
const resProps = { data: { $ref: "#/types/ref-ref:index:Data" } };
const schema = {
  name: "ref-ref",
  version: version("12.0.0"),
  types: {
    "ref-ref:index:InnerData": { type: "object", properties: innerProps, required: Object.keys(innerProps) },
    "ref-ref:index:Data": { type: "object", properties: dataProps,
                            required: [...Object.keys(innerProps), "innerData"] },
  },
  resources: {
    [TYPE]: { type: "object", properties: resProps, required: ["data"], inputProperties: resProps,
              requiredInputs: ["data"] },
  },
};

function innerFailure(key, v) {
  if (!isObject(v)) return failure(key, "value is not an object");
  return primitivesFailure(v) ||
    (Object.keys(v).length !== 6 ? failure(key, `too many properties: ${JSON.stringify(v)}`) : null);
}

serve({
  name: "ref-ref",
  version: schema.version,
  schema,
  async check(urn, olds, news) {
    const no = (fs) => ({ inputs: news, failures: fs });
    if (urnType(urn) !== TYPE) return no(failure("", `invalid URN type: ${urnType(urn)}`));
    if (!("data" in news)) return no(failure("data", "missing value"));
    if (!isObject(news.data)) return no(failure("data", "value is not a object"));
    if (Object.keys(news).length !== 1) return no(failure("", `too many properties: ${JSON.stringify(news)}`));
    const data = news.data;
    let f = primitivesFailure(data) || innerFailure("innerData", data.innerData);
    if (f) return no(f);
    // innerDataList is optional: 7 properties without it, 8 with it.
    let want = 7;
    if ("innerDataList" in data) {
      if (!Array.isArray(data.innerDataList)) return no(failure("innerDataList", "value is not an array"));
      for (const e of data.innerDataList) if ((f = innerFailure("innerDataList", e))) return no(f);
      want = 8;
    }
    if (Object.keys(data).length !== want) return no(failure("", `too many properties: ${JSON.stringify(data)}`));
    return { inputs: news };
  },
  async create(urn, inputs, preview) {
    if (urnType(urn) !== TYPE) throw new Error(`invalid URN type: ${urnType(urn)}`);
    return { id: preview ? "" : "id", outs: inputs };
  },
});
