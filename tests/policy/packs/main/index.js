// The test pack: a mandatory resource policy (a RandomPet's length at
// most maxLength, 3 by default: the config schema), an advisory one, a
// stack policy and a remediation (RandomPassword's special forced off).
const { PolicyPack } = require("@pulumi/policy");

const PET = "random:index/randomPet:RandomPet";
// minipulumi names the built-in one random:index:RandomPassword.
const isPassword = (t) => t.endsWith(":RandomPassword");

new PolicyPack("mp-test-pack", {
  policies: [
    {
      name: "pet-length",
      description: "A RandomPet has at most maxLength words.",
      enforcementLevel: "mandatory",
      configSchema: {
        properties: { maxLength: { type: "number", default: 3 } },
      },
      validateResource: (args, reportViolation) => {
        const { maxLength } = args.getConfig();
        if (args.type === PET && (args.props.length || 2) > maxLength)
          reportViolation(`length ${args.props.length} is more than ${maxLength}`);
      },
    },
    {
      name: "pet-prefix",
      description: "A RandomPet has a prefix.",
      enforcementLevel: "advisory",
      validateResource: (args, reportViolation) => {
        if (args.type === PET && !args.props.prefix)
          reportViolation("set a prefix");
      },
    },
    {
      name: "few-pets",
      description: "A stack has at most one RandomPet.",
      enforcementLevel: "advisory",
      validateStack: (args, reportViolation) => {
        const pets = args.resources.filter((r) => r.type === PET);
        if (pets.length > 1) reportViolation(`${pets.length} pets`);
      },
    },
    {
      name: "no-special",
      description: "A RandomPassword has no special characters.",
      enforcementLevel: "remediate",
      remediateResource: (args) => {
        if (isPassword(args.type) && args.props.special !== false)
          return { ...args.props, special: false };
      },
    },
  ],
});
