// Writes to its stdout and its stderr (the stack's diagnostics) and logs
// a warning of two lines on no resource (the stack's too).
const pulumi = require("@pulumi/pulumi");

console.log("to stdout");
console.error("to stderr");
pulumi.log.warn("a warning\non two lines");
exports.done = "yes";
