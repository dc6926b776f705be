// The `simple` provider (providers/simple_provider.go): one resource,
// simple:index:Resource, with a single boolean input `value` echoed as
// its output; its id is "id".
"use strict";
const { serve, failure, urnType, version } = require("./serve");

const TYPE = "simple:index:Resource";

serve({
  name: "simple",
  version: version("2.0.0"),
  async check(urn, olds, news) {
    if (urnType(urn) !== TYPE) return { inputs: news, failures: failure("", `invalid URN type: ${urnType(urn)}`) };
    if (!("value" in news)) return { inputs: news, failures: failure("value", "missing value") };
    if (typeof news.value !== "boolean" && !isUnknown(news.value))
      return { inputs: news, failures: failure("value", "value is not a boolean") };
    if (Object.keys(news).length !== 1)
      return { inputs: news, failures: failure("", `too many properties: ${JSON.stringify(news)}`) };
    return { inputs: news };
  },
  async create(urn, inputs, preview) {
    if (urnType(urn) !== TYPE) throw new Error(`invalid URN type: ${urnType(urn)}`);
    return { id: preview ? "" : "id", outs: inputs };
  },
  async update(id, urn, olds, news) {
    if (urnType(urn) !== TYPE) throw new Error(`invalid URN type: ${urnType(urn)}`);
    return { outs: news };
  },
  async read(id, urn) {
    if (urnType(urn) !== TYPE) throw new Error(`invalid URN type: ${urnType(urn)}`);
    return { id, props: { value: true }, inputs: { value: true } };
  },
});

function isUnknown(v) {
  return v === "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
}
