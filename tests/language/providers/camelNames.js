// The `camelNames` provider (providers/camel_names_provider.go): camel
// case everywhere, the package, the module and the properties:
// camelNames:CoolModule:SomeResource takes theInput (boolean) and an
// optional resourceName, and answers theOutput = theInput (and
// resourceName as given).
"use strict";
const { serve, failure, urnType, version } = require("./serve");

const TYPE = "camelNames:CoolModule:SomeResource";
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const name = { type: "string" };

serve({
  name: "camelNames",
  version: version("19.0.0"),
  schema: {
    name: "camelNames", version: "19.0.0",
    resources: {
      [TYPE]: {
        type: "object", properties: { theOutput: { type: "boolean" }, resourceName: name }, required: ["theOutput"],
        inputProperties: { theInput: { type: "boolean" }, resourceName: name }, requiredInputs: ["theInput"],
      },
    },
  },
  async check(urn, olds, news) {
    const fail = (p, r) => ({ inputs: news, failures: failure(p, r) });
    if (urnType(urn) !== TYPE) return fail("", `invalid URN type: ${urnType(urn)}`);
    if (!("theInput" in news)) return fail("theInput", "missing theInput");
    if (typeof news.theInput !== "boolean" && news.theInput !== UNKNOWN)
      return fail("theInput", "theInput is not a boolean");
    let want = 1;
    if ("resourceName" in news) {
      if (typeof news.resourceName !== "string") return fail("resourceName", "resourceName is not a string");
      want = 2;
    }
    if (Object.keys(news).length !== want) return fail("", `unexpected properties: ${JSON.stringify(news)}`);
    return { inputs: news };
  },
  async create(urn, inputs, preview) {
    if (urnType(urn) !== TYPE) throw new Error(`invalid URN type: ${urnType(urn)}`);
    if (!("theInput" in inputs)) throw new Error("missing theInput property");
    const outs = { theOutput: inputs.theInput };
    if ("resourceName" in inputs) outs.resourceName = inputs.resourceName;
    return { id: preview ? "" : "id", outs };
  },
  async update(id, urn, olds, news) {
    if (urnType(urn) !== TYPE) throw new Error(`invalid URN type: ${urnType(urn)}`);
    return { outs: news };
  },
});
