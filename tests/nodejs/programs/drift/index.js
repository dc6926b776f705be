// The `import` option on the built-in `test` provider (IMPORT selects the
// program's inputs against the live objects the test writes), and a
// dynamic provider whose Read reports the live value of `val` (a JSON
// file, LIVE) and whose diff compares it with the program's, as a cloud
// provider's does: drift that shows only in the outputs.
const pulumi = require("@pulumi/pulumi");
const fs = require("fs");

class Res extends pulumi.CustomResource {
  constructor(name, props, opts) {
    super("test:index:Resource", name, props, opts);
  }
}

const live = () => JSON.parse(fs.readFileSync(process.env.LIVE, "utf8"));
const provider = {
  async create(inputs) {
    return { id: "box", outs: { val: inputs.val } };
  },
  async read(id, props) {
    return { id, props: { ...props, val: live()[id] } };
  },
  async diff(id, olds, news) {
    return { changes: olds.val !== news.val };
  },
  async update(id, olds, news) {
    return { outs: { val: news.val } };
  },
};

class Box extends pulumi.dynamic.Resource {
  constructor(name, args, opts) {
    super(provider, name, args, opts);
  }
}

const box = new Box("box", { val: "v1" });
exports.boxVal = box.val;

const mode = process.env.IMPORT || "";
if (mode === "match") {
  new Res("imp", { v: "live" }, { import: "imp-1" });
} else if (mode === "differ") {
  new Res("imp", { v: "mine" }, { import: "imp-1" });
} else if (mode === "replace") {
  new Res("rep", { v: "other", __replaceKeys: ["v"] }, { import: "imp-2" });
}
