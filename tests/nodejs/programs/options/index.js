// Resource options. STEP=1 creates; STEP=2 renames one resource and
// reparents another under a component, both with aliases (same), and
// changes an input that ignoreChanges covers.
const pulumi = require("@pulumi/pulumi");
const random = require("@pulumi/random");

const step = Number(process.env.STEP || "1");

class Box extends pulumi.ComponentResource {
  constructor(name, opts) {
    super("test:index:Box", name, {}, opts);
    this.registerOutputs({});
  }
}
const box = new Box("box");
if (step === 1) {
  new random.RandomPet("old-name", { length: 1 });
  new random.RandomPet("kid", { length: 1 });
} else {
  new random.RandomPet("new-name", { length: 1 }, { aliases: [{ name: "old-name" }] });
  new random.RandomPet("kid", { length: 1 },
    { parent: box, aliases: [{ parent: pulumi.rootStackResource }] });
}
new random.RandomPet("guarded", { length: 1 }, { protect: step < 3 });
const ign = new random.RandomPet("ign", { length: step === 1 ? 1 : 3 }, { ignoreChanges: ["length"] });
exports.ignLength = ign.length;
