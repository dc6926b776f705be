/* Transforms (monitor/transforms.c) against a real Callbacks server: this
 * test serves pulumirpc.Callbacks/Invoke on 127.0.0.1 with the C gRPC
 * server, on the same loop, as a program's SDK serves its transforms. Each
 * transform token answers in its own way: appends its token to the
 * "trail" input (so the order and the chaining show), protects the
 * resource, throws, or answers bytes that are no TransformResponse or no
 * CallbackInvokeResponse at all. With @pulumi/pulumi programs, end to
 * end: tests/nodejs/t0020-transforms.sh. */
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "engine/value.h"
#include "engine/value_pb.h"
#include "monitor/callbacks.h"
#include "monitor/transforms.h"
#include "pulumi/callback.pb-c.h"
#include "pulumi/resource.pb-c.h"
#include "rpc/rpc_harness.h"
#include "rpc/server.h"
#include "testutil.h"

static uv_loop_t loop;
static mp_rpc_server *srv;
static char target[32];
static int calls; /* Invoke requests the server got */

static void reply_inner(mp_rpc_srv_call *call, const ProtobufCMessage *m) {
  size_t n = protobuf_c_message_get_packed_size(m);
  uint8_t *inner = mp_xcalloc(1, n ? n : 1);
  protobuf_c_message_pack(m, inner);
  Pulumirpc__CallbackInvokeResponse r =
      PULUMIRPC__CALLBACK_INVOKE_RESPONSE__INIT;
  r.response.data = inner;
  r.response.len = n;
  size_t rn = protobuf_c_message_get_packed_size(&r.base);
  uint8_t *outer = mp_xcalloc(1, rn ? rn : 1);
  protobuf_c_message_pack(&r.base, outer);
  mp_rpc_srv_reply(call, outer, rn);
  free(outer);
  free(inner);
}

/* |s| with "trail" extended by "<token>," (a new Struct). */
static Google__Protobuf__Struct *trailed(const Google__Protobuf__Struct *s,
                                         const char *token) {
  mp_value *v = NULL;
  if (s == NULL || mp_value_from_pb_struct(s, &v, NULL) != 0)
    v = mp_value_new_object();
  const mp_value *t = mp_value_object_get(v, "trail");
  char *trail = mp_xasprintf(
      "%s%s,", t && t->kind == MP_VALUE_STRING ? t->u.str.ptr : "", token);
  mp_value_object_set(v, "trail", mp_value_new_cstring(trail));
  free(trail);
  Google__Protobuf__Struct *out = NULL;
  CHECK(mp_value_to_pb_struct(v, 0, &out, NULL) == 0);
  mp_value_free(v);
  return out;
}

static void on_invoke(mp_rpc_srv_call *call, const uint8_t *req, size_t len,
                      void *arg) {
  (void)arg;
  calls++;
  Pulumirpc__CallbackInvokeRequest *q =
      pulumirpc__callback_invoke_request__unpack(NULL, len, req);
  if (q == NULL) {
    mp_rpc_srv_fail(call, 3, "not a CallbackInvokeRequest", NULL, 0);
    return;
  }
  const char *tok = q->token;
  const ProtobufCBinaryData *in = &q->request;
  if (strcmp(tok, "fail") == 0) {
    mp_rpc_srv_fail(call, 2, "the transform threw: nope", NULL, 0);
  } else if (strcmp(tok, "garbage") == 0) {
    Pulumirpc__CallbackInvokeResponse r =
        PULUMIRPC__CALLBACK_INVOKE_RESPONSE__INIT;
    uint8_t bad[] = {0xff, 0xff, 0xff};
    r.response.data = bad;
    r.response.len = sizeof(bad);
    uint8_t out[64];
    size_t n = protobuf_c_message_pack(&r.base, out);
    mp_rpc_srv_reply(call, out, n);
  } else if (strcmp(tok, "outer-garbage") == 0) {
    mp_rpc_srv_reply(call, "\xff\xff\xff", 3);
  } else if (strncmp(tok, "inv-", 4) == 0) {
    Pulumirpc__TransformInvokeRequest *t =
        pulumirpc__transform_invoke_request__unpack(NULL, in->len, in->data);
    Pulumirpc__TransformInvokeResponse r =
        PULUMIRPC__TRANSFORM_INVOKE_RESPONSE__INIT;
    Pulumirpc__TransformInvokeOptions o =
        PULUMIRPC__TRANSFORM_INVOKE_OPTIONS__INIT;
    r.args = trailed(t ? t->args : NULL, tok);
    o.version = "9.9.9";
    r.options = &o;
    reply_inner(call, &r.base);
    mp_value_pb_struct_free(r.args);
    if (t)
      protobuf_c_message_free_unpacked(&t->base, NULL);
  } else {
    Pulumirpc__TransformRequest *t =
        pulumirpc__transform_request__unpack(NULL, in->len, in->data);
    Pulumirpc__TransformResponse r = PULUMIRPC__TRANSFORM_RESPONSE__INIT;
    r.properties = trailed(t ? t->properties : NULL, tok);
    r.options = t ? t->options : NULL;
    if (strcmp(tok, "protect") == 0 && r.options) {
      r.options->protect_opt_case =
          PULUMIRPC__TRANSFORM_RESOURCE_OPTIONS__PROTECT_OPT_PROTECT;
      r.options->protect = 1;
    }
    reply_inner(call, &r.base);
    mp_value_pb_struct_free(r.properties);
    if (t)
      protobuf_c_message_free_unpacked(&t->base, NULL);
  }
  protobuf_c_message_free_unpacked(&q->base, NULL);
}

