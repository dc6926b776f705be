// The `component` provider (providers/component_provider.go): a
// component provider. One custom resource, component:index:Custom (a
// string `value` echoed; its id "id-<value>"), and components that the
// SDK's provider server constructs (`construct`), their children
// registered through the SDK's ComponentResource and CustomResource with
// the engine's monitor, as the Go provider registers them with its own
// monitor client:
//   ComponentCustomRefOutput(value): child <name>-child; outputs value and
//     ref (a reference to the child);
//   ComponentCustomRefInputOutput(inputRef): hydrates inputRef (the
//     engine's pulumi:pulumi:getResource, through the SDK's `urn` option),
//     makes a child with its value; outputs inputRef and outputRef;
//   ComponentCallable(value): a child; output value; methods identity and
//     prefixed(prefix);
//   ComponentForeignChild(value): a simple:index:Resource child, on the
//     component's provider for `simple`.
// Function component:index:identity(input) -> {result: input}.
// GetSchema answers the Go provider's schema: the YAML host registers the
// types marked isComponent remote.
"use strict";
const path = require("path");
const { serve, failure, version } = require("./serve");
const oneValue = require("./one-value");
const pulumi = require(path.join(__dirname, "..", "node_modules", "@pulumi/pulumi"));

const VERSION = version("13.3.7");
const CUSTOM = "component:index:Custom";

const prim = (type) => ({ type });
const ref = (token) => ({ type: "ref", $ref: token });
const customRef = ref("#/resources/component:index:Custom");

// The Go provider's resource(): every input and output required.
function resource(isComponent, description, inputs, outputs) {
  const spec = { description, type: "object", properties: outputs,
                 required: Object.keys(outputs).sort(), inputProperties: inputs,
                 requiredInputs: Object.keys(inputs).sort() };
  if (isComponent) spec.isComponent = true;
  return spec;
}

function method(description, inputs, required) {
  return {
    description,
    inputs: { type: "object", properties: inputs, required },
    outputs: { type: "object", properties: { result: prim("string") }, required: ["result"] },
  };
}

const callable = resource(true, "A component resource that has callable methods.",
                          { value: prim("string") }, { value: prim("string") });
callable.methods = {
  identity: "component:index:ComponentCallable/identity",
  prefixed: "component:index:ComponentCallable/prefixed",
};
const selfRef = ref("#/resources/component:index:ComponentCallable");

const schema = {
  name: "component",
  version: "13.3.7",
  resources: {
    [CUSTOM]: resource(false, "A custom resource with a single string input and output",
                       { value: prim("string") }, { value: prim("string") }),
    "component:index:ComponentCustomRefOutput": resource(
      true,
      "A component resource that accepts an input that is used to create a child custom " +
      "resource. A reference to this child custom resource is returned.",
      { value: prim("string") }, { value: prim("string"), ref: customRef }),
    "component:index:ComponentCustomRefInputOutput": resource(
      true,
      "A component resource that accepts a reference to a custom resource. The input " +
      "resource's `value` is used to create a child custom resource inside the component, " +
      "before a reference to this child is returned.",
      { inputRef: customRef }, { inputRef: customRef, outputRef: customRef }),
    "component:index:ComponentForeignChild": resource(
      true,
      "A component resource that creates a child custom resource from another package " +
      "(simple), using the provider passed for that package in the component's providers map.",
      { value: prim("boolean") }, { value: prim("boolean") }),
    "component:index:ComponentCallable": callable,
  },
  functions: {
    "component:index:ComponentCallable/identity": method(
      "The `identity` method of the `ComponentCallable` component resource. " +
      "Returns the component's `value` unaltered.",
      { __self__: selfRef }, ["__self__"]),
    "component:index:ComponentCallable/prefixed": method(
      "The `prefixed` method of the `ComponentCallable` component resource. " +
      "Accepts a string and returns the component's `value` prefixed with that string.",
      { __self__: selfRef, prefix: prim("string") }, ["__self__", "prefix"]),
    "component:index:identity": {
      description: "Returns its input unchanged.",
      inputs: { type: "object", properties: { input: prim("string") }, required: ["input"] },
      outputs: { type: "object", properties: { result: prim("string") }, required: ["result"] },
    },
  },
};

