/* pulumirpc.ResourceMonitor on the gRPC server: decode, call the monitor's
 * entry points, encode the answer. */
#include "monitor/service.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/mem.h"
#include "monitor/callbacks.h"
#include "monitor/transforms.h"
#include "pulumi/resource.pb-c.h"

#define SVC "/pulumirpc.ResourceMonitor/"

/* What the service implements, by SupportsFeature id and by the
 * DeploymentInfo enum. With resource references on, a resource passed as
 * an input arrives (and is stored) as a reference; a provider that does
 * not accept references gets its ID, or a component's URN, in its place
 * (plugin/calls.c), and the SDK turns a reference it cannot rebuild into
 * that ID or URN too. */
static const struct feature {
  const char *id;
  Pulumirpc__ResourceMonitorFeature num;
} features[] = {
    {"secrets", PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_SECRETS},
    {"resourceReferences",
     PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_RESOURCE_REFERENCES},
    {"aliasSpecs", PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_ALIAS_SPECS},
    {"deletedWith", PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_DELETED_WITH},
    /* Replacement options the step generator acts on (stepgen/sg_diff.c):
     * without them the SDK refuses the options itself. */
    {"replaceWith", PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_REPLACE_WITH},
    {"replacementTrigger",
     PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_REPLACEMENT_TRIGGER},
    /* The program's callbacks (monitor/transforms.c). */
    {"transforms", PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_TRANSFORMS},
    {"invokeTransforms",
     PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_INVOKE_TRANSFORMS},
    {"resourceHooks",
     PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_RESOURCE_HOOKS},
    {"errorHooks",
     PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_ERROR_HOOKS},
    /* Package references and parameterized packages (monitor/packages.c,
     * engine/registry_param.c). */
    {"parameterization",
     PULUMIRPC__RESOURCE_MONITOR_FEATURE__RESOURCE_MONITOR_FEATURE_PARAMETERIZATION},
};

/* Where a resource hook lives: the program's function, for the monitor's
 * hook table (monitor/resource_hooks.h). */
typedef struct hook_fn {
  mp_monitor_service *s;
  char *target, *token;
  struct hook_fn *next;
} hook_fn;

/* A SignalAndWaitForShutdown waiting for the end of the deployment. */
typedef struct held {
  mp_rpc_srv_call *call;
  struct held *next;
} held;

struct mp_monitor_service { /* Owner: loop thread. */
  mp_monitor *m;
  char *project, *stack, *organization;
  int dry_run, parallel;
  void (*program_finished)(void *ud);
  void *ud;
  int released;
  held *shutdowns;
  mp_callbacks *cbs;  /* clients of the program's Callbacks servers */
  mp_transforms *tx;
  hook_fn *hooks; /* freed with the service */
};

int mp_monitor_service_supports(const char *id) {
  for (size_t i = 0; i < MP_ARRAY_LEN(features); i++)
    if (strcmp(features[i].id, id) == 0) return 1;
  return 0;
}

static void reply_msg(mp_rpc_srv_call *call, const ProtobufCMessage *msg) {
  size_t n = protobuf_c_message_get_packed_size(msg);
  uint8_t *b = mp_xmalloc(n ? n : 1);
  protobuf_c_message_pack(msg, b);
  mp_rpc_srv_reply(call, b, n);
  free(b);
}

static void reply_empty(mp_rpc_srv_call *call) { mp_rpc_srv_reply(call, NULL, 0); }

static void bad_request(mp_rpc_srv_call *call, const char *what) {
  char msg[200];
  snprintf(msg, sizeof(msg), "%s: cannot decode the request: not a valid %s",
           mp_rpc_srv_call_method(call), what);
  mp_rpc_srv_fail(call, MP_RPC_INVALID_ARGUMENT, msg, NULL, 0);
}

/* A refusal because the deployment stops is UNAVAILABLE: the SDK then
 * ends quietly (the engine reported the cause); anything else is UNKNOWN
 * with our message, which the SDK shows as the program's error. */
static void answer_err(mp_rpc_srv_call *call, const mp_err *err) {
  int code = err->code == MP_ECANCELED ? MP_RPC_UNAVAILABLE : MP_RPC_UNKNOWN;
  mp_rpc_srv_fail(call, code, err->msg[0] ? err->msg : "failed", NULL, 0);
}

