// The `extenumref` provider (providers/external_enum_ref_provider.go):
// extenumref:index:Sink, whose stringEnum is the enum package's
// StringEnum (a reference into enum 30.0.0's schema, a dependency of this
// package). The sink keeps its inputs as outputs; CheckConfig accepts any
// config.
"use strict";
const { serve, failure, urnType, version } = require("./serve");

const SINK = "extenumref:index:Sink";
const props = { stringEnum: { $ref: "/enum/v30.0.0/schema.json#/types/enum:index:StringEnum" } };

serve({
  name: "extenumref",
  version: version("32.0.0"),
  checkConfig: () => null,
  schema: {
    name: "extenumref", version: "32.0.0",
    dependencies: [{ name: "enum", version: "30.0.0" }],
    resources: { [SINK]: { properties: props, inputProperties: props } },
  },
  async check(urn, olds, news) {
    if (urnType(urn) !== SINK) return { inputs: news, failures: failure("", `invalid URN type: ${urnType(urn)}`) };
    return { inputs: news };
  },
  async create(urn, inputs) {
    if (urnType(urn) !== SINK) throw new Error(`invalid URN type: ${urnType(urn)}`);
    return { id: "new-resource-id", outs: inputs };
  },
});
