// The `scalar-returns` provider (providers/scalar_returns_provider.go):
// three functions whose schema return types are not objects (a number,
// an array of booleans, a map of strings); each answers one property of
// any name, which the program sees alone.
"use strict";
const { serve, version } = require("./serve");
const { secret, stringArg, stringObject } = require("./invoke-common");

const PKG = "scalar-returns";
const fn = (outputs) => ({ inputs: stringObject(["value"], ["value"]), outputs });

const functions = {
  // the value's length, secret
  invokeSecret: (v) => ({ return: secret(v.length) }),
  // for each character of the value: whether it is a vowel
  invokeArray: (v) => ({ thisCanBeAnything: [...v].map((c) => "aeiou".includes(c)) }),
  // {value: "<value> world"}, secret when the value is "secret"
  invokeMap: (v) => {
    const m = { value: v + " world" };
    return { result: v === "secret" ? secret(m) : m };
  },
};

serve({
  name: PKG,
  version: version("21.0.0"),
  schema: {
    name: PKG, version: "21.0.0",
    functions: {
      [`${PKG}:index:invokeSecret`]: fn({ type: "number" }),
      [`${PKG}:index:invokeArray`]: fn({ type: "array", items: { type: "boolean" } }),
      [`${PKG}:index:invokeMap`]: fn({ type: "object", additionalProperties: { type: "string" } }),
    },
  },
  async invoke(tok, args) {
    const name = tok.startsWith(`${PKG}:index:`) ? tok.slice(PKG.length + 7) : "";
    if (!functions[name]) throw new Error(`unknown function ${tok}`);
    // The Go provider names invokeMap in invokeArray's unknown message.
    const bad = stringArg(args, "value", name === "invokeSecret" ? name : "invokeMap");
    return bad || { outputs: functions[name](args.value) };
  },
});
