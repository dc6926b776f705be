// policy-stack-config's pack: reads the stack's config (`value`, a
// boolean, through the SDK's Config as a program would) when it loads,
// and names its one mandatory policy after it.
const { PolicyPack } = require("@pulumi/policy");
const pulumi = require("@pulumi/pulumi");

const value = new pulumi.Config().requireBoolean("value");

new PolicyPack("stack-config", {
  enforcementLevel: "mandatory",
  policies: [
    {
      name: `validate-${value}`,
      description: `Verifies property is ${value}`,
      enforcementLevel: "mandatory",
      validateResource: (args, reportViolation) => {
        if (args.type !== "simple:index:Resource") return;
        if (args.props.value !== value) reportViolation(`Property was ${args.props.value}`);
      },
    },
  ],
});
