/* The provider methods of a plugin: each engine request becomes a
 * pulumirpc.ResourceProvider call, and its answer an mp_prov_resp
 * (plugin/plugin.h). Every Struct a plugin dereferences is sent even when
 * empty (docs/sdk-contract.md, "Provider plugins"). */
#include <stdlib.h>
#include <string.h>

#include "engine/urn.h"
#include "engine/value_pb.h"
#include "google/protobuf/empty.pb-c.h"
#include "plugin/plugin_int.h"
#include "pulumi/plugin.pb-c.h"
#include "pulumi/provider.pb-c.h"

#define SVC "/pulumirpc.ResourceProvider/"

static mp__plugin *of(mp_provider *prov) { return (mp__plugin *)prov; }

/* ---- one call ---- */

void mp__plugin_inflight_add(mp__plugin *p, mp__inflight *in) {
  pthread_mutex_lock(&p->mu);
  mp__inflight **pp = &p->inflight;
  while (*pp) pp = &(*pp)->next;
  *pp = in;
  /* Lines no call was there for go to the next one. */
  for (size_t i = 0; i < p->pending.len; i++)
    mp_strv_push_take(&in->diags, p->pending.items[i]);
  p->pending.len = 0;
  pthread_mutex_unlock(&p->mu);
}

void mp__plugin_inflight_remove(mp__plugin *p, mp__inflight *in,
                                mp_prov_resp *r) {
  pthread_mutex_lock(&p->mu);
  for (mp__inflight **pp = &p->inflight; *pp; pp = &(*pp)->next)
    if (*pp == in) {
      *pp = in->next;
      break;
    }
  pthread_mutex_unlock(&p->mu);
  for (size_t i = 0; i < in->diags.len; i++) {
    if (r) {
      mp_strv_push_take(&r->warnings, in->diags.items[i]);
    } else {
      mp__plugin_diag(p, NULL, in->diags.items[i]);
      free(in->diags.items[i]);
    }
  }
  in->diags.len = 0;
  mp_strv_destroy(&in->diags);
}

/* Calls |method| with |req| and waits. On success |reply|'s body holds
 * the answer. On failure |err| names the plugin: for an error the plugin
 * reported, its own message (as Pulumi shows it); otherwise what went
 * wrong with the call and whether the process is gone. */
static int call_bytes(mp__plugin *p, const char *path, const uint8_t *buf,
                      size_t len, const char *urn, uint64_t timeout_ms,
                      mp_prov_resp *r, mp_rpc_reply *reply, mp_err *err) {
  mp__inflight in = {urn ? urn : "", {0}, NULL};
  mp_strv_init(&in.diags);
  mp__plugin_inflight_add(p, &in);
  mp_rpc_call_opts opts = {.timeout_ms = timeout_ms};
  mp_err e;
  mp_err_clear(&e);
  mp_log *log = p->h->log;
  const char *slash = strrchr(path, '/');
  const char *method = slash ? slash + 1 : path;
  /* Pulumi's provider log lines: Provider[pkg].Method(urn) */
  MP_LOGV(log, 7, "Provider[%s].%s(%s) executing", p->name, method, in.urn);
  uint64_t span = mp_span_begin(log, path, 0);
  uint64_t t0 = mp_log_now_us();
  int rc = mp_rpc_call_sync(p->client, path, buf, len, &opts, reply, &e);
  double ms = (double)(mp_log_now_us() - t0) / 1000.0;
  mp_span_end(log, span, "urn", in.urn);
  if (rc == 0)
    MP_LOGV(log, 7, "Provider[%s].%s(%s) success (%.3fms)", p->name, method,
            in.urn, ms);
  else
    MP_LOGV(log, 7, "Provider[%s].%s(%s) failed: %s (%.3fms)", p->name,
            method, in.urn, e.msg, ms);
  mp__plugin_inflight_remove(p, &in, r);
  if (rc == 0) return 0;
  /* A lost connection usually means the process is ending: it gets a
   * moment to be reaped, so that the message says how it ended. */
  return mp__plugin_call_error(p, rc, reply, &e, 500, err);
}

int mp__plugin_call_error(mp__plugin *p, int rc, const mp_rpc_reply *reply,
                          const mp_err *e, uint64_t lost_wait_ms,
                          mp_err *err) {
  if (rc == MP_EPLUGIN && reply->status.code != MP_RPC_UNIMPLEMENTED) {
    const char *m = reply->status.message;
    return mp_err_set(err, rc, "%s", m && *m ? m : e->msg);
  }
  if (rc == MP_EPLUGIN) return mp_err_set(err, rc, "%s", e->msg);
  char note[96];
  int lost = reply->status.code == MP_RPC_UNAVAILABLE;
  mp__plugin_exit_note(p, lost ? lost_wait_ms : 0, note, sizeof(note));
  return mp_err_set(err, rc, "%s%s", e->msg, note);
}

