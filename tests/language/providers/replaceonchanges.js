// The `replaceonchanges` provider (providers/replace_on_changes_provider.go):
// replaceonchanges:index:ResourceA (a boolean `value` and an optional
// boolean `replaceProp`, which its schema marks replaceOnChanges) and
// ResourceB (a boolean `value`), their outputs their inputs. Its Diff
// leaves the diff to the engine.
"use strict";
const { serve, failure, urnType, version } = require("./serve");

const A = "replaceonchanges:index:ResourceA";
const B = "replaceonchanges:index:ResourceB";
const isBool = (v) => typeof v === "boolean" || v === "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

const propsA = {
  value: { type: "boolean" },
  replaceProp: { type: "boolean", replaceOnChanges: true },
};
const propsB = { value: { type: "boolean" } };
const schema = JSON.stringify({
  name: "replaceonchanges",
  version: "25.0.0",
  resources: {
    [A]: { type: "object", properties: propsA, required: ["value"], inputProperties: propsA,
           requiredInputs: ["value"] },
    [B]: { type: "object", properties: propsB, required: ["value"], inputProperties: propsB,
           requiredInputs: ["value"] },
  },
});

serve({
  name: "replaceonchanges",
  version: version("25.0.0"),
  schema,
  async check(urn, olds, news) {
    const t = urnType(urn);
    const no = (property, reason) => ({ inputs: news, failures: failure(property, reason) });
    if (t !== A && t !== B) return no("", `invalid URN type: ${t}`);
    if (!("value" in news)) return no("value", "missing value");
    if (!isBool(news.value)) return no("value", "value is not a boolean");
    const n = Object.keys(news).length;
    if (t === A) {
      if (n < 1 || n > 2) return no("", `wrong number of properties: ${JSON.stringify(news)}`);
      if (n === 2) {
        if (!("replaceProp" in news)) return no("", `unexpected properties: ${JSON.stringify(news)}`);
        if (!isBool(news.replaceProp)) return no("replaceProp", "replaceProp is not a boolean");
      }
    } else if (n !== 1) {
      return no("", `too many properties: ${JSON.stringify(news)}`);
    }
    return { inputs: news };
  },
  async diff() {
    return {};
  },
  async create(urn, inputs, preview) {
    const t = urnType(urn);
    if (t !== A && t !== B) throw new Error(`invalid URN type: ${t}`);
    return { id: preview ? "" : "id", outs: inputs };
  },
  async update(id, urn, olds, news) {
    const t = urnType(urn);
    if (t !== A && t !== B) throw new Error(`invalid URN type: ${t}`);
    return { outs: news };
  },
  async delete() {},
});
