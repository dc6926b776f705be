// The cases of run.js: the lifecycle for an inline and a local
// program, errors, stack listing, tags, whoami.
"use strict";
const { test, stackName, localProgram, auto, pulumi, assert } = require("./run.js");

// The inline program: the same shape as local-program/index.js.
function inlineProgram() {
  const config = new pulumi.Config();
  class Thing extends pulumi.ComponentResource {
    constructor(name, opts) {
      super("test:index:Thing", name, {}, opts);
      this.registerOutputs({});
    }
  }
  new Thing("thing-" + config.require("plain"));
  return {
    exp_static: "foo",
    exp_cfg: config.get("plain"),
    exp_secret: config.getSecret("secret"),
  };
}

// The lifecycle on |stack|: config, up with events and output,
// outputs, preview, refresh, history, export/import, destroy, removal.
async function lifecycle(stack, project) {
  const ws = stack.workspace;
  await stack.setAllConfig({
    plain: { value: "abc" },
    secret: { value: "s3cr3t", secret: true },
  });
  await stack.setConfig("nested.list[0]", { value: "x" }, true);
  assert.strictEqual(await stack.getConfig("nested.list[0]", true).then((v) => v.value), "x");
  const all = await stack.getAllConfig();
  assert.deepStrictEqual(all[`${project}:plain`], { value: "abc", secret: false });
  assert.deepStrictEqual(all[`${project}:secret`], { value: "s3cr3t", secret: true });

  let out = "";
  const events = [];
  const up = await stack.up({ onOutput: (s) => (out += s), onEvent: (e) => events.push(e) });
  assert.strictEqual(up.summary.kind, "update");
  assert.strictEqual(up.summary.result, "succeeded");
  assert.ok(out.length > 0, "onOutput saw the display");
  const kinds = new Set(events.flatMap((e) => Object.keys(e)));
  for (const k of ["sequence", "timestamp", "preludeEvent", "resourcePreEvent", "resOutputsEvent", "summaryEvent"])
    assert.ok(kinds.has(k), `events include ${k}: ${[...kinds]}`);
  const last = events[events.length - 1];
  assert.ok(last.cancelEvent || last.summaryEvent, "the stream ends with the summary (then cancel)");
  assert.deepStrictEqual(up.outputs.exp_static, { value: "foo", secret: false });
  assert.deepStrictEqual(up.outputs.exp_cfg, { value: "abc", secret: false });
  assert.deepStrictEqual(up.outputs.exp_secret, { value: "s3cr3t", secret: true });
  assert.strictEqual(up.summary.resourceChanges.create, 2);

  const pre = await stack.preview();
  assert.strictEqual(pre.changeSummary.same, 2);

  const ref = await stack.refresh();
  assert.strictEqual(ref.summary.kind, "refresh");
  assert.strictEqual(ref.summary.result, "succeeded");

  const history = await stack.history();
  assert.strictEqual(history.length, 2);
  assert.deepStrictEqual(history.map((h) => h.kind), ["refresh", "update"]);
  assert.ok(history[1].startTime instanceof Date && !isNaN(history[1].startTime));

  const state = await stack.exportStack();
  assert.strictEqual(state.version, 3);
  assert.ok(state.deployment.resources.length >= 2);
  await stack.importStack(state);

  const destroy = await stack.destroy({ onOutput: () => {} });
  assert.strictEqual(destroy.summary.kind, "destroy");
  assert.strictEqual(destroy.summary.result, "succeeded");
  await ws.removeStack(stack.name);
  await assert.rejects(auto.LocalWorkspace.selectStack(
    ws.program ? { stackName: stack.name, projectName: project, program: ws.program }
               : { stackName: stack.name, workDir: ws.workDir }),
    (e) => e instanceof auto.StackNotFoundError);
}

test("inline-lifecycle", async () => {
  const stack = await auto.LocalWorkspace.createOrSelectStack({
    stackName: stackName("inline"),
    projectName: "auto-inline",
    program: inlineProgram,
  });
  await lifecycle(stack, "auto-inline");
});

test("local-lifecycle", async () => {
  const stack = await auto.LocalWorkspace.createOrSelectStack({
    stackName: stackName("local"),
    workDir: localProgram(),
  });
  await lifecycle(stack, "auto-local");
});
