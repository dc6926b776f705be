/* The monitor's life: made for a deployment, its program's logs, end and
 * resource hooks, and at the end every outstanding request answered
 * (cancelled) and everything freed. The requests themselves:
 * registrations.c, default_providers.c, invokes.c, asset_hashing.c,
 * schemas.c. */
#include "monitor/monitor.h"

#include <stdlib.h>
#include <string.h>

#include "engine/map.h"
#include "engine/registry.h"
#include "engine/urn.h"
#include "engine/value_pb.h"
#include "monitor/marshal.h"
#include "monitor/monitor_int.h"
#include "monitor/resource_hooks.h"

mp_monitor *mp_monitor_new(const mp_monitor_opts *o) {
  mp_monitor *m = mp_xcalloc(1, sizeof(*m));
  m->o = *o;
  m->stack = mp_xstrdup(o->stack);
  m->project = mp_xstrdup(o->project);
  m->config = o->config ? mp_value_dup(o->config) : mp_value_new_object();
  m->o.config = m->config;
  m->o.stack = m->stack;
  m->o.project = m->project;
  m->organization = mp_xstrdup(o->organization);
  m->o.organization = m->organization;
  mp_map_init(&m->dps);
  mp_map_init(&m->heritages);
  m->hooks = mp_hook_table_new(o->preview);
  m->assets.fetch = o->asset_fetch;
  m->assets.fetch_ud = o->asset_fetch_ud;
  return m;
}

size_t mp_monitor_outstanding(const mp_monitor *m) {
  return m->noutstanding + m->nhashing;
}

void mp_monitor_cancel_all(mp_monitor *m) {
  mp_err e;
  mp_err_set(&e, MP_ECANCELED, "the deployment was canceled");
  /* Waiters are on the outstanding list too; forget the provider lists so
   * that answering a provider does not resubmit them. */
  for (size_t i = 0; i < m->dps.cap; i++) {
    dp *d = m->dps.slots[i].key ? m->dps.slots[i].value : NULL;
    if (d) {
      d->waiters = NULL;
      /* Waiting invokes are not on the outstanding list: answer them. */
      mp_err saved = d->err;
      int failed = d->failed;
      d->failed = 1;
      d->err = e;
      mp__dp_invokes_resolved(m, d);
      d->failed = failed;
      d->err = saved;
    }
  }
  /* Those still hashing are answered now; the pool's work, when it ends,
   * only frees them. */
  for (mp__hashing *h = m->hashing; h; h = h->next) {
    if (h->answered)
      continue;
    h->answered = 1;
    m->nhashing--;
    h->cb(h->ud, NULL, &e);
  }
  while (m->outstanding) {
    mp_monitor_reg *r = m->outstanding;
    mp__reg_unlink(m, r);
    /* The deployment may still hold |r| (at the generator, in a chain):
     * park it on the answered list before the host's callback runs, since
     * that callback can end the program and hand |r| back right away. */
    mp_register_cb cb = r->cb;
    mp_read_cb rcb = r->rcb;
    void *ud = r->ud;
    enum reg_kind kind = r->kind;
    if (kind == REG_DEFAULT_PROVIDER) {
      r->dp->failed = 1;
      r->dp->err = e;
    }
    r->answered = 1;
    r->cb = NULL;
    r->rcb = NULL;
    r->next = m->answered;
    r->prev = NULL;
    if (m->answered)
      m->answered->prev = r;
    m->answered = r;
    if (kind == REG_RESOURCE && cb)
      cb(ud, NULL, &e);
    else if (kind == REG_READ && rcb)
      rcb(ud, NULL, &e);
  }
}

void mp_monitor_set_program_dir(mp_monitor *m, const char *dir) {
  free(m->program_dir);
  m->program_dir = mp_xstrdup(dir);
  m->assets.wd = m->program_dir;
}

void mp_monitor_free(mp_monitor *m) {
  if (m == NULL)
    return;
  free(m->program_dir);
  mp_monitor_cancel_all(m);
  /* None is left once the loop has run out; should one be, its work ends
   * without the monitor. */
  for (mp__hashing *h = m->hashing; h; h = h->next)
    h->m = NULL;
  while (m->answered) {
    mp_monitor_reg *r = m->answered;
    m->answered = r->next;
    mp__reg_free(r);
  }
  for (size_t i = 0; i < m->dps.cap; i++) {
    dp *d = m->dps.slots[i].key ? m->dps.slots[i].value : NULL;
    if (d) {
      free(d->ref);
      free(d);
    }
  }
  mp_map_destroy(&m->dps);
  for (size_t i = 0; i < m->heritages.cap; i++)
    if (m->heritages.slots[i].key)
      mp__heritage_free(m->heritages.slots[i].value);
  mp_map_destroy(&m->heritages);
  mp_hook_table_free(m->hooks);
  mp_value_free(m->config);
  mp__packages_free(m->packages);
  free(m->organization);
  free(m->stack);
  free(m->project);
  free(m);
}

void mp_monitor_log(mp_monitor *m, mp_log_severity sev, const char *urn,
                    const char *msg) {
  if (m->o.hooks.log)
    m->o.hooks.log(m->o.hooks.ud, sev, urn, msg);
}

void mp_monitor_program_done(mp_monitor *m, int failed, const char *message) {
  m->o.hooks.program_done(m->o.hooks.ud, failed, message);
}

void mp_monitor_register_hook(mp_monitor *m, const mp_resource_hook *h) {
  mp_hook_table_put(m->hooks, h);
}

int mp_monitor_run_hooks(mp_monitor *m, mp_step *s, int after, mp_err *err) {
  return mp_hook_table_run(m->hooks, s, after, err);
}

int mp_monitor_run_error_hooks(mp_monitor *m, const mp_step *s, const char *op,
                               const mp_strv *errors, int *retry, mp_err *err) {
  return mp_hook_table_run_error(m->hooks, s, op, errors, retry, err);
}
