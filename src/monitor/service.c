/* pulumirpc.ResourceMonitor on the gRPC server: decode, call the monitor's
 * entry points, encode the answer. */
#include "monitor/service.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/mem.h"
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
};

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

static void registered(void *ud, const Pulumirpc__RegisterResourceResponse *resp,
                       const mp_err *err) {
  mp_rpc_srv_call *call = ud;
  if (resp == NULL) answer_err(call, err);
  else reply_msg(call, &resp->base);
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
  mp_err err;
  mp_err_clear(&err);
  int rc = mp_monitor_register_resource(s->m, q, registered, call, &err);
  pulumirpc__register_resource_request__free_unpacked(q, NULL);
  if (rc < 0) answer_err(call, &err);
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
  mp_err err;
  mp_err_clear(&err);
  int rc = mp_monitor_invoke(s->m, q, invoked, call, &err);
  pulumirpc__resource_invoke_request__free_unpacked(q, NULL);
  if (rc < 0) answer_err(call, &err);
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
      {"RegisterStackTransform", on_unsupported},
      {"RegisterStackInvokeTransform", on_unsupported},
      {"RegisterResourceHook", on_unsupported},
      {"RegisterErrorHook", on_unsupported},
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
  free(s->project);
  free(s->stack);
  free(s->organization);
  free(s);
}
