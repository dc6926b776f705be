/* Setting up, running and finishing a deployment; the generator thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/deploy_int.h"
#include "engine/urn.h"

/* ---- the generator thread ---- */

static void run_work(deploy *d, work_item *w, result_item *r) {
  mp_err_clear(&r->err);
  if (w->kind == WORK_REGISTER) {
    char *urn = mp_urn_new(d->o->stack.name, d->o->stack.project,
                           w->goal->parent, w->goal->type, w->goal->name, NULL);
    r->urn = urn;
    r->rc = mp_stepgen_register(d->sg, w->goal, w->reg, &r->chain, &r->diags,
                                &r->err);
    return;
  }
  r->rc = 0;
  /* Pulumi checks `up`'s targets after the program and still runs the
   * targeted deletes before it fails. */
  if (d->o->kind == MP_DEPLOY_UPDATE)
    r->late_fail = mp_stepgen_check_targets(d->sg, 0, &r->diags) > 0;
  if (mp_stepgen_preview_failed(d->sg))
    r->rc = mp_err_set(&r->err, MP_EINVAL, "%s", "");
  if (r->rc == 0)
    r->rc = mp_stepgen_deletes(d->sg, d->o->kind == MP_DEPLOY_DESTROY,
                               &r->chain, &r->layers, &r->nlayers, &r->diags,
                               &r->err);
}

static void thread_main(void *arg) {
  deploy *d = arg;
  for (;;) {
    uv_mutex_lock(&d->mu);
    while (d->in_head == NULL && !d->quit) uv_cond_wait(&d->cv, &d->mu);
    work_item *w = d->in_head;
    if (w) {
      d->in_head = w->next;
      if (d->in_head == NULL) d->in_tail = NULL;
    }
    uv_mutex_unlock(&d->mu);
    if (w == NULL) return; /* quit and drained */
    result_item *r = mp_xcalloc(1, sizeof(*r));
    r->kind = w->kind;
    r->reg = w->reg;
    run_work(d, w, r);
    free(w);
    uv_mutex_lock(&d->mu);
    if (d->out_tail) d->out_tail->next = r;
    else d->out_head = r;
    d->out_tail = r;
    uv_mutex_unlock(&d->mu);
    uv_async_send(&d->wake);
  }
}

void mp__deploy_thread_push(deploy *d, enum work_kind k, mp_goal *g,
                            mp_monitor_reg *reg) {
  work_item *w = mp_xcalloc(1, sizeof(*w));
  w->kind = k;
  w->goal = g;
  w->reg = reg;
  uv_mutex_lock(&d->mu);
  if (d->in_tail) d->in_tail->next = w;
  else d->in_head = w;
  d->in_tail = w;
  uv_cond_signal(&d->cv);
  uv_mutex_unlock(&d->mu);
}

void mp__deploy_defer_fail(deploy *d, mp_goal *g, mp_monitor_reg *reg,
                           const mp_err *err, int how) {
  mp_goal_free(g);
  deferred *x = mp_xcalloc(1, sizeof(*x));
  x->reg = reg;
  x->err = *err;
  x->how = how;
  x->next = d->defer;
  d->defer = x;
  d->deferred++;
  uv_async_send(&d->wake);
}

static void on_wake(uv_async_t *h) {
  deploy *d = h->data;
  while (d->defer) {
    deferred *x = d->defer;
    d->defer = x->next;
    d->deferred--;
    mp_monitor_fail(d->mon, x->reg, &x->err, x->how);
    free(x);
  }
  for (;;) {
    uv_mutex_lock(&d->mu);
    result_item *r = d->out_head;
    if (r) {
      d->out_head = r->next;
      if (d->out_head == NULL) d->out_tail = NULL;
    }
    uv_mutex_unlock(&d->mu);
    if (r == NULL) break;
    mp__deploy_on_result(d, r);
  }
  mp__deploy_check_done(d);
}

