// The `output` provider (providers/output_provider.go):
// output:index:Resource ({value} -> value, output, secretOutput: "hello"
// repeated `value` times) and output:index:ComplexResource (outputArray,
// outputMap, outputObject of that string); in a preview the outputs are
// unknown, or left out when the provider's `elideUnknowns` config is true.
// Its Diff reports `value` alone.
"use strict";
const { serve, failure, urnType, version } = require("./serve");

const RES = "output:index:Resource";
const COMPLEX = "output:index:ComplexResource";
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
let elideUnknowns = false;

const parseBool = (v) => (typeof v === "boolean" ? v : ["1", "t", "T", "true", "TRUE", "True"].includes(v)
  ? true : ["0", "f", "F", "false", "FALSE", "False"].includes(v) ? false : undefined);

function checkConfig(news) {
  if (!("version" in news)) return failure("version", "missing version");
  if (typeof news.version !== "string") return failure("version", "version is not a string");
  if (news.version !== "23.0.0") return failure("version", "version is not 23.0.0");
  const has = "elideUnknowns" in news;
  if (has) {
    const v = news.elideUnknowns;
    if (typeof v === "string" && parseBool(v) === undefined)
      return failure("elideUnknowns", `elideUnknowns is not a boolean: '${v}'`);
    if (typeof v !== "string" && typeof v !== "boolean")
      return failure("elideUnknowns", "elideUnknowns is not a boolean");
    elideUnknowns = parseBool(v) === true;
  }
  if (Object.keys(news).length !== (has ? 2 : 1))
    return failure("", `too many properties: ${JSON.stringify(news)}`);
  return null;
}

function makeOutputs(typ, inputs, preview) {
  const props = { value: inputs.value };
  if (!preview) {
    const out = "hello".repeat(Math.trunc(inputs.value));
    if (typ === RES) {
      props.output = out;
      props.secretOutput = out;
    } else {
      props.outputArray = [out];
      props.outputMap = { a: out, d: out, m: out, t: out, x: out, z: out };
      props.outputObject = { output: out };
    }
  } else if (!elideUnknowns) {
    for (const k of typ === RES ? ["output", "secretOutput"] : ["outputArray", "outputMap", "outputObject"])
      props[k] = UNKNOWN;
  }
  return props;
}

const checkType = (urn) => {
  const t = urnType(urn);
  if (t !== RES && t !== COMPLEX) throw new Error(`invalid URN type: ${t}`);
  return t;
};

serve({
  name: "output",
  version: version("23.0.0"),
  checkConfig,
  async check(urn, olds, news) {
    const t = urnType(urn);
    const no = (property, reason) => ({ inputs: news, failures: failure(property, reason) });
    if (t !== RES && t !== COMPLEX) return no("", `invalid URN type: ${t}`);
    if (!("value" in news)) return no("value", "missing value");
    if (typeof news.value !== "number" && news.value !== UNKNOWN) return no("value", "value is not a number");
    if (Object.keys(news).length !== 1) return no("", `too many properties: ${JSON.stringify(news)}`);
    return { inputs: news };
  },
  async diff(id, urn, olds, news) {
    checkType(urn);
    const changed = JSON.stringify(olds.value) !== JSON.stringify(news.value);
    return { changes: changed, diffs: changed ? ["value"] : [] };
  },
  async create(urn, inputs, preview) {
    const t = checkType(urn);
    return { id: preview ? "" : "id", outs: makeOutputs(t, inputs, preview) };
  },
  async updatePreview(id, urn, olds, news, preview) {
    const t = checkType(urn);
    return { outs: makeOutputs(t, news, preview) };
  },
  async delete() {},
});
