// The types of the installed @pulumi/command (1.x), found by walking the
// package: the built-in `command` provider serves local:Command and the
// local:run function; with REMOTE=1 the program also declares a
// remote:Command, which the built-in does not implement (its plugin
// must serve it). A type this table does not know fails the program, so
// that a newer package's type cannot go unnoticed.
"use strict";
const pulumi = require("@pulumi/pulumi");
const command = require("@pulumi/command");

const known = {
  "command:local:Command": "built-in",
  "command:remote:Command": "plugin",
  "command:remote:CopyFile": "plugin",
  "command:remote:CopyToRemote": "plugin",
};
const types = [];
for (const mod of ["local", "remote"])
  for (const [name, cls] of Object.entries(command[mod])) {
    if (typeof cls !== "function" || !cls.__pulumiType) continue;
    if (!(cls.__pulumiType in known))
      throw new Error(`unknown type ${cls.__pulumiType}: add it to the test`);
    types.push(cls.__pulumiType);
  }

const hello = new command.local.Command("hello", { create: "echo hello" });
exports.types = types.sort();
exports.stdout = hello.stdout;
exports.ran = command.local.runOutput({ command: "echo ran" }).stdout;
if (process.env.REMOTE === "1") {
  const there = new command.remote.Command("there", {
    connection: { host: "example.invalid" },
    create: "echo there",
  });
  exports.there = there.stdout;
}