static int closed(mp_monitor_service *s, mp_rpc_srv_call *call) {
  if (!s->released) return 0;
  mp_rpc_srv_fail(call, MP_RPC_UNAVAILABLE,
                  "the resource monitor has shut down", NULL, 0);
  return 1;
}

/* ---- feature negotiation ---- */

static void on_deployment_info(mp_rpc_srv_call *call, const uint8_t *req,
                               size_t len, void *arg) {
  (void)req;
  (void)len;
  mp_monitor_service *s = arg;
  Pulumirpc__DeploymentInfo info = PULUMIRPC__DEPLOYMENT_INFO__INIT;
  Pulumirpc__ResourceMonitorFeature f[MP_ARRAY_LEN(features)];
  for (size_t i = 0; i < MP_ARRAY_LEN(features); i++) f[i] = features[i].num;
  info.project = s->project;
  info.stack = s->stack;
  info.organization = s->organization;
  info.dryrun = s->dry_run;
  info.parallel = s->parallel;
  info.n_supportedfeatures = MP_ARRAY_LEN(features);
  info.supportedfeatures = f;
  reply_msg(call, &info.base);
}

static void on_supports_feature(mp_rpc_srv_call *call, const uint8_t *req,
                                size_t len, void *arg) {
  (void)arg;
  Pulumirpc__SupportsFeatureRequest *q =
      pulumirpc__supports_feature_request__unpack(NULL, len, req);
  if (q == NULL) {
    bad_request(call, "SupportsFeatureRequest");
    return;
  }
  Pulumirpc__SupportsFeatureResponse r =
      PULUMIRPC__SUPPORTS_FEATURE_RESPONSE__INIT;
  r.hassupport = q->id && mp_monitor_service_supports(q->id);
  pulumirpc__supports_feature_request__free_unpacked(q, NULL);
  reply_msg(call, &r.base);
}

/* ---- registrations ---- */

/* One RegisterResource on its way: through the transforms, then the
 * monitor. */
typedef struct reg_call {
  mp_monitor_service *s;
  mp_rpc_srv_call *call;
  mp_tx_reg *x;
} reg_call;

static void registered(void *ud, const Pulumirpc__RegisterResourceResponse *resp,
                       const mp_err *err) {
  reg_call *rc = ud;
  if (resp == NULL) answer_err(rc->call, err);
  else reply_msg(rc->call, &resp->base);
  mp_transforms_reg_end(rc->s->tx, rc->x, resp ? resp->urn : NULL);
  free(rc);
}

static void transformed(void *arg, mp_tx_reg *x,
                        const Pulumirpc__RegisterResourceRequest *q,
                        const mp_err *terr) {
  reg_call *rc = arg;
  rc->x = x;
  mp_err err;
  mp_err_clear(&err);
  if (q && rc->s->released) mp_err_set(&err, MP_ECANCELED, "shut down");
  else if (q == NULL) err = *terr;
  else if (mp_monitor_register_resource(rc->s->m, q, registered, rc, &err) == 0)
    return;
  answer_err(rc->call, &err);
  mp_transforms_reg_end(rc->s->tx, x, NULL);
  free(rc);
}

static void on_register(mp_rpc_srv_call *call, const uint8_t *req, size_t len,
                        void *arg) {
  mp_monitor_service *s = arg;
  if (closed(s, call)) return;
  Pulumirpc__RegisterResourceRequest *q =
      pulumirpc__register_resource_request__unpack(NULL, len, req);
  if (q == NULL) {
    bad_request(call, "RegisterResourceRequest");
    return;
  }
  reg_call *rc = mp_xcalloc(1, sizeof(*rc));
  rc->s = s;
  rc->call = call;
  mp_transforms_reg(s->tx, q, transformed, rc);
}

static void read_done(void *ud, const Pulumirpc__ReadResourceResponse *resp,
                      const mp_err *err) {
  mp_rpc_srv_call *call = ud;
  if (resp == NULL) answer_err(call, err);
  else reply_msg(call, &resp->base);
}

