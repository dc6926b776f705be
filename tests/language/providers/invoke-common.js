// What the Go invoke test providers share: a StringResource whose `text`
// output is always "Goodbye", and the checks of an invoke's arguments.
"use strict";
const { failure, urnType } = require("./serve");

const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const SECRET = "1b47061264138c4ac30d75fd1eb44270";
const SIG = "4dabf18193072939515e22adb298388d";

const secret = (v) => ({ [SIG]: SECRET, value: v });
const fail = (property, reason) => ({ outputs: {}, failures: failure(property, reason) });

// A required string argument `key` of function `fn`: null when fine,
// else the failure to answer with.
function stringArg(args, key, fn) {
  if (!(key in args)) return fail(key, `missing ${key}`);
  if (args[key] === UNKNOWN) return fail(key, `${key} is unknown when calling ${fn}`);
  if (typeof args[key] !== "string") return fail(key, "is not a string");
  return null;
}

// The StringResource of package `pkg`: Check wants one property, Create
// answers text "Goodbye".
function stringResource(pkg) {
  const type = `${pkg}:index:StringResource`;
  const props = { text: { type: "string" } };
  return {
    schema: { [type]: { type: "object", properties: props, required: ["text"],
                        inputProperties: props, requiredInputs: ["text"] } },
    async check(urn, olds, news) {
      if (urnType(urn) !== type) return { inputs: news, failures: failure("", `invalid URN type: ${urnType(urn)}`) };
      if (Object.keys(news).length !== 1)
        return { inputs: news, failures: failure("", `expected exactly one property: ${JSON.stringify(news)}`) };
      return { inputs: news };
    },
    async create(urn, inputs, preview) {
      if (urnType(urn) !== type) throw new Error(`invalid URN type: ${urnType(urn)}`);
      return { id: preview ? "" : "id", outs: { text: "Goodbye" } };
    },
  };
}

// A function's object type with string properties |names|, |required|.
function stringObject(names, required) {
  const properties = {};
  for (const n of names) properties[n] = { type: "string" };
  return { type: "object", properties, required };
}

module.exports = { UNKNOWN, secret, fail, stringArg, stringResource, stringObject };
