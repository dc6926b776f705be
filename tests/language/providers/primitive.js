// The `primitive` provider (providers/primitive_provider.go):
// primitive:index:Resource with one property of each primitive type
// (boolean, integer, float, string, numberArray, booleanMap), echoed as
// its outputs, and the function primitive:index:invoke, which checks its
// arguments the same way and answers with them. Secret values count as
// what they hold.
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

// The failures of a set of properties that is not one of each primitive.
function validate(props) {
  for (const [key, typ, ok] of FIELDS) {
    if (!(key in props)) return failure(key, "missing value");
    if (!ok(unsecret(props[key]))) return failure(key, "value is not a " + typ);
    if (key === "numberArray" && !unsecret(props[key]).every((v) => typeof unsecret(v) === "number"))
      return failure(key, "array element is not a number");
    if (key === "booleanMap" &&
        !Object.values(unsecret(props[key])).every((v) => typeof unsecret(v) === "boolean"))
      return failure(key, "map value is not a boolean");
  }
  if (Object.keys(props).length !== 6) return failure("", `too many properties: ${JSON.stringify(props)}`);
  return undefined;
}

serve({
  name: "primitive",
  version: version("7.0.0"),
  async check(urn, olds, news) {
    if (urnType(urn) !== TYPE) return { inputs: news, failures: failure("", `invalid URN type: ${urnType(urn)}`) };
    const failures = validate(news);
    return failures ? { inputs: news, failures } : { inputs: news };
  },
  async create(urn, inputs, preview) {
    if (urnType(urn) !== TYPE) throw new Error(`invalid URN type: ${urnType(urn)}`);
    return { id: preview ? "" : "id", outs: inputs };
  },
  async invoke(tok, args) {
    if (tok !== "primitive:index:invoke") return { failures: failure("", `unknown invoke token: ${tok}`) };
    const failures = validate(args);
    return failures ? { failures } : { outputs: args };
  },
});
