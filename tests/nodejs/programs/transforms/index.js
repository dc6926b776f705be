// Transforms: a stack transform, a component's transform that reaches its
// children, a resource's own transform, and an invoke transform. Each
// writes a line to $CALLS_LOG when it runs, so the test sees their order.
const fs = require("fs");
const pulumi = require("@pulumi/pulumi");
const random = require("@pulumi/random");
const command = require("@pulumi/command");

const log = (line) => fs.appendFileSync(process.env.CALLS_LOG, line + "\n");
const PET = "random:index/randomPet:RandomPet";

pulumi.runtime.registerResourceTransform((args) => {
  log(`stack ${args.name}`);
  if (args.type !== PET) return undefined;
  return { props: { ...args.props, separator: "_" }, opts: args.opts };
});

pulumi.runtime.registerInvokeTransform((args) => {
  log(`invoke ${args.token}`);
  return { args: { ...args.args, command: "echo transformed" }, opts: args.opts };
});

class Box extends pulumi.ComponentResource {
  constructor(name, opts) {
    super("test:index:Box", name, {}, opts);
    this.kid = new random.RandomPet("kid", { length: 1 }, { parent: this });
    this.registerOutputs({});
  }
}

const box = new Box("box", {
  transforms: [(args) => {
    log(`box ${args.name} parent=${args.opts.parent ? "yes" : "no"}`);
    if (args.type !== PET) return undefined;
    return { props: { ...args.props, length: 3 }, opts: args.opts };
  }],
});

const own = new random.RandomString("own", { length: 4, special: false }, {
  transforms: [(args) => {
    log(`own ${args.name}`);
    return { props: { ...args.props, length: 12 }, opts: { ...args.opts, retainOnDelete: true } };
  }],
});

const ran = command.local.runOutput({ command: "echo original" });

exports.kid = box.kid.id;
exports.ownLength = own.result.apply((r) => r.length);
exports.ran = ran.stdout;

// STEP=2: a transform that throws fails the registration with its message.
// It is registered once the others are done, so that no other transform
// is running when the program fails.
if (process.env.STEP === "2") {
  pulumi.all([own.result, box.kid.id]).apply(() =>
    new random.RandomPet("boom", { length: 1 }, {
      transforms: [() => { throw new Error("no pets today"); }],
    }));
}