static void on_read(mp_rpc_srv_call *call, const uint8_t *req, size_t len,
                    void *arg) {
  mp_monitor_service *s = arg;
  if (closed(s, call)) return;
  Pulumirpc__ReadResourceRequest *q =
      pulumirpc__read_resource_request__unpack(NULL, len, req);
  if (q == NULL) {
    bad_request(call, "ReadResourceRequest");
    return;
  }
  mp_err err;
  mp_err_clear(&err);
  int rc = mp_monitor_read_resource(s->m, q, read_done, call, &err);
  pulumirpc__read_resource_request__free_unpacked(q, NULL);
  if (rc < 0) answer_err(call, &err);
}

static void on_register_outputs(mp_rpc_srv_call *call, const uint8_t *req,
                                size_t len, void *arg) {
  mp_monitor_service *s = arg;
  if (closed(s, call)) return;
  Pulumirpc__RegisterResourceOutputsRequest *q =
      pulumirpc__register_resource_outputs_request__unpack(NULL, len, req);
  if (q == NULL) {
    bad_request(call, "RegisterResourceOutputsRequest");
    return;
  }
  mp_err err;
  mp_err_clear(&err);
  int rc = mp_monitor_register_outputs(s->m, q, &err);
  pulumirpc__register_resource_outputs_request__free_unpacked(q, NULL);
  if (rc < 0) answer_err(call, &err);
  else reply_empty(call);
}

static void invoked(void *ud, const Pulumirpc__ResourceInvokeResponse *resp,
                    const mp_err *err) {
  mp_rpc_srv_call *call = ud;
  if (resp == NULL) answer_err(call, err);
  else reply_msg(call, &resp->base);
}

typedef struct inv_call {
  mp_monitor_service *s;
  mp_rpc_srv_call *call;
} inv_call;

static void invoke_transformed(void *arg,
                               const Pulumirpc__ResourceInvokeRequest *q,
                               const mp_err *terr) {
  inv_call *ic = arg;
  mp_err err;
  mp_err_clear(&err);
  if (q && ic->s->released) mp_err_set(&err, MP_ECANCELED, "shut down");
  else if (q == NULL) err = *terr;
  else if (mp_monitor_invoke(ic->s->m, q, invoked, ic->call, &err) == 0)
    goto out;
  answer_err(ic->call, &err);
out:
  free(ic);
}

static void on_invoke(mp_rpc_srv_call *call, const uint8_t *req, size_t len,
                      void *arg) {
  mp_monitor_service *s = arg;
  if (closed(s, call)) return;
  Pulumirpc__ResourceInvokeRequest *q =
      pulumirpc__resource_invoke_request__unpack(NULL, len, req);
  if (q == NULL) {
    bad_request(call, "ResourceInvokeRequest");
    return;
  }
  inv_call *ic = mp_xcalloc(1, sizeof(*ic));
  ic->s = s;
  ic->call = call;
  mp_transforms_invoke(s->tx, q, invoke_transformed, ic);
}

/* ---- the program's callbacks ---- */

static void on_stack_transform(mp_rpc_srv_call *call, const uint8_t *req,
                               size_t len, void *arg) {
  mp_monitor_service *s = arg;
  if (closed(s, call)) return;
  Pulumirpc__Callback *cb = pulumirpc__callback__unpack(NULL, len, req);
  if (cb == NULL) {
    bad_request(call, "Callback");
    return;
  }
  mp_err err;
  mp_err_clear(&err);
  int invoke = strstr(mp_rpc_srv_call_method(call), "Invoke") != NULL;
  int rc = invoke ? mp_transforms_add_invoke(s->tx, cb, &err)
                  : mp_transforms_add_stack(s->tx, cb, &err);
  pulumirpc__callback__free_unpacked(cb, NULL);
  if (rc < 0) answer_err(call, &err);
  else reply_empty(call);
}

/* Runs a resource hook from the worker running its step; every step is
 * done before the service is released. */
static int call_hook(void *ud, const ProtobufCMessage *req, mp_buf *resp,
                     mp_err *err) {
  hook_fn *f = ud;
  if (f->s->cbs == NULL)
    return mp_err_set(err, MP_ECANCELED, "the deployment is over");
  return mp_callbacks_call_sync(f->s->cbs, f->target, f->token, req, resp,
                                err);
}

/* Keeps hook |h| (its call and ud filled here) served by |cb|; 0, or an
 * MP_E code when the program's callback server cannot be reached. */
