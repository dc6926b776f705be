/* A deployment's life: setup, the start of its first phase, the run of
 * the loop, the end (stack outputs, the refreshed snapshot, the history
 * entry) and the teardown. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "deploy/deploy_int.h"
#include "engine/prog_name.h"
#include "deploy/plan.h"
#include "engine/urn.h"
#include "stepgen/targets.h"

static void on_tick(uv_timer_t *t) {
  deploy *d = t->data;
  mp__deploy_record_flush(d);
  if (d->o->interrupt && *d->o->interrupt && d->state != DS_STOPPING &&
      d->state != DS_FINISHED) {
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
    mp_value *before = mp_value_dup(st->outputs);
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
    /* The stored row already has these outputs: nothing to write. */
    int same = mp_value_equal(before, st->outputs, 0);
    mp_value_free(before);
    if (d->upd && st->row && !same) {
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
  if (d->state == DS_FINISHED) return;
  if (d->refreshed && !d->o->dry_run) mp__deploy_refresh_write(d);
  if (d->mon && mp_monitor_outstanding(d->mon) > 0) mp_monitor_cancel_all(d->mon);
  d->state = DS_FINISHED;
  if (d->o->source && d->o->source->vt->finish)
    d->o->source->vt->finish(d->o->source);
  mp__deploy_endpoint_close(d);
  if (d->o->kind == MP_DEPLOY_UPDATE) apply_stack_outputs(d);
  gen_job *quit = mp_xcalloc(1, sizeof(*quit));
  quit->kind = GEN_QUIT;
  mp__deploy_gen_push(d, quit);
  uv_close((uv_handle_t *)&d->tick, close_cb);
  uv_close((uv_handle_t *)&d->gen.wake, close_cb);
  if (d->mon) uv_close((uv_handle_t *)&d->answers, close_cb);
  if (d->mon) uv_close((uv_handle_t *)&d->relayed, close_cb);
  mp_stepexec_close(d->ex);
  d->ex = NULL;
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
  const char *prog = mp_prog_name();
  mp_buf_printf(&b,
              "These resources are in an unknown state because the "
              "deployment was interrupted while changing them. Confirm "
              "whether the operations completed, then repair the stack with "
              "`%s refresh`, which reads the state from the providers "
              "and clears the pending operations.", prog);
  /* A plain refresh keeps pending creates (it cannot read what may not
   * exist), so saying only "refresh" would send the user round in a
   * circle: name the flag that clears them. */
  int creates = 0;
  for (size_t i = 0; i < d->snap->npending; i++)
    creates |= d->snap->pending[i].type == MP_PENDING_CREATING;
  if (creates && !d->o->clear_pending_creates)
    mp_buf_printf(&b,
                "\n\nA refresh cannot read a pending CREATE: on a terminal "
                "`%s refresh` asks what became of each one; else, "
                "once you have confirmed that those resources were not "
                "created, clear them with `%s refresh "
                "--clear-pending-creates`, or record one that was with "
                "`%s refresh --import-pending-creates <urn> "
                "--import-pending-creates <id>`.", prog, prog, prog);
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
    if (s->nres) memcpy(all + nfront, s->res, s->nres * sizeof(*all));
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

/* What the program's language host gets (mp_source_info). */
static void source_info(deploy *d, mp_source_info *si) {
  const mp_deploy_opts *o = d->o;
  memset(si, 0, sizeof(*si));
  si->loop = &d->loop;
  si->project = o->stack.project;
  si->stack = o->stack.name;
  si->organization = o->organization ? o->organization : "organization";
  si->root_dir = o->root_dir;
  /* A refresh's or destroy's run of its program is told what the
   * operation is (run_program.c). */
  si->dry_run = o->tell_program_dry_run ? o->program_dry_run : o->dry_run;
  si->parallel = d->parallel;
  si->config = o->config;
  si->pulumi_version = o->pulumi_version;
  si->version_in_range = o->version_in_range;
}

/* Creates the executor and the monitor with the deployment's hooks
 * (hooks.c), and the handle that gives deferred answers. */
static void create_parts(deploy *d) {
  const mp_deploy_opts *o = d->o;
  uv_async_init(&d->loop, &d->answers, mp__deploy_on_answers);
  d->answers.data = d;
  mp__deploy_relays_init(d);
  mp_stepexec_opts eo = {0};
  eo.loop = &d->loop;
  eo.parallel = d->parallel;
  eo.preview = o->dry_run;
  eo.ignore_protect = o->steps.ignore_protect;
  eo.store = d->upd;
  eo.registry = d->registry;
  eo.hooks = mp__deploy_exec_hooks(d);
  d->ex = mp_stepexec_new(&eo);
  mp_monitor_opts mo = {0};
  mo.stack = o->stack.name;
  mo.project = o->stack.project;
  mo.preview = o->dry_run;
  mo.config = o->config;
  mo.organization = o->organization ? o->organization : "organization";
  mo.parallel = d->parallel;
  mo.hooks = mp__deploy_monitor_hooks(d);
  mo.asset_fetch = o->asset_fetch;
  mo.asset_fetch_ud = o->asset_fetch_ud;
  mo.loop = &d->loop;
  d->mon = mp_monitor_new(&mo);
}

/* Takes the stack's lock (the write session) and reads the snapshot again
 * under it: the one read before the lock may be stale, since another
 * process may have taken the lock, written and released it in between (a
 * runner starved of CPU between its read and its lock would otherwise
 * plan against, and overwrite, the other's writes). Unless the store's
 * change mark, taken before that read (|mark|), says nobody else wrote
 * since: then the snapshot in hand is the stored one, and reading and
 * verifying 10,000 resources again would only double the no-op's load. */
static int lock_and_reload(deploy *d, int64_t mark, mp_err *err) {
  const mp_deploy_opts *o = d->o;
  mp_lock_info stale;
  int rc = mp_store_update_begin(o->store, o->stack, update_kind(o), o->message,
                                 o->crypter, &stale, &d->upd, err);
  if (rc < 0) return rc;
  mp_store_update_info(d->upd, o->update_environment, o->update_config);
  if (stale.pid > 0) {
    char *msg = mp_lock_info_stale_message(&stale);
    mp__deploy_diag(d, "warning", NULL, msg);
    free(msg);
  }
  if (mark >= 0 && mp_store_change_mark(o->store) == mark) return 0;
  mp_snapshot *locked = NULL;
  rc = mp_store_load(o->store, o->stack, o->crypter, &locked, err);
  if (rc == 0 && o->verify_snapshot && mp_snapshot_verify(locked, err) < 0)
    rc = mp_err_prefix(err, "snapshot integrity failure; refusing to use it");
  if (rc < 0) {
    mp_snapshot_free(locked);
    return rc;
  }
  mp_snapshot_free(d->snap);
  d->snap = locked;
  return 0;
}

/* up --refresh --run-program: the step generator's read of a resource
 * before its diff (stepgen.h refresh_before_diff). */
static int refresh_now(void *ud, mp_step *s, mp_err *err) {
  deploy *d = ud;
  return mp_stepexec_refresh_now(d->registry, s, err);
}

static int setup(deploy *d, mp_err *err) {
  const mp_deploy_opts *o = d->o;
  d->parallel = o->parallel > 0 ? o->parallel : mp_deploy_default_parallel();
  int64_t mark = mp_store_change_mark(o->store);
  int rc = mp_store_load(o->store, o->stack, o->crypter, &d->snap, err);
  if (rc < 0) return rc;
  if (o->verify_snapshot && mp_snapshot_verify(d->snap, err) < 0)
    return mp_err_prefix(err, "snapshot integrity failure; refusing to use it");
  if (o->kind == MP_DEPLOY_UPDATE && o->source && o->source->vt->prepare) {
    /* while the passphrase's key may still be in the making */
    mp_source_info si;
    source_info(d, &si);
    o->source->vt->prepare(o->source, &si);
  }
  /* A wrong passphrase fails here, before anything runs or is written. */
  if (o->crypter && o->crypter->ready &&
      (rc = o->crypter->ready(o->crypter->ctx, err)) < 0)
    return rc;
  if (!o->dry_run && (rc = lock_and_reload(d, mark, err)) < 0) return rc;
  inject_default_providers(d);
  mp__deploy_use_program_providers(d); /* --run-program */
  d->registry = mp_registry_new(o->dry_run, o->providers);
  for (size_t i = 0; i < d->snap->nres; i++)
    if (mp_type_is_provider(d->snap->res[i]->type) && d->snap->res[i]->id)
      mp_registry_add_known(d->registry, d->snap->res[i]);
  for (size_t i = 0; i < d->nreplacements; i++) /* --run-program */
    mp_registry_add_known(d->registry, d->replacements[i]);
  for (size_t i = 0; i < d->nrenamed_providers; i++)
    mp_registry_add_known(d->registry, d->renamed_providers[i]);
  /* The extensions its resources were served with, loaded again into
   * their providers when those serve them (deployment.go
   * ensureProviderExtension). */
  for (size_t i = 0; i < d->snap->extensions.len; i++)
    mp_registry_add_extension(d->registry, &d->snap->extensions.items[i]);
  mp_stepgen_opts so = o->steps;
  so.stack = o->stack.name;
  so.project = o->stack.project;
  so.preview = o->dry_run;
  so.plan = o->plan ? &o->plan->hook : NULL;
  so.analyze = o->n_policy_packs ? mp__deploy_analyze : NULL;
  so.analyze_ud = d;
  so.refresh = refresh_now;
  so.refresh_ud = d;
  d->sg = mp_stepgen_new(&so, d->snap, d->registry);
  create_parts(d);
  return 0;
}

/* refresh and destroy check their names before anything runs
 * (engine/deployment.go checkTargets): each literal --target and --exclude
 * must name a resource of the stack; a name with `*` is a glob and may
 * match nothing. Returns 1 after reporting the first unknown name. */
static int unknown_name(deploy *d) {
  mp_map urns;
  mp_map_init(&urns);
  mp_targets_known(d->snap, &urns);
  const char *bad = mp_targets_first_unknown(d->o->steps.targets, &urns);
  if (bad == NULL) bad = mp_targets_first_unknown(d->o->steps.excludes, &urns);
  if (bad) {
    mp_err e;
    mp_err_set(&e, MP_EINVAL, "no resource named '%s' found", bad);
    mp__deploy_diag(d, "error", NULL, e.msg);
  }
  mp_map_destroy(&urns);
  return bad != NULL;
}

/* `up` checks its --replace names before the program runs. Returns 1
 * after reporting the unknown ones. */
static int unknown_replace(deploy *d) {
  mp_diags ds = {0};
  size_t bad = mp_stepgen_check_targets(d->sg, 1, &ds);
  for (size_t i = 0; i < ds.len; i++)
    mp__deploy_diag(d, ds.items[i].severity, ds.items[i].urn,
                    ds.items[i].message);
  mp_diags_destroy(&ds);
  return bad > 0;
}

/* Starts the program (DS_PROGRAM). Returns 0, or MP_EINVAL without a
 * program. A program that cannot start ends the run as failed. */
static int start_program(deploy *d, mp_err *err) {
  const mp_deploy_opts *o = d->o;
  if (o->source == NULL)
    return mp_err_set(err, MP_EINVAL, "an update needs a program");
  if (unknown_replace(d)) {
    mp__deploy_fail(d, 0);
    d->state = DS_ENDING;
    return 0;
  }
  mp_source_info si;
  source_info(d, &si);
  d->state = DS_PROGRAM;
  int rc = o->source->vt->start(o->source, d->mon, &si, err);
  if (rc < 0) {
    /* The program never started: report it and end as failed. */
    mp__deploy_fail(d, 0);
    mp__deploy_diag(d, "error", NULL, err->msg);
    mp_err_clear(err);
    d->state = DS_ENDING;
  }
  return 0;
}

/* The prelude, the pending operations, then the first phase of the
 * operation. Returns 0 or an MP_E code (the run could not start). */
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
  int rc = 0;
  if (o->kind == MP_DEPLOY_UPDATE) {
    rc = start_program(d, err);
  } else if (unknown_name(d)) {
    mp__deploy_fail(d, 0);
    d->state = DS_ENDING;
  } else if (o->kind == MP_DEPLOY_REFRESH) {
    mp__deploy_refresh_start(d);
  } else {
    d->state = DS_PROGRAM_EXITED; /* destroy: no program; the deletions */
  }
  if (rc == 0) mp__deploy_advance(d);
  return rc;
}

