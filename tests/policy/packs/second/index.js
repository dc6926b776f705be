// A second pack: one advisory policy on every resource named "pet".
const { PolicyPack } = require("@pulumi/policy");

new PolicyPack("mp-second-pack", {
  policies: [
    {
      name: "name-not-pet",
      description: "No resource is named pet.",
      enforcementLevel: "advisory",
      validateResource: (args, reportViolation) => {
        if (args.name === "pet") reportViolation("call it something else");
      },
    },
  ],
});
