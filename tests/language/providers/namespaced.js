// The `namespaced` provider (providers/namespaced_provider.go): a package
// of namespace "a-namespace" that depends on `component` 13.3.7; one
// resource, namespaced:index:Resource, with a boolean `value` and a
// `resourceRef` to a component:index:Custom (a reference into the other
// package's schema), its inputs echoed as its outputs; its id is "id".
// Its CheckConfig and Check allow up to two properties.
"use strict";
const { serve, failure, urnType, version } = require("./serve");

const TYPE = "namespaced:index:Resource";
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const props = {
  value: { type: "boolean" },
  resourceRef: { $ref: "/component/v13.3.7/schema.json#/resources/component:index:Custom" },
};
const schema = {
  name: "namespaced",
  version: "16.0.0",
  namespace: "a-namespace",
  resources: {
    [TYPE]: { type: "object", properties: props, required: ["value"], inputProperties: props,
              requiredInputs: ["value"] },
  },
  dependencies: [{ name: "component", version: "13.3.7" }],
};

const VERSION = version("16.0.0");

serve({
  name: "namespaced",
  version: VERSION,
  schema,
  checkConfig(news) {
    if (!("version" in news)) return failure("version", "missing version");
    if (typeof news.version !== "string") return failure("version", "version is not a string");
    if (news.version !== VERSION) return failure("version", `version is not ${VERSION}`);
    if (Object.keys(news).length > 2)
      return failure("", `too many properties: ${JSON.stringify(news)}`);
    return null;
  },
  async check(urn, olds, news) {
    if (urnType(urn) !== TYPE)
      return { inputs: news, failures: failure("", `invalid URN type: ${urnType(urn)}`) };
    if (!("value" in news)) return { inputs: news, failures: failure("value", "missing value") };
    if (typeof news.value !== "boolean" && news.value !== UNKNOWN)
      return { inputs: news, failures: failure("value", "value is not a boolean") };
    if (Object.keys(news).length > 2)
      return { inputs: news, failures: failure("", `too many properties: ${JSON.stringify(news)}`) };
    return { inputs: news };
  },
  async create(urn, inputs, preview) {
    if (urnType(urn) !== TYPE) throw new Error(`invalid URN type: ${urnType(urn)}`);
    return { id: preview ? "" : "id", outs: inputs };
  },
});
