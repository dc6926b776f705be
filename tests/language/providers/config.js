// The `config` provider (providers/config_provider.go): a provider with
// configuration (a required `name`, an optional `pluginDownloadURL`) and
// one resource, config:index:Resource, whose `text` comes back prefixed
// (the Go provider's prefix is never set, so the prefix is ": ").
"use strict";
const { serve, failure, urnType, version } = require("./serve");

const TYPE = "config:index:Resource";
const VERSION = version("9.0.0");
const str = { type: "string" };
const providerProps = { name: str, pluginDownloadURL: str };

const schema = {
  name: "config",
  version: VERSION,
  config: { variables: providerProps, required: ["name"] },
  pluginDownloadURL: "http://example.com",
  provider: {
    type: "object",
    properties: { ...providerProps, version: str },
    required: ["name", "version"],
    inputProperties: providerProps,
    requiredInputs: ["name"],
  },
  resources: {
    [TYPE]: {
      type: "object",
      properties: { text: str },
      required: ["text"],
      inputProperties: { text: str },
      requiredInputs: ["text"],
    },
  },
};

// CheckConfig: version 9.0.0 and a name, both strings, a string
// pluginDownloadURL if any, and nothing else.
function checkConfig(news) {
  const check = (required, key, expected) => {
    if (!(key in news)) return required ? failure(key, `missing ${key}`) : null;
    if (typeof news[key] !== "string") return failure(key, `${key} is not a string`);
    if (expected && news[key] !== expected) return failure(key, `${key} is not ${expected}`);
    return null;
  };
  return check(true, "version", VERSION) || check(true, "name", "") ||
    check(false, "pluginDownloadURL", "") ||
    (Object.keys(news).length > 3 ? failure("", `too many properties: ${JSON.stringify(news)}`) : null);
}

serve({
  name: "config",
  version: VERSION,
  schema,
  checkConfig,
  async check(urn, olds, news) {
    const no = (property, reason) => ({ inputs: news, failures: failure(property, reason) });
    if (urnType(urn) !== TYPE) return no("", `invalid URN type: ${urnType(urn)}`);
    if (!("text" in news)) return no("text", "missing text");
    if (typeof news.text !== "string") return no("text", "text is not a string");
    if (Object.keys(news).length !== 1) return no("", `too many properties: ${JSON.stringify(news)}`);
    return { inputs: news };
  },
  async create(urn, inputs, preview) {
    if (urnType(urn) !== TYPE) throw new Error(`invalid URN type: ${urnType(urn)}`);
    return { id: preview ? "" : "id", outs: { text: ": " + inputs.text } };
  },
});
