// The `plaincomponent` provider (providers/plain_component_provider.go):
// a component plaincomponent:index:Component whose inputs are plain in
// its schema (`name`, and `settings`: {enabled, tags}), constructed by the
// SDK's provider server (`construct`) with one child,
// plaincomponent:index:Custom `<name>-child`, whose `value` is the label:
// `name`, with " (disabled)" when settings.enabled is false. The
// component's output is `label`. The custom resource echoes its string
// `value`; its id is "id-<value>".
"use strict";
const path = require("path");
const { serve, version } = require("./serve");
const oneValue = require("./one-value");
const pulumi = require(path.join(__dirname, "..", "node_modules", "@pulumi/pulumi"));

const CUSTOM = "plaincomponent:index:Custom";
const COMPONENT = "plaincomponent:index:Component";

const valueProps = { value: { type: "string" } };
const schema = {
  name: "plaincomponent",
  version: "36.0.0",
  types: {
    "plaincomponent:index:Settings": {
      type: "object",
      properties: {
        tags: { type: "object", additionalProperties: { type: "string", plain: true }, plain: true },
        enabled: { type: "boolean", plain: true },
      },
      required: ["enabled", "tags"],
    },
  },
  resources: {
    [CUSTOM]: { type: "object", properties: valueProps, required: ["value"],
                inputProperties: valueProps, requiredInputs: ["value"] },
    [COMPONENT]: {
      isComponent: true,
      type: "object",
      properties: { label: { type: "string" } },
      required: ["label"],
      inputProperties: {
        name: { type: "string", plain: true },
        settings: { type: "ref", $ref: "#/types/plaincomponent:index:Settings", plain: true },
      },
      requiredInputs: ["name", "settings"],
    },
  },
};

serve({
  name: "plaincomponent",
  version: version("36.0.0"),
  schema,
  check: oneValue.check(CUSTOM, "string"),
  create: oneValue.create(CUSTOM),
  async construct(name, type, inputs, opts) {
    if (type !== COMPONENT) throw new Error(`unknown type ${type}`);
    const comp = new pulumi.ComponentResource(COMPONENT, name, {}, opts);
    // The label, from the plain inputs (known: the program gave them plain).
    const label = pulumi.all([inputs.name, inputs.settings]).apply(([n, settings]) =>
      settings.enabled ? n : `${n} (disabled)`);
    new pulumi.CustomResource(CUSTOM, `${name}-child`, { value: label },
                              { parent: comp, version: "36.0.0" });
    comp.registerOutputs({ label });
    return { urn: comp.urn, state: { label } };
  },
});
