// A Node.js program the test pack judges (tests/policy/t0003-nodejs.sh):
// a RandomPet of LENGTH words (default 5: too long for the mandatory
// policy) and a RandomPassword (remediated: special forced off).
const random = require("@pulumi/random");

const length = Number(process.env.LENGTH || 5);
const pet = new random.RandomPet("pet", { length });
const pw = new random.RandomPassword("pw", { length: 12 });
exports.petId = pet.id;
exports.special = pw.special;
