// The `simple-invoke-with-scalar-return` provider
// (providers/simple_invoke_with_scalar_return_provider.go): myInvokeScalar,
// whose schema return type is a plain boolean (not an object); the
// provider answers {result: true} and the program sees `true`.
"use strict";
const { serve, version } = require("./serve");
const { stringArg, stringResource, stringObject } = require("./invoke-common");

const PKG = "simple-invoke-with-scalar-return";
const FN = `${PKG}:index:myInvokeScalar`;
const res = stringResource(PKG);

serve({
  name: PKG,
  version: version("17.0.0"),
  schema: {
    name: PKG, version: "17.0.0", resources: res.schema,
    functions: { [FN]: { inputs: stringObject(["value"], ["value"]), outputs: { type: "boolean" } } },
  },
  check: res.check,
  create: res.create,
  async invoke(tok, args) {
    if (tok !== FN) throw new Error(`unknown function ${tok}`);
    return stringArg(args, "value", "myInvokeScalar") || { outputs: { result: true } };
  },
});
