// A parameterizable provider plugin written with the Pulumi Node.js SDK's
// provider library, served as `pulumi-resource-paramprov` (version 1.0.0).
// Unparameterized it serves nothing; Parameterize (a value) turns it into
// the package it names, whose resource <pkg>:index:Veggie and function
// <pkg>:index:getVeggie report which parameterization served them
// (servedBy: "<name>@<version>: <value>"), so that a test sees the engine
// parameterized the plugin before using it.
"use strict";
const provider = require("@pulumi/pulumi/provider");

let param = null;

function servedBy(what) {
  if (param === null) throw new Error(`paramprov: ${what} before Parameterize`);
  return `${param.name}@${param.version}: ${param.value}`;
}

function ownType(urn) {
  const type = urn.split("::")[2];
  if (param === null || type !== `${param.name}:index:Veggie`)
    throw new Error(`paramprov: ${type} is not a resource of ${param ? param.name : "an unparameterized plugin"}`);
}

provider.main(
  {
    version: "1.0.0",
    async parameterizeValue(name, version, value) {
      param = { name, version, value };
      return { name, version };
    },
    async check(urn, olds, news) {
      ownType(urn);
      return { inputs: news };
    },
    async diff(id, urn, olds, news) {
      const replaces = olds.kind !== news.kind ? ["kind"] : [];
      return { changes: replaces.length > 0, replaces };
    },
    async create(urn, inputs) {
      ownType(urn);
      return { id: `${inputs.kind}-1`, outs: { kind: inputs.kind, servedBy: servedBy("Create") } };
    },
    async read(id, urn, props) {
      ownType(urn);
      return { id, props: { ...props, servedBy: servedBy("Read") } };
    },
    async delete(id, urn) {
      ownType(urn);
    },
    async invoke(token, inputs) {
      if (param === null || token !== `${param.name}:index:getVeggie`)
        throw new Error(`paramprov: unknown function ${token}`);
      return { outputs: { servedBy: servedBy("Invoke"), asked: inputs.kind } };
    },
  },
  process.argv.slice(2),
);
