// Dependencies through outputs and dependsOn; in a first preview every
// output that depends on a resource is unknown.
const pulumi = require("@pulumi/pulumi");
const random = require("@pulumi/random");

const first = new random.RandomString("first", { length: 6, special: false });
const second = new random.RandomPet("second", { prefix: first.result, length: 1 });
const third = new random.RandomInteger("third", { min: 1, max: 100 }, { dependsOn: [second] });
exports.firstResult = first.result;
exports.secondId = second.id;
exports.thirdValue = third.result;
exports.known = "plain";
// A resource looked up by URN (the engine's pulumi:pulumi:getResource).
exports.viaUrn = second.urn.apply((urn) => new random.RandomPet("lookup", {}, { urn }).id);
