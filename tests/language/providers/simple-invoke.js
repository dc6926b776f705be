// The `simple-invoke` provider (providers/simple_invoke_provider.go):
// simple-invoke:index:StringResource (its `text` output is always
// "Goodbye") and the functions myInvoke, myInvokeScalar, unit,
// secretInvoke and getText (which fails for a text no StringResource
// of this plugin has created yet).
"use strict";
const { serve, failure, urnType, version } = require("./serve");

const TYPE = "simple-invoke:index:StringResource";
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";
const SIG = "4dabf18193072939515e22adb298388d";
const created = [];

const isSecret = (v) => v && typeof v === "object" && v[SIG] === SECRET;
const reveal = (v) => (isSecret(v) ? v.value : v);
const secret = (v) => ({ [SIG]: SECRET, value: v });
const fail = (property, reason) => ({ outputs: {}, failures: failure(property, reason) });

// A required string argument, or the failure to answer with.
function stringArg(args, key, fn) {
  if (!(key in args)) return fail(key, `missing ${key}`);
  if (reveal(args[key]) === UNKNOWN) return fail(key, `${key} is unknown when calling ${fn}`);
  return null;
}

const functions = {
  myInvoke(args) {
    const bad = stringArg(args, "value", "myInvoke");
    if (bad) return bad;
    if (typeof args.value !== "string") return fail("value", "is not a string");
    return { outputs: { result: args.value + " world" } };
  },
  myInvokeScalar(args) {
    const bad = stringArg(args, "value", "myInvokeScalar");
    if (bad) return bad;
    if (typeof args.value !== "string") return fail("value", "is not a string");
    return { outputs: { result: true } };
  },
  unit(args) {
    if (Object.keys(args).length > 0) return fail("", `too many properties: ${JSON.stringify(args)}`);
    return { outputs: { result: "Hello world" } };
  },
  secretInvoke(args) {
    const bad = stringArg(args, "value", "secretInvoke");
    if (bad) return bad;
    const value = reveal(args.value);
    if (typeof value !== "string") return fail("value", `value is not a string: ${JSON.stringify(value)}`);
    if (!("secretResponse" in args)) return fail("secretResponse", "missing secretResponse");
    if (typeof args.secretResponse !== "boolean") return fail("secretResponse", "secretResponse is not a bool");
    const response = args.secretResponse || isSecret(args.value) ? secret(value + " world") : value + " world";
    return { outputs: { response, secret: args.secretResponse } };
  },
  getText(args) {
    const bad = stringArg(args, "text", "getText");
    if (bad) return bad;
    if (typeof args.text !== "string") return fail("text", "text is not a string");
    if (!created.includes(args.text))
      return fail("text", `no StringResource with text ${JSON.stringify(args.text)} has been created`);
    return { outputs: { result: args.text + " world" } };
  },
};

serve({
  name: "simple-invoke",
  version: version("10.0.0"),
  async check(urn, olds, news) {
    if (urnType(urn) !== TYPE) return { inputs: news, failures: failure("", `invalid URN type: ${urnType(urn)}`) };
    if (Object.keys(news).length !== 1)
      return { inputs: news, failures: failure("", `expected exactly one property: ${JSON.stringify(news)}`) };
    return { inputs: news };
  },
  async create(urn, inputs, preview) {
    if (urnType(urn) !== TYPE) throw new Error(`invalid URN type: ${urnType(urn)}`);
    const text = "Goodbye";
    if (!preview) created.push(text);
    return { id: preview ? "" : "id", outs: { text } };
  },
  async invoke(tok, args) {
    const fn = functions[tok.replace(/^simple-invoke:index:/, "")];
    if (!fn) throw new Error(`unknown function ${tok}`);
    return fn(args);
  },
});