/* call() of |path|, a method of any service. */
static int call_path(mp__plugin *p, const char *path,
                     const ProtobufCMessage *req, const char *urn,
                     uint64_t timeout_ms, mp_prov_resp *r,
                     mp_rpc_reply *reply, mp_err *err) {
  size_t len = protobuf_c_message_get_packed_size(req);
  uint8_t *buf = malloc(len ? len : 1);
  protobuf_c_message_pack(req, buf);
  int rc = call_bytes(p, path, buf, len, urn, timeout_ms, r, reply, err);
  free(buf);
  return rc;
}

static int call(mp__plugin *p, const char *method, const ProtobufCMessage *req,
                const char *urn, uint64_t timeout_ms, mp_prov_resp *r,
                mp_rpc_reply *reply, mp_err *err) {
  char path[96];
  snprintf(path, sizeof(path), SVC "%s", method);
  return call_path(p, path, req, urn, timeout_ms, r, reply, err);
}

static int unimplemented(int rc, const mp_rpc_reply *reply) {
  return rc == MP_EPLUGIN && reply->status.code == MP_RPC_UNIMPLEMENTED;
}

static void *unpack(mp__plugin *p, const ProtobufCMessageDescriptor *d,
                    const char *method, const mp_rpc_reply *reply,
                    mp_err *err) {
  void *m = protobuf_c_message_unpack(d, NULL, reply->body.len,
                                      (const uint8_t *)reply->body.data);
  if (m == NULL)
    mp_err_set(err, MP_EPROTO,
               "plugin '%s' answered %s with bytes that are not a %s "
               "message",
               p->name, method, d->name);
  return m;
}

/* call() and, when it succeeds, the answer unpacked as |d| into *out
 * (free with protobuf_c_message_free_unpacked). */
static int roundtrip(mp__plugin *p, const char *method,
                     const ProtobufCMessage *req, const char *urn,
                     uint64_t timeout_ms, mp_prov_resp *r,
                     const ProtobufCMessageDescriptor *d, void *out,
                     mp_rpc_reply *reply, mp_err *err) {
  *(void **)out = NULL;
  int rc = call(p, method, req, urn, timeout_ms, r, reply, err);
  if (rc == 0) {
    *(void **)out = unpack(p, d, method, reply, err);
    if (*(void **)out == NULL) rc = MP_EPROTO;
  }
  return rc;
}

static void free_answer(void *m) {
  if (m) protobuf_c_message_free_unpacked(m, NULL);
}

int mp__plugin_rpc(mp__plugin *p, const char *path,
                   const ProtobufCMessage *req,
                   const ProtobufCMessageDescriptor *d, void *out,
                   uint64_t timeout_ms, mp_prov_resp *r, int *unimpl,
                   mp_err *err) {
  *(void **)out = NULL;
  *unimpl = 0;
  mp_rpc_reply reply;
  mp_rpc_reply_init(&reply);
  int rc = call_path(p, path, req, NULL, timeout_ms, r, &reply, err);
  if (rc == 0) {
    *(void **)out = unpack(p, d, path, &reply, err);
    if (*(void **)out == NULL) rc = MP_EPROTO;
  } else if (unimplemented(rc, &reply)) {
    *unimpl = 1;
  }
  mp_rpc_reply_destroy(&reply);
  return rc;
}

static int from_struct(mp__plugin *p, const char *method,
                       const Google__Protobuf__Struct *s, mp_value **out,
                       mp_err *err) {
  int rc = mp_value_from_pb_struct(s, out, err);
  if (rc < 0)
    mp_err_prefix(err, "plugin '%s' answered %s with bad properties",
                  p->name, method);
  return rc;
}

/* ---- values ---- */

static unsigned flags_of(const mp__plugin *p) {
  return (p->accept_secrets ? MP_PB_KEEP_SECRETS : 0) |
         (p->accept_resources ? MP_PB_KEEP_RESOURCES : 0) |
         (p->accept_outputs ? MP_PB_KEEP_OUTPUT_VALUES : 0);
}

static Google__Protobuf__Struct *to_struct(const mp__plugin *p,
                                           const mp_value *v) {
  Google__Protobuf__Struct *s = NULL;
  if (mp_value_to_pb_struct(v, flags_of(p), &s, NULL) < 0)
    mp_value_to_pb_struct(NULL, 0, &s, NULL);
  return s;
}

/* A plugin that does not take secrets gets plain values: outputs whose
 * input was secret are marked secret again (objects and same-length
 * arrays element by element, as Pulumi does). */
