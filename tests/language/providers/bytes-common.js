// Strings holding bytes that are not valid UTF-8, as Pulumi's wire format
// carries them (sig.ByteString): {<sig>: "803fd3…", value: <base64>}. A
// JavaScript string cannot hold such bytes, so the providers keep them as
// Buffers.
"use strict";
const SIG = "4dabf18193072939515e22adb298388d";
const BYTE_STRING = "803fd3297a5875dc03ca845dda5d2a98";

// A Buffer as a wire value: a plain string when it is valid UTF-8.
function toWire(buf) {
  const text = buf.toString("utf8");
  if (Buffer.from(text, "utf8").equals(buf)) return text;
  return { [SIG]: BYTE_STRING, value: buf.toString("base64") };
}

// A wire value as a Buffer, or null when it is no string.
function fromWire(v) {
  if (typeof v === "string") return Buffer.from(v, "utf8");
  if (v && typeof v === "object" && v[SIG] === BYTE_STRING && typeof v.value === "string")
    return Buffer.from(v.value, "base64");
  return null;
}

module.exports = { toWire, fromWire };
