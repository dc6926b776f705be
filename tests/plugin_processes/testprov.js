// A provider plugin written with the Pulumi Node.js SDK's provider
// library, served as `pulumi-resource-testprov` (bin/). Its resources
// keep their state in JSON files under $TESTPROV_STATE (default: the
// program folder's .testprov/), so that a test can change the "world"
// behind the engine's back (refresh drift) and check what was deleted.
//
// Type testprov:index:Item, inputs:
//   value   any string; its length is an output
//   key     changing it replaces the resource
//   dbr     true: replace by deleting first (deleteBeforeReplace)
//   secret  any value; must round-trip as a secret
// Failure switches, read from the environment of one run:
//   TESTPROV_START=exit     exit at once with a message on stderr
//   TESTPROV_CRASH=<name>   kill the plugin while creating <name>
//   TESTPROV_HANG=<name>    never answer the Create of <name> (writes
//                           hanging-<name>), unless Cancel comes (writes
//                           cancelled, fails it)
//   TESTPROV_INITFAIL=<name> create <name> but report it failed to
//                           initialise (ErrorResourceInitFailed)
//   TESTPROV_NO_SECRETS=1   answer Configure without acceptSecrets
//   TESTPROV_PARENT_HEAP=<file> write to <file> (JSON) whether its parent's
//                           (the engine's) heap asks for huge pages: a
//                           [heap] mapping of /proc/PPID/smaps whose
//                           VmFlags have `hg` (MADV_HUGEPAGE)
//   TESTPROV_VERSION=<v>    report version <v>, add it to every resource's
//                           outputs as `servedBy`, and answer DiffConfig:
//                           a new major version replaces the provider
//                           (and what it manages), another keeps it
//   TESTPROV_CONFIGURE=fail answer Configure with an error
// Function testprov:index:echo(text) -> {text, upper}.
"use strict";
const fs = require("fs");
const path = require("path");

if (process.env.TESTPROV_PARENT_HEAP) {
  let heap = false;
  let advised = false;
  for (const line of fs.readFileSync(`/proc/${process.ppid}/smaps`, "latin1").split("\n")) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) heap = line.trim().endsWith("[heap]");
    else if (heap && line.startsWith("VmFlags:") && line.split(/\s+/).includes("hg")) advised = true;
  }
  fs.writeFileSync(process.env.TESTPROV_PARENT_HEAP, JSON.stringify({ advised }));
}

if (process.env.TESTPROV_START === "exit") {
  process.stderr.write("testprov: told to exit at once\n");
  process.exit(3);
}

if (process.env.TESTPROV_CONFIGURE === "fail") {
  // Test switch: a plugin that starts but cannot be configured.
  const grpc = require("@grpc/grpc-js");
  const addService = grpc.Server.prototype.addService;
  grpc.Server.prototype.addService = function (svc, impl) {
    impl.configure = (call, cb) =>
      cb({ code: grpc.status.INVALID_ARGUMENT, details: "testprov: no credentials" });
    return addService.call(this, svc, impl);
  };
}

if (process.env.TESTPROV_NO_SECRETS === "1") {
  // Test switch: a plugin that takes no secrets, resources or outputs, so
  // that the engine must strip them and mark secret outputs itself.
  const grpc = require("@grpc/grpc-js");
  const addService = grpc.Server.prototype.addService;
  grpc.Server.prototype.addService = function (svc, impl) {
    const provproto = require("@pulumi/pulumi/proto/provider_pb");
    impl.configure = (call, cb) => cb(undefined, new provproto.ConfigureResponse());
    return addService.call(this, svc, impl);
  };
}

const servedBy = process.env.TESTPROV_VERSION;
if (servedBy) {
  // The SDK's provider library leaves DiffConfig unimplemented; a versioned
  // test plugin answers it, comparing the major numbers of the versions.
  const grpc = require("@grpc/grpc-js");
  const addService = grpc.Server.prototype.addService;
  grpc.Server.prototype.addService = function (svc, impl) {
    const provproto = require("@pulumi/pulumi/proto/provider_pb");
    impl.diffConfig = (call, cb) => {
      const major = (v) => String(v || servedBy).replace(/^v/, "").split(".")[0];
      const olds = call.request.getOlds().toJavaScript();
      const news = call.request.getNews().toJavaScript();
      const resp = new provproto.DiffResponse();
      const replace = major(olds.version) !== major(news.version);
      resp.setChanges(replace ? provproto.DiffResponse.DiffChanges.DIFF_SOME
                              : provproto.DiffResponse.DiffChanges.DIFF_NONE);
      if (replace) resp.setReplacesList(["version"]);
      cb(undefined, resp);
    };
    return addService.call(this, svc, impl);
  };
}

const pulumi = require("@pulumi/pulumi");
const provider = require("@pulumi/pulumi/provider");
const settings = require("@pulumi/pulumi/runtime/settings");

