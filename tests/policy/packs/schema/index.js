// The config schema pack: "tag-rules" needs a "tag" (required, no
// default), has bounds on "maxTags" and an enum for "mode", and optional
// properties using format, patternProperties, anyOf and $ref; the engine
// checks a --policy-pack-config against it before running anything.
const { PolicyPack } = require("@pulumi/policy");

new PolicyPack("mp-schema-pack", {
  policies: [
    {
      name: "tag-rules",
      description: "Resources carry the configured tag.",
      enforcementLevel: "advisory",
      configSchema: {
        properties: {
          tag: { type: "string", minLength: 2 },
          maxTags: { type: "integer", minimum: 1, maximum: 10, default: 5 },
          mode: { type: "string", enum: ["strict", "lax"], default: "lax" },
          owner: { type: "string", format: "email" },
          labels: {
            type: "object",
            patternProperties: { "^x-": { type: "string" } },
            additionalProperties: false,
          },
          limit: { anyOf: [{ type: "integer", minimum: 1 }, { const: "none" }] },
          backup: { $ref: "#/properties/maxTags" },
        },
        required: ["tag"],
      },
      validateResource: (args, reportViolation) => {
        const { tag, mode } = args.getConfig();
        if (mode === "strict" && !(args.props.keepers || {})[tag])
          reportViolation(`no keeper '${tag}'`);
      },
    },
  ],
});
