// Reports, as advisory violations, what the engine sends of a resource
// beside its properties: its options, its provider and (to the stack
// policy) its dependencies, as JSON the test reads back.
const { PolicyPack } = require("@pulumi/policy");

const seen = (r) => ({
  protect: r.opts.protect,
  ignoreChanges: r.opts.ignoreChanges,
  additionalSecretOutputs: r.opts.additionalSecretOutputs,
  customTimeouts: r.opts.customTimeouts,
  parent: r.opts.parent,
  deleteBeforeReplace: r.opts.deleteBeforeReplace,
  aliases: r.opts.aliases,
  provider: r.provider && {
    type: r.provider.type, name: r.provider.name, urn: r.provider.urn,
    props: Object.keys(r.provider.props).sort(),
  },
});

new PolicyPack("mp-inspect-pack", {
  policies: [
    {
      name: "resource-seen",
      description: "What Analyze saw.",
      enforcementLevel: "advisory",
      validateResource: (args, reportViolation) => {
        reportViolation(JSON.stringify(seen(args)));
      },
    },
    {
      name: "stack-seen",
      description: "What AnalyzeStack saw.",
      enforcementLevel: "advisory",
      validateStack: (args, reportViolation) => {
        for (const r of args.resources)
          reportViolation(JSON.stringify({
            name: r.name, ...seen(r),
            dependencies: r.dependencies.map((d) => d.name).sort(),
            propertyDependencies: r.propertyDependencies,
          }), r.urn);
      },
    },
  ],
});
