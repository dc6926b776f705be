// policy-enforcement-config's pack: an advisory policy "false" against a
// true `value`; the test changes its level through the pack's config.
const { PolicyPack } = require("@pulumi/policy");

new PolicyPack("enforcement-config", {
  enforcementLevel: "advisory",
  policies: [
    {
      name: "false",
      description: "Verifies property is false",
      enforcementLevel: "advisory",
      validateResource: (args, reportViolation) => {
        if (args.type !== "simple:index:Resource") return;
        if (args.props.value) reportViolation(`Property was ${args.props.value}`);
      },
    },
  ],
});
