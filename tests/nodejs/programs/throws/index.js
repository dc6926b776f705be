// Creates one resource, then throws when FAIL is set.
const pulumi = require("@pulumi/pulumi");
const random = require("@pulumi/random");

const kept = new random.RandomPet("kept", { length: 1 });
if (process.env.FAIL) {
  throw new Error("the program failed on purpose");
}
new random.RandomPet("later", { length: 1 });
exports.kept = kept.id;
