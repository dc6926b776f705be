// The program of tests/automation/run.js, both ways: the module of the
// local program (workDir), whose exported function the SDK runs, and the
// inline program cases.js hands the API. Config in, outputs (one secret)
// out, one component whose name follows the config.
"use strict";
const pulumi = require("@pulumi/pulumi");

class Thing extends pulumi.ComponentResource {
  constructor(name, opts) {
    super("test:index:Thing", name, {}, opts);
    this.registerOutputs({});
  }
}

module.exports = () => {
  const config = new pulumi.Config();
  new Thing("thing-" + config.require("plain"));
  return {
    exp_static: "foo",
    exp_cfg: config.get("plain"),
    exp_secret: config.getSecret("secret"),
  };
};
