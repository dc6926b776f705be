// The `parameterized` provider (providers/parameterized_provider.go),
// plugin version 1.2.3. Unparameterized its schema is only its name;
// Parameterize (a name, a version, a value) makes it the package of that
// name, whose resource <name>:index:<value>, component
// <name>:index:<value>Component and function <name>:index:do<Value> all
// answer the value (a resource's `parameterValue` with the provider's
// `text` config after a space; the function's `output` the input then the
// value). CheckConfig demands `version`, the parameterized version.
"use strict";
const { serve, failure, urnType } = require("./serve");
const { override, createURN } = require("./param-common");

let pkg = "", version = "", value = "", text = "";

const title = (s) => (s ? s[0].toUpperCase() + s.slice(1) : s);
const resourceToken = () => `${pkg}:index:${value}`;

function schema() {
  if (pkg === "") return { name: "parameterized", version: "1.2.3" };
  if (version === "") throw new Error("expected a parameter version for a parameterized provider");
  if (value === "") throw new Error("expected parameter value to be non-empty");
  const spec = {
    type: "object",
    properties: { parameterValue: { type: "string" } },
    required: ["parameterValue"],
  };
  return {
    name: pkg,
    version,
    provider: { inputProperties: { text: { type: "string" } } },
    resources: {
      [resourceToken()]: spec,
      [resourceToken() + "Component"]: { isComponent: true, ...spec },
    },
    functions: {
      [`${pkg}:index:do${title(value)}`]: {
        inputs: { type: "object", properties: { input: { type: "string" } }, required: ["input"] },
        outputs: { type: "object", properties: { output: { type: "string" } }, required: ["output"] },
      },
    },
    parameterization: {
      baseProvider: { name: "parameterized", version: "1.2.3" },
      parameter: Buffer.from(value).toString("base64"),
    },
  };
}

override({
  parameterize(name, ver, bytes) {
    if (!name) throw new Error("expected a non-empty name when parameterizing");
    pkg = name;
    version = ver;
    value = bytes.toString("utf-8");
    return { name, version: ver };
  },
  getSchema: () => schema(),
  construct(req) {
    const token = `${pkg}:index:${value}Component`;
    return {
      urn: createURN(req.getName(), token, req.getParent(), req.getProject(), req.getStack()),
      state: { parameterValue: value + "Component" },
    };
  },
});

serve({
  name: "parameterized",
  version: "1.2.3",
  checkConfig(news) {
    if (!("version" in news)) return failure("version", "missing version");
    if (typeof news.version !== "string") return failure("version", "version is not a string");
    if (news.version !== version)
      return failure("version", "version in CheckConfig is not the parameterized version");
    if ("text" in news) {
      if (typeof news.text !== "string") return failure("text", "text is not a string");
      text = news.text;
    }
    if (Object.keys(news).length > 2) return failure("", `too many properties: ${JSON.stringify(news)}`);
    return null;
  },
  async check(urn, olds, news) {
    if (urnType(urn) !== resourceToken())
      return { inputs: news, failures: failure("", `invalid URN type: ${urnType(urn)}. Expected ${resourceToken()}`) };
    return { inputs: news };
  },
  async create(urn, inputs, preview) {
    if (urnType(urn) !== resourceToken())
      throw new Error(`invalid URN type: ${urnType(urn)}. Expected ${resourceToken()}`);
    return { id: preview ? "" : "id", outs: { parameterValue: value + (text ? " " + text : "") } };
  },
  async diff() {
    return {};
  },
  async delete() {},
  async invoke(tok, args) {
    const fn = `${pkg}:index:do${title(value)}`;
    if (tok !== fn) throw new Error(`invalid function token: ${tok}. Expected ${fn}`);
    if (!("input" in args)) throw new Error("missing required argument 'input'");
    if (typeof args.input !== "string") throw new Error(`expected input to be a string, got ${JSON.stringify(args.input)}`);
    return { outputs: { output: args.input + value } };
  },
});
