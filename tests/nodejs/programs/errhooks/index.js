// Error hooks. A dynamic provider whose create, update and delete fail the
// first failCreate/failUpdate/failDelete times for each resource (counted
// in files under $COUNT_DIR); the error hooks write one line per call to
// $HOOK_LOG. "record" asks for a retry, "watch" does not, "boom" throws.
// STEP=1 creates "flaky" (fails twice); STEP=2 updates it (fails once);
// STEP=3 adds "stubborn", watched only; STEP=4 adds "forever", which never
// succeeds; STEP=5 adds "throws", whose hook throws; STEP=6 declares
// nothing, so "flaky" is deleted (fails once), its hooks named by the state.
const fs = require("fs");
const pulumi = require("@pulumi/pulumi");

const attempt = (dir, name, op) => {
  const f = `${dir}/${name}.${op}`;
  const n = (fs.existsSync(f) ? Number(fs.readFileSync(f, "utf8")) : 0) + 1;
  fs.writeFileSync(f, String(n));
  return n;
};

const provider = {
  async create(inputs) {
    const n = attempt(inputs.dir, inputs.name, "create");
    if (n <= inputs.failCreate) throw new Error(`create of ${inputs.name} failed (attempt ${n})`);
    return { id: `id-${inputs.name}`, outs: inputs };
  },
  async diff(id, olds, news) {
    return { changes: olds.value !== news.value };
  },
  async update(id, olds, news) {
    const n = attempt(news.dir, news.name, "update");
    if (n <= news.failUpdate) throw new Error(`update of ${news.name} failed (attempt ${n})`);
    return { outs: news };
  },
  async delete(id, props) {
    const n = attempt(props.dir, props.name, "delete");
    if (n <= props.failDelete) throw new Error(`delete of ${props.name} failed (attempt ${n})`);
  },
};

class Flaky extends pulumi.dynamic.Resource {
  constructor(name, args, opts) {
    super(provider, name, { name, dir: process.env.COUNT_DIR, failCreate: 0,
                            failUpdate: 0, failDelete: 0, ...args }, opts);
  }
}

const log = (line) => fs.appendFileSync(process.env.HOOK_LOG, line + "\n");
const show = (v) => (v === undefined ? "-" : v);
const logged = (hook, retry) => async (a) => {
  log(`${hook} ${a.failedOperation} ${a.name} ${a.type} id=${a.id || "-"} ` +
      `errors=${a.errors.length} newest=${a.errors[0]} ` +
      `newIn=${show(a.newInputs && a.newInputs.value)} ` +
      `oldIn=${show(a.oldInputs && a.oldInputs.value)} ` +
      `oldOut=${show(a.oldOutputs && a.oldOutputs.value)}`);
  return retry;
};
const record = new pulumi.ErrorHook("record", logged("record", true));
const watch = new pulumi.ErrorHook("watch", logged("watch", false));
const boom = new pulumi.ErrorHook("boom", async () => {
  throw new Error("hook exploded");
});

const step = Number(process.env.STEP || "1");
if (step <= 5) {
  new Flaky("flaky", step === 1 ? { value: "v1", failCreate: 2 }
                                : { value: "v2", failUpdate: 1, failDelete: 1 },
            { hooks: { onError: [watch, record] } });
}
if (step === 3) {
  new Flaky("stubborn", { value: "s", failCreate: 5 }, { hooks: { onError: [watch] } });
}
if (step === 4) {
  new Flaky("forever", { value: "f", failCreate: 1000 }, { hooks: { onError: [record] } });
}
if (step === 5) {
  new Flaky("throws", { value: "t", failCreate: 1 }, { hooks: { onError: [boom, record] } });
}