static void annotate_secrets(mp_value *outs, const mp_value *ins) {
  if (outs == NULL || ins == NULL) return;
  if (ins->kind == MP_VALUE_SECRET) ins = ins->u.secret;
  if (outs->kind == MP_VALUE_OBJECT && ins->kind == MP_VALUE_OBJECT) {
    for (size_t i = 0; i < outs->u.obj.len; i++) {
      const char *k = outs->u.obj.items[i].key;
      const mp_value *in = mp_value_object_get(ins, k);
      if (in == NULL) continue;
      if (in->kind == MP_VALUE_SECRET &&
          outs->u.obj.items[i].value->kind != MP_VALUE_SECRET) {
        char *key = mp_xstrdup(k); /* taking the entry frees |k| */
        mp_value *v = mp_value_object_take(outs, key);
        mp_value_object_set(outs, key, mp_value_new_secret(v));
        free(key);
      } else {
        annotate_secrets(outs->u.obj.items[i].value, in);
      }
    }
  } else if (outs->kind == MP_VALUE_ARRAY && ins->kind == MP_VALUE_ARRAY &&
             outs->u.arr.len == ins->u.arr.len) {
    for (size_t i = 0; i < outs->u.arr.len; i++) {
      const mp_value *in = ins->u.arr.items[i];
      if (in->kind == MP_VALUE_SECRET &&
          outs->u.arr.items[i]->kind != MP_VALUE_SECRET)
        outs->u.arr.items[i] = mp_value_new_secret(outs->u.arr.items[i]);
      else
        annotate_secrets(outs->u.arr.items[i], in);
    }
  }
}

static void resecret(const mp__plugin *p, mp_value *outs,
                     const mp_value *ins) {
  if (!p->accept_secrets) annotate_secrets(outs, ins);
}

static char *str_or_empty(const char *s) { return (char *)(s ? s : ""); }

/* The fields that name the resource, in every lifecycle request. */
#define SET_NAMES(m, q)               \
  do {                                \
    (m).urn = str_or_empty((q)->urn);   \
    (m).name = str_or_empty((q)->name); \
    (m).type = str_or_empty((q)->type); \
  } while (0)

static uint64_t timeout_of(const mp__plugin *p, const mp_prov_req *q) {
  return q && q->timeout > 0 ? (uint64_t)(q->timeout * 1000)
                             : p->h->call_timeout_ms;
}

static void take_failures(mp_prov_resp *r, Pulumirpc__CheckFailure **f,
                          size_t n) {
  for (size_t i = 0; i < n; i++)
    mp_prov_resp_add_failure(r, f[i]->property && *f[i]->property
                                    ? f[i]->property
                                    : NULL,
                             f[i]->reason ? f[i]->reason : "");
}

/* A failed Create/Update/Read whose plugin says the resource exists
 * (pulumirpc.ErrorResourceInitFailed): id, outputs, inputs and reasons
 * go to |r| as a partial result. */
static void take_init_failure(mp__plugin *p, const mp_rpc_reply *reply,
                              const mp_value *ins, mp_prov_resp *r) {
  const mp_rpc_detail *d =
      mp_rpc_status_find_detail(&reply->status, MP_RPC_TYPE_INIT_FAILED);
  if (d == NULL) return;
  Pulumirpc__ErrorResourceInitFailed *f =
      pulumirpc__error_resource_init_failed__unpack(NULL, d->len, d->value);
  if (f == NULL) return;
  mp_value *outs = NULL, *inputs = NULL;
  if (mp_value_from_pb_struct(f->properties, &outs, NULL) == 0 &&
      (f->inputs == NULL ||
       mp_value_from_pb_struct(f->inputs, &inputs, NULL) == 0)) {
    r->partial = 1;
    free(r->id);
    r->id = mp_xstrdup(f->id ? f->id : "");
    resecret(p, outs, ins);
    mp_value_free(r->outputs);
    r->outputs = outs;
    outs = NULL;
    mp_value_free(r->inputs);
    r->inputs = inputs;
    inputs = NULL;
    for (size_t i = 0; i < f->n_reasons; i++)
      mp_strv_push(&r->init_errors, f->reasons[i]);
  }
  mp_value_free(outs);
  mp_value_free(inputs);
  pulumirpc__error_resource_init_failed__free_unpacked(f, NULL);
}

/* ---- setup ---- */

