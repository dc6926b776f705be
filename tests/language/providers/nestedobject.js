// The `nestedobject` provider (providers/nested_object_provider.go):
// nestedobject:index:Target, Receiver, MapContainer and Container, whose
// outputs are their inputs (a Container adds `details`, one
// {key, value: "computed-<key>"} per input), and the function
// nestedobject:index:getValues ({names} -> {results: names}). Its
// CheckConfig takes any config.
"use strict";
const { serve, failure, urnType, version } = require("./serve");

serve({
  name: "nestedobject",
  version: version("1.42.0"),
  checkConfig: () => null,
  async check(urn, olds, news) {
    return { inputs: news };
  },
  async diff() {
    return {};
  },
  async create(urn, inputs, preview) {
    const outs = { ...inputs };
    if (urnType(urn) === "nestedobject:index:Container" && Array.isArray(inputs.inputs))
      outs.details = inputs.inputs.map((input) => ({ key: input, value: "computed-" + input }));
    return { id: preview ? "" : "id", outs };
  },
  async update(id, urn, olds, news) {
    return { outs: news };
  },
  async delete() {},
  async invoke(tok, args) {
    if (tok !== "nestedobject:index:getValues") throw new Error(`unknown function ${tok}`);
    if (!Array.isArray(args.names)) return { failures: failure("names", "missing names list") };
    return { outputs: { results: args.names } };
  },
});
