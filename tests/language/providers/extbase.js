// The `extbase` provider (providers/extension_parameterized_provider.go
// at Pulumi 63edfb3796, the version Pulumi YAML's programs were made
// for), plugin version 45.0.0: a base plugin that takes extension
// parameterizations. Its own resource extbase:index:Base answers
// `baseValue: "base"`; Parameterize (a name, a version, a value) adds the
// extension's resource extbase:index:Greeting (`parameterValue`: the
// value), component extbase:index:GreetingComponent (the value then
// "Component") and function extbase:index:greet (`greeting`: "<value>,
// <name>"), all in the base package's namespace (Pulumi moved them to the
// extension's own namespace in pulumi#24143). GetSchema answers the base
// schema, or with a subpackage name the extension's (named after it, no
// provider, `extensionParameterization`). Any config is accepted.
"use strict";
const { serve, failure, urnType } = require("./serve");
const { override, createURN } = require("./param-common");

const BASE = "extbase", BASE_VERSION = "45.0.0";
let value = "";

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
  const token = `${BASE}:index:Greeting`;
  return {
    name: subpackage,
    version: subversion || BASE_VERSION,
    resources: { [token]: greetingSpec, [token + "Component"]: { isComponent: true, ...greetingSpec } },
    functions: {
      [`${BASE}:index:greet`]: {
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
    value = bytes.toString("utf-8");
    return { name, version };
  },
  getSchema: schema,
  construct(req) {
    return {
      urn: createURN(req.getName(), `${BASE}:index:GreetingComponent`, req.getParent(), req.getProject(),
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
    const t = urnType(urn), greeting = `${BASE}:index:Greeting`, base = `${BASE}:index:Base`;
    if (t !== greeting && t !== base)
      return { inputs: news, failures: failure("", `invalid URN type ${t}, expected ${greeting} or ${base}`) };
    return { inputs: news };
  },
  async create(urn, inputs, preview) {
    const t = urnType(urn);
    let outs;
    if (t === `${BASE}:index:Greeting`) outs = { parameterValue: value };
    else if (t === `${BASE}:index:Base`) outs = { baseValue: "base" };
    else throw new Error(`invalid URN type ${t}`);
    return { id: preview ? "" : "id", outs };
  },
  async diff() {
    return {};
  },
  // Not in the Go provider (which deletes nothing in its tests): an
  // extension's resource is deleted only by an instance loaded with the
  // extension, which a later run gets from the snapshot (extension_state.py).
  async delete(id, urn) {
    if (urnType(urn) === `${BASE}:index:Greeting` && !value)
      throw new Error(`cannot delete ${urn}: the provider was not loaded with the extension`);
  },
  async invoke(tok, args) {
    const want = `${BASE}:index:greet`;
    if (tok !== want) throw new Error(`invalid invoke token ${tok}, expected ${want}`);
    return { outputs: { greeting: `${value}, ${args.name}` } };
  },
});
