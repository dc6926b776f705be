/* Resource hooks: the table of the program's hooks and their calls. */
#include "monitor/resource_hooks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/map.h"
#include "engine/urn.h"
#include "engine/value_pb.h"

typedef struct hook {
  char *name;
  mp_resource_hook h; /* h.name points at |name| */
} hook;

struct mp_hook_table {
  int preview;
  uv_mutex_t mu;
  mp_map by_name; /* name -> hook* */
};

mp_hook_table *mp_hook_table_new(int preview) {
  mp_hook_table *t = mp_xcalloc(1, sizeof(*t));
  t->preview = preview;
  uv_mutex_init(&t->mu);
  mp_map_init(&t->by_name);
  return t;
}

static void hook_free(hook *k) {
  if (k == NULL) return;
  free(k->name);
  free(k);
}

void mp_hook_table_free(mp_hook_table *t) {
  if (t == NULL) return;
  for (size_t i = 0; i < t->by_name.cap; i++)
    if (t->by_name.slots[i].key) hook_free(t->by_name.slots[i].value);
  mp_map_destroy(&t->by_name);
  uv_mutex_destroy(&t->mu);
  free(t);
}

void mp_hook_table_put(mp_hook_table *t, const mp_resource_hook *h) {
  hook *k = mp_xcalloc(1, sizeof(*k));
  k->name = mp_xstrdup(h->name ? h->name : "");
  k->h = *h;
  k->h.name = k->name;
  uv_mutex_lock(&t->mu);
  hook_free(mp_map_put(&t->by_name, k->name, k));
  uv_mutex_unlock(&t->mu);
}

/* A copy of the hook named |name| (the table may change meanwhile), or 0. */
static int find(mp_hook_table *t, const char *name, int error_hook,
                mp_resource_hook *out) {
  uv_mutex_lock(&t->mu);
  hook *k = mp_map_get(&t->by_name, name);
  if (k && !k->h.error_hook != !error_hook) k = NULL;
  if (k) *out = k->h;
  uv_mutex_unlock(&t->mu);
  return k != NULL;
}

/* Struct |v| (or NULL) for the request; freed by free_struct. */
static Google__Protobuf__Struct *to_struct(const mp_value *v) {
  Google__Protobuf__Struct *out = NULL;
  if (v && mp_value_to_pb_struct(v, MP_PB_KEEP_SECRETS, &out, NULL) < 0)
    out = NULL;
  return out;
}

/* The request Pulumi sends: what is known at this moment of the step. */
static void request_of(const mp_step *s, int kind,
                       Pulumirpc__ResourceHookRequest *q, char *name,
                       size_t cap) {
  int create = kind == MP_HOOK_BEFORE_CREATE || kind == MP_HOOK_AFTER_CREATE;
  int del = kind >= MP_HOOK_BEFORE_DELETE;
  int after = kind == MP_HOOK_AFTER_CREATE || kind == MP_HOOK_AFTER_UPDATE ||
              kind == MP_HOOK_AFTER_DELETE;
  /* A replacement's create knows nothing of the old resource. */
  const mp_resource *n = del ? NULL : s->new_, *o = create ? NULL : s->old;
  const mp_resource *any = n ? n : o;
  size_t len = 0;
  const char *nm = mp_urn_name(s->urn, &len);
  snprintf(name, cap, "%.*s", nm ? (int)len : 0, nm ? nm : "");
  q->urn = s->urn;
  q->name = name;
  q->type = any ? any->type : (char *)"";
  const char *id = n && after ? n->id : o ? o->id : NULL;
  q->id = (char *)(id ? id : "");
  if (n) q->new_inputs = to_struct(n->inputs);
  if (n && after) q->new_outputs = to_struct(n->outputs);
  if (o) {
    q->old_inputs = to_struct(o->inputs);
    q->old_outputs = to_struct(o->outputs);
  }
}

static void request_free(Pulumirpc__ResourceHookRequest *q) {
  mp_value_pb_struct_free(q->new_inputs);
  mp_value_pb_struct_free(q->new_outputs);
  mp_value_pb_struct_free(q->old_inputs);
  mp_value_pb_struct_free(q->old_outputs);
}

/* Calls hook |h|; 0, or an MP_E code and |err| with the hook's error. */
static int call_one(const mp_resource_hook *h,
                    const Pulumirpc__ResourceHookRequest *q, mp_err *err) {
  mp_buf resp;
  mp_buf_init(&resp);
  int rc = h->call(h->ud, &q->base, &resp, err);
  if (rc == 0) {
    Pulumirpc__ResourceHookResponse *r = pulumirpc__resource_hook_response__unpack(
        NULL, resp.len, (const uint8_t *)resp.data);
    if (r == NULL)
      rc = mp_err_set(err, MP_EPROTO, "not a ResourceHookResponse");
    else if (r->error && r->error[0])
      rc = mp_err_set(err, MP_EPLUGIN, "%s", r->error);
    if (r) pulumirpc__resource_hook_response__free_unpacked(r, NULL);
  }
  mp_buf_destroy(&resp);
  return rc;
}

