// A dynamic provider with its own diff (update for `name`, replace for
// `kind`), read and delete, configured from the stack config; each call
// is logged to the file named by the `log` input. STEP selects the
// program's shape; FAIL adds a resource whose create fails.
const pulumi = require("@pulumi/pulumi");
const fs = require("fs");

const settings = { suffix: "" };
const provider = {
  async configure(req) {
    settings.suffix = req.config.get("suffix") || "";
  },
  async create(inputs) {
    fs.appendFileSync(inputs.log, `create ${inputs.name}\n`);
    if (inputs.fail) {
      throw new Error(`dynamic create of ${inputs.name} failed on purpose`);
    }
    return {
      id: `${inputs.kind}-${inputs.name}`,
      outs: { ...inputs, greeting: `hello ${inputs.name}${settings.suffix}` },
    };
  },
  async diff(id, olds, news) {
    const replaces = olds.kind !== news.kind ? ["kind"] : [];
    return { changes: olds.name !== news.name || replaces.length > 0, replaces };
  },
  async update(id, olds, news) {
    fs.appendFileSync(news.log, `update ${id} ${news.name}\n`);
    return { outs: { ...news, greeting: `hello again ${news.name}${settings.suffix}` } };
  },
  async read(id, props) {
    fs.appendFileSync(props.log, `read ${id}\n`);
    return { id, props: { ...props, seen: "refreshed" } };
  },
  async delete(id, props) {
    fs.appendFileSync(props.log, `delete ${id}\n`);
  },
};

class Greeter extends pulumi.dynamic.Resource {
  constructor(name, args, opts) {
    super(provider, name, { greeting: undefined, seen: undefined, ...args }, opts);
  }
}

const step = Number(process.env.STEP || "1");
const log = process.env.DYN_LOG;
const a = new Greeter("a", { name: step === 1 ? "one" : "uno", kind: "k1", log });
if (step < 3) {
  new Greeter("b", { name: "two", kind: step === 1 ? "k1" : "k2", log });
}
if (process.env.FAIL) {
  new Greeter("bad", { name: "bad", kind: "k1", log, fail: true }, { dependsOn: [a] });
}
exports.aGreeting = a.greeting;
exports.aId = a.id;
