// Uses a parameterized package as a generated SDK of one does: the
// package `veggies` 2.0.0 is the plugin paramprov 1.0.0 parameterized
// with the value "carrots" (RegisterPackage), and its resource and
// function name it by the package reference.
// Config: kind (the Veggie's input; a new kind replaces it).
"use strict";
const pulumi = require("@pulumi/pulumi");
const config = new pulumi.Config();

const ref = pulumi.runtime.registerPackage({
  baseProviderName: "paramprov",
  baseProviderVersion: "1.0.0",
  baseProviderDownloadUrl: "",
  packageName: "veggies",
  packageVersion: "2.0.0",
  base64Parameter: Buffer.from("carrots").toString("base64"),
});

const veggie = new pulumi.CustomResource(
  "veggies:index:Veggie",
  "veg",
  { kind: config.get("kind") || "root", servedBy: undefined },
  {},
  false,
  ref,
);
exports.servedBy = veggie.servedBy;
exports.fn = pulumi.output(
  pulumi.runtime.invoke("veggies:index:getVeggie", { kind: "leaf" }, {}, ref),
);
