// The Automation API of @pulumi/pulumi (the version package.json pins)
// driving minipulumi as `pulumi`: node run.js MINIPULUMI [CASE-PREFIX...].
// The binary is linked as `pulumi` into a temporary folder put first on
// PATH; the version check is not skipped; the state is in a file://
// (Pulumi's DIY layout) folder of that folder, the Automation API's usual
// local backend. Each case prints "ok NAME" or "FAIL NAME: why";
// the exit status is the number of failures.
"use strict";
const fs = require("fs");
const os = require("os");
const path = require("path");
const assert = require("assert");

const bin = path.resolve(process.argv[2] || "");
if (!fs.existsSync(bin)) {
  console.error("usage: node run.js MINIPULUMI [CASE...]");
  process.exit(2);
}
const only = process.argv.slice(3);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "mp-auto-"));
fs.mkdirSync(path.join(tmp, "bin"));
fs.symlinkSync(bin, path.join(tmp, "bin", "pulumi"));
process.env.PATH = path.join(tmp, "bin") + path.delimiter + process.env.PATH;
process.env.HOME = path.join(tmp, "home");
fs.mkdirSync(process.env.HOME);
fs.mkdirSync(path.join(tmp, "state"));
process.env.PULUMI_BACKEND_URL = "file://" + path.join(tmp, "state");
// The API makes a work folder for each inline program in os.tmpdir() and
// leaves it there: under |tmp| they go with it.
fs.mkdirSync(path.join(tmp, "tmp"));
process.env.TMPDIR = path.join(tmp, "tmp");
process.env.PULUMI_CONFIG_PASSPHRASE = "automation-test";
delete process.env.PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK;
delete process.env.MINIPULUMI_BACKEND_URL;
delete process.env.MINIPULUMI_PULUMI_VERSION;

const auto = require("@pulumi/pulumi/automation");
const pulumi = require("@pulumi/pulumi");

const cases = [];
function test(name, fn) {
  cases.push({ name, fn });
}

let counter = 0;
function stackName(prefix) {
  counter += 1;
  return `${prefix}${counter}`;
}

// Copies the local program into a fresh folder, with this folder's
// node_modules linked in.
function localProgram() {
  const dir = fs.mkdtempSync(path.join(tmp, "local-"));
  for (const f of fs.readdirSync(path.join(__dirname, "local-program")))
    fs.copyFileSync(path.join(__dirname, "local-program", f), path.join(dir, f));
  fs.symlinkSync(path.join(__dirname, "node_modules"), path.join(dir, "node_modules"));
  return dir;
}

module.exports = { test, stackName, localProgram, auto, pulumi, assert, tmp };
require("./cases.js");
require("./spec.js");

(async () => {
  let failures = 0;
  let ran = 0;
  for (const c of cases) {
    if (only.length && !only.some((p) => c.name.startsWith(p))) continue;
    ran += 1;
    try {
      await c.fn();
      console.log(`ok ${c.name}`);
    } catch (e) {
      failures += 1;
      console.log(`FAIL ${c.name}: ${e && e.stack ? e.stack : e}`);
    }
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  console.log(`${ran} cases, ${failures} failed`);
  process.exit(ran === 0 ? 1 : failures);
})();
