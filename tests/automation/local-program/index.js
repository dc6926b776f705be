// The local program of tests/automation/run.js: config in, outputs (one
// secret) out, one resource whose input follows the config.
"use strict";
const pulumi = require("@pulumi/pulumi");

const config = new pulumi.Config();
class Thing extends pulumi.ComponentResource {
  constructor(name, opts) {
    super("test:index:Thing", name, {}, opts);
    this.registerOutputs({});
  }
}
new Thing("thing-" + config.require("plain"));
module.exports = {
  exp_static: "foo",
  exp_cfg: config.get("plain"),
  exp_secret: config.getSecret("secret"),
};
