// Reads another stack's outputs through a StackReference.
const pulumi = require("@pulumi/pulumi");

const other = new pulumi.StackReference(process.env.OTHER_STACK);
exports.theirGreeting = other.getOutput("greeting");
exports.theirToken = other.getOutput("secretToken");
