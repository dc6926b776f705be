// policy-config-schema's pack: the policy's config schema needs a boolean
// `value` and a non-empty list of resource names; only the named
// resources are checked against `value` (advisory).
const { PolicyPack } = require("@pulumi/policy");

new PolicyPack("config-schema", {
  enforcementLevel: "advisory",
  policies: [
    {
      name: "validator",
      description: "Verifies property matches config",
      enforcementLevel: "advisory",
      configSchema: {
        properties: {
          value: { type: "boolean" },
          names: { type: "array", items: { type: "string" }, minItems: 1 },
        },
        required: ["value", "names"],
      },
      validateResource: (args, reportViolation) => {
        if (args.type !== "simple:index:Resource") return;
        const { value, names } = args.getConfig();
        if (names.includes(args.name) && args.props.value !== value)
          reportViolation(`Property was ${args.props.value}`);
      },
    },
  ],
});
