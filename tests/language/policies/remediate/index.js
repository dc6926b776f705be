// policy-remediate's pack: a remediation "fixup" that sets a
// simple:index:Resource's `value` to the configured one when it differs.
const { PolicyPack } = require("@pulumi/policy");

new PolicyPack("remediate", {
  enforcementLevel: "advisory",
  policies: [
    {
      name: "fixup",
      description: "Sets property to config",
      enforcementLevel: "remediate",
      remediateResource: (args) => {
        if (args.type !== "simple:index:Resource") return undefined;
        const want = args.getConfig().value;
        return want != args.props.value ? { value: want } : undefined;
      },
    },
  ],
});
