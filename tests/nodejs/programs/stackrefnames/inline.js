// The Automation API's inline project: node inline.js PROJECT STACK
// creates the stack PROJECT/STACK with `pulumi` (minipulumi, first on
// PATH) and prints "created" or "refused: <message>".
const auto = require("@pulumi/pulumi/automation");

(async () => {
  try {
    await auto.LocalWorkspace.createStack({
      projectName: process.argv[2],
      stackName: process.argv[3],
      program: async () => ({}),
    });
    console.log("created");
  } catch (e) {
    console.log("refused: " + (e && e.message ? e.message : e));
  }
})();
