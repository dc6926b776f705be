// The `alpha` provider (providers/alpha_provider.go): the simple
// provider under a prerelease version, alpha:index:Resource with a
// boolean `value`.
"use strict";
const { serve, failure, urnType, version } = require("./serve");

const TYPE = "alpha:index:Resource";

serve({
  name: "alpha",
  version: version("3.0.0-alpha.1.internal+exp.sha.12345678"),
  async check(urn, olds, news) {
    if (urnType(urn) !== TYPE) return { inputs: news, failures: failure("", `invalid URN type: ${urnType(urn)}`) };
    if (!("value" in news)) return { inputs: news, failures: failure("value", "missing value") };
    if (typeof news.value !== "boolean") return { inputs: news, failures: failure("value", "value is not a boolean") };
    if (Object.keys(news).length !== 1)
      return { inputs: news, failures: failure("", `too many properties: ${JSON.stringify(news)}`) };
    return { inputs: news };
  },
  async create(urn, inputs, preview) {
    if (urnType(urn) !== TYPE) throw new Error(`invalid URN type: ${urnType(urn)}`);
    return { id: preview ? "" : "id", outs: inputs };
  },
});
