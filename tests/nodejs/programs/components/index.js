// A component with children and registered outputs; stack outputs, one
// secret; plain and secret config.
const pulumi = require("@pulumi/pulumi");
const random = require("@pulumi/random");

const cfg = new pulumi.Config();
const greeting = cfg.require("greeting");
const token = cfg.requireSecret("token");

class Pair extends pulumi.ComponentResource {
  constructor(name, opts) {
    super("test:index:Pair", name, {}, opts);
    this.left = new random.RandomString("left", { length: 8, special: false }, { parent: this });
    this.right = new random.RandomPet("right", { length: 2 }, { parent: this });
    this.joined = pulumi.interpolate`${this.left.result}+${this.right.id}`;
    this.registerOutputs({ joined: this.joined });
  }
}

console.log(`program says ${greeting}`);
const pair = new Pair("pair");
exports.joined = pair.joined;
exports.greeting = greeting;
exports.tokenLength = pulumi.unsecret(token).apply((t) => t.length);
exports.secretToken = token;
exports.nested = { list: [1, "two", true], flag: false };
