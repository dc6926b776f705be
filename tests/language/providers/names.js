// The `names` provider (providers/names_provider.go): resources whose
// names trouble some languages (ResMap, ResArray, ResList, ResResource,
// and Res in the modules `mod` and `mod/nested`), each {value: boolean},
// its outputs its inputs.
"use strict";
const { serve, failure, urnType, version } = require("./serve");

const PKG = "names";
const TYPES = ["ResMap", "ResArray", "ResList", "ResResource"].map((n) => `${PKG}:index:${n}`)
  .concat([`${PKG}:mod:Res`, `${PKG}:mod/nested:Res`]);
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

const props = { value: { type: "boolean" } };
const resources = {};
for (const t of TYPES)
  resources[t] = { type: "object", properties: props, required: ["value"],
                   inputProperties: props, requiredInputs: ["value"] };

const checkType = (urn) => (TYPES.includes(urnType(urn)) ? null : `invalid URN type: ${urnType(urn)}`);

serve({
  name: PKG,
  version: version("6.0.0"),
  schema: { name: PKG, version: "6.0.0", resources },
  async check(urn, olds, news) {
    const bad = checkType(urn);
    if (bad) return { inputs: news, failures: failure("", bad) };
    if (!("value" in news)) return { inputs: news, failures: failure("value", "missing value") };
    if (typeof news.value !== "boolean" && news.value !== UNKNOWN)
      return { inputs: news, failures: failure("value", "value is not a boolean") };
    if (Object.keys(news).length !== 1)
      return { inputs: news, failures: failure("", `too many properties: ${JSON.stringify(news)}`) };
    return { inputs: news };
  },
  async create(urn, inputs, preview) {
    const bad = checkType(urn);
    if (bad) throw new Error(bad);
    return { id: preview ? "" : "id", outs: inputs };
  },
  async update(id, urn, olds, news) {
    const bad = checkType(urn);
    if (bad) throw new Error(bad);
    return { outs: news };
  },
});