static void teardown(deploy *d) {
  mp__deploy_gen_join(d);
  mp__deploy_ahead_destroy(d);
  while (d->defer) {
    /* Left when the loop ended early; the monitor answers them as it
     * goes. */
    deferred *x = d->defer;
    d->defer = x->next;
    free(x);
  }
  mp_monitor_free(d->mon);
  if (d->o->leave_memory) { /* see mp_deploy_opts */
    mp_registry_free(d->registry); /* the providers it started */
    return;
  }
  mp_stepgen_free(d->sg);
  for (size_t i = 0; i < d->nlayers; i++) mp_chain_free(d->layers[i]);
  free(d->layers);
  for (size_t i = 0; i < d->news.cap; i++)
    if (d->news.slots[i].key) mp_resource_free(d->news.slots[i].value);
  mp_map_destroy(&d->news);
  mp_map_destroy(&d->done_urns);
  mp_map_destroy(&d->goal_dbrs);
  for (size_t i = 0; i < d->nparked; i++) mp_chain_free(d->parked[i]);
  free(d->parked);
  if (d->refreshed) {
    for (size_t i = 0; i < d->snap->nres; i++) mp_resource_free(d->refreshed[i]);
    free(d->refreshed);
    free(d->refresh_done);
  }
  mp_registry_free(d->registry);
  mp_snapshot_free(d->snap);
  mp_strv_destroy(&d->failed_urns);
  mp_strv_destroy(&d->withheld);
  mp_strv_destroy(&d->withheld_old);
  mp_strv_destroy(&d->injected);
  mp_strv_destroy(&d->from_program);
  for (size_t i = 0; i < d->nreplacements; i++)
    mp_resource_free(d->replacements[i]);
  free(d->replacements);
  for (size_t i = 0; i < d->nrenamed_providers; i++)
    mp_resource_free(d->renamed_providers[i]);
  free(d->renamed_providers);
  mp_strv_destroy(&d->news_order);
  mp_map_destroy(&d->program_by_urn);
  mp_map_destroy(&d->program_by_alias);
  mp_value_free(d->stack_outputs);
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
    if (!(mp_op_info_of(i)->flags & MP_OP_NOT_A_CHANGE))
      d->res->changes += d->res->counts[i];
  if (d->res->failed && !d->bailed)
    mp__deploy_diag(d, "error", NULL,
                    d->res->canceled ? "update canceled"
                    : d->o->dry_run  ? "preview failed"
                                     : "update failed");
  mp__deploy_emit(d, &ev);
}

