// `up --refresh --run-program`: dynamic resources whose live values sit in
// a JSON file (LIVE, by id), changed out of band by the test. Each run of
// the program and each provider call is one line in CALLS, so the test
// sees how often the program ran and what was read.
const pulumi = require("@pulumi/pulumi");
const fs = require("fs");

const note = (line) => fs.appendFileSync(process.env.CALLS, line + "\n");
note(`run dryRun=${pulumi.runtime.isDryRun()}`);

const live = () => JSON.parse(fs.readFileSync(process.env.LIVE, "utf8"));
const setLive = (id, val) => {
  const l = live();
  if (val === undefined) delete l[id];
  else l[id] = val;
  fs.writeFileSync(process.env.LIVE, JSON.stringify(l));
};
const provider = {
  async create(inputs) {
    note(`create ${inputs.name}`);
    setLive(inputs.name, inputs.val);
    return { id: inputs.name, outs: inputs };
  },
  async read(id, props) {
    note(`read ${id}`);
    const v = live()[id];
    if (v === undefined) return {};
    return { id, props: { ...props, val: v } };
  },
  async diff(id, olds, news) {
    return { changes: olds.val !== news.val };
  },
  async update(id, olds, news) {
    note(`update ${id}`);
    setLive(id, news.val);
    return { outs: news };
  },
  async delete(id) {
    note(`delete ${id}`);
    setLive(id, undefined);
  },
};

class Box extends pulumi.dynamic.Resource {
  constructor(name, args, opts) {
    super(provider, name, { name, ...args }, opts);
  }
}

const a = new Box("a", { val: "v1" });
new Box("b", { val: "v1" });
if (!process.env.DROP_C) new Box("c", { val: "v1" });
exports.aVal = a.val;
