// The `bytesource` provider (providers/byte_source_provider.go):
// bytesource:index:Resource decodes its `base64` input into its `bytes`
// output, a string of bytes that may not be valid UTF-8.
"use strict";
const { serve, failure, urnType, version } = require("./serve");
const { toWire } = require("./bytes-common");

const TYPE = "bytesource:index:Resource";
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const str = { type: "string" };
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

serve({
  name: "bytesource",
  version: version("48.0.0"),
  schema: {
    name: "bytesource", version: "48.0.0",
    resources: { [TYPE]: { type: "object", properties: { base64: str, bytes: str }, required: ["base64", "bytes"],
                           inputProperties: { base64: str }, requiredInputs: ["base64"] } },
  },
  async check(urn, olds, news) {
    const bad = (p, r) => ({ inputs: news, failures: failure(p, r) });
    if (urnType(urn) !== TYPE) return bad("", `invalid URN type: ${urnType(urn)}`);
    if (!("base64" in news)) return bad("base64", "missing base64");
    if (typeof news.base64 !== "string") return bad("base64", "base64 is not a string");
    if (news.base64 !== UNKNOWN && !BASE64.test(news.base64)) return bad("base64", "base64 is not valid base64");
    if (Object.keys(news).length !== 1) return bad("", `too many properties: ${JSON.stringify(news)}`);
    return { inputs: news };
  },
  async create(urn, inputs, preview) {
    if (urnType(urn) !== TYPE) throw new Error(`invalid URN type: ${urnType(urn)}`);
    if (!BASE64.test(inputs.base64)) throw new Error("base64 is not valid base64");
    const bytes = toWire(Buffer.from(inputs.base64, "base64"));
    return { id: preview ? "" : "id", outs: { base64: inputs.base64, bytes } };
  },
  async diff() { return {}; },
  async delete() {},
});