static void on_tick(uv_timer_t *t) {
  deploy *d = t->data;
  if (d->o->interrupt && *d->o->interrupt && !d->stopping) {
    mp__deploy_diag(d, "warning", NULL, "update canceled");
    mp__deploy_cancel(d, 1);
  }
}

/* ---- finishing ---- */

static void apply_stack_outputs(deploy *d) {
  if (d->stack_outputs == NULL) return;
  for (size_t i = 0; i < d->news.cap; i++) {
    mp_resource *st = d->news.slots[i].key ? d->news.slots[i].value : NULL;
    if (st == NULL || strcmp(st->type, MP_ROOT_STACK_TYPE) != 0) continue;
    if (d->res->failed && st->outputs) {
      /* S08: on failure new keys overwrite and old keys stay. */
      const mp_value *n = d->stack_outputs;
      for (size_t k = 0; k < n->u.obj.len; k++)
        mp_value_object_set(st->outputs, n->u.obj.items[k].key,
                            mp_value_dup(n->u.obj.items[k].value));
    } else {
      mp_value_free(st->outputs);
      st->outputs = mp_value_dup(d->stack_outputs);
    }
    if (d->upd && st->row) {
      mp_err e;
      mp_store_change c = {.kind = MP_STORE_UPDATE, .res = st};
      if (mp_store_apply(d->upd, &c, 1, &e) < 0)
        mp__deploy_diag(d, "error", st->urn, e.msg);
    }
    /* The stack's outputs as the display shows them under `Outputs:`. */
    mp_event ev = {0};
    ev.kind = MP_EVENT_RES_OUTPUTS;
    ev.meta.op = MP_OP_SAME;
    ev.meta.urn = st->urn;
    ev.meta.type = st->type;
    ev.meta.old = st;
    ev.meta.new_ = st;
    ev.urn = st->urn;
    mp__deploy_emit(d, &ev);
  }
}

static void close_cb(uv_handle_t *h) { (void)h; }

void mp__deploy_finish(deploy *d) {
  if (d->finished) return;
  if (d->mon && mp_monitor_outstanding(d->mon) > 0) mp_monitor_cancel_all(d->mon);
  d->finished = 1;
  if (d->o->kind == MP_DEPLOY_UPDATE) apply_stack_outputs(d);
  uv_mutex_lock(&d->mu);
  d->quit = 1;
  uv_cond_signal(&d->cv);
  uv_mutex_unlock(&d->mu);
  uv_close((uv_handle_t *)&d->tick, close_cb);
  uv_close((uv_handle_t *)&d->wake, close_cb);
}

/* ---- setup ---- */

static void warn_pending(deploy *d) {
  if (d->snap->npending == 0 || d->o->dry_run) return;
  mp_buf b;
  mp_buf_init(&b);
  mp_buf_printf(&b,
                "Attempting to deploy or update resources with %zu pending "
                "operations from previous deployment.\n",
                d->snap->npending);
  for (size_t i = 0; i < d->snap->npending; i++)
    mp_buf_printf(&b, "  * %s, interrupted while %s\n",
                  d->snap->pending[i].res->urn,
                  mp_pending_type_name(d->snap->pending[i].type));
  mp_buf_puts(&b,
              "These resources are in an unknown state because the "
              "deployment was interrupted while changing them. Confirm "
              "whether the operations completed, then repair the stack with "
              "`minipulumi refresh`, which reads the state from the providers "
              "and clears the pending operations.");
  /* A plain refresh keeps pending creates (it cannot read what may not
   * exist), so saying only "refresh" would send the user round in a
   * circle: name the flag that clears them. */
  int creates = 0;
  for (size_t i = 0; i < d->snap->npending; i++)
    creates |= d->snap->pending[i].type == MP_PENDING_CREATING;
  if (creates && !d->o->clear_pending_creates)
    mp_buf_puts(&b,
                "\n\nA refresh keeps pending CREATE operations: once you have "
                "confirmed that those resources were not created, clear them "
                "with `minipulumi refresh --clear-pending-creates`.");
  mp__deploy_diag(d, "warning", NULL, b.data);
  mp_buf_destroy(&b);
}

