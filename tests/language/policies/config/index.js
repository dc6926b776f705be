// policy-config's pack: a mandatory policy "allowed" that wants each
// simple:index:Resource's `value` to be the configured one.
const { PolicyPack } = require("@pulumi/policy");

new PolicyPack("config", {
  enforcementLevel: "advisory",
  policies: [
    {
      name: "allowed",
      description: "Verifies properties",
      enforcementLevel: "mandatory",
      validateResource: (args, reportViolation) => {
        if (args.type !== "simple:index:Resource") return;
        const want = args.getConfig().value;
        if (args.props.value !== want) reportViolation(`Property was ${args.props.value}`);
      },
    },
  ],
});