int mp__plugin_setup(mp__plugin *p, mp_err *err) {
  mp_plugin_host *h = p->h;
  Pulumirpc__ProviderHandshakeRequest hq =
      PULUMIRPC__PROVIDER_HANDSHAKE_REQUEST__INIT;
  char addr[32];
  snprintf(addr, sizeof(addr), "127.0.0.1:%d", mp_rpc_server_port(p->srv));
  hq.engine_address = addr;
  hq.root_directory_opt_case =
      PULUMIRPC__PROVIDER_HANDSHAKE_REQUEST__ROOT_DIRECTORY_OPT_ROOT_DIRECTORY;
  hq.root_directory = h->project_dir;
  hq.program_directory_opt_case =
      PULUMIRPC__PROVIDER_HANDSHAKE_REQUEST__PROGRAM_DIRECTORY_OPT_PROGRAM_DIRECTORY;
  hq.program_directory = h->program_dir;
  mp_rpc_reply reply;
  mp_rpc_reply_init(&reply);
  int rc = call(p, "Handshake", &hq.base, NULL, h->setup_timeout_ms, NULL,
                &reply, err);
  if (rc == 0) {
    Pulumirpc__ProviderHandshakeResponse *hr =
        unpack(p, &pulumirpc__provider_handshake_response__descriptor,
               "Handshake", &reply, err);
    if (hr == NULL) rc = MP_EPROTO;
    else {
      p->accept_secrets = hr->accept_secrets;
      p->accept_resources = hr->accept_resources;
      p->accept_outputs = hr->accept_outputs;
      pulumirpc__provider_handshake_response__free_unpacked(hr, NULL);
    }
  } else if (unimplemented(rc, &reply)) {
    rc = 0; /* an older plugin: Configure's answer decides */
  }
  mp_rpc_reply_destroy(&reply);
  if (rc < 0) return rc;
  Google__Protobuf__Empty empty = GOOGLE__PROTOBUF__EMPTY__INIT;
  mp_rpc_reply_init(&reply);
  rc = call(p, "GetPluginInfo", &empty.base, NULL, h->setup_timeout_ms, NULL,
            &reply, err);
  if (rc == 0) {
    Pulumirpc__PluginInfo *pi = unpack(p, &pulumirpc__plugin_info__descriptor,
                                       "GetPluginInfo", &reply, err);
    if (pi == NULL) rc = MP_EPROTO;
    else {
      p->version = mp_xstrdup(pi->version ? pi->version : "");
      pulumirpc__plugin_info__free_unpacked(pi, NULL);
    }
  } else if (unimplemented(rc, &reply)) {
    rc = 0;
  }
  mp_rpc_reply_destroy(&reply);
  return rc;
}

/* ---- the provider methods ---- */

static int check_like(mp_provider *prov, const char *method,
                      const mp_prov_req *q, mp_prov_resp *r, mp_err *err) {
  mp__plugin *p = of(prov);
  Pulumirpc__CheckRequest m = PULUMIRPC__CHECK_REQUEST__INIT;
  SET_NAMES(m, q);
  m.olds = to_struct(p, q->olds);
  m.news = to_struct(p, q->news);
  if (q->random_seed) {
    m.randomseed.data = (uint8_t *)q->random_seed;
    m.randomseed.len = 32;
  }
  mp_rpc_reply reply;
  mp_rpc_reply_init(&reply);
  int is_config = strcmp(method, "CheckConfig") == 0;
  int rc = call(p, method, &m.base, q->urn,
                is_config ? p->h->setup_timeout_ms : timeout_of(p, q), r,
                &reply, err);
  mp_value_pb_struct_free(m.olds);
  mp_value_pb_struct_free(m.news);
  if (rc < 0 && is_config && unimplemented(rc, &reply)) {
    /* The engine decides: the configuration as given. */
    r->inputs = q->news ? mp_value_dup(q->news) : mp_value_new_object();
    rc = 0;
  } else if (rc == 0) {
    Pulumirpc__CheckResponse *a =
        unpack(p, &pulumirpc__check_response__descriptor, method, &reply, err);
    rc = a ? from_struct(p, method, a->inputs, &r->inputs, err) : MP_EPROTO;
    if (rc == 0) {
      resecret(p, r->inputs, q->news);
      take_failures(r, a->failures, a->n_failures);
    }
    if (a) pulumirpc__check_response__free_unpacked(a, NULL);
  }
  mp_rpc_reply_destroy(&reply);
  return rc;
}

static int p_check_config(mp_provider *prov, const mp_prov_req *q,
                          mp_prov_resp *r, mp_err *err) {
  return check_like(prov, "CheckConfig", q, r, err);
}

static int p_check(mp_provider *prov, const mp_prov_req *q, mp_prov_resp *r,
                   mp_err *err) {
  return check_like(prov, "Check", q, r, err);
}

static mp_diff_kind diff_kind(Pulumirpc__PropertyDiff__Kind k) {
  switch (k) {
  case PULUMIRPC__PROPERTY_DIFF__KIND__ADD: return MP_DIFF_ADD;
  case PULUMIRPC__PROPERTY_DIFF__KIND__ADD_REPLACE: return MP_DIFF_ADD_REPLACE;
  case PULUMIRPC__PROPERTY_DIFF__KIND__DELETE: return MP_DIFF_DELETE;
  case PULUMIRPC__PROPERTY_DIFF__KIND__DELETE_REPLACE:
    return MP_DIFF_DELETE_REPLACE;
  case PULUMIRPC__PROPERTY_DIFF__KIND__UPDATE_REPLACE:
    return MP_DIFF_UPDATE_REPLACE;
  default: return MP_DIFF_UPDATE;
  }
}