static const char *update_kind(const mp_deploy_opts *o) {
  switch (o->kind) {
  case MP_DEPLOY_REFRESH:
    return "refresh";
  case MP_DEPLOY_DESTROY:
    return "destroy";
  default:
    return "update";
  }
}

/* S76: state from before providers were resources has custom resources
 * without a provider reference; give each package a default provider,
 * first in the list, as Pulumi does on load. It exists only in memory
 * until the deployment writes it. */
static void inject_default_providers(deploy *d) {
  mp_snapshot *s = d->snap;
  mp_map made; /* pkg -> ref */
  mp_map_init(&made);
  mp_resource **front = NULL;
  size_t nfront = 0;
  for (size_t i = 0; i < s->nres; i++) {
    mp_resource *r = s->res[i];
    if (!r->custom || r->provider || mp_type_is_provider(r->type)) continue;
    char *pkg = mp_type_package(r->type);
    if (pkg == NULL) continue;
    char *ref = mp_map_get(&made, pkg);
    if (ref == NULL) {
      char *urn = mp_default_provider_urn(d->o->stack.name, d->o->stack.project,
                                          pkg, "default");
      char *type = mp_xasprintf("%s%s", MP_PROVIDER_TYPE_PREFIX, pkg);
      mp_resource *p = mp_resource_new(urn, type, 1);
      p->id = mp_uuid_new();
      p->inputs = mp_value_new_object();
      size_t plen = strlen(pkg);
      const mp_value *cfg = d->o->config;
      for (size_t k = 0; cfg && k < cfg->u.obj.len; k++) {
        const mp_value_entry *e = &cfg->u.obj.items[k];
        if (strncmp(e->key, pkg, plen) == 0 && e->key[plen] == ':')
          mp_value_object_set(p->inputs, e->key + plen + 1, mp_value_dup(e->value));
      }
      p->outputs = mp_value_dup(p->inputs);
      ref = mp_provider_ref_format(urn, p->id);
      mp_map_put(&made, pkg, ref);
      front = mp_xreallocarray(front, nfront + 1, sizeof(*front));
      front[nfront++] = p;
      free(urn);
      free(type);
    }
    r->provider = mp_xstrdup(ref);
    mp_strv_push(&d->injected, r->urn);
    free(pkg);
  }
  if (nfront > 0) {
    mp_resource **all = mp_xcalloc(s->nres + nfront, sizeof(*all));
    memcpy(all, front, nfront * sizeof(*all));
    memcpy(all + nfront, s->res, s->nres * sizeof(*all));
    free(s->res);
    s->res = all;
    s->nres += nfront;
    s->cap = s->nres;
  }
  free(front);
  for (size_t i = 0; i < made.cap; i++)
    if (made.slots[i].key) free(made.slots[i].value);
  mp_map_destroy(&made);
}

