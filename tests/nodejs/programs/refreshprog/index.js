// Shapes of one program, chosen by REFRESHPROG_VERSION, for
// `refresh --run-program`: the second adds a component (with a child
// that the refresh must not create) and changes what the first
// component registers as its outputs.
const pulumi = require("@pulumi/pulumi");
const random = require("@pulumi/random");

const version = process.env.REFRESHPROG_VERSION || "1";

// One line per run of the program (a side effect a second run would
// repeat), with what the SDK says of the run.
if (process.env.REFRESHPROG_RUNS) {
  require("fs").appendFileSync(process.env.REFRESHPROG_RUNS,
                               `v${version} dryRun=${pulumi.runtime.isDryRun()}\n`);
}

class Box extends pulumi.ComponentResource {
  constructor(name, args, opts) {
    super("test:index:Box", name, args, opts);
    this.word = new random.RandomPet(`${name}-word`, { length: 1 }, { parent: this });
    this.registerOutputs({ label: args.label, word: this.word.id });
  }
}

// The third shape renames the first component, with an alias of its old
// name (its child follows it: the SDK aliases a child of an aliased parent).
const first = version === "3"
  ? new Box("renamed", { label: "v3" }, { aliases: [{ name: "first" }] })
  : new Box("first", { label: `v${version}` });
pulumi.log.info(`refreshprog ran v${version}`);
exports.word = first.word.id;
if (version === "2") {
  const second = new Box("second", { label: "new" });
  exports.secondLabel = "new";
}
