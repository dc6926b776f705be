// A remediation that reads a RandomPet's prefix: in a preview where the
// prefix is another resource's output, @pulumi/policy cannot run it and
// answers Remediate with a diagnostic instead of properties.
const { PolicyPack } = require("@pulumi/policy");

new PolicyPack("mp-unknown-pack", {
  policies: [
    {
      name: "prefix-upper",
      description: "A RandomPet's prefix is in upper case.",
      enforcementLevel: "remediate",
      remediateResource: (args) => {
        if (!args.type.endsWith(":RandomPet")) return undefined;
        const prefix = args.props.prefix;
        if (typeof prefix === "string" && prefix !== prefix.toUpperCase())
          return { ...args.props, prefix: prefix.toUpperCase() };
        return undefined;
      },
    },
  ],
});