static int setup(deploy *d, mp_err *err) {
  const mp_deploy_opts *o = d->o;
  int rc = mp_store_load(o->store, o->stack, o->crypter, &d->snap, err);
  if (rc < 0) return rc;
  inject_default_providers(d);
  if (!o->dry_run) {
    mp_lock_info stale;
    rc = mp_store_update_begin(o->store, o->stack, update_kind(o), o->message,
                               o->crypter, &stale, &d->upd, err);
    if (rc < 0) return rc;
    if (stale.pid > 0) {
      char *msg = mp_lock_info_stale_message(&stale);
      mp__deploy_diag(d, "warning", NULL, msg);
      free(msg);
    }
  }
  d->reg = mp_registry_new(o->dry_run);
  for (size_t i = 0; i < d->snap->nres; i++)
    if (mp_type_is_provider(d->snap->res[i]->type) && d->snap->res[i]->id)
      mp_registry_add_known(d->reg, d->snap->res[i]);
  mp_stepgen_opts so = {0};
  so.stack = o->stack.name;
  so.project = o->stack.project;
  so.preview = o->dry_run;
  so.targets = o->targets;
  so.excludes = o->excludes;
  so.replaces = o->replaces;
  so.target_dependents = o->target_dependents;
  so.exclude_dependents = o->exclude_dependents;
  so.ignore_protect = o->ignore_protect;
  d->sg = mp_stepgen_new(&so, d->snap, d->reg);
  mp_stepexec_opts eo = {0};
  eo.loop = &d->loop;
  eo.parallel = o->parallel > 0 ? o->parallel : mp_deploy_default_parallel();
  /* Provider calls run on libuv's pool, 4 threads unless told otherwise
   * before its first use; size it for --parallel (libuv's cap is 1024). A
   * process runs one pool, so the first deployment decides. */
  char threads[16];
  snprintf(threads, sizeof(threads), "%d",
           eo.parallel < 4 ? 4 : eo.parallel > 1024 ? 1024 : eo.parallel);
  setenv("UV_THREADPOOL_SIZE", threads, 0);
  eo.preview = o->dry_run;
  eo.ignore_protect = o->ignore_protect;
  eo.store = d->upd;
  eo.reg = d->reg;
  eo.hooks = mp__deploy_exec_hooks(d);
  d->ex = mp_stepexec_new(&eo);
  mp_monitor_opts mo = {0};
  mo.stack = o->stack.name;
  mo.project = o->stack.project;
  mo.preview = o->dry_run;
  mo.config = o->config;
  mo.hooks = mp__deploy_monitor_hooks(d);
  d->mon = mp_monitor_new(&mo);
  return 0;
}

static int known_name(const mp_snapshot *s, const char *name) {
  for (size_t k = 0; k < s->nres; k++)
    if (strcmp(s->res[k]->urn, name) == 0) return 1;
  return 0;
}

int mp__deploy_check_names(deploy *d) {
  const mp_strv *lists[2] = {d->o->targets, d->o->excludes};
  for (int l = 0; l < 2; l++) {
    for (size_t i = 0; lists[l] && i < lists[l]->len; i++) {
      const char *t = lists[l]->items[i];
      if (strchr(t, '*') || known_name(d->snap, t)) continue;
      mp_err e;
      mp_err_set(&e, MP_EINVAL, "no resource named '%s' found", t);
      d->res->failed = 1;
      mp__deploy_diag(d, "error", NULL, e.msg);
      d->phase = PHASE_DONE;
      d->program_done = 1;
      mp__deploy_check_done(d);
      return 1;
    }
  }
  return 0;
}

/* `up` checks its --replace names before the program runs. Returns 1
 * after failing the deployment when one is unknown. */
static int check_replaces(deploy *d) {
  mp_diags ds = {0};
  size_t bad = mp_stepgen_check_targets(d->sg, 1, &ds);
  for (size_t i = 0; i < ds.len; i++)
    mp__deploy_diag(d, ds.items[i].severity, ds.items[i].urn,
                    ds.items[i].message);
  mp_diags_destroy(&ds);
  if (bad == 0) return 0;
  d->res->failed = 1;
  d->program_done = 1;
  d->program_failed = 1;
  mp__deploy_check_done(d);
  return 1;
}

