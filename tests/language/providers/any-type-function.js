// The `any-type-function` provider (providers/any_type_function_provider.go):
// dynListToDyn takes a list of anything (`inputs`) and returns
// {result: {resultProperty: "resultValue"}}.
"use strict";
const { serve, version } = require("./serve");
const { fail } = require("./invoke-common");

const PKG = "any-type-function";
const FN = `${PKG}:index:dynListToDyn`;
const ANY = { $ref: "pulumi.json#/Any" };

serve({
  name: PKG,
  version: version("15.0.0"),
  schema: {
    name: PKG, version: "15.0.0",
    functions: {
      [FN]: {
        inputs: { type: "object", properties: { inputs: { type: "array", items: ANY } } },
        outputs: { type: "object", properties: { result: ANY }, required: ["result"] },
      },
    },
  },
  async check(urn, olds, news) { return { inputs: {} }; },
  async create(urn, inputs, preview) { return { id: "", outs: {} }; },
  async invoke(tok, args) {
    if (tok !== FN) throw new Error(`unknown function ${tok}`);
    if (!("inputs" in args)) return fail("inputs", "missing inputs");
    if (!Array.isArray(args.inputs)) return fail("inputs", "inputs is not an array");
    return { outputs: { result: { resultProperty: "resultValue" } } };
  },
});
