// The resource options the monitor must carry from a Node.js program, on
// the built-in `test` provider (its calls are logged in the test world)
// and @pulumi/command. STEP=1 creates; STEP=2 drops a retained resource
// and an owner with its deletedWith dependent, changes a replaceOnChanges
// property and imports an existing object; STEP=3 adds a command that
// outlives its custom create timeout.
const pulumi = require("@pulumi/pulumi");
const command = require("@pulumi/command");

const step = Number(process.env.STEP || "1");

class Res extends pulumi.CustomResource {
  constructor(name, props, opts) {
    super("test:index:Resource", name, props, opts);
  }
}

// A resource used as an input travels as a resource reference.
const pet = new Res("pet", { v: "p" });
const user = new Res("user", { v: "u", target: pet });
if (step === 1) {
  new Res("kept", { v: "k" }, { retainOnDelete: true });
  const owner = new Res("owner", { v: "o" });
  new Res("owned", { v: "w" }, { deletedWith: owner });
}
new Res("roc", { flavor: step === 1 ? "a" : "b", other: "x" },
  { replaceOnChanges: ["flavor"] });
if (step >= 2) {
  new Res("imp", { v: "i" }, { import: "ext-1" });
}
if (step === 3) {
  new command.local.Command("slow", { create: "sleep 5" },
    { customTimeouts: { create: "1s" } });
}
exports.petId = pet.id;
exports.userTarget = user.target;
