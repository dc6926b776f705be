// One advisory policy whose check does nothing: what one Analyze costs.
const { PolicyPack } = require("@pulumi/policy");

new PolicyPack("mp-noop-pack", {
  policies: [
    {
      name: "nothing",
      description: "Checks nothing.",
      enforcementLevel: "advisory",
      validateResource: () => {},
    },
  ],
});