static int start(deploy *d, mp_err *err) {
  const mp_deploy_opts *o = d->o;
  mp_event ev = {0};
  ev.kind = MP_EVENT_PRELUDE;
  ev.config = o->config;
  mp__deploy_emit(d, &ev);
  warn_pending(d);
  if (d->upd && o->kind != MP_DEPLOY_DESTROY) {
    int rc = mp_store_drop_old_pending(d->upd, err);
    if (rc < 0) return rc;
  }
  if (d->upd && o->kind == MP_DEPLOY_REFRESH && o->clear_pending_creates) {
    /* refresh --clear-pending-creates: the user says they never happened. */
    for (size_t i = 0; i < d->snap->npending; i++) {
      mp_pending_op *p = &d->snap->pending[i];
      if (p->type != MP_PENDING_CREATING || p->row == 0) continue;
      mp_store_change c = {.kind = MP_STORE_PENDING_REMOVE, .row = p->row};
      int rc = mp_store_apply(d->upd, &c, 1, err);
      if (rc < 0) return rc;
    }
  }
  if (o->kind == MP_DEPLOY_REFRESH) return mp__deploy_refresh_start(d, err);
  if (o->kind == MP_DEPLOY_DESTROY) {
    if (mp__deploy_check_names(d)) return 0;
    d->program_done = 1;
    mp__deploy_check_done(d);
    return 0;
  }
  if (o->source == NULL)
    return mp_err_set(err, MP_EINVAL, "an update needs a program");
  if (check_replaces(d)) return 0;
  mp_source_info si = {0};
  si.loop = &d->loop;
  si.project = o->stack.project;
  si.stack = o->stack.name;
  si.organization = o->organization ? o->organization : "organization";
  si.root_dir = o->root_dir;
  si.dry_run = o->dry_run;
  si.parallel = o->parallel;
  si.config = o->config;
  int rc = o->source->vt->start(o->source, d->mon, &si, err);
  if (rc < 0) {
    /* The program never started: report it and end as failed. */
    d->program_done = 1;
    d->program_failed = 1;
    d->res->failed = 1;
    mp__deploy_diag(d, "error", NULL, err->msg);
    mp_err_clear(err);
    mp__deploy_check_done(d);
  }
  return 0;
}

static void teardown(deploy *d) {
  if (d->thr_started) uv_thread_join(&d->thr);
  while (d->in_head) {
    work_item *w = d->in_head;
    d->in_head = w->next;
    mp_goal_free(w->goal);
    free(w);
  }
  while (d->out_head) {
    result_item *r = d->out_head;
    d->out_head = r->next;
    mp_chain_free(r->chain);
    for (size_t i = 0; i < r->nlayers; i++) mp_chain_free(r->layers[i]);
    free(r->layers);
    mp_diags_destroy(&r->diags);
    free(r->urn);
    free(r);
  }
  mp_monitor_free(d->mon);
  mp_stepgen_free(d->sg);
  mp_stepexec_free(d->ex);
  for (size_t i = 0; i < d->nlayers; i++) mp_chain_free(d->layers[i]);
  free(d->layers);
  for (size_t i = 0; i < d->news.cap; i++)
    if (d->news.slots[i].key) mp_resource_free(d->news.slots[i].value);
  mp_map_destroy(&d->news);
  mp_map_destroy(&d->done_urns);
  for (size_t i = 0; i < d->nparked; i++) mp_chain_free(d->parked[i]);
  free(d->parked);
  if (d->refreshed) {
    for (size_t i = 0; i < d->snap->nres; i++) mp_resource_free(d->refreshed[i]);
    free(d->refreshed);
    free(d->refresh_done);
  }
  mp_registry_free(d->reg);
  mp_snapshot_free(d->snap);
  mp_strv_destroy(&d->failed_urns);
  mp_strv_destroy(&d->withheld);
  mp_strv_destroy(&d->withheld_old);
  mp_strv_destroy(&d->injected);
  mp_value_free(d->stack_outputs);
  uv_cond_destroy(&d->cv);
  uv_mutex_destroy(&d->mu);
}

static void summary(deploy *d) {
  mp_event ev = {0};
  ev.kind = MP_EVENT_SUMMARY;
  memcpy(ev.counts, d->res->counts, sizeof(ev.counts));
  ev.duration_seconds = (double)uv_hrtime() / 1e9 - d->start;
  ev.result = d->res->canceled ? "canceled"
              : d->res->failed ? "failed"
                               : "succeeded";
  for (int i = 0; i < MP_OP__COUNT; i++)
    if (i != MP_OP_SAME) d->res->changes += d->res->counts[i];
  if (d->res->failed)
    mp__deploy_diag(d, "error", NULL,
                    d->res->canceled ? "update canceled"
                    : d->o->dry_run  ? "preview failed"
                                     : "update failed");
  mp__deploy_emit(d, &ev);
}

