// The `keywords` provider (providers/keywords_provider.go): resources and
// properties named after keywords and built-ins of some languages
// (builtins, lambda, property; the module `lambda`, the type Lambda).
"use strict";
const { serve, failure, urnType, version } = require("./serve");

const PKG = "keywords";
const PROPS = ["builtins", "lambda", "property"];
const TYPES = [`${PKG}:index:SomeResource`, `${PKG}:lambda:SomeResource`, `${PKG}:module:Lambda`];

const properties = {};
for (const p of PROPS) properties[p] = { type: "string" };
const resources = {};
for (const t of TYPES)
  resources[t] = { type: "object", properties, required: PROPS, inputProperties: properties, requiredInputs: PROPS };
const badType = (urn) => (TYPES.includes(urnType(urn)) ? null : `invalid URN type: ${urnType(urn)}`);

serve({
  name: PKG,
  version: version("20.0.0"),
  schema: { name: PKG, version: "20.0.0", resources },
  async check(urn, olds, news) {
    const bad = badType(urn);
    if (bad) return { inputs: news, failures: failure("", bad) };
    for (const p of PROPS) {
      if (!(p in news)) return { inputs: news, failures: failure(p, `missing ${p}`) };
      if (typeof news[p] !== "string") return { inputs: news, failures: failure(p, `${p} is not a string`) };
    }
    if (Object.keys(news).length !== PROPS.length)
      return { inputs: news, failures: failure("", `too many properties: ${JSON.stringify(news)}`) };
    return { inputs: news };
  },
  async create(urn, inputs, preview) {
    const bad = badType(urn);
    if (bad) throw new Error(bad);
    const outs = {};
    for (const p of PROPS) {
      if (!(p in inputs)) throw new Error(`missing property ${p}`);
      outs[p] = inputs[p];
    }
    return { id: preview ? "" : "id", outs };
  },
  async update(id, urn, olds, news) {
    const bad = badType(urn);
    if (bad) throw new Error(bad);
    return { outs: news };
  },
});
