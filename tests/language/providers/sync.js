// The `sync` provider (providers/sync_provider.go): each Create of a
// sync:index:Block waits until three Creates are in flight at once, or
// fails with "timeout" after 3 seconds, so that a test sees the engine
// create resources in parallel. Its CheckConfig accepts any config.
"use strict";
const { serve, failure, urnType, version } = require("./serve");

const TYPE = "sync:index:Block";
const LIMIT = 3;
let arrived = 0;
const waiting = [];

function barrier() {
  arrived++;
  if (arrived >= LIMIT) {
    waiting.splice(0).forEach((release) => release());
    return Promise.resolve();
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("timeout")), 3000);
    waiting.push(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

serve({
  name: "sync",
  version: version("3.0.0-alpha.1.internal+exp.sha.2143768"),
  checkConfig: () => null,
  async check(urn, olds, news) {
    if (urnType(urn) !== TYPE) return { inputs: news, failures: failure("", `invalid URN type: ${urnType(urn)}`) };
    return { inputs: news };
  },
  async create(urn, inputs, preview) {
    if (urnType(urn) !== TYPE) throw new Error(`invalid URN type: ${urnType(urn)}`);
    await barrier();
    return { id: preview ? "" : "id", outs: {} };
  },
});