static void take_strs(mp_strv *v, char **s, size_t n) {
  for (size_t i = 0; i < n; i++) mp_strv_push(v, s[i]);
}

static int diff_like(mp_provider *prov, const char *method,
                     const mp_prov_req *q, mp_prov_resp *r, mp_err *err) {
  mp__plugin *p = of(prov);
  Pulumirpc__DiffRequest m = PULUMIRPC__DIFF_REQUEST__INIT;
  m.id = str_or_empty(q->id);
  SET_NAMES(m, q);
  m.olds = to_struct(p, q->olds);
  m.news = to_struct(p, q->news);
  m.old_inputs = to_struct(p, q->old_inputs);
  if (q->ignore_changes) {
    m.ignorechanges = q->ignore_changes->items;
    m.n_ignorechanges = q->ignore_changes->len;
  }
  mp_rpc_reply reply;
  mp_rpc_reply_init(&reply);
  int is_config = strcmp(method, "DiffConfig") == 0;
  int rc = call(p, method, &m.base, q->urn,
                is_config ? p->h->setup_timeout_ms : timeout_of(p, q), r,
                &reply, err);
  mp_value_pb_struct_free(m.olds);
  mp_value_pb_struct_free(m.news);
  mp_value_pb_struct_free(m.old_inputs);
  if (rc < 0 && is_config && unimplemented(rc, &reply)) {
    r->changes = MP_DIFF_CHANGES_UNKNOWN; /* the engine compares */
    rc = 0;
  } else if (rc == 0) {
    Pulumirpc__DiffResponse *a =
        unpack(p, &pulumirpc__diff_response__descriptor, method, &reply, err);
    if (a == NULL) {
      rc = MP_EPROTO;
    } else {
      r->changes = a->changes == PULUMIRPC__DIFF_RESPONSE__DIFF_CHANGES__DIFF_SOME
                       ? MP_DIFF_CHANGES_SOME
                   : a->changes == PULUMIRPC__DIFF_RESPONSE__DIFF_CHANGES__DIFF_NONE
                       ? MP_DIFF_CHANGES_NONE
                       : MP_DIFF_CHANGES_UNKNOWN;
      take_strs(&r->replaces, a->replaces, a->n_replaces);
      take_strs(&r->stables, a->stables, a->n_stables);
      take_strs(&r->diffs, a->diffs, a->n_diffs);
      r->delete_before_replace = a->deletebeforereplace;
      r->has_detailed_diff = a->hasdetaileddiff;
      for (size_t i = 0; i < a->n_detaileddiff; i++) {
        Pulumirpc__DiffResponse__DetailedDiffEntry *e = a->detaileddiff[i];
        mp_diff_add(&r->detailed_diff, e->key,
                    e->value ? diff_kind(e->value->kind) : MP_DIFF_UPDATE,
                    e->value ? e->value->inputdiff : 0);
      }
      pulumirpc__diff_response__free_unpacked(a, NULL);
    }
  }
  mp_rpc_reply_destroy(&reply);
  return rc;
}

static int p_diff_config(mp_provider *prov, const mp_prov_req *q,
                         mp_prov_resp *r, mp_err *err) {
  return diff_like(prov, "DiffConfig", q, r, err);
}

static int p_diff(mp_provider *prov, const mp_prov_req *q, mp_prov_resp *r,
                  mp_err *err) {
  return diff_like(prov, "Diff", q, r, err);
}

/* Configure's deprecated `variables`, which Pulumi still fills: each
 * config key but `version` as "<pkg>:config:<key>", a string as it is,
 * any other value as its JSON text, secrets left plain (owned entries). */
