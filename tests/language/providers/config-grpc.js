// The `config-grpc` provider (providers/config_grpc_provider.go): its
// configuration schema has properties of many shapes (string, bool, int,
// num; in a list, a map, an object {x}; numbered 1 to 3; each also as a
// `secret...` variant marked secret), and it keeps the last CheckConfig
// and Configure requests it received. Its one resource,
// config-grpc:index:ConfigFetcher, returns them as its `config` output:
// a JSON list of {method, message}, the message as protobuf's JSON
// mapping writes it. The function config-grpc:index:toSecret returns its
// arguments made secret.
"use strict";
const { serve, version } = require("./serve");

const PKG = "config-grpc";
const SIG = "4dabf18193072939515e22adb298388d";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";
const title = (s) => s[0].toUpperCase() + s.slice(1);
const withPrefix = (prefix, s) => (prefix ? prefix + title(s) : s);

function properties(types) {
  const spec = {};
  for (let n = 1; n <= 3; n++) {
    for (const [prefix, secret] of [["secret", true], ["", false]]) {
      const kinds = { string: "string", bool: "boolean", int: "integer", num: "number" };
      for (const [kind, t] of Object.entries(kinds)) {
        const ts = { type: t };
        const c = withPrefix(prefix, kind) + n;
        spec[c] = { ...ts, secret };
        spec[withPrefix("list", c)] = { type: "array", items: ts, secret };
        spec[withPrefix("map", c)] = { type: "object", additionalProperties: ts, secret };
        const token = `${PKG}:index:T${c}`;
        spec[withPrefix("obj", c)] = { $ref: "#/types/" + token, secret };
        types[token] = { type: "object", properties: { [withPrefix(prefix, "x")]: { ...ts, secret } } };
      }
    }
  }
  return spec;
}

const types = {};
const variables = properties(types);
const schema = {
  name: PKG,
  version: version("1.0.0"),
  config: { variables },
  provider: { properties: variables, inputProperties: variables },
  types,
  resources: {
    [`${PKG}:index:ConfigFetcher`]: {
      properties: { config: { type: "string" } },
      required: ["config"],
    },
  },
  functions: {
    [`${PKG}:index:toSecret`]: {
      inputs: { properties: variables },
      outputs: { properties: variables, required: Object.keys(variables) },
    },
  },
};

// The requests as protobuf's JSON mapping has them (the fields the
// assertions read).
const last = {};
function observe(method, req) {
  if (method === "CheckConfig") {
    last.CheckConfig = { urn: req.getUrn(), olds: req.getOlds()?.toJavaScript() ?? {},
                         news: req.getNews()?.toJavaScript() ?? {} };
  } else {
    last.Configure = { variables: Object.fromEntries(req.getVariablesMap().toObject()),
                       args: req.getArgs()?.toJavaScript() ?? {},
                       acceptSecrets: req.getAcceptsecrets(), acceptResources: req.getAcceptresources() };
  }
}

serve({
  name: PKG,
  version: schema.version,
  schema,
  checkConfig: () => null,
  observe,
  async check(urn, olds, news) {
    return { inputs: news };
  },
  async create(urn, inputs, preview) {
    if (urn.split("::")[2].split("$").pop() !== `${PKG}:index:ConfigFetcher`) throw new Error("Unknown resource");
    const requests = ["CheckConfig", "Configure"].map((m) => ({ method: m, message: last[m] || {} }));
    return { id: preview ? "" : "id0", outs: { config: JSON.stringify(requests) } };
  },
  async invoke(tok, args) {
    if (tok !== `${PKG}:index:toSecret`) throw new Error("Unknown function");
    const out = {};
    for (const [k, v] of Object.entries(args)) out[k] = { [SIG]: SECRET, value: v };
    return { outputs: out };
  },
});
