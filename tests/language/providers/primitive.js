// The `primitive` provider (providers/primitive_provider.go):
// primitive:index:Resource with one property of each primitive type
// (boolean, integer, float, string, numberArray, booleanMap), echoed as
// its outputs. Secret values count as what they hold.
"use strict";
const { serve, failure, urnType, version } = require("./serve");

const TYPE = "primitive:index:Resource";
const SIG = "4dabf18193072939515e22adb298388d";
const unsecret = (v) => (v && typeof v === "object" && SIG in v ? v.value : v);
const isMap = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

const FIELDS = [
  ["boolean", "boolean", (v) => typeof v === "boolean"],
  ["integer", "number", (v) => typeof v === "number"],
  ["float", "number", (v) => typeof v === "number"],
  ["string", "string", (v) => typeof v === "string"],
  ["numberArray", "array", Array.isArray],
  ["booleanMap", "map", isMap],
];

serve({
  name: "primitive",
  version: version("7.0.0"),
  async check(urn, olds, news) {
    const no = (property, reason) => ({ inputs: news, failures: failure(property, reason) });
    if (urnType(urn) !== TYPE) return no("", `invalid URN type: ${urnType(urn)}`);
    for (const [key, typ, ok] of FIELDS) {
      if (!(key in news)) return no(key, "missing value");
      if (!ok(unsecret(news[key]))) return no(key, "value is not a " + typ);
      if (key === "numberArray" && !unsecret(news[key]).every((v) => typeof unsecret(v) === "number"))
        return no(key, "array element is not a number");
      if (key === "booleanMap" &&
          !Object.values(unsecret(news[key])).every((v) => typeof unsecret(v) === "boolean"))
        return no(key, "map value is not a boolean");
    }
    if (Object.keys(news).length !== 6) return no("", `too many properties: ${JSON.stringify(news)}`);
    return { inputs: news };
  },
  async create(urn, inputs, preview) {
    if (urnType(urn) !== TYPE) throw new Error(`invalid URN type: ${urnType(urn)}`);
    return { id: preview ? "" : "id", outs: inputs };
  },
});
