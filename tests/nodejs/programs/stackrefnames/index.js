// Says which project it is, and reads `who` of the stack OTHER_STACK
// names, if any, through a StackReference.
const pulumi = require("@pulumi/pulumi");

exports.who = pulumi.getProject();
if (process.env.OTHER_STACK) {
  const other = new pulumi.StackReference(process.env.OTHER_STACK);
  exports.theirs = other.getOutput("who");
}
