// Uses the remote component petcomp:index:Pet as a generated SDK would:
// the component is registered remote, its outputs come back from
// Construct, and greet is a method (ResourceMonitor.Call).
// Config: name (the component's name), oldName (an alias), prefix, noGreet.
"use strict";
const pulumi = require("@pulumi/pulumi");
const config = new pulumi.Config();

class Pet extends pulumi.ComponentResource {
  constructor(name, args, opts) {
    super(
      "petcomp:index:Pet",
      name,
      { prefix: args.prefix, note: args.note, petName: undefined, echoed: undefined },
      opts,
      true,
    );
  }
  greet(args) {
    return pulumi.runtime.call("petcomp:index:Pet/greet", { __self__: this, word: args.word }, this);
  }
}

const name = config.get("name") || "pet";
const oldName = config.get("oldName");
const pet = new Pet(
  name,
  { prefix: config.get("prefix") || "a", note: pulumi.secret("hush") },
  oldName ? { aliases: [{ name: oldName }] } : {},
);
exports.petName = pet.petName;
exports.echoed = pet.echoed;
exports.note = pet.note;
exports.petUrn = pet.urn;
// noGreet: no method call (a program whose component fails to construct
// would otherwise wait on the call forever, in the SDK).
if (!config.getBoolean("noGreet")) {
  exports.message = pet.greet({ word: "hello" }).message;
  exports.secretMessage = pet.greet({ word: pulumi.secret("psst") }).message;
}