/* ---- requests ---- */

/* A RegisterResourceRequest as the monitor gets one (unpacked, owned):
 * |own| its own transforms' tokens (NULL-ended, may be NULL). */
static Pulumirpc__RegisterResourceRequest *
reg_request(const char *name, const char *parent, const char *const *own) {
  Pulumirpc__RegisterResourceRequest q =
      PULUMIRPC__REGISTER_RESOURCE_REQUEST__INIT;
  q.type = "test:index:Thing";
  q.name = (char *)name;
  q.custom = 1;
  q.parent = (char *)(parent ? parent : "");
  mp_value *props = mp_value_new_object();
  mp_value_object_set(props, "x", mp_value_new_cstring("1"));
  CHECK(mp_value_to_pb_struct(props, 0, &q.object, NULL) == 0);
  mp_value_free(props);
  Pulumirpc__Callback cbs[4], *cbp[4];
  size_t n = 0;
  for (; own && own[n] && n < 4; n++) {
    pulumirpc__callback__init(&cbs[n]);
    cbs[n].target = target;
    cbs[n].token = (char *)own[n];
    cbp[n] = &cbs[n];
  }
  q.n_transforms = n;
  q.transforms = cbp;
  size_t len = protobuf_c_message_get_packed_size(&q.base);
  uint8_t *buf = mp_xcalloc(1, len ? len : 1);
  protobuf_c_message_pack(&q.base, buf);
  mp_value_pb_struct_free(q.object);
  Pulumirpc__RegisterResourceRequest *out =
      pulumirpc__register_resource_request__unpack(NULL, len, buf);
  free(buf);
  return out;
}

typedef struct outcome {
  int done;
  mp_tx_reg *x;
  char *trail; /* the transformed "trail" input, or NULL */
  int protect;
  int code;
  char msg[1024];
} outcome;

static void on_transformed(void *arg, mp_tx_reg *x,
                           const Pulumirpc__RegisterResourceRequest *q,
                           const mp_err *err) {
  outcome *o = arg;
  o->done++;
  o->x = x;
  if (err) {
    o->code = err->code;
    snprintf(o->msg, sizeof(o->msg), "%s", err->msg);
    return;
  }
  mp_value *v = NULL;
  if (q->object && mp_value_from_pb_struct(q->object, &v, NULL) == 0) {
    const mp_value *t = mp_value_object_get(v, "trail");
    o->trail = t ? mp_xstrdup(t->u.str.ptr) : NULL;
  }
  mp_value_free(v);
  o->protect = q->protect;
}

/* Runs |q| through |t| to its end; |urn| is what the registration gave
 * (NULL: it failed). */
static void run_reg(mp_transforms *t, Pulumirpc__RegisterResourceRequest *q,
                    const char *urn, outcome *o) {
  memset(o, 0, sizeof(*o));
  mp_transforms_reg(t, q, on_transformed, o);
  rh_run_until(&loop, &o->done);
  CHECK(o->done == 1);
  mp_transforms_reg_end(t, o->x, o->code ? NULL : urn);
}

static Pulumirpc__Callback cb_of(const char *token) {
  Pulumirpc__Callback cb = PULUMIRPC__CALLBACK__INIT;
  cb.target = target;
  cb.token = (char *)token;
  return cb;
}

/* ---- tests ---- */