static Pulumirpc__ConfigureRequest__VariablesEntry **
config_variables(const mp_prov_req *q, size_t *n) {
  *n = 0;
  const mp_value *c = q->news;
  if (c == NULL || c->kind != MP_VALUE_OBJECT || q->type == NULL) return NULL;
  const char *pkg = q->type;
  if (strncmp(pkg, MP_PROVIDER_TYPE_PREFIX, strlen(MP_PROVIDER_TYPE_PREFIX)) == 0)
    pkg += strlen(MP_PROVIDER_TYPE_PREFIX);
  Pulumirpc__ConfigureRequest__VariablesEntry **vars =
      mp_xcalloc(c->u.obj.len + 1, sizeof(*vars));
  for (size_t i = 0; i < c->u.obj.len; i++) {
    const mp_value_entry *e = &c->u.obj.items[i];
    if (strcmp(e->key, "version") == 0) continue;
    mp_value *plain = mp_value_strip_secrets(e->value);
    char *text;
    if (plain->kind == MP_VALUE_STRING) {
      text = mp_xstrdup(plain->u.str.ptr);
    } else {
      mp_buf b;
      mp_buf_init(&b);
      if (mp_value_to_json(plain, NULL, 0, &b, NULL) < 0) mp_buf_reset(&b);
      text = mp_buf_detach(&b, NULL);
    }
    mp_value_free(plain);
    Pulumirpc__ConfigureRequest__VariablesEntry *v = mp_xmalloc(sizeof(*v));
    pulumirpc__configure_request__variables_entry__init(v);
    v->key = mp_xasprintf("%s:config:%s", pkg, e->key);
    v->value = text;
    vars[(*n)++] = v;
  }
  return vars;
}

static void free_variables(Pulumirpc__ConfigureRequest__VariablesEntry **v,
                           size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(v[i]->key);
    free(v[i]->value);
    free(v[i]);
  }
  free(v);
}

/* Configure's args as Pulumi's SDKs build a provider resource's inputs:
 * a list holding a secret element is one output, so the secret floats
 * to the whole list (the elements sent plain inside it); a map or object
 * keeps its secret values where they are (l2-provider-grpc-config-secret).
 * Returns an owned copy of |news|, or NULL for none. */
static mp_value *config_args(const mp_value *news) {
  if (news == NULL) return NULL;
  mp_value *out = mp_value_dup(news);
  if (out->kind != MP_VALUE_OBJECT) return out;
  for (size_t i = 0; i < out->u.obj.len; i++) {
    mp_value **v = &out->u.obj.items[i].value;
    if ((*v)->kind == MP_VALUE_ARRAY && mp_value_contains_secrets(*v)) {
      mp_value *plain = mp_value_strip_secrets(*v);
      mp_value_free(*v);
      *v = mp_value_new_secret(plain);
    }
  }
  return out;
}

static int p_configure(mp_provider *prov, const mp_prov_req *q,
                       mp_prov_resp *r, mp_err *err) {
  mp__plugin *p = of(prov);
  /* Through the init function: clang warns that the INIT macro sets the
   * deprecated `variables` fields. */
  Pulumirpc__ConfigureRequest m;
  pulumirpc__configure_request__init(&m);
  /* Configuration goes with its secrets marked, as Pulumi sends it. */
  Google__Protobuf__Struct *args = NULL;
  mp_value *news = config_args(q->news);
  if (mp_value_to_pb_struct(news, MP_PB_KEEP_SECRETS | MP_PB_SKIP_NULLS,
                            &args, NULL) < 0)
    mp_value_to_pb_struct(NULL, 0, &args, NULL);
  m.args = args;
  size_t nvars;
  Pulumirpc__ConfigureRequest__VariablesEntry **vars = config_variables(q, &nvars);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
  m.variables = vars;
  m.n_variables = nvars;
#pragma GCC diagnostic pop
  m.acceptsecrets = 1;
  m.acceptresources = 1;
  m.sends_old_inputs = 1;
  m.sends_old_inputs_to_delete = 1;
  mp_rpc_reply reply;
  mp_rpc_reply_init(&reply);
  int rc = call(p, "Configure", &m.base, q->urn, p->h->setup_timeout_ms, r,
                &reply, err);
  mp_value_pb_struct_free(args);
  mp_value_free(news);
  free_variables(vars, nvars);
  if (rc == 0) {
    Pulumirpc__ConfigureResponse *a = unpack(
        p, &pulumirpc__configure_response__descriptor, "Configure", &reply,
        err);
    if (a == NULL) {
      rc = MP_EPROTO;
    } else {
      p->accept_secrets = a->acceptsecrets;
      p->accept_resources = a->acceptresources;
      p->accept_outputs = a->acceptoutputs;
      p->supports_preview = a->supportspreview;
      r->accept_secrets = p->accept_secrets;
      r->accept_resources = p->accept_resources;
      r->supports_preview = p->supports_preview;
      pulumirpc__configure_response__free_unpacked(a, NULL);
    }
  }
  mp_rpc_reply_destroy(&reply);
  return rc;
}

/* Create and Update: the call, its outputs (marked secret again when the
 * plugin takes no secrets), or a partial result when it failed. */
