// The `secret` provider (providers/secret_provider.go): one resource,
// secret:index:Resource, whose schema marks its `private*` inputs
// secret; Check insists they arrive secret, Create echoes the inputs.
// The Go source available to this port has four properties (private,
// public, privateData, publicData); Pulumi YAML's program (v3.252) also
// sets privateArray, privateMap, privateDataArray and privateDataMap,
// which this port takes to be secret properties of the same kind
// (an array and a map of strings, an array and a map of Data).
"use strict";
const { serve, failure, urnType, version } = require("./serve");

const TYPE = "secret:index:Resource";
const SIG = "4dabf18193072939515e22adb298388d";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";
const isSecret = (v) => v !== null && typeof v === "object" && v[SIG] === SECRET;
// Any number of secret layers off.
const unsecret = (v) => { while (isSecret(v)) v = v.value; return v; };
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && !(SIG in v);
const isString = (v) => typeof v === "string";

const str = { type: "string" };
const data = { type: "ref", $ref: "#/types/secret:index:Data" };
const props = {
  private: { ...str, secret: true },
  public: str,
  privateData: { ...data, secret: true },
  publicData: data,
  privateArray: { type: "array", items: str, secret: true },
  privateMap: { type: "object", additionalProperties: str, secret: true },
  privateDataArray: { type: "array", items: data, secret: true },
  privateDataMap: { type: "object", additionalProperties: data, secret: true },
};
const required = Object.keys(props);
const schema = {
  name: "secret",
  version: version("14.0.0"),
  types: {
    "secret:index:Data": {
      type: "object",
      properties: { private: { ...str, secret: true }, public: str },
      required: ["private", "public"],
    },
  },
  resources: {
    [TYPE]: { type: "object", properties: props, required, inputProperties: props, requiredInputs: required },
  },
};

// A Data object: a private and a public string (secret or not), nothing else.
function dataFailure(key, v) {
  v = unsecret(v);
  if (!isObject(v)) return failure(key, "value is not an object");
  for (const k of ["private", "public"])
    if (!(k in v)) return failure(k, "missing value");
    else if (!isString(unsecret(v[k]))) return failure(k, "value is not a string");
  if (Object.keys(v).length !== 2) return failure("", `too many properties: ${JSON.stringify(v)}`);
  return null;
}

serve({
  name: "secret",
  version: schema.version,
  schema,
  async check(urn, olds, news) {
    const no = (fs) => ({ inputs: news, failures: fs });
    const field = (key, typ, ok) =>
      !(key in news) ? failure(key, "missing value") : ok(news[key]) ? null : failure(key, "value is not a " + typ);
    const secretOf = (ok) => (v) => isSecret(v) && ok(unsecret(v));
    if (urnType(urn) !== TYPE) return no(failure("", `invalid URN type: ${urnType(urn)}`));
    const fs =
      field("privateData", "secret object", secretOf(isObject)) ||
      field("publicData", "object", isObject) ||
      field("private", "secret string", secretOf(isString)) ||
      field("public", "string", (v) => isString(unsecret(v))) ||
      field("privateArray", "secret array", secretOf(Array.isArray)) ||
      field("privateMap", "secret map", secretOf(isObject)) ||
      field("privateDataArray", "secret array", secretOf(Array.isArray)) ||
      field("privateDataMap", "secret map", secretOf(isObject));
    if (fs) return no(fs);
    if (Object.keys(news).length !== required.length)
      return no(failure("", `too many properties: ${JSON.stringify(news)}`));
    const more =
      dataFailure("publicData", news.publicData) || dataFailure("privateData", news.privateData) ||
      unsecret(news.privateArray).map((v) => isString(unsecret(v)) ? null : failure("privateArray", "element is not a string")).find((x) => x) ||
      Object.values(unsecret(news.privateMap)).map((v) => isString(unsecret(v)) ? null : failure("privateMap", "value is not a string")).find((x) => x) ||
      unsecret(news.privateDataArray).map((v) => dataFailure("privateDataArray", v)).find((x) => x) ||
      Object.values(unsecret(news.privateDataMap)).map((v) => dataFailure("privateDataMap", v)).find((x) => x);
    if (more) return no(more);
    return { inputs: news };
  },
  async create(urn, inputs, preview) {
    if (urnType(urn) !== TYPE) throw new Error(`invalid URN type: ${urnType(urn)}`);
    return { id: preview ? "" : "id", outs: inputs };
  },
});
