// Config `count` Pets of the remote component petcomp:index:Pet, all
// registered at once, each greeted through a method (Call): more
// Constructs and Calls in flight than the engine has pool threads, while
// each Construct waits for its own children to be created.
"use strict";
const pulumi = require("@pulumi/pulumi");
const config = new pulumi.Config();

class Pet extends pulumi.ComponentResource {
  constructor(name, args, opts) {
    super(
      "petcomp:index:Pet",
      name,
      { prefix: args.prefix, note: args.note, childPrefix: args.childPrefix, petName: undefined, echoed: undefined },
      opts,
      true,
    );
  }
  greet(args) {
    return pulumi.runtime.call("petcomp:index:Pet/greet", { __self__: this, word: args.word }, this);
  }
}

const count = config.requireNumber("count");
// sameChildNames: every Pet names its child alike (duplicate URNs).
const same = config.getBoolean("sameChildNames");
const messages = [];
for (let i = 0; i < count; i++) {
  const pet = new Pet(`pet${i}`, { prefix: `p${i}`, note: "n", childPrefix: same ? undefined : `pet${i}-` });
  messages.push(pet.greet({ word: "hi" }).message);
}
exports.messages = pulumi.all(messages);
