// The `docs` provider (providers/docs_provider.go): docs:index:Resource
// (in -> in, out = !in, data {state: "internal data"}, and the enum
// package's StringEnum as externalEnum) and the function docs:index:fun
// (out = !in). The Go schema's descriptions, which exercise the `{{% ref %}}`
// links of generated SDKs, are left out: a YAML program has no SDK to render.
"use strict";
const { serve, failure, urnType, version } = require("./serve");

const RES = "docs:index:Resource";
const FN = "docs:index:fun";
const bool = { type: "boolean" };
const externalEnum = { $ref: "/enum/v30.0.0/schema.json#/types/enum:index:StringEnum" };
const fail = (p, r) => ({ outputs: {}, failures: failure(p, r) });

serve({
  name: "docs",
  version: version("28.0.0"),
  schema: {
    name: "docs", version: "28.0.0",
    dependencies: [{ name: "enum", version: "30.0.0" }],
    provider: { type: "object", properties: { someConfig: { type: "string" } },
                inputProperties: { someConfig: { type: "string" } } },
    resources: {
      [RES]: {
        type: "object",
        properties: { in: bool, out: bool, data: { $ref: "#/types/docs:index:ResourceData" }, externalEnum },
        required: ["out", "data", "externalEnum"],
        inputProperties: { in: bool, externalEnum },
        requiredInputs: ["in", "externalEnum"],
      },
    },
    functions: {
      [FN]: {
        inputs: { type: "object", properties: { in: bool }, required: ["in"] },
        outputs: { type: "object", properties: { out: bool }, required: ["out"] },
      },
    },
    types: {
      "docs:index:ResourceData": { type: "object", properties: { state: { type: "string" } }, required: ["state"] },
    },
  },
  async check(urn, olds, news) {
    const bad = (p, r) => ({ inputs: news, failures: failure(p, r) });
    if (urnType(urn) !== RES) return bad("", `invalid URN type: ${urnType(urn)}`);
    if (!("in" in news)) return bad("in", "missing value");
    if (typeof news.in !== "boolean") return bad("in", "value is not a boolean");
    if ("externalEnum" in news && typeof news.externalEnum !== "string")
      return bad("externalEnum", "value is not a string");
    const n = Object.keys(news).length;
    if (n !== 1 && n !== 2) return bad("", `too many properties: ${JSON.stringify(news)}`);
    return { inputs: news };
  },
  async create(urn, inputs, preview) {
    if (urnType(urn) !== RES) throw new Error(`invalid URN type: ${urnType(urn)}`);
    const outs = { in: inputs.in, out: !inputs.in, data: { state: "internal data" } };
    if ("externalEnum" in inputs) outs.externalEnum = inputs.externalEnum;
    return { id: preview ? "" : "id", outs };
  },
  async diff() { return {}; },
  async delete() {},
  async invoke(tok, args) {
    if (tok !== FN) throw new Error(`invalid function token: ${tok}`);
    if (typeof args.in !== "boolean") return fail("in", `invalid argument 'in': ${JSON.stringify(args.in)}`);
    return { outputs: { out: !args.in } };
  },
});
