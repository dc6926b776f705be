// Serves one test provider of Pulumi's language conformance tests as a
// plugin, on the Pulumi Node.js SDK's provider library
// (@pulumi/pulumi/provider, its `main`). The library leaves CheckConfig
// and DiffConfig unimplemented and ignores Create's preview flag; the
// Go providers of pkg/testing/pulumi-test-language/providers answer
// them, so this fills those in on the gRPC service the library registers.
//
// serve(p): p.name, p.version (the one CheckConfig demands), and any of
//   checkConfig(news)        -> {failures} to override the version check
//   check(urn, olds, news)   -> {inputs, failures}
//   diff(id, urn, olds, news)-> {changes, replaces, deleteBeforeReplace}
//   create(urn, inputs, preview) -> {id, outs}
//   update(id, urn, olds, news)  -> {outs}
//   updatePreview(id, urn, olds, news, preview) -> {outs}: update, told a preview
//   delete(id, urn, props), read(id, urn, props), invoke(tok, args),
//   construct(name, type, inputs, options), call(tok, args): the SDK's own,
//     for a component provider,
//   schema: the package schema GetSchema answers (its text, or an object)
//   observe(method, request) sees each CheckConfig and Configure request
"use strict";
const path = require("path");
const modules = path.join(__dirname, "..", "node_modules");
const grpc = require(path.join(modules, "@grpc/grpc-js"));
const provider = require(path.join(modules, "@pulumi/pulumi/provider"));
const provproto = require(path.join(modules, "@pulumi/pulumi/proto/provider_pb"));
const structproto = require(path.join(modules, "google-protobuf/google/protobuf/struct_pb"));

function failure(property, reason) {
  return [{ property, reason }];
}

// The Go providers' CheckConfig: the config is exactly {version}, the
// provider's own version.
function versionCheck(version) {
  return (news) => {
    if (!("version" in news)) return failure("version", "missing version");
    if (typeof news.version !== "string") return failure("version", "version is not a string");
    if (news.version !== version) return failure("version", `version is not ${version}`);
    if (Object.keys(news).length !== 1)
      return failure("", `too many properties: ${JSON.stringify(news)}`);
    return null;
  };
}

function checkResponse(inputs, failures) {
  const resp = new provproto.CheckResponse();
  resp.setInputs(structproto.Struct.fromJavaScript(inputs));
  for (const f of failures || []) {
    const cf = new provproto.CheckFailure();
    cf.setProperty(f.property);
    cf.setReason(f.reason);
    resp.addFailures(cf);
  }
  return resp;
}

// Protocol buffers' wire format for a CreateResponse {id, properties}
// whose properties are a JS object, as google.protobuf.Struct. The
// generated serializer goes through google-protobuf's JS encoder, which
// writes a string one byte at a time into an array of numbers: the
// `large` provider's 100 MiB output took minutes of CPU and about 2 GB
// there (its l2-large-string test timed out on a busy machine); here a
// string is one Buffer.from.
function varint(n) {
  const out = [];
  while (n > 127) {
    out.push((n % 128) | 128);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return Buffer.from(out);
}

// A field of |tag| holding the message of |parts| (Buffers), as parts:
// the big string is copied once, into the answer.
function field(tag, parts) {
  const len = parts.reduce((n, b) => n + b.length, 0);
  return [varint(tag), varint(len), ...parts];
}

function valueParts(v) {
  if (v === null) return [Buffer.from([0x08, 0x00])]; // null_value
  switch (typeof v) {
    case "number": {
      const b = Buffer.alloc(9);
      b[0] = 0x11; // number_value, 64-bit
      b.writeDoubleLE(v, 1);
      return [b];
    }
    case "string": return field(0x1a, [Buffer.from(v, "utf8")]);
    case "boolean": return [Buffer.from([0x20, v ? 1 : 0])];
    case "object":
      if (Array.isArray(v)) return field(0x32, v.flatMap((e) => field(0x0a, valueParts(e))));
      return field(0x2a, structParts(v));
    default: throw new Error(`Unexpected struct type: ${typeof v}`);
  }
}

function structParts(obj) {
  return Object.entries(obj).flatMap(([k, v]) =>
    field(0x0a, [...field(0x0a, [Buffer.from(k, "utf8")]), ...field(0x12, valueParts(v))]));
}

function createResponseBytes(r) {
  return Buffer.concat([...(r.id ? field(0x0a, [Buffer.from(r.id, "utf8")]) : []),
                        ...field(0x12, structParts(r.outs || {}))]);
}

function serve(p) {
  const checkConfig = p.checkConfig || versionCheck(p.version);
  const addService = grpc.Server.prototype.addService;
  grpc.Server.prototype.addService = function (svc, impl) {
    if (svc.create) // Create answers with the bytes of createResponseBytes
      svc = { ...svc, create: { ...svc.create, responseSerialize: (bytes) => bytes } };
    impl.checkConfig = (call, cb) => {
      if (p.observe) p.observe("CheckConfig", call.request);
      const news = call.request.getNews().toJavaScript();
      const failures = checkConfig(news);
      cb(undefined, checkResponse(news, failures));
    };
    impl.diffConfig = (call, cb) => cb(undefined, new provproto.DiffResponse());
    impl.configure = (call, cb) => {
      if (p.observe) p.observe("Configure", call.request);
      const resp = new provproto.ConfigureResponse();
      resp.setAcceptsecrets(true);
      resp.setAcceptresources(true);
      resp.setAcceptoutputs(true);
      resp.setSupportspreview(true);
      cb(undefined, resp);
    };
    // Create with its preview flag, which the library drops.
    impl.create = (call, cb) => {
      const req = call.request;
      Promise.resolve()
        .then(() => p.create(req.getUrn(), req.getProperties().toJavaScript(), req.getPreview()))
        .then((r) => createResponseBytes(r))
        .then((bytes) => cb(undefined, bytes), (e) => cb({ code: grpc.status.UNKNOWN, details: e.message }));
    };
    // Update with its preview flag too, for a provider that asks for it
    // (updatePreview(id, urn, olds, news, preview) -> {outs}).
    if (p.updatePreview)
      impl.update = (call, cb) => {
        const req = call.request;
        Promise.resolve()
          .then(() => p.updatePreview(req.getId(), req.getUrn(), req.getOlds().toJavaScript(),
                                      req.getNews().toJavaScript(), req.getPreview()))
          .then((r) => {
            const resp = new provproto.UpdateResponse();
            resp.setProperties(structproto.Struct.fromJavaScript(r.outs));
            cb(undefined, resp);
          }, (e) => cb({ code: grpc.status.UNKNOWN, details: e.message }));
      };
    return addService.call(this, svc, impl);
  };
  const impl = { version: p.version };
  for (const k of ["check", "diff", "update", "delete", "read", "invoke", "construct", "call"])
    if (p[k]) impl[k] = p[k];
  if (p.schema)
    impl.schema =
        typeof p.schema === "string" ? p.schema : JSON.stringify(p.schema);
  provider.main(impl, process.argv.slice(2));
}

// The type of a URN (its type part, after the parent types).
function urnType(urn) {
  const t = urn.split("::")[2];
  return t.split("$").pop();
}

// The version this plugin serves: the runner installs one copy of a
// provider per version a test asks for, each telling its version here.
function version(fallback) {
  return process.env.LANGTEST_PROVIDER_VERSION || fallback;
}

module.exports = { serve, failure, urnType, version };