static int add_hook(mp_monitor_service *s, const Pulumirpc__Callback *cb,
                    mp_resource_hook *h, mp_err *err) {
  if (mp_callbacks_dial(s->cbs, cb, err) < 0) return err->code;
  hook_fn *f = mp_xcalloc(1, sizeof(*f));
  f->s = s;
  f->target = mp_xstrdup(cb->target);
  f->token = mp_xstrdup(cb->token);
  f->next = s->hooks;
  s->hooks = f;
  h->call = call_hook;
  h->ud = f;
  mp_monitor_register_hook(s->m, h);
  return 0;
}

static void on_resource_hook(mp_rpc_srv_call *call, const uint8_t *req,
                             size_t len, void *arg) {
  mp_monitor_service *s = arg;
  if (closed(s, call)) return;
  Pulumirpc__RegisterResourceHookRequest *q =
      pulumirpc__register_resource_hook_request__unpack(NULL, len, req);
  if (q == NULL) {
    bad_request(call, "RegisterResourceHookRequest");
    return;
  }
  mp_err err;
  mp_err_clear(&err);
  mp_resource_hook h = {.name = q->name,
                        .on_dry_run = q->on_dry_run,
                        .ignore_errors = q->ignore_errors};
  if (add_hook(s, q->callback, &h, &err) < 0) answer_err(call, &err);
  else reply_empty(call);
  pulumirpc__register_resource_hook_request__free_unpacked(q, NULL);
}

/* An error hook: called when a create, update or delete of a resource
 * that names it fails (monitor/resource_hooks.h). */
static void on_error_hook(mp_rpc_srv_call *call, const uint8_t *req,
                          size_t len, void *arg) {
  mp_monitor_service *s = arg;
  if (closed(s, call)) return;
  Pulumirpc__RegisterErrorHookRequest *q =
      pulumirpc__register_error_hook_request__unpack(NULL, len, req);
  if (q == NULL) {
    bad_request(call, "RegisterErrorHookRequest");
    return;
  }
  mp_err err;
  mp_err_clear(&err);
  mp_resource_hook h = {.name = q->name, .error_hook = 1};
  if (add_hook(s, q->callback, &h, &err) < 0) answer_err(call, &err);
  else reply_empty(call);
  pulumirpc__register_error_hook_request__free_unpacked(q, NULL);
}

/* ---- methods and packages (call.c, packages.c) ---- */

static void method_done(void *ud, const Pulumirpc__CallResponse *resp,
                        const mp_err *err) {
  mp_rpc_srv_call *call = ud;
  if (resp == NULL) answer_err(call, err);
  else reply_msg(call, &resp->base);
}

static void on_call(mp_rpc_srv_call *call, const uint8_t *req, size_t len,
                    void *arg) {
  mp_monitor_service *s = arg;
  if (closed(s, call)) return;
  Pulumirpc__ResourceCallRequest *q =
      pulumirpc__resource_call_request__unpack(NULL, len, req);
  if (q == NULL) {
    bad_request(call, "ResourceCallRequest");
    return;
  }
  mp_err err;
  mp_err_clear(&err);
  int rc = mp_monitor_call_method(s->m, q, method_done, call, &err);
  pulumirpc__resource_call_request__free_unpacked(q, NULL);
  if (rc < 0) answer_err(call, &err);
}

static void on_register_package(mp_rpc_srv_call *call, const uint8_t *req,
                                size_t len, void *arg) {
  mp_monitor_service *s = arg;
  if (closed(s, call)) return;
  Pulumirpc__RegisterPackageRequest *q =
      pulumirpc__register_package_request__unpack(NULL, len, req);
  if (q == NULL) {
    bad_request(call, "RegisterPackageRequest");
    return;
  }
  mp_err err;
  mp_err_clear(&err);
  char *ref = NULL;
  int rc = mp_monitor_register_package(s->m, q, &ref, &err);
  pulumirpc__register_package_request__free_unpacked(q, NULL);
  if (rc < 0) {
    answer_err(call, &err);
    return;
  }
  Pulumirpc__RegisterPackageResponse r = PULUMIRPC__REGISTER_PACKAGE_RESPONSE__INIT;
  r.ref = ref;
  reply_msg(call, &r.base);
  free(ref);
}

