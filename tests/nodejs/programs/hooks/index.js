// Resource hooks. STEP=1 creates "pet" and the component "box" with hooks
// on create, update and delete; STEP=2 changes their length (the pet is
// replaced, the box updated); STEP=3 no longer declares them, but still
// registers the delete hooks, which the state names; STEP=4
// declares "bad", whose beforeCreate hook throws. Each hook writes one line
// to $CALLS_LOG.
const fs = require("fs");
const pulumi = require("@pulumi/pulumi");
const random = require("@pulumi/random");

const step = Number(process.env.STEP || "1");
const log = (line) => fs.appendFileSync(process.env.CALLS_LOG, line + "\n");
const show = (v) => (v === undefined ? "-" : JSON.stringify(v));
const hook = (name) =>
  new pulumi.ResourceHook(name, (a) => {
    log(`${name} ${a.name} ${a.type} id=${a.id || "-"} ` +
        `newIn=${show(a.newInputs && a.newInputs.length)} ` +
        `oldIn=${show(a.oldInputs && a.oldInputs.length)} ` +
        `newOut=${show(a.newOutputs && a.newOutputs.length)} ` +
        `oldOut=${show(a.oldOutputs && a.oldOutputs.length)}`);
  });

const hooks = {
  beforeCreate: [hook("beforeCreate")],
  afterCreate: [hook("afterCreate")],
  beforeUpdate: [hook("beforeUpdate")],
  afterUpdate: [hook("afterUpdate")],
  beforeDelete: [hook("beforeDelete")],
  afterDelete: [hook("afterDelete")],
};

class Box extends pulumi.ComponentResource {
  constructor(name, args, opts) {
    super("test:index:Box", name, args, opts);
    this.registerOutputs({});
  }
}

if (step <= 2) {
  new random.RandomPet("pet", { length: step }, { hooks });
  new Box("box", { length: step }, { hooks });
}
if (step === 4) {
  const fails = new pulumi.ResourceHook("fails", () => {
    throw new Error("not today");
  });
  new random.RandomPet("bad", { length: 1 }, { hooks: { beforeCreate: [fails] } });
}