/* refresh and destroy --run-program: the program's providers first. */
static int run_with_program(const mp_deploy_opts *o, mp_deploy_result *res,
                            mp_err *err) {
  mp_snapshot *news = NULL;
  mp_value *outs = NULL;
  mp_program_steps *steps = NULL;
  int rc = mp__deploy_program_preview(o, res, &news, &outs, &steps, err);
  if (rc == 0 && !res->failed) {
    mp_deploy_opts wo = *o;
    wo.run_program = 0;
    wo.source = NULL;
    wo.program_news = news;
    wo.program_outputs = outs;
    wo.program_steps = steps;
    rc = mp_deploy_run(&wo, res, err);
  }
  if (news) mp_snapshot_free(news);
  mp_value_free(outs);
  mp__deploy_program_steps_free(steps);
  return rc;
}

int mp_deploy_run(const mp_deploy_opts *o, mp_deploy_result *res,
                  mp_err *err) {
  if (o->run_program && o->kind != MP_DEPLOY_UPDATE && o->source)
    return run_with_program(o, res, err);
  if ((o->kind != MP_DEPLOY_UPDATE && o->kind != MP_DEPLOY_DESTROY) ||
      !o->refresh_first)
    return mp__deploy_run_one(o, res, err);
  /* up --refresh --run-program (and preview's): the program runs once,
   * and each registered custom resource is refreshed before its diff
   * (deployment_executor.go Execute skips its up-front refresh when
   * RefreshProgram is set; stepgen.h refresh_before_diff). */
  if (o->kind == MP_DEPLOY_UPDATE && o->run_program) {
    mp_deploy_opts uo = *o;
    uo.refresh_first = 0;
    uo.run_program = 0;
    uo.steps.refresh_before_diff = 1;
    return mp__deploy_run_one(&uo, res, err);
  }
  /* up --refresh and destroy --refresh: refresh everything first, then
   * update (or destroy) from the result. */
  mp_deploy_opts ro = *o;
  ro.kind = MP_DEPLOY_REFRESH;
  ro.source = NULL;
  ro.refresh_first = 0;
  ro.run_program = 0;
  ro.steps.targets = ro.steps.excludes = ro.steps.replaces = NULL;
  ro.leave_memory = 0; /* the update runs after it */
  ro.plan = NULL; /* a plan is about the update's steps */
  int rc = mp__deploy_run_one(&ro, res, err);
  if (rc < 0 || res->failed) return rc;
  mp_deploy_result rres = *res;
  mp_deploy_opts uo = *o;
  uo.refresh_first = 0;
  uo.run_program = 0;
  rc = mp__deploy_run_one(&uo, res, err);
  res->counts[MP_OP_REFRESH] += rres.counts[MP_OP_REFRESH];
  return rc;
}

