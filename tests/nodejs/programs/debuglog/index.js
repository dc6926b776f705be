// Logs one line at debug level and one at info level (for -d/--debug).
const pulumi = require("@pulumi/pulumi");

pulumi.log.debug("a debug line from the program");
pulumi.log.info("an info line from the program");
exports.done = "yes";