// Logs go to the engine's Engine.Log service, whose address is our last
// argument (the SDK's provider library does not connect its log itself).
const engineAddr = process.argv[process.argv.length - 1];
settings.resetOptions(process.env.PULUMI_PROJECT, process.env.PULUMI_STACK,
  -1, engineAddr, "", false, "");

const stateDir = process.env.TESTPROV_STATE || path.join(process.cwd(), ".testprov");
const file = (id) => path.join(stateDir, id + ".json");
const named = (urn) => urn.split("::").pop();
const plain = (v) => (v && typeof v === "object" && "value" in v &&
  Object.keys(v).some((k) => k.length === 32) ? v.value : v);

function outs(id, inputs) {
  const o = Object.assign({}, inputs);
  o.length = String(plain(inputs.value) || "").length;
  o.secretSeen = inputs.secret === undefined ? "none" :
    (plain(inputs.secret) === inputs.secret ? "plain" : "wrapped");
  if (servedBy) o.servedBy = servedBy;
  return o;
}

let serial = 0;
const hung = []; // rejections of the Creates that hang
// What GetSchema answers (the SDK's provider library serves `schema`).
const schema = {
  name: "testprov",
  version: servedBy || "1.2.3",
  resources: {
    "testprov:index:Item": {
      properties: { value: { type: "string" }, length: { type: "integer" } },
      inputProperties: { value: { type: "string" }, key: { type: "string" } },
    },
  },
  functions: {
    "testprov:index:echo": {
      inputs: { properties: { text: { type: "string" } } },
      outputs: { properties: { text: { type: "string" }, upper: { type: "string" } } },
    },
  },
};

const testprov = {
  version: servedBy || "1.2.3",
  schema: JSON.stringify(schema),
  async check(urn, olds, news) {
    if (news.value === "invalid")
      return { inputs: news, failures: [{ property: "value", reason: "value may not be 'invalid'" }] };
    return { inputs: news };
  },
  async diff(id, urn, olds, news) {
    const changed = [];
    for (const k of new Set([...Object.keys(olds), ...Object.keys(news)])) {
      if (k === "length" || k === "secretSeen" || k === "servedBy") continue;
      if (JSON.stringify(olds[k]) !== JSON.stringify(news[k])) changed.push(k);
    }
    const replaces = changed.filter((k) => k === "key");
    return { changes: changed.length > 0, replaces,
             deleteBeforeReplace: replaces.length > 0 && news.dbr === true };
  },
  async create(urn, inputs) {
    const name = named(urn);
    if (process.env.TESTPROV_CRASH === name) process.kill(process.pid, "SIGKILL");
    if (process.env.TESTPROV_HANG === name) {
      // Hangs until the engine sends Cancel (if it does).
      fs.mkdirSync(stateDir, { recursive: true });
      fs.writeFileSync(path.join(stateDir, "hanging-" + name), "");
      return new Promise((_, reject) => hung.push(reject));
    }
    console.error(`testprov: creating ${name}`);
    // The SDK takes the URN from a resource; this stands in for one.
    await pulumi.log.warn(`testprov log: created ${name}`,
      { urn: { promise: async () => urn } });
    const id = `${name}-${process.pid}-${++serial}`;
    fs.mkdirSync(stateDir, { recursive: true });
    if (fs.existsSync(path.join(stateDir, "by-key-" + inputs.key)) && inputs.key)
      throw new Error(`key ${inputs.key} is taken`);
    if (inputs.key) fs.writeFileSync(path.join(stateDir, "by-key-" + inputs.key), id);
    const o = outs(id, inputs);
    fs.writeFileSync(file(id), JSON.stringify(o));
    if (process.env.TESTPROV_INITFAIL === name) {
      const e = new Error(`${name} did not become ready`);
      e.id = id;
      e.properties = o;
      e.reasons = ["health check failed"];
      throw e;
    }
    return { id, outs: o };
  },
  async read(id, urn, props) {
    if (!fs.existsSync(file(id))) return {};
    const o = JSON.parse(fs.readFileSync(file(id), "utf8"));
    const inputs = {};
    for (const k of Object.keys(o))
      if (k !== "length" && k !== "secretSeen" && k !== "servedBy") inputs[k] = o[k];
    return { id, props: o, inputs };
  },
  async update(id, urn, olds, news) {
    const o = outs(id, news);
    fs.writeFileSync(file(id), JSON.stringify(o));
    return { outs: o };
  },
  async delete(id, urn, props) {
    if (props.key) fs.rmSync(path.join(stateDir, "by-key-" + props.key), { force: true });
    fs.rmSync(file(id), { force: true });
  },
  async cancel() {
    fs.mkdirSync(stateDir, { recursive: true });
    fs.writeFileSync(path.join(stateDir, "cancelled"), "");
    for (const reject of hung.splice(0)) reject(new Error("cancelled by the engine"));
  },
  async invoke(token, inputs) {
    if (token !== "testprov:index:echo") throw new Error(`unknown function ${token}`);
    return { outputs: { text: inputs.text, upper: String(inputs.text).toUpperCase() } };
  },
};

provider.main(testprov, process.argv.slice(2));
