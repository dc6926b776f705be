// What the parameterized test providers (parameterized.js, extbase.js)
// answer on the gRPC service itself, beside serve.js: Parameterize (the
// value's name, version and bytes), GetSchema with its request (the Go
// providers read SubpackageName), and Construct without a program (the Go
// providers answer a URN and outputs and register nothing).
//
// Call override(handlers) before serve(); handlers may hold
//   parameterize(name, version, valueBuffer) -> {name, version}
//   getSchema(subpackageName, subpackageVersion) -> schema object or text
//   construct(request) -> {urn, state}
"use strict";
const path = require("path");
const modules = path.join(__dirname, "..", "node_modules");
const grpc = require(path.join(modules, "@grpc/grpc-js"));
const provproto = require(path.join(modules, "@pulumi/pulumi/proto/provider_pb"));
const structproto = require(path.join(modules, "google-protobuf/google/protobuf/struct_pb"));

function answer(cb, fn, build) {
  Promise.resolve()
    .then(fn)
    .then((r) => cb(undefined, build(r)), (e) => cb({ code: grpc.status.UNKNOWN, details: e.message }));
}

function override(h) {
  const addService = grpc.Server.prototype.addService;
  grpc.Server.prototype.addService = function (svc, impl) {
    if (h.parameterize)
      impl.parameterize = (call, cb) => {
        const req = call.request;
        answer(cb, () => {
          if (!req.hasValue()) throw new Error("expected a ParameterizeValue when parameterizing");
          const v = req.getValue();
          return h.parameterize(v.getName(), v.getVersion(), Buffer.from(v.getValue_asU8()));
        }, (r) => {
          const resp = new provproto.ParameterizeResponse();
          resp.setName(r.name);
          resp.setVersion(r.version);
          return resp;
        });
      };
    if (h.getSchema)
      impl.getSchema = (call, cb) => {
        const req = call.request;
        answer(cb, () => h.getSchema(req.getSubpackageName(), req.getSubpackageVersion()), (s) => {
          const resp = new provproto.GetSchemaResponse();
          resp.setSchema(typeof s === "string" ? s : JSON.stringify(s));
          return resp;
        });
      };
    if (h.construct)
      impl.construct = (call, cb) => {
        answer(cb, () => h.construct(call.request), (r) => {
          const resp = new provproto.ConstructResponse();
          resp.setUrn(r.urn);
          resp.setState(structproto.Struct.fromJavaScript(r.state));
          return resp;
        });
      };
    return addService.call(this, svc, impl);
  };
}

// resource.CreateURN: the parent's type (unless it is the stack) prefixes
// the component's own.
function createURN(name, type, parent, project, stack) {
  let prefix = "";
  if (parent) {
    const ptype = parent.split("::")[2];
    if (ptype !== "pulumi:pulumi:Stack") prefix = ptype + "$";
  }
  return `urn:pulumi:${stack}::${project}::${prefix}${type}::${name}`;
}

module.exports = { override, createURN };