int mp_hook_table_run(mp_hook_table *t, mp_step *s, int after, mp_err *err) {
  int kind = mp_step_hook_kind(s->op, after);
  const mp_strv *names = kind < 0 ? NULL : mp_step_hook_names(s, kind);
  if (names == NULL || names->len == 0) return 0;
  Pulumirpc__ResourceHookRequest q = PULUMIRPC__RESOURCE_HOOK_REQUEST__INIT;
  char name[256];
  request_of(s, kind, &q, name, sizeof(name));
  int rc = 0;
  const char *when = after ? "after" : "before";
  for (size_t i = 0; i < names->len && rc == 0; i++) {
    mp_resource_hook h;
    mp_err e;
    mp_err_clear(&e);
    int crc;
    if (!find(t, names->items[i], 0, &h)) {
      crc = mp_err_set(&e, MP_EINVAL, "the program did not register it");
      h.ignore_errors = 0;
    } else if (t->preview && !h.on_dry_run) {
      continue;
    } else {
      crc = call_one(&h, &q, &e);
    }
    if (crc == 0) continue;
    char *msg = mp_xasprintf("%s hook \"%s\" failed: %s", when,
                             names->items[i], e.msg);
    if (after || h.ignore_errors) mp_strv_push_take(&s->warnings, msg);
    else {
      rc = mp_err_set(err, crc, "%s", msg);
      free(msg);
    }
  }
  request_free(&q);
  return rc;
}

/* ---- error hooks ---- */

/* The request Pulumi sends when |op| failed: a delete names the old
 * state, a create the new inputs, an update both. */
static void error_request_of(const mp_step *s, const char *op,
                             const mp_strv *errors,
                             Pulumirpc__ErrorHookRequest *q, char *name,
                             size_t cap) {
  int del = strcmp(op, "delete") == 0, create = strcmp(op, "create") == 0;
  const mp_resource *n = del ? NULL : s->new_, *o = create ? NULL : s->old;
  const mp_resource *any = n ? n : o;
  size_t len = 0;
  const char *nm = mp_urn_name(s->urn, &len);
  snprintf(name, cap, "%.*s", nm ? (int)len : 0, nm ? nm : "");
  q->urn = s->urn;
  q->name = name;
  q->type = any ? any->type : (char *)"";
  q->id = (char *)(o && o->id ? o->id : "");
  q->failed_operation = (char *)op;
  q->n_errors = errors->len;
  q->errors = errors->items;
  if (n) q->new_inputs = to_struct(n->inputs);
  if (o) {
    q->old_inputs = to_struct(o->inputs);
    q->old_outputs = to_struct(o->outputs);
  }
}

/* Calls error hook |h|: 0 and *retry, or an MP_E code and |err|. */
static int call_error_hook(const mp_resource_hook *h,
                           const Pulumirpc__ErrorHookRequest *q, int *retry,
                           mp_err *err) {
  mp_buf resp;
  mp_buf_init(&resp);
  int rc = h->call(h->ud, &q->base, &resp, err);
  if (rc == 0) {
    Pulumirpc__ErrorHookResponse *r = pulumirpc__error_hook_response__unpack(
        NULL, resp.len, (const uint8_t *)resp.data);
    if (r == NULL)
      rc = mp_err_set(err, MP_EPROTO, "not an ErrorHookResponse");
    else if (r->error && r->error[0])
      rc = mp_err_set(err, MP_EPLUGIN, "%s", r->error);
    else
      *retry = r->retry ? 1 : 0;
    if (r) pulumirpc__error_hook_response__free_unpacked(r, NULL);
  }
  mp_buf_destroy(&resp);
  return rc;
}

int mp_hook_table_run_error(mp_hook_table *t, const mp_step *s,
                            const char *op, const mp_strv *errors, int *retry,
                            mp_err *err) {
  *retry = 0;
  const mp_strv *names = mp_step_hook_names(s, MP_HOOK_ON_ERROR);
  if (names == NULL || names->len == 0) return 0;
  Pulumirpc__ErrorHookRequest q = PULUMIRPC__ERROR_HOOK_REQUEST__INIT;
  char name[256];
  error_request_of(s, op, errors, &q, name, sizeof(name));
  int rc = 0;
  for (size_t i = 0; i < names->len && rc == 0; i++) {
    mp_resource_hook h;
    if (!find(t, names->items[i], 1, &h)) {
      rc = mp_err_set(err, MP_EINVAL, "error hook \"%s\" was not registered",
                      names->items[i]);
      break;
    }
    mp_err e;
    mp_err_clear(&e);
    int again = 0;
    int crc = call_error_hook(&h, &q, &again, &e);
    if (crc < 0)
      rc = mp_err_set(err, crc, "error hook \"%s\" failed: %s",
                      names->items[i], e.msg);
    else if (again)
      *retry = 1;
  }
  mp_value_pb_struct_free(q.new_inputs);
  mp_value_pb_struct_free(q.old_inputs);
  mp_value_pb_struct_free(q.old_outputs);
  return rc;
}
