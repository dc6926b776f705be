#include "scripted_provider.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/urn.h"

typedef struct sp_provider {
  mp_provider base;
  sp_world *w;
} sp_provider;

void sp_world_init(sp_world *w) {
  memset(w, 0, sizeof(*w));
  uv_mutex_init(&w->mu);
  uv_cond_init(&w->cv);
  mp_strv_init(&w->calls);
}

void sp_world_destroy(sp_world *w) {
  mp_strv_destroy(&w->calls);
  uv_cond_destroy(&w->cv);
  uv_mutex_destroy(&w->mu);
}

static sp_answer *find(sp_world *w, const char *name, size_t n) {
  for (size_t i = 0; i < w->nanswers; i++)
    if (strlen(w->answers[i].name) == n &&
        strncmp(w->answers[i].name, name, n) == 0)
      return &w->answers[i];
  return NULL;
}

sp_answer *sp_script(sp_world *w, const char *name) {
  sp_answer *a = find(w, name, strlen(name));
  if (a)
    return a;
  if (w->nanswers == sizeof(w->answers) / sizeof(w->answers[0]))
    abort();
  a = &w->answers[w->nanswers++];
  memset(a, 0, sizeof(*a));
  snprintf(a->name, sizeof(a->name), "%s", name);
  return a;
}

char *sp_calls(sp_world *w) {
  mp_buf b;
  mp_buf_init(&b);
  uv_mutex_lock(&w->mu);
  for (size_t i = 0; i < w->calls.len; i++)
    mp_buf_printf(&b, "%s%s", i ? "; " : "", w->calls.items[i]);
  uv_mutex_unlock(&w->mu);
  mp_buf_puts(&b, "");
  return mp_buf_detach(&b, NULL);
}

void sp_calls_clear(sp_world *w) {
  uv_mutex_lock(&w->mu);
  mp_strv_destroy(&w->calls);
  mp_strv_init(&w->calls);
  uv_mutex_unlock(&w->mu);
}

/* Records "|method| <name>|suffix|" and returns the script for the name
 * (a copy: scripts are not changed while calls run), zeroed if none. */
static sp_answer called(mp_provider *p, const char *method, const char *urn,
                        const char *suffix) {
  sp_world *w = ((sp_provider *)p)->w;
  size_t n = 0;
  const char *name = urn ? mp_urn_name(urn, &n) : NULL;
  if (name == NULL)
    name = "?", n = 1;
  sp_answer a;
  memset(&a, 0, sizeof(a));
  uv_mutex_lock(&w->mu);
  mp_strv_push_take(&w->calls, mp_xasprintf("%s %.*s%s", method, (int)n, name,
                                            suffix ? suffix : ""));
  const sp_answer *s = find(w, name, n);
  if (s)
    a = *s;
  uv_mutex_unlock(&w->mu);
  return a;
}

static int sp_check(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                    mp_err *err) {
  (void)err;
  sp_answer a = called(p, "check", q->urn, q->olds ? " +olds" : "");
  if (a.check_fail_reason)
    mp_prov_resp_add_failure(r, a.check_fail_prop, a.check_fail_reason);
  r->inputs = mp_value_dup(q->news);
  return 0;
}

static void push_keys(mp_strv *v, const char *csv) {
  for (const char *p = csv; p && *p;) {
    const char *e = strchr(p, ',');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    mp_strv_push_take(v, mp_xstrndup(p, n));
    p = e ? e + 1 : NULL;
  }
}

static int sp_diff(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                   mp_err *err) {
  (void)err;
  sp_answer a = called(p, "diff", q->urn, NULL);
  if (a.replace_if_unknown && q->news && q->news->kind == MP_VALUE_OBJECT)
    for (size_t i = 0; i < q->news->u.obj.len; i++)
      if (q->news->u.obj.items[i].value->kind == MP_VALUE_UNKNOWN) {
        mp_strv_push(&r->replaces, q->news->u.obj.items[i].key);
        r->changes = MP_DIFF_CHANGES_SOME;
      }
  if (!a.diff_set)
    return 0;
  r->changes = a.changes;
  push_keys(&r->replaces, a.replaces);
  r->delete_before_replace = a.dbr;
  return 0;
}

/* Create/Update/Delete: counts the call in flight and, with a gate,
 * waits for the others. */
static int world_call(mp_provider *p, const char *method, const mp_prov_req *q,
                      mp_err *err) {
  sp_answer a = called(p, method, q->urn, NULL);
  sp_world *w = ((sp_provider *)p)->w;
  uv_mutex_lock(&w->mu);
  w->in_flight++;
  if (w->in_flight > w->max_in_flight)
    w->max_in_flight = w->in_flight;
  if (w->gate > 0 && strcmp(method, "create") == 0) {
    /* A barrier: the last of |gate| arrivals opens the round. */
    unsigned round = w->gate_round;
    if (++w->gate_arrived == w->gate) {
      w->gate_arrived = 0;
      w->gate_round++;
      uv_cond_broadcast(&w->cv);
    }
    while (w->gate_round == round)
      if (uv_cond_timedwait(&w->cv, &w->mu, 10ull * 1000 * 1000 * 1000) != 0) {
        w->gate_timeouts++;
        break;
      }
  }
  w->in_flight--;
  uv_mutex_unlock(&w->mu);
  if (w->on_call)
    w->on_call(w->on_call_ud, method, q->urn);
  if (a.fail)
    return mp_err_set(err, MP_EPLUGIN, "%s", a.fail);
  return 0;
}

static char *id_of(const char *urn) {
  size_t n = 0;
  const char *name = mp_urn_name(urn, &n);
  return mp_xasprintf("id-%.*s", (int)n, name ? name : "");
}

static int sp_create(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                     mp_err *err) {
  int rc = world_call(p, "create", q, err);
  if (rc < 0)
    return rc;
  r->id = id_of(q->urn);
  r->outputs = mp_value_dup(q->news);
  return 0;
}

static int sp_update(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                     mp_err *err) {
  int rc = world_call(p, "update", q, err);
  if (rc < 0)
    return rc;
  r->outputs = mp_value_dup(q->news);
  return 0;
}

static int sp_delete(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                     mp_err *err) {
  (void)r;
  return world_call(p, "delete", q, err);
}

static void sp_free(mp_provider *p) {
  free(p->pkg);
  free(p);
}

static const mp_provider_vtable sp_vtable = {
    .check = sp_check,
    .diff = sp_diff,
    .create = sp_create,
    .update = sp_update,
    .del = sp_delete,
    .free = sp_free,
};

static int sp_make(void *ud, const char *pkg, const char *version,
                   mp_provider **out, mp_err *err) {
  (void)version;
  (void)err;
  sp_provider *p = mp_xcalloc(1, sizeof(*p));
  p->base.vt = &sp_vtable;
  p->base.pkg = mp_xstrdup(pkg);
  p->w = ud;
  *out = &p->base;
  return 0;
}

mp_provider_factory sp_factory(sp_world *w) {
  mp_provider_factory f = {sp_make, w, NULL, NULL};
  return f;
}
