// Cases of Pulumi's sdk/nodejs/tests/automation/localWorkspace.spec.ts
// that run against a local backend, rewritten for run.js (the ones that
// do not, and why, are listed in docs/automation.md).
"use strict";
const { test, stackName, auto, pulumi, assert } = require("./run.js");

const org = "organization";
const fq = (project) => auto.fullyQualifiedStackName(org, project, stackName("int_test"));
const nodeProject = (name) => ({ projectSettings: { name, runtime: "nodejs" } });

// The spec's inline program: three outputs, one secret.
const program = async () => {
  const config = new pulumi.Config();
  return {
    exp_static: "foo",
    exp_cfg: config.get("bar"),
    exp_secret: config.getSecret("buzz"),
  };
};
const stackConfig = { bar: { value: "abc" }, buzz: { value: "secret", secret: true } };

test("spec-create-select-remove", async () => {
  const ws = await auto.LocalWorkspace.create(nodeProject("node_test"));
  const name = fq("node_test");
  await ws.createStack(name);
  await ws.selectStack(name);
  await ws.removeStack(name);
});

test("spec-create-select-createOrSelect", async () => {
  const ws = await auto.LocalWorkspace.create(nodeProject("node_test"));
  const name = fq("node_test");
  await auto.Stack.create(name, ws);
  await auto.Stack.select(name, ws);
  await auto.Stack.createOrSelect(name, ws);
  await ws.removeStack(name);
});

test("spec-config", async () => {
  const ws = await auto.LocalWorkspace.create(nodeProject("node_test"));
  const name = fq("node_test");
  const stack = await auto.Stack.create(name, ws);
  await assert.rejects(stack.getConfig("node_test:plain"));
  assert.strictEqual(Object.keys(await stack.getAllConfig()).length, 0);
  await stack.setAllConfig({ plain: { value: "abc" }, secret: { value: "def", secret: true } });
  let values = await stack.getAllConfig();
  assert.deepStrictEqual(values["node_test:plain"], { value: "abc", secret: false });
  assert.deepStrictEqual(values["node_test:secret"], { value: "def", secret: true });
  await stack.removeConfig("plain");
  assert.strictEqual(Object.keys(await stack.getAllConfig()).length, 1);
  await stack.setConfig("foo", { value: "bar" });
  assert.strictEqual(Object.keys(await stack.getAllConfig()).length, 2);
  await ws.removeStack(name);
});

test("spec-config-flag-like", async () => {
  const ws = await auto.LocalWorkspace.create(nodeProject("config_flag_like"));
  const stack = await auto.Stack.create(fq("config_flag_like"), ws);
  await stack.setConfig("key", { value: "-value" });
  await stack.setConfig("secret-key", { value: "-value", secret: true });
  let values = await stack.getAllConfig();
  assert.deepStrictEqual(values["config_flag_like:key"], { value: "-value", secret: false });
  assert.deepStrictEqual(values["config_flag_like:secret-key"], { value: "-value", secret: true });
  await stack.setAllConfig({ key: { value: "-value2" }, "secret-key": { value: "-value2", secret: true } });
  values = await stack.getAllConfig();
  assert.deepStrictEqual(values["config_flag_like:key"], { value: "-value2", secret: false });
  assert.deepStrictEqual(values["config_flag_like:secret-key"], { value: "-value2", secret: true });
  await ws.removeStack(stack.name);
});

test("spec-list-stacks-current", async () => {
  const project = `node_list_test${stackName("")}`;
  const ws = await auto.LocalWorkspace.create(nodeProject(project));
  const names = [];
  for (let i = 0; i < 2; i++) {
    names.push(fq(project));
    await auto.Stack.create(names[i], ws);
    assert.strictEqual((await ws.stack()).current, true);
    assert.strictEqual((await ws.listStacks()).length, i + 1);
  }
  for (const n of names) await ws.removeStack(n);
});

test("spec-stack-status", async () => {
  const ws = await auto.LocalWorkspace.create(nodeProject("node_test"));
  const stack = await auto.Stack.create(fq("node_test"), ws);
  assert.strictEqual((await stack.history()).length, 0);
  assert.strictEqual(await stack.info(), undefined);
  await ws.removeStack(stack.name);
});

test("spec-multiple-stacks", async () => {
  const names = Array.from(Array(10).keys()).map(() => fq("inline_node"));
  const stacks = await Promise.all(
    names.map((n) => auto.LocalWorkspace.createStack({ stackName: n, projectName: "inline_node", program })));
  await Promise.all(stacks.map((s) => s.workspace.removeStack(s.name)));
});

test("spec-handles-events", async () => {
  const name = fq("inline_node");
  const stack = await auto.LocalWorkspace.createStack({ stackName: name, projectName: "inline_node", program });
  await stack.setAllConfig(stackConfig);
  let seen = false;
  const onEvent = (e) => {
    if (e.summaryEvent) seen = true;
  };
  const pre = await stack.preview({ onEvent });
  assert.ok(seen, "summary of preview");
  assert.strictEqual(pre.changeSummary.create, 1);
  seen = false;
  const up = await stack.up({ onEvent });
  assert.ok(seen, "summary of up");
  assert.strictEqual(up.summary.result, "succeeded");
  seen = false;
  assert.strictEqual((await stack.preview({ onEvent })).changeSummary.same, 1);
  assert.ok(seen, "summary of the second preview");
  seen = false;
  assert.strictEqual((await stack.refresh({ onEvent })).summary.kind, "refresh");
  assert.ok(seen, "summary of refresh");
  seen = false;
  assert.strictEqual((await stack.destroy({ onEvent })).summary.kind, "destroy");
  assert.ok(seen, "summary of destroy");
  await stack.workspace.removeStack(name);
});

test("spec-import-export", async () => {
  const name = fq("import_export_node");
  const stack = await auto.LocalWorkspace.createStack({ stackName: name, projectName: "import_export_node", program });
  try {
    await stack.setAllConfig(stackConfig);
    await stack.up();
    const state = await stack.exportStack();
    await stack.importStack(state);
    assert.strictEqual((await stack.getConfig("bar")).value, "abc");
  } finally {
    const res = await stack.destroy();
    assert.strictEqual(res.summary.result, "succeeded");
    await stack.workspace.removeStack(name);
  }
});

test("spec-stack-outputs", async () => {
  const name = fq("import_export_node");
  const stack = await auto.LocalWorkspace.createStack({ stackName: name, projectName: "import_export_node", program });
  const check = (outputs) => {
    assert.strictEqual(Object.keys(outputs).length, 3);
    assert.deepStrictEqual(outputs.exp_static, { value: "foo", secret: false });
    assert.deepStrictEqual(outputs.exp_cfg, { value: "abc", secret: false });
    assert.deepStrictEqual(outputs.exp_secret, { value: "secret", secret: true });
  };
  await stack.setAllConfig(stackConfig);
  assert.strictEqual(Object.keys(await stack.outputs()).length, 0);
  check((await stack.up()).outputs);
  check(await stack.outputs());
  await stack.destroy();
  assert.strictEqual(Object.keys(await stack.outputs()).length, 0);
  await stack.workspace.removeStack(name);
});

test("spec-rejected-promise", async () => {
  const name = fq("inline_node");
  const stack = await auto.LocalWorkspace.createStack({
    stackName: name,
    projectName: "inline_node",
    program: async () => {
      Promise.reject(new Error());
      return {};
    },
  });
  await assert.rejects(stack.up());
  const res = await stack.destroy();
  assert.strictEqual(res.summary.kind, "destroy");
  assert.strictEqual(res.summary.result, "succeeded");
  await stack.workspace.removeStack(name);
});
