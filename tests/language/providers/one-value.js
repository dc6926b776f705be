// The Check and Create of the Go test providers' custom resources that
// have one input, `value`, of one primitive type, echoed as their output
// (component_provider.go's and plain_component_provider.go's Custom).
"use strict";
const { failure, urnType } = require("./serve");

// check(type, kind): Check for the resource `type` whose `value` is a
// `kind` ("string", "boolean", ...), nothing else.
function check(type, kind) {
  return async (urn, olds, news) => {
    if (urnType(urn) !== type)
      return { inputs: news, failures: failure("", `invalid URN type: ${urnType(urn)}`) };
    if (!("value" in news)) return { inputs: news, failures: failure("value", "missing value") };
    if (typeof news.value !== kind)
      return { inputs: news, failures: failure("value", `value is not a ${kind}`) };
    if (Object.keys(news).length !== 1)
      return { inputs: news, failures: failure("", `too many properties: ${JSON.stringify(news)}`) };
    return { inputs: news };
  };
}

// create(type): Create echoing the inputs, its id "id-<value>".
function create(type) {
  return async (urn, inputs, preview) => {
    if (urnType(urn) !== type) throw new Error(`invalid URN type: ${urnType(urn)}`);
    return { id: preview ? "" : `id-${inputs.value}`, outs: inputs };
  };
}

module.exports = { check, create };