static int world_call(mp__plugin *p, const char *method,
                      const ProtobufCMessage *req, const mp_prov_req *q,
                      mp_prov_resp *r, mp_err *err) {
  int is_create = strcmp(method, "Create") == 0;
  mp_rpc_reply reply;
  mp_rpc_reply_init(&reply);
  void *a;
  int rc = roundtrip(p, method, req, q->urn, timeout_of(p, q), r,
                     is_create ? &pulumirpc__create_response__descriptor
                               : &pulumirpc__update_response__descriptor,
                     &a, &reply, err);
  if (rc == 0) {
    Pulumirpc__CreateResponse *c = is_create ? a : NULL;
    Pulumirpc__UpdateResponse *u = is_create ? NULL : a;
    rc = from_struct(p, method, c ? c->properties : u->properties,
                     &r->outputs, err);
    if (rc == 0) resecret(p, r->outputs, q->news);
    if (rc == 0 && c) {
      r->id = mp_xstrdup(c->id ? c->id : "");
      if (!q->preview && !*r->id)
        rc = mp_err_set(err, MP_EPROTO,
                        "plugin '%s' created %s without an id", p->name,
                        q->urn ? q->urn : "a resource");
    }
  } else if (rc == MP_EPLUGIN) {
    take_init_failure(p, &reply, q->news, r);
  }
  free_answer(a);
  mp_rpc_reply_destroy(&reply);
  return rc;
}

/* Preview of a plugin without supportsPreview: Pulumi does not ask it;
 * the inputs stand in for the outputs (and the id is unknown). */
static int preview_unasked(const mp_prov_req *q, mp_prov_resp *r,
                           int is_create) {
  r->outputs = q->news ? mp_value_dup(q->news) : mp_value_new_object();
  if (is_create) r->id = mp_xstrdup("");
  return 0;
}

static int p_create(mp_provider *prov, const mp_prov_req *q, mp_prov_resp *r,
                    mp_err *err) {
  mp__plugin *p = of(prov);
  if (q->preview && !p->supports_preview) return preview_unasked(q, r, 1);
  Pulumirpc__CreateRequest m = PULUMIRPC__CREATE_REQUEST__INIT;
  SET_NAMES(m, q);
  m.properties = to_struct(p, q->news);
  m.timeout = q->timeout;
  m.preview = q->preview != 0;
  int rc = world_call(p, "Create", &m.base, q, r, err);
  mp_value_pb_struct_free(m.properties);
  return rc;
}

static int p_update(mp_provider *prov, const mp_prov_req *q, mp_prov_resp *r,
                    mp_err *err) {
  mp__plugin *p = of(prov);
  if (q->preview && !p->supports_preview) return preview_unasked(q, r, 0);
  Pulumirpc__UpdateRequest m = PULUMIRPC__UPDATE_REQUEST__INIT;
  m.id = str_or_empty(q->id);
  SET_NAMES(m, q);
  m.olds = to_struct(p, q->olds);
  m.news = to_struct(p, q->news);
  m.old_inputs = to_struct(p, q->old_inputs);
  m.timeout = q->timeout;
  m.preview = q->preview != 0;
  if (q->ignore_changes) {
    m.ignorechanges = q->ignore_changes->items;
    m.n_ignorechanges = q->ignore_changes->len;
  }
  int rc = world_call(p, "Update", &m.base, q, r, err);
  mp_value_pb_struct_free(m.olds);
  mp_value_pb_struct_free(m.news);
  mp_value_pb_struct_free(m.old_inputs);
  return rc;
}

static int p_read(mp_provider *prov, const mp_prov_req *q, mp_prov_resp *r,
                  mp_err *err) {
  mp__plugin *p = of(prov);
  Pulumirpc__ReadRequest m = PULUMIRPC__READ_REQUEST__INIT;
  m.id = str_or_empty(q->id);
  SET_NAMES(m, q);
  m.properties = to_struct(p, q->olds);
  m.inputs = to_struct(p, q->old_inputs);
  m.timeout = q->timeout;
  mp_rpc_reply reply;
  mp_rpc_reply_init(&reply);
  Pulumirpc__ReadResponse *a;
  int rc = roundtrip(p, "Read", &m.base, q->urn, timeout_of(p, q), r,
                     &pulumirpc__read_response__descriptor, &a, &reply, err);
  mp_value_pb_struct_free(m.properties);
  mp_value_pb_struct_free(m.inputs);
  if (rc == 0 && a->id && *a->id) {
    r->id = mp_xstrdup(a->id);
    rc = from_struct(p, "Read", a->properties, &r->outputs, err);
    if (rc == 0 && a->inputs)
      rc = from_struct(p, "Read", a->inputs, &r->inputs, err);
    resecret(p, r->outputs, q->olds);
    resecret(p, r->inputs, q->old_inputs);
  } else if (rc == 0) {
    r->id = mp_xstrdup(""); /* gone */
  } else if (rc == MP_EPLUGIN) {
    take_init_failure(p, &reply, q->olds, r);
  }
  free_answer(a);
  mp_rpc_reply_destroy(&reply);
  return rc;
}

