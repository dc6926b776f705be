// The `bytesink` provider (providers/byte_sink_provider.go):
// bytesink:index:Resource checks at Create that its `bytes` input is,
// byte for byte, its `expectBase64` input decoded, so that a string of
// bytes that are not valid UTF-8 is shown to arrive whole; its outputs are
// its inputs.
"use strict";
const { serve, failure, urnType, version } = require("./serve");
const { fromWire } = require("./bytes-common");

const TYPE = "bytesink:index:Resource";
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const str = { type: "string" };
const props = { bytes: str, expectBase64: str };

serve({
  name: "bytesink",
  version: version("47.0.0"),
  schema: {
    name: "bytesink", version: "47.0.0",
    resources: { [TYPE]: { type: "object", properties: props, required: ["bytes", "expectBase64"],
                           inputProperties: props, requiredInputs: ["bytes", "expectBase64"] } },
  },
  async check(urn, olds, news) {
    const bad = (p, r) => ({ inputs: news, failures: failure(p, r) });
    if (urnType(urn) !== TYPE) return bad("", `invalid URN type: ${urnType(urn)}`);
    for (const k of ["bytes", "expectBase64"]) {
      if (!(k in news)) return bad(k, `missing ${k}`);
      if (fromWire(news[k]) === null && news[k] !== UNKNOWN) return bad(k, `${k} is not a string`);
    }
    if (Object.keys(news).length !== 2) return bad("", `too many properties: ${JSON.stringify(news)}`);
    return { inputs: news };
  },
  async create(urn, inputs, preview) {
    if (urnType(urn) !== TYPE) throw new Error(`invalid URN type: ${urnType(urn)}`);
    const want = Buffer.from(inputs.expectBase64, "base64");
    const got = fromWire(inputs.bytes);
    if (!got || !got.equals(want))
      throw new Error(`bytes does not match expectBase64: got ${got && got.toString("hex")}, want ${want.toString("hex")}`);
    return { id: preview ? "" : "id", outs: inputs };
  },
  async diff() { return {}; },
  async delete() {},
});