// A reference to a component:index:Custom (in a component's inputs)
// becomes a live resource, read from the engine by its URN, as a
// generated SDK's resource module makes one.
pulumi.runtime.registerResourceModule("component", "index", {
  version: "13.3.7",
  construct(name, type, urn) {
    if (type !== CUSTOM) throw new Error(`unknown resource type ${type}`);
    return new pulumi.CustomResource(CUSTOM, name, { value: undefined }, { urn });
  },
});

// The component itself, registered as the Go provider registers it.
function component(type, name, opts) {
  return new pulumi.ComponentResource(type, name, {}, opts);
}

function custom(name, value, parent) {
  return new pulumi.CustomResource(CUSTOM, name, { value }, { parent, version: "13.3.7" });
}

const constructors = {
  "component:index:ComponentCustomRefOutput"(name, inputs, opts) {
    const comp = component("component:index:ComponentCustomRefOutput", name, opts);
    const child = custom(`${name}-child`, inputs.value, comp);
    const state = { value: child.value, ref: child };
    comp.registerOutputs(state);
    return { urn: comp.urn, state };
  },
  "component:index:ComponentCustomRefInputOutput"(name, inputs, opts) {
    const comp = component("component:index:ComponentCustomRefInputOutput", name, opts);
    const inputRef = pulumi.output(inputs.inputRef).apply((r) => {
      if (r === undefined || r === null) throw new Error("inputRef is null");
      return r;
    });
    const child = custom(`${name}-child`, inputRef.apply((r) => r.value), comp);
    const state = { inputRef, outputRef: child };
    comp.registerOutputs(state);
    return { urn: comp.urn, state };
  },
  "component:index:ComponentCallable"(name, inputs, opts) {
    const comp = component("component:index:ComponentCallable", name, opts);
    const child = custom(`${name}-child`, inputs.value, comp);
    const state = { value: child.value };
    comp.registerOutputs(state);
    return { urn: comp.urn, state };
  },
  "component:index:ComponentForeignChild"(name, inputs, opts) {
    // Only the parent is passed on (no provider), as the Go provider does;
    // the child takes the `simple` provider of the component's map.
    const comp = component("component:index:ComponentForeignChild", name,
                           { parent: opts.parent, providers: opts.providers });
    const child = new pulumi.CustomResource("simple:index:Resource", `${name}-child`,
                                            { value: inputs.value },
                                            { parent: comp, version: "2.0.0" });
    const state = { value: child.value };
    comp.registerOutputs(state);
    return { urn: comp.urn, state };
  },
};

// The state of the resource |self| (a reference: its URN, or the live
// resource), from the engine's pulumi:pulumi:getResource.
async function selfState(self) {
  const urn = typeof self === "string" ? self : await pulumi.output(self.urn).promise();
  const got = await pulumi.runtime.invoke("pulumi:pulumi:getResource", { urn }).promise();
  return got.state || {};
}

serve({
  name: "component",
  version: VERSION,
  schema,
  check: oneValue.check(CUSTOM, "string"),
  create: oneValue.create(CUSTOM),
  async invoke(tok, args) {
    if (tok !== "component:index:identity") throw new Error(`unknown function ${tok}`);
    if (typeof args.input !== "string") throw new Error("missing string argument 'input'");
    return { outputs: { result: args.input } };
  },
  async construct(name, type, inputs, opts) {
    const make = constructors[type];
    if (!make) throw new Error(`unknown type ${type}`);
    return make(name, inputs, opts);
  },
  async call(tok, args) {
    if (tok === "component:index:ComponentCallable/identity") {
      const state = await selfState(await pulumi.output(args.__self__).promise());
      return { outputs: { result: state.value } };
    }
    if (tok === "component:index:ComponentCallable/prefixed") {
      const prefix = await pulumi.output(args.prefix).promise();
      if (prefix === undefined) return { outputs: {}, failures: failure("prefix", "missing prefix") };
      if (typeof prefix !== "string")
        return { outputs: {}, failures: failure("prefix", "prefix is not a string") };
      const state = await selfState(await pulumi.output(args.__self__).promise());
      return { outputs: { result: prefix + state.value } };
    }
    throw new Error(`unknown function ${tok}`);
  },
});
