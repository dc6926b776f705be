// Every resource type that the installed @pulumi/random exports, found by
// walking the package (each class with a __pulumiType), created once. A
// type this table has no arguments for fails the program, so that a newer
// package's type cannot go untested.
"use strict";
const pulumi = require("@pulumi/pulumi");
const random = require("@pulumi/random");

const args = {
  "random:index/randomBytes:RandomBytes": { length: 4 },
  "random:index/randomId:RandomId": { byteLength: 4 },
  "random:index/randomInteger:RandomInteger": { min: 1, max: 5 },
  "random:index/randomPassword:RandomPassword": { length: 8 },
  "random:index/randomPet:RandomPet": {},
  "random:index/randomShuffle:RandomShuffle": { inputs: ["a", "b", "c"], resultCount: 2 },
  "random:index/randomString:RandomString": { length: 8 },
  "random:index/randomUuid:RandomUuid": {},
  "random:index/randomUuid4:RandomUuid4": {},
  "random:index/randomUuid7:RandomUuid7": {},
};

const made = {};
for (const [name, cls] of Object.entries(random)) {
  if (typeof cls !== "function" || !cls.__pulumiType || name === "Provider") continue;
  const token = cls.__pulumiType;
  if (!(token in args)) throw new Error(`no arguments known for ${token}: add it to the test`);
  made[token] = new cls(name.toLowerCase(), args[token]);
}
exports.types = Object.keys(made).sort();
exports.shuffled = made["random:index/randomShuffle:RandomShuffle"].results;
exports.uuid4 = made["random:index/randomUuid4:RandomUuid4"].result;
exports.uuid7 = made["random:index/randomUuid7:RandomUuid7"].result;
