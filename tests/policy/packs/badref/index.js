// A policy whose config schema has a "$ref" that does not resolve:
// gojsonschema cannot load the schema, so Pulumi fails the pack.
const { PolicyPack } = require("@pulumi/policy");

new PolicyPack("mp-badref-pack", {
  policies: [
    {
      name: "bad-ref",
      description: "Its config schema refers to a definition it lacks.",
      enforcementLevel: "advisory",
      configSchema: {
        properties: { size: { $ref: "#/definitions/size" } },
      },
      validateResource: () => {},
    },
  ],
});
