// The `fail_on_create` provider (providers/fail_on_create_provider.go):
// fail_on_create:index:Resource takes a boolean `value` and every
// Create of it fails with "failed create", in a preview too.
"use strict";
const { serve, failure, urnType, version } = require("./serve");

const TYPE = "fail_on_create:index:Resource";

serve({
  name: "fail_on_create",
  version: version("4.0.0"),
  async check(urn, olds, news) {
    if (urnType(urn) !== TYPE) return { inputs: news, failures: failure("", `invalid URN type: ${urnType(urn)}`) };
    if (!("value" in news)) return { inputs: news, failures: failure("value", "missing value") };
    if (typeof news.value !== "boolean") return { inputs: news, failures: failure("value", "value is not a boolean") };
    if (Object.keys(news).length !== 1)
      return { inputs: news, failures: failure("", `too many properties: ${JSON.stringify(news)}`) };
    return { inputs: news };
  },
  async create() {
    throw new Error("failed create");
  },
});