/* ---- the end of the program ---- */

static void on_shutdown(mp_rpc_srv_call *call, const uint8_t *req, size_t len,
                        void *arg) {
  (void)req;
  (void)len;
  mp_monitor_service *s = arg;
  if (s->released) {
    reply_empty(call);
    return;
  }
  /* Held until every step (the deletions included) is done: the SDK keeps
   * the process alive until this answer. */
  held *h = mp_xcalloc(1, sizeof(*h));
  h->call = call;
  h->next = s->shutdowns;
  int first = s->shutdowns == NULL;
  s->shutdowns = h;
  if (first && s->program_finished) s->program_finished(s->ud);
}

/* Calls the SDK makes only for features we do not advertise: answered
 * UNIMPLEMENTED with what is missing, never left hanging. */
static void on_unsupported(mp_rpc_srv_call *call, const uint8_t *req,
                           size_t len, void *arg) {
  (void)req;
  (void)len;
  (void)arg;
  const char *m = mp_rpc_srv_call_method(call);
  const char *name = strrchr(m, '/');
  char msg[200];
  snprintf(msg, sizeof(msg), "minipulumi's resource monitor does not support "
           "%s", name ? name + 1 : m);
  mp_rpc_srv_fail(call, MP_RPC_UNIMPLEMENTED, msg, NULL, 0);
}

/* ---- lifetime ---- */

int mp_monitor_service_new(mp_rpc_server *srv, const mp_monitor_service_opts *o,
                           mp_monitor_service **out, mp_err *err) {
  *out = NULL;
  mp_monitor_service *s = mp_xcalloc(1, sizeof(*s));
  s->m = o->monitor;
  s->project = mp_xstrdup(o->info->project ? o->info->project : "");
  s->stack = mp_xstrdup(o->info->stack ? o->info->stack : "");
  s->organization =
      mp_xstrdup(o->info->organization ? o->info->organization : "");
  s->dry_run = o->info->dry_run;
  s->parallel = o->info->parallel;
  s->program_finished = o->program_finished;
  s->ud = o->ud;
  s->cbs = mp_callbacks_new(o->info->loop);
  s->tx = mp_transforms_new(s->cbs);
  static const struct {
    const char *name;
    mp_rpc_handler h;
  } methods[] = {
      {"GetDeploymentInfo", on_deployment_info},
      {"SupportsFeature", on_supports_feature},
      {"RegisterResource", on_register},
      {"RegisterResourceOutputs", on_register_outputs},
      {"ReadResource", on_read},
      {"Invoke", on_invoke},
      {"SignalAndWaitForShutdown", on_shutdown},
      {"Call", on_call},
      {"ExistsResource", on_unsupported},
      {"RegisterStackTransform", on_stack_transform},
      {"RegisterStackInvokeTransform", on_stack_transform},
      {"RegisterResourceHook", on_resource_hook},
      {"RegisterErrorHook", on_error_hook},
      {"RegisterPackage", on_register_package},
  };
  for (size_t i = 0; i < MP_ARRAY_LEN(methods); i++) {
    char path[96];
    snprintf(path, sizeof(path), SVC "%s", methods[i].name);
    int rc = mp_rpc_server_add(srv, path, methods[i].h, s, err);
    if (rc < 0) {
      mp_monitor_service_free(s);
      return rc;
    }
  }
  *out = s;
  return 0;
}

void mp_monitor_service_release(mp_monitor_service *s) {
  if (s == NULL) return;
  s->released = 1;
  mp_transforms_stop(s->tx); /* calls in flight end cancelled */
  mp_callbacks_close(s->cbs);
  s->cbs = NULL;
  while (s->shutdowns) {
    held *h = s->shutdowns;
    s->shutdowns = h->next;
    reply_empty(h->call);
    free(h);
  }
}

void mp_monitor_service_free(mp_monitor_service *s) {
  if (s == NULL) return;
  mp_monitor_service_release(s);
  mp_transforms_free(s->tx);
  while (s->hooks) {
    hook_fn *f = s->hooks;
    s->hooks = f->next;
    free(f->target);
    free(f->token);
    free(f);
  }
  free(s->project);
  free(s->stack);
  free(s->organization);
  free(s);
}
