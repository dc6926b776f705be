// The `output-only-invoke` provider (providers/output_only_invoke_provider.go):
// the functions of simple-invoke (myInvoke, myInvokeScalar, unit,
// secretInvoke), each marked `plain: false` in the schema (output-only).
"use strict";
const { serve, version } = require("./serve");
const { secret, fail, stringArg, stringResource, stringObject } = require("./invoke-common");

const PKG = "output-only-invoke";
const res = stringResource(PKG);

const functions = {
  myInvoke(args) {
    return stringArg(args, "value", "myInvoke") || { outputs: { result: args.value + " world" } };
  },
  myInvokeScalar(args) {
    return stringArg(args, "value", "myInvokeScalar") || { outputs: { result: true } };
  },
  unit(args) {
    if (Object.keys(args).length > 0) return fail("", `too many properties: ${JSON.stringify(args)}`);
    return { outputs: { result: "Hello world" } };
  },
  secretInvoke(args) {
    if (!("value" in args)) return fail("value", "missing value");
    if (typeof args.value !== "string")
      return fail("value", `value is not a string: ${JSON.stringify(args.value)}`);
    if (!("secretResponse" in args)) return fail("secretResponse", "missing secretResponse");
    if (typeof args.secretResponse !== "boolean") return fail("secretResponse", "secretResponse is not a bool");
    const response = args.value + " world";
    return { outputs: { response: args.secretResponse ? secret(response) : response, secret: args.secretResponse } };
  },
};

const result = (type) => ({ type: "object", properties: { result: { type } }, required: ["result"] });
serve({
  name: PKG,
  version: version("24.0.0"),
  schema: {
    name: PKG, version: "24.0.0", resources: res.schema,
    functions: {
      [`${PKG}:index:myInvoke`]: { plain: false, inputs: stringObject(["value"], ["value"]), outputs: result("string") },
      [`${PKG}:index:unit`]: { plain: false, inputs: { type: "object" }, outputs: result("string") },
      [`${PKG}:index:secretInvoke`]: {
        plain: false,
        inputs: { type: "object", properties: { value: { type: "string" }, secretResponse: { type: "boolean" } },
                  required: ["value", "secretResponse"] },
        outputs: { type: "object", properties: { response: { type: "string" }, secret: { type: "boolean" } },
                   required: ["response", "secret"] },
      },
    },
  },
  check: res.check,
  create: res.create,
  async invoke(tok, args) {
    const fn = functions[tok.replace(`${PKG}:index:`, "")];
    if (!fn || !tok.startsWith(`${PKG}:index:`)) throw new Error(`unknown function ${tok}`);
    return fn(args);
  },
});
