// What the plain, primitive-ref and ref-ref providers share: the Go
// providers' checks of an object type's six primitive fields (boolean,
// integer, float, string, boolArray, stringMap).
"use strict";
const { failure } = require("./serve");

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

// The Go provider's checks of the primitive fields of |data|, or null.
function primitivesFailure(data) {
  const fields = [
    ["boolean", "boolean", (v) => typeof v === "boolean"],
    ["integer", "number", (v) => typeof v === "number"],
    ["float", "number", (v) => typeof v === "number"],
    ["string", "string", (v) => typeof v === "string"],
    ["boolArray", "array", Array.isArray],
  ];
  for (const [key, typ, ok] of fields) {
    if (!(key in data)) return failure(key, "missing value");
    if (!ok(data[key])) return failure(key, "value is not a " + typ);
  }
  if (!data.boolArray.every((v) => typeof v === "boolean"))
    return failure("boolArray", "array element is not a boolean");
  if (!("stringMap" in data)) return failure("stringMap", "missing value");
  if (!isObject(data.stringMap)) return failure("stringMap", "value is not a map");
  if (!Object.values(data.stringMap).every((v) => typeof v === "string"))
    return failure("stringMap", "map value is not a string");
  return null;
}

module.exports = { isObject, primitivesFailure };