#define PARENT "urn:pulumi:dev::proj::test:index:Thing::parent"

static void test_transform_order_and_chaining(void) {
  mp_callbacks *cbs = mp_callbacks_new(&loop);
  mp_transforms *t = mp_transforms_new(cbs);
  mp_err err;
  Pulumirpc__Callback s1 = cb_of("stack1"), s2 = cb_of("stack2");
  CHECK(mp_transforms_add_stack(t, &s1, &err) == 0);
  CHECK(mp_transforms_add_stack(t, &s2, &err) == 0);
  outcome o;
  /* the parent, with a transform of its own */
  const char *const parent_own[] = {"parent-own", NULL};
  run_reg(t, reg_request("parent", NULL, parent_own), PARENT, &o);
  CHECK(o.code == 0);
  CHECK_STR(o.trail, "parent-own,stack1,stack2,");
  free(o.trail);
  /* its child: its own, then its parent's, then the stack's, each given
   * what the one before returned */
  const char *const child_own[] = {"child-a", "child-b", NULL};
  run_reg(t, reg_request("child", PARENT, child_own),
          "urn:pulumi:dev::proj::test:index:Thing$test:index:Thing::child", &o);
  CHECK(o.code == 0);
  CHECK_STR(o.trail, "child-a,child-b,parent-own,stack1,stack2,");
  free(o.trail);
  /* a transform that protects */
  const char *const prot[] = {"protect", NULL};
  run_reg(t, reg_request("p", NULL, prot), "urn:x", &o);
  CHECK(o.code == 0 && o.protect == 1);
  CHECK_STR(o.trail, "protect,stack1,stack2,");
  free(o.trail);
  mp_transforms_free(t);
  mp_callbacks_close(cbs);
}

static void test_no_transforms_answers_at_once(void) {
  mp_callbacks *cbs = mp_callbacks_new(&loop);
  mp_transforms *t = mp_transforms_new(cbs);
  outcome o;
  memset(&o, 0, sizeof(o));
  int before = calls;
  mp_transforms_reg(t, reg_request("plain", NULL, NULL), on_transformed, &o);
  CHECK(o.done == 1); /* inside the call */
  CHECK(o.code == 0 && o.trail == NULL);
  CHECK(calls == before);
  mp_transforms_reg_end(t, o.x, "urn:plain");
  mp_transforms_free(t);
  mp_callbacks_close(cbs);
}

static void test_transform_failures(void) {
  mp_callbacks *cbs = mp_callbacks_new(&loop);
  mp_transforms *t = mp_transforms_new(cbs);
  outcome o;
  /* the program's transform threw: the later ones are not called */
  const char *const fail[] = {"fail", "never", NULL};
  int before = calls;
  run_reg(t, reg_request("f", NULL, fail), NULL, &o);
  CHECK(o.code != 0);
  CHECK_CONTAINS(o.msg, "transform of test:index:Thing 'f' failed");
  CHECK_CONTAINS(o.msg, "the transform threw: nope");
  CHECK(calls == before + 1);
  /* an inner answer that is no TransformResponse */
  const char *const garbage[] = {"garbage", NULL};
  run_reg(t, reg_request("g", NULL, garbage), NULL, &o);
  CHECK(o.code == MP_EPROTO);
  CHECK_STR(o.msg, "transform of test:index:Thing 'g' failed: the answer is "
                   "not a TransformResponse");
  /* an answer that is no CallbackInvokeResponse */
  const char *const outer[] = {"outer-garbage", NULL};
  run_reg(t, reg_request("h", NULL, outer), NULL, &o);
  CHECK(o.code != 0);
  CHECK_CONTAINS(o.msg, "transform of test:index:Thing 'h' failed");
  CHECK_CONTAINS(o.msg, "CallbackInvokeResponse");
  /* the deployment is over: nothing is called any more */
  mp_transforms_stop(t);
  const char *const late[] = {"late", NULL};
  before = calls;
  run_reg(t, reg_request("late", NULL, late), NULL, &o);
  CHECK(o.code == MP_ECANCELED);
  CHECK_CONTAINS(o.msg, "the deployment is over");
  CHECK(calls == before);
  mp_transforms_free(t);
  mp_callbacks_close(cbs);
}