/* The operation's span and log name, as Pulumi names its engine's. */
static const char *kind_span_name(const mp_deploy_opts *o) {
  switch (o->kind) {
  case MP_DEPLOY_UPDATE: return o->dry_run ? "preview" : "update";
  case MP_DEPLOY_REFRESH: return "refresh";
  case MP_DEPLOY_DESTROY: return "destroy";
  default: return "deployment";
  }
}

int mp__deploy_run_one(const mp_deploy_opts *o, mp_deploy_result *res,
                       mp_err *err) {
  memset(res, 0, sizeof(*res));
  deploy *d = mp_xcalloc(1, sizeof(*d));
  d->o = o;
  d->res = res;
  d->start = (double)uv_hrtime() / 1e9;
  uint64_t span = mp_span_begin(o->log, kind_span_name(o), 0);
  MP_LOGV(o->log, 3, "%s of stack '%s' starting", kind_span_name(o),
          o->stack.name ? o->stack.name : "");
  mp_map_init(&d->news);
  mp_map_init(&d->done_urns);
  mp_map_init(&d->goal_dbrs);
  mp_map_init(&d->program_by_urn);
  mp_map_init(&d->program_by_alias);
  mp__deploy_ahead_init(d);
  uv_mutex_init(&d->relay_mu);
  int rc = uv_loop_init(&d->loop);
  if (rc < 0) {
    mp_err_from_uv(err, rc, "cannot start the event loop");
    uv_mutex_destroy(&d->relay_mu);
    free(d);
    return MP_EIO;
  }
  uv_timer_init(&d->loop, &d->tick);
  d->tick.data = d;
  uv_timer_start(&d->tick, on_tick, 100, 100);
  rc = mp__deploy_gen_start(d, err);
  if (rc == 0) rc = setup(d, err);
  if (rc == 0) rc = start(d, err);
  if (rc < 0) mp__deploy_finish(d);
  uv_run(&d->loop, UV_RUN_DEFAULT);
  if (o->program_news_out) mp__deploy_collect_program(d);
  if (rc == 0) summary(d);
  mp__deploy_record_end(d);
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
  uv_mutex_destroy(&d->relay_mu);
  free(d);
  mp_span_end(o->log, span, "result", rc < 0 ? "error" : res->failed ? "failed"
                                                       : "succeeded");
  MP_LOGV(o->log, 3, "%s done (%s)", kind_span_name(o),
          rc < 0 ? "error" : res->failed ? "failed" : "succeeded");
  return rc;
}

int mp_deploy_default_parallel(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return 4 * (int)(n > 0 ? n : 1);
}
