// The `multi-argument-invoke` provider
// (providers/multi_argument_invoke_provider.go): multiArgumentInvoke takes
// its inputs positionally in the schema (multiArgumentInputs: first,
// second); its result is `first`, then ` second` when given.
"use strict";
const { serve, version } = require("./serve");
const { fail, stringResource, stringObject } = require("./invoke-common");

const PKG = "multi-argument-invoke";
const FN = `${PKG}:index:multiArgumentInvoke`;
const res = stringResource(PKG);

serve({
  name: PKG,
  version: version("44.0.0"),
  schema: {
    name: PKG, version: "44.0.0", resources: res.schema,
    functions: { [FN]: { multiArgumentInputs: ["first", "second"],
                         inputs: stringObject(["first", "second"], ["first"]),
                         outputs: stringObject(["result"], ["result"]) } },
  },
  check: res.check,
  create: res.create,
  async invoke(tok, args) {
    if (tok !== FN) throw new Error(`unknown function ${tok}`);
    if (!("first" in args)) return fail("first", "missing first");
    if (typeof args.first !== "string") return fail("first", "first is not a string");
    let result = args.first;
    if (args.second !== undefined && args.second !== null) {
      if (typeof args.second !== "string") return fail("second", "second is not a string");
      result += " " + args.second;
    }
    return { outputs: { result } };
  },
});
