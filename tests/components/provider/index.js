// A component provider written with the Pulumi Node.js SDK's provider
// library, served as `pulumi-resource-petcomp`. Its component
// petcomp:index:Pet has two children: a random:RandomPet (served by the
// built-in random provider) and a command:local:Command that echoes the
// pet's name. Inputs: prefix (replaces the pet when it changes), note
// (any value; a secret must come back a secret), and a dependency that the
// command keeps; childPrefix (optional) goes before the children's names,
// so that several Pets can live in one stack. Outputs: petName, echoed, note.
// Method petcomp:index:Pet/greet(word) -> {message} (secret when word is).
// GetSchema lists Pet with isComponent (Pulumi YAML programs ask for it).
// PETCOMP_THROW=1 makes Construct throw.
"use strict";
const pulumi = require("@pulumi/pulumi");
const provider = require("@pulumi/pulumi/provider");

class Pet extends pulumi.ComponentResource {
  constructor(name, args, opts) {
    super("petcomp:index:Pet", name, {}, opts);
    const pet = new pulumi.CustomResource(
      "random:index/randomPet:RandomPet",
      `${args.childPrefix || ""}petchild`,
      { length: 2, prefix: args.prefix, separator: "-", petName: undefined, id: undefined },
      { parent: this },
    );
    this.petName = pet.id;
    const cmd = new pulumi.CustomResource(
      "command:local:Command",
      `${args.childPrefix || ""}echochild`,
      { create: pulumi.interpolate`echo ${pet.id}`, stdout: undefined },
      { parent: this },
    );
    this.echoed = cmd.stdout;
    this.note = args.note;
    this.registerOutputs({ petName: this.petName, echoed: this.echoed, note: this.note });
  }
}

// What GetSchema answers (the SDK's provider library serves `schema`):
// Pet is a component, so that a Pulumi YAML program registers it remote.
const schema = {
  name: "petcomp",
  version: "1.0.0",
  resources: {
    "petcomp:index:Pet": {
      isComponent: true,
      inputProperties: { prefix: { type: "string" }, note: { type: "string" } },
      properties: {
        petName: { type: "string" },
        echoed: { type: "string" },
        note: { type: "string" },
      },
      methods: { greet: "petcomp:index:Pet/greet" },
    },
  },
  functions: {
    "petcomp:index:Pet/greet": {
      inputs: {
        properties: { __self__: { $ref: "#/resources/petcomp:index:Pet" }, word: { type: "string" } },
      },
      outputs: { properties: { message: { type: "string" } } },
    },
  },
};

provider.main(
  {
    version: "1.0.0",
    schema: JSON.stringify(schema),
    async construct(name, type, inputs, options) {
      if (type !== "petcomp:index:Pet") throw new Error(`unknown resource type ${type}`);
      if (process.env.PETCOMP_THROW === "1") throw new Error("petcomp: the pet ran away");
      const pet = new Pet(name, inputs, options);
      return {
        urn: pet.urn,
        state: { petName: pet.petName, echoed: pet.echoed, note: pet.note },
      };
    },
    async call(token, inputs) {
      if (token !== "petcomp:index:Pet/greet") throw new Error(`unknown method ${token}`);
      // `__self__` is a resource reference; without a resource module for
      // the type the SDK gives the reference's URN.
      const self = inputs.__self__;
      const urn = typeof self === "string" ? self : self.urn;
      return {
        outputs: {
          message: pulumi.all([inputs.word, urn]).apply(
            ([w, urn]) => `${w} from ${urn.split("::").pop()}`,
          ),
        },
      };
    },
  },
  process.argv.slice(2),
);
