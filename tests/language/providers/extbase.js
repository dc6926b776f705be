// The `extbase` provider (providers/extension_parameterized_provider.go),
// plugin version 45.0.0: a base plugin that takes extension
// parameterizations. Its own resource extbase:index:Base answers
// `baseValue: "base"`; Parameterize (a name, a version, a value) adds the
// extension's resource <name>:index:Greeting (`parameterValue`: the
// value), component <name>:index:GreetingComponent (the value then
// "Component") and function <name>:index:greet (`greeting`: "<value>,
// <name>"). GetSchema answers the base schema, or with a subpackage name
// the extension's (no provider, `extensionParameterization`). Any config
// is accepted.
"use strict";
const { serve, failure, urnType } = require("./serve");
const { override, createURN } = require("./param-common");

const BASE = "extbase", BASE_VERSION = "45.0.0";
let ext = "", value = "";

const greetingSpec = {
  type: "object",
  properties: { parameterValue: { type: "string" } },
  required: ["parameterValue"],
};

function schema(subpackage, subversion) {
  if (!subpackage)
    return {
      name: BASE,
      version: BASE_VERSION,
      resources: {
        [`${BASE}:index:Base`]: {
          type: "object",
          properties: { baseValue: { type: "string" } },
          required: ["baseValue"],
        },
      },
    };
  const token = `${subpackage}:index:Greeting`;
  return {
    name: subpackage,
    version: subversion || BASE_VERSION,
    resources: { [token]: greetingSpec, [token + "Component"]: { isComponent: true, ...greetingSpec } },
    functions: {
      [`${subpackage}:index:greet`]: {
        inputs: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        outputs: { type: "object", properties: { greeting: { type: "string" } }, required: ["greeting"] },
      },
    },
    extensionParameterization: {
      baseProvider: { name: BASE, version: BASE_VERSION },
      parameter: Buffer.from(value).toString("base64"),
    },
  };
}

override({
  parameterize(name, version, bytes) {
    if (!name) throw new Error("extension parameterize requires name and value");
    ext = name;
    value = bytes.toString("utf-8");
    return { name, version };
  },
  getSchema: schema,
  construct(req) {
    return {
      urn: createURN(req.getName(), `${ext}:index:GreetingComponent`, req.getParent(), req.getProject(),
                     req.getStack()),
      state: { parameterValue: value + "Component" },
    };
  },
});

serve({
  name: BASE,
  version: BASE_VERSION,
  checkConfig: () => null,
  async check(urn, olds, news) {
    const t = urnType(urn), greeting = `${ext}:index:Greeting`, base = `${BASE}:index:Base`;
    if (t !== greeting && t !== base)
      return { inputs: news, failures: failure("", `invalid URN type ${t}, expected ${greeting} or ${base}`) };
    return { inputs: news };
  },
  async create(urn, inputs, preview) {
    const t = urnType(urn);
    let outs;
    if (t === `${ext}:index:Greeting`) outs = { parameterValue: value };
    else if (t === `${BASE}:index:Base`) outs = { baseValue: "base" };
    else throw new Error(`invalid URN type ${t}`);
    return { id: preview ? "" : "id", outs };
  },
  async diff() {
    return {};
  },
  async delete() {},
  async invoke(tok, args) {
    const want = `${ext}:index:greet`;
    if (tok !== want) throw new Error(`invalid invoke token ${tok}, expected ${want}`);
    return { outputs: { greeting: `${value}, ${args.name}` } };
  },
});