static void test_transform_targets_refused(void) {
  mp_callbacks *cbs = mp_callbacks_new(&loop);
  mp_transforms *t = mp_transforms_new(cbs);
  mp_err err;
  Pulumirpc__Callback cb = PULUMIRPC__CALLBACK__INIT;
  cb.token = "x";
  cb.target = "";
  CHECK(mp_transforms_add_stack(t, &cb, &err) == MP_EINVAL);
  CHECK_STR(err.msg, "target must be specified");
  cb.target = "example.com:443";
  CHECK(mp_transforms_add_invoke(t, &cb, &err) == MP_EINVAL);
  CHECK_STR(err.msg, "callback target 'example.com:443' is not <host>:<port> "
                     "on this machine");
  cb.target = "127.0.0.1:notaport";
  CHECK(mp_transforms_add_stack(t, &cb, &err) == MP_EINVAL);
  mp_transforms_free(t);
  mp_callbacks_close(cbs);
}

typedef struct inv_outcome {
  int done;
  char *trail, *version;
  int code;
  char msg[512];
} inv_outcome;

static void on_inv(void *arg, const Pulumirpc__ResourceInvokeRequest *q,
                   const mp_err *err) {
  inv_outcome *o = arg;
  o->done++;
  if (err) {
    o->code = err->code;
    snprintf(o->msg, sizeof(o->msg), "%s", err->msg);
    return;
  }
  mp_value *v = NULL;
  if (q->args && mp_value_from_pb_struct(q->args, &v, NULL) == 0) {
    const mp_value *t = mp_value_object_get(v, "trail");
    o->trail = t ? mp_xstrdup(t->u.str.ptr) : NULL;
  }
  mp_value_free(v);
  o->version = mp_xstrdup(q->version ? q->version : "");
}

static Pulumirpc__ResourceInvokeRequest *inv_request(void) {
  Pulumirpc__ResourceInvokeRequest q = PULUMIRPC__RESOURCE_INVOKE_REQUEST__INIT;
  q.tok = "test:index:getThing";
  uint8_t buf[256];
  size_t n = protobuf_c_message_pack(&q.base, buf);
  return pulumirpc__resource_invoke_request__unpack(NULL, n, buf);
}

static void test_invoke_transforms(void) {
  mp_callbacks *cbs = mp_callbacks_new(&loop);
  mp_transforms *t = mp_transforms_new(cbs);
  mp_err err;
  inv_outcome o;
  /* none: answered inside the call, unchanged */
  memset(&o, 0, sizeof(o));
  mp_transforms_invoke(t, inv_request(), on_inv, &o);
  CHECK(o.done == 1 && o.code == 0 && o.trail == NULL);
  free(o.version);
  Pulumirpc__Callback a = cb_of("inv-a"), b = cb_of("inv-b");
  CHECK(mp_transforms_add_invoke(t, &a, &err) == 0);
  CHECK(mp_transforms_add_invoke(t, &b, &err) == 0);
  memset(&o, 0, sizeof(o));
  mp_transforms_invoke(t, inv_request(), on_inv, &o);
  rh_run_until(&loop, &o.done);
  CHECK(o.code == 0);
  CHECK_STR(o.trail, "inv-a,inv-b,");
  CHECK_STR(o.version, "9.9.9");
  free(o.trail);
  free(o.version);
  /* one that throws */
  Pulumirpc__Callback f = cb_of("fail");
  CHECK(mp_transforms_add_invoke(t, &f, &err) == 0);
  memset(&o, 0, sizeof(o));
  mp_transforms_invoke(t, inv_request(), on_inv, &o);
  rh_run_until(&loop, &o.done);
  CHECK(o.code != 0);
  CHECK_CONTAINS(o.msg, "invoke transform of test:index:getThing failed");
  CHECK_CONTAINS(o.msg, "the transform threw: nope");
  mp_transforms_free(t);
  mp_callbacks_close(cbs);
}

int main(void) {
  uv_loop_init(&loop);
  mp_err err;
  int port = 0;
  CHECK(mp_rpc_server_new(&loop, 0, &srv, &err) == 0);
  CHECK(mp_rpc_server_add(srv, "/pulumirpc.Callbacks/Invoke", on_invoke, NULL,
                          &err) == 0);
  CHECK(mp_rpc_server_listen(srv, &port, &err) == 0);
  snprintf(target, sizeof(target), "127.0.0.1:%d", port);
  RUN(test_transform_order_and_chaining);
  RUN(test_no_transforms_answers_at_once);
  RUN(test_transform_failures);
  RUN(test_transform_targets_refused);
  RUN(test_invoke_transforms);
  rh_server_close(&loop, srv);
  CHECK(rh_loop_close(&loop) == 0);
  return mp_test_summary();
}
