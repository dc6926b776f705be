// The `plain` provider (providers/plain_provider.go): one resource,
// plain:index:Resource, whose inputs are mostly plain in its schema:
// `data` (Data: primitives and an InnerData), an optional non-plain
// `nonPlainData` (Data) and an optional `dataList` (InnerData list); the
// inputs are echoed as its outputs.
"use strict";
const { serve, failure, urnType, version } = require("./serve");
const { isObject, primitivesFailure } = require("./primitive-fields");

const TYPE = "plain:index:Resource";
const prim = (type) => ({ type, plain: true });
const innerProps = {
  boolean: prim("boolean"),
  float: prim("number"),
  integer: prim("integer"),
  string: prim("string"),
  boolArray: { type: "array", items: prim("boolean"), plain: true },
  stringMap: { type: "object", additionalProperties: prim("string"), plain: true },
};
const innerRef = { $ref: "#/types/plain:index:InnerData", plain: true };
const dataProps = { ...innerProps, innerData: innerRef };
const resProps = {
  data: { $ref: "#/types/plain:index:Data", plain: true },
  nonPlainData: { $ref: "#/types/plain:index:Data",
                  description: "A non plain input to compare against the plain inputs." },
  dataList: { type: "array", items: innerRef, plain: true },
};
const schema = {
  name: "plain",
  version: version("13.0.0"),
  types: {
    "plain:index:InnerData": { type: "object", properties: innerProps, required: Object.keys(innerProps) },
    "plain:index:Data": { type: "object", properties: dataProps,
                          required: [...Object.keys(innerProps), "innerData"] },
  },
  resources: {
    [TYPE]: { type: "object", properties: resProps, required: ["data"], inputProperties: resProps,
              requiredInputs: ["data"] },
  },
};

// A Data: its primitives, an InnerData of six, seven properties in all.
function dataFailure(data) {
  const f = primitivesFailure(data);
  if (f) return f;
  const inner = data.innerData;
  if (!isObject(inner)) return failure("innerData", "value is not an object");
  return primitivesFailure(inner) ||
    (Object.keys(inner).length !== 6 || Object.keys(data).length !== 7
      ? failure("", `too many properties: ${JSON.stringify(data)}`) : null);
}

serve({
  name: "plain",
  version: schema.version,
  schema,
  async check(urn, olds, news) {
    const no = (fs) => ({ inputs: news, failures: fs });
    if (urnType(urn) !== TYPE) return no(failure("", `invalid URN type: ${urnType(urn)}`));
    if (!("data" in news)) return no(failure("data", "missing value"));
    if (!isObject(news.data)) return no(failure("data", "value is not a object"));
    if (Object.keys(news).length > 3) return no(failure("", `too many properties: ${JSON.stringify(news)}`));
    let f = dataFailure(news.data) || ("nonPlainData" in news ? dataFailure(news.nonPlainData) : null);
    if (f) return no(f);
    if ("dataList" in news) {
      if (!Array.isArray(news.dataList)) return no(failure("dataList", "dataList is not an array"));
      for (const item of news.dataList) {
        if (!isObject(item)) return no(failure("dataList", "dataList element is not an object"));
        if ((f = primitivesFailure(item))) return no(f);
      }
    }
    return { inputs: news };
  },
  async create(urn, inputs, preview) {
    if (urnType(urn) !== TYPE) throw new Error(`invalid URN type: ${urnType(urn)}`);
    return { id: preview ? "" : "id", outs: inputs };
  },
});