static int run_one(const mp_deploy_opts *o, mp_deploy_result *res,
                   mp_err *err);

int mp_deploy_run(const mp_deploy_opts *o, mp_deploy_result *res,
                  mp_err *err) {
  if (o->kind != MP_DEPLOY_UPDATE || !o->refresh_first)
    return run_one(o, res, err);
  /* up --refresh: refresh everything first, then update from the result. */
  mp_deploy_opts ro = *o;
  ro.kind = MP_DEPLOY_REFRESH;
  ro.source = NULL;
  ro.refresh_first = 0;
  ro.targets = ro.excludes = ro.replaces = NULL;
  int rc = run_one(&ro, res, err);
  if (rc < 0 || res->failed) return rc;
  mp_deploy_result rres = *res;
  mp_deploy_opts uo = *o;
  uo.refresh_first = 0;
  rc = run_one(&uo, res, err);
  res->counts[MP_OP_REFRESH] += rres.counts[MP_OP_REFRESH];
  return rc;
}

static int run_one(const mp_deploy_opts *o, mp_deploy_result *res,
                   mp_err *err) {
  memset(res, 0, sizeof(*res));
  deploy *d = mp_xcalloc(1, sizeof(*d));
  d->o = o;
  d->res = res;
  d->start = (double)uv_hrtime() / 1e9;
  mp_map_init(&d->news);
  mp_map_init(&d->done_urns);
  uv_mutex_init(&d->mu);
  uv_cond_init(&d->cv);
  int rc = uv_loop_init(&d->loop);
  if (rc < 0) {
    mp_err_from_uv(err, rc, "cannot start the event loop");
    uv_cond_destroy(&d->cv);
    uv_mutex_destroy(&d->mu);
    free(d);
    return MP_EIO;
  }
  uv_async_init(&d->loop, &d->wake, on_wake);
  d->wake.data = d;
  uv_timer_init(&d->loop, &d->tick);
  d->tick.data = d;
  uv_timer_start(&d->tick, on_tick, 100, 100);
  rc = setup(d, err);
  if (rc == 0) {
    rc = uv_thread_create(&d->thr, thread_main, d);
    if (rc < 0) rc = mp_err_from_uv(err, rc, "cannot start the step generator");
    else d->thr_started = 1;
  }
  if (rc == 0) rc = start(d, err);
  if (rc < 0) {
    if (!d->finished) mp__deploy_finish(d);
  }
  uv_run(&d->loop, UV_RUN_DEFAULT);
  if (rc == 0) summary(d);
  if (d->upd) {
    mp_update_counts c = {0};
    c.same = res->counts[MP_OP_SAME];
    c.create = res->counts[MP_OP_CREATE];
    c.update = res->counts[MP_OP_UPDATE];
    c.del = res->counts[MP_OP_DELETE];
    c.replace = res->counts[MP_OP_REPLACE];
    c.read = res->counts[MP_OP_READ];
    c.import = res->counts[MP_OP_IMPORT];
    c.refresh = res->counts[MP_OP_REFRESH];
    c.discard = res->counts[MP_OP_DISCARD];
    mp_err e2;
    mp_err_clear(&e2);
    const char *result = res->canceled ? "canceled"
                         : (res->failed || rc < 0) ? "failed"
                                                  : "succeeded";
    if (mp_store_update_end(d->upd, result, &c, &e2) < 0 && rc == 0)
      rc = mp_err_set(err, e2.code, "%s", e2.msg);
  }
  teardown(d);
  uv_loop_close(&d->loop);
  free(d);
  return rc;
}
