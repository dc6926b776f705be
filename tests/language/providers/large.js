// The `large` provider (providers/large_provider.go): large:index:String
// repeats its string `value` to about 100 MiB in its output.
"use strict";
const { serve, failure, urnType, version } = require("./serve");

const TYPE = "large:index:String";

serve({
  name: "large",
  version: version("4.3.2"),
  async check(urn, olds, news) {
    if (urnType(urn) !== TYPE) return { inputs: news, failures: failure("", `invalid URN type: ${urnType(urn)}`) };
    if (!("value" in news)) return { inputs: news, failures: failure("value", "missing value") };
    if (typeof news.value !== "string") return { inputs: news, failures: failure("value", "value is not a string") };
    if (Object.keys(news).length !== 1)
      return { inputs: news, failures: failure("", `too many properties: ${JSON.stringify(news)}`) };
    return { inputs: news };
  },
  async create(urn, inputs, preview) {
    if (urnType(urn) !== TYPE) throw new Error(`invalid URN type: ${urnType(urn)}`);
    if (typeof inputs.value !== "string") throw new Error("value is not a string");
    const repeat = Math.floor((100 * 1024 * 1024) / inputs.value.length);
    return { id: preview ? "" : "id", outs: { value: inputs.value.repeat(repeat) } };
  },
});
