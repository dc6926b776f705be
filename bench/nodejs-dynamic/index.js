// N (env COUNT) dynamic resources, for timing a no-op `up`. Prints when
// the program starts (node and the SDK loaded) and when every
// registration has been answered, in ms since the process started.
const { performance } = require("perf_hooks");
const pulumi = require("@pulumi/pulumi");
console.log(`bench: program start ${performance.now().toFixed(0)} ms`);

const provider = {
  async create(inputs) {
    return { id: `r-${inputs.i}`, outs: inputs };
  },
  async diff(id, olds, news) {
    return { changes: olds.i !== news.i };
  },
};
class Item extends pulumi.dynamic.Resource {
  constructor(name, args) {
    super(provider, name, args);
  }
}
const n = Number(process.env.COUNT || "1000");
const ids = [];
for (let i = 0; i < n; i++) ids.push(new Item(`item-${i}`, { i }).id);
pulumi.all(ids).apply(() => {
  console.log(`bench: registrations answered ${performance.now().toFixed(0)} ms`);
});
exports.count = n;