static int p_delete(mp_provider *prov, const mp_prov_req *q, mp_prov_resp *r,
                    mp_err *err) {
  mp__plugin *p = of(prov);
  Pulumirpc__DeleteRequest m = PULUMIRPC__DELETE_REQUEST__INIT;
  m.id = str_or_empty(q->id);
  SET_NAMES(m, q);
  m.properties = to_struct(p, q->olds);
  m.old_inputs = to_struct(p, q->old_inputs);
  m.timeout = q->timeout;
  mp_rpc_reply reply;
  mp_rpc_reply_init(&reply);
  int rc = call(p, "Delete", &m.base, q->urn, timeout_of(p, q), r, &reply,
                err);
  mp_value_pb_struct_free(m.properties);
  mp_value_pb_struct_free(m.old_inputs);
  mp_rpc_reply_destroy(&reply);
  return rc;
}

static int p_invoke(mp_provider *prov, const mp_prov_req *q, mp_prov_resp *r,
                    mp_err *err) {
  mp__plugin *p = of(prov);
  Pulumirpc__InvokeRequest m = PULUMIRPC__INVOKE_REQUEST__INIT;
  m.tok = str_or_empty(q->tok);
  m.args = to_struct(p, q->news);
  m.preview = q->preview != 0;
  mp_rpc_reply reply;
  mp_rpc_reply_init(&reply);
  Pulumirpc__InvokeResponse *a;
  int rc = roundtrip(p, "Invoke", &m.base, NULL, timeout_of(p, q), r,
                     &pulumirpc__invoke_response__descriptor, &a, &reply,
                     err);
  mp_value_pb_struct_free(m.args);
  if (rc == 0) rc = from_struct(p, "Invoke", a->return_, &r->outputs, err);
  if (rc == 0) {
    resecret(p, r->outputs, q->news);
    take_failures(r, a->failures, a->n_failures);
  }
  free_answer(a);
  mp_rpc_reply_destroy(&reply);
  return rc;
}

static int p_get_plugin_info(mp_provider *prov, const mp_prov_req *q,
                             mp_prov_resp *r, mp_err *err) {
  (void)q;
  (void)err;
  r->version = mp_xstrdup(of(prov)->version ? of(prov)->version : "");
  return 0;
}

/* Cancel: sent from the loop, answered or not; nothing waits for it. */
static void cancel_done(int rc, mp_rpc_reply *reply, const mp_err *err,
                        void *arg) {
  (void)rc;
  (void)reply;
  (void)err;
  (void)arg;
}

static void send_cancel(void *arg) {
  mp__plugin *p = arg;
  mp__plugin_relays_cancel(p);
  static const uint8_t nothing[1];
  if (p->client)
    mp_rpc_call_start(p->client, SVC "Cancel", nothing, 0, NULL, cancel_done,
                      NULL, NULL, NULL);
}

static void p_cancel(mp_provider *prov) {
  mp__plugin *p = of(prov);
  mp__host_run(p->h, send_cancel, p);
}

static void p_free(mp_provider *prov) { mp__plugin_release(of(prov)); }

/* Construct, Call and Parameterize: the monitor made the request and reads
 * the answer; the plugin only carries the bytes. Diagnostics the plugin
 * sends meanwhile go to the display as the plugin's own. */
static int relay(mp_provider *prov, const char *method, const mp_buf *req,
                 mp_buf *resp, mp_err *err) {
  mp__plugin *p = of(prov);
  mp_rpc_reply reply;
  mp_rpc_reply_init(&reply);
  char path[96];
  snprintf(path, sizeof(path), SVC "%s", method);
  int rc = call_bytes(p, path, (const uint8_t *)req->data, req->len, NULL,
                      p->h->call_timeout_ms, NULL, &reply, err);
  if (rc == 0) mp_buf_append(resp, reply.body.data, reply.body.len);
  mp_rpc_reply_destroy(&reply);
  return rc;
}

static int p_parameterize(mp_provider *prov, const mp_buf *req, mp_buf *resp,
                          mp_err *err) {
  return relay(prov, "Parameterize", req, resp, err);
}

const mp_provider_vtable mp__plugin_vtable = {
    .check_config = p_check_config,
    .diff_config = p_diff_config,
    .configure = p_configure,
    .check = p_check,
    .diff = p_diff,
    .create = p_create,
    .read = p_read,
    .update = p_update,
    .del = p_delete,
    .invoke = p_invoke,
    .get_plugin_info = p_get_plugin_info,
    .cancel = p_cancel,
    .free = p_free,
    .construct = mp__plugin_construct,
    .call = mp__plugin_call,
    .parameterize = p_parameterize,
    .get_schema = mp__plugin_get_schema,
};
