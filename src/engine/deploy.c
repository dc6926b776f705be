/* The deployment: wires source → monitor → step generator (own thread) →
 * step executor (loop thread + worker pool) → state store, and reports
 * engine events. */
#include "engine/deploy.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/deploy_int.h"
#include "engine/urn.h"

/* ---- events ---- */

void mp__deploy_emit(deploy *d, mp_event *ev) {
  if (d->o->sink == NULL) return;
  ev->sequence = ++d->seq;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  ev->timestamp = (double)ts.tv_sec;
  ev->preview = d->o->dry_run;
  d->o->sink(d->o->sink_ud, ev);
}

void mp__deploy_diag(deploy *d, const char *severity, const char *urn,
                     const char *msg) {
  mp_event ev = {0};
  ev.kind = MP_EVENT_DIAGNOSTIC;
  ev.severity = severity;
  ev.urn = urn;
  ev.message = msg;
  mp__deploy_emit(d, &ev);
}

static void emit_diags(deploy *d, mp_diags *ds) {
  for (size_t i = 0; i < ds->len; i++)
    mp__deploy_diag(d, ds->items[i].severity, ds->items[i].urn,
                    ds->items[i].message);
  mp_diags_destroy(ds);
}

static int logical(const mp_step *s) {
  switch (s->op) {
  case MP_OP_CREATE_REPLACEMENT:
  case MP_OP_DELETE_REPLACED:
  case MP_OP_DISCARD_REPLACED:
  case MP_OP_REMOVE_PENDING_REPLACE:
  case MP_OP_IMPORT_REPLACEMENT:
  case MP_OP_READ_REPLACEMENT:
    return 0;
  default:
    return 1;
  }
}

static void on_step(void *ud, mp_event_kind kind, const mp_step *s,
                    const char *msg) {
  deploy *d = ud;
  if (kind == MP_EVENT_DIAGNOSTIC) {
    mp__deploy_diag(d, "warning", s->urn, msg);
    return;
  }
  if (s->flags & MP_STEP_SKIPPED_CREATE) return;
  mp_event ev = {0};
  ev.kind = kind;
  ev.meta.op = s->op;

  ev.meta.urn = s->urn;
  ev.meta.type = (s->new_ ? s->new_ : s->old) ? (s->new_ ? s->new_ : s->old)->type : "";
  ev.meta.old = s->old;
  ev.meta.new_ = s->new_;
  ev.meta.keys = &s->keys;
  ev.meta.diffs = &s->diffs;
  ev.meta.detailed_diff = s->has_detailed ? &s->detailed : NULL;
  ev.meta.logical = logical(s);
  ev.meta.provider = s->provider;
  ev.urn = s->urn;
  ev.message = msg;
  if (kind == MP_EVENT_RES_OUTPUTS && s->new_) {
    mp_map_put(&d->done_urns, s->new_->urn, d);
    mp__deploy_release_parked(d);
  }
  if (kind == MP_EVENT_RES_OUTPUTS && ev.meta.logical) {
    /* Events say `refresh` (the step's op, as Pulumi's do); the summary
     * counts what the read found. */
    mp_step_op op = s->op == MP_OP_REFRESH ? s->refresh_result : s->op;
    d->res->counts[op]++;
  }
  if (kind == MP_EVENT_RES_OP_FAILED) {
    ev.severity = "error";
    mp__deploy_diag(d, "error", s->urn, msg);
  }
  mp__deploy_emit(d, &ev);
}

/* ---- chains that wait for other resources ---- */

static int waits_done(deploy *d, const mp_chain *c) {
  for (size_t i = 0; i < c->waits.len; i++)
    if (!mp_map_has(&d->done_urns, c->waits.items[i])) return 0;
  return 1;
}

/* Submits |c| now, or parks it until what it waits for is written. */
static void submit_chain(deploy *d, mp_chain *c) {
  if (waits_done(d, c)) {
    mp_stepexec_submit(d->ex, c);
    return;
  }
  d->parked = mp_xreallocarray(d->parked, d->nparked + 1, sizeof(*d->parked));
  d->parked[d->nparked++] = c;
}

/* Submits the parked chains that can go; with |all|, every one (nothing
 * else will ever finish, so waiting longer would hang). A step finishing
 * inside a submit may release more: it only asks for another pass. */
static void release(deploy *d, int all) {
  if (d->releasing) {
    d->release_again = 1;
    return;
  }
  d->releasing = 1;
  d->submitting++;
  do {
    d->release_again = 0;
    mp_chain **list = d->parked;
    size_t n = d->nparked;
    d->parked = NULL;
    d->nparked = 0;
    for (size_t i = 0; i < n; i++) {
      if (all || waits_done(d, list[i])) mp_stepexec_submit(d->ex, list[i]);
      else submit_chain(d, list[i]);
    }
    free(list);
  } while (d->release_again);
  d->submitting--;
  d->releasing = 0;
}

void mp__deploy_release_parked(deploy *d) {
  if (d->nparked) release(d, 0);
}

/* ---- news: the states produced in this deployment ---- */

static void keep_new(deploy *d, mp_resource *st) {
  mp_resource *old = mp_map_put(&d->news, st->urn, st);
  mp_resource_free(old);
}

static int on_outputs(void *ud, const char *urn, mp_value *outs, mp_err *err) {
  deploy *d = ud;
  mp_resource *st = mp_map_get(&d->news, urn);
  if (st == NULL) {
    mp_value_free(outs);
    return mp_err_set(err, MP_EINVAL,
                      "RegisterResourceOutputs: unknown resource '%s'", urn);
  }
  if (strcmp(st->type, MP_ROOT_STACK_TYPE) == 0) {
    /* Stack outputs are applied at the end (S08). */
    mp_value_free(d->stack_outputs);
    d->stack_outputs = outs;
    return 0;
  }
  mp_value_free(st->outputs);
  st->outputs = outs;
  if (d->upd && st->row) {
    mp_store_change c = {.kind = MP_STORE_UPDATE, .res = st};
    return mp_store_apply(d->upd, &c, 1, err);
  }
  return 0;
}

/* ---- failing and cancelling ---- */

void mp__deploy_cancel(deploy *d, int interrupted) {
  if (d->stopping) return;
  d->stopping = 1;
  if (interrupted) d->res->canceled = 1;
  if (d->ex) mp_stepexec_cancel(d->ex);
  if (d->reg) mp_registry_cancel(d->reg);
  if (d->o->source) d->o->source->vt->cancel(d->o->source);
  if (d->mon) mp_monitor_cancel_all(d->mon);
  mp__deploy_check_done(d);
}

static void fail(deploy *d, int step) {
  d->res->failed = 1;
  if (step) d->res->step_failed = 1;
}

/* ---- executor hooks ---- */

static void on_reply(void *ud, mp_chain *c, mp_step *s) {
  deploy *d = ud;
  if (s->op == MP_OP_REFRESH) {
    mp__deploy_refresh_done(d, s);
    return;
  }
  mp_resource *st = s->new_;
  s->new_ = NULL;
  /* Known before the host hears of it: its answer may register outputs. */
  if (!(s->flags & MP_STEP_SKIPPED_CREATE)) keep_new(d, st);
  if (c->reg) {
    mp_monitor_reg *reg = c->reg;
    c->reg = NULL;
    mp_monitor_complete(d->mon, reg, st);
  }
  if (s->flags & MP_STEP_SKIPPED_CREATE) mp_resource_free(st);
}

/* Keeps what |r| (a failed or withheld step's resource) refers to out of
 * the later delete layers. References of a `delete: true` copy and of a
 * live entry are kept apart: they name different copies of a URN. */
static void withhold(deploy *d, const mp_resource *r) {
  if (r == NULL) return;
  mp_strv *w = r->delete_ ? &d->withheld_old : &d->withheld;
  if (r->parent) mp_strv_push(w, r->parent);
  if (r->deleted_with) mp_strv_push(w, r->deleted_with);
  mp_strv_copy(w, &r->dependencies);
  for (size_t i = 0; i < r->property_dependencies.len; i++)
    mp_strv_copy(w, &r->property_dependencies.items[i].urns);
  mp_provider_ref pr;
  if (r->provider && mp_provider_ref_parse(r->provider, &pr, NULL) == 0) {
    mp_strv_push(w, pr.urn);
    mp_provider_ref_destroy(&pr);
  }
}

static void on_chain_done(void *ud, mp_chain *c, int failed) {
  deploy *d = ud;
  d->chains_done++;
  if (failed == 1) {
    mp_step *bad = NULL;
    for (size_t i = 0; i < c->len; i++)
      if (c->steps[i]->failed) bad = c->steps[i];
    int protect_err = bad && bad->op == MP_OP_DELETE && bad->old &&
                      bad->old->protect && !d->o->ignore_protect;
    fail(d, !protect_err);
    if (bad) {
      mp_strv_push(&d->failed_urns, bad->urn);
      withhold(d, bad->old);
    }
    if (c->reg) {
      mp_err e;
      /* The step's error is already on the resource; without
       * continue-on-error the host only learns the deployment stops. */
      mp_err_set(&e, d->o->continue_on_error ? MP_EPLUGIN : MP_ECANCELED, "%s",
                 bad && bad->error ? bad->error : "step failed");
      mp_monitor_reg *reg = c->reg;
      c->reg = NULL;
      mp_monitor_fail(d->mon, reg, &e,
                      d->o->continue_on_error ? MP_MONITOR_FAILED
                                              : MP_MONITOR_ERROR);
    }
    if (!d->o->continue_on_error && !protect_err) mp__deploy_cancel(d, 0);
  } else if (failed < 0 && c->reg) {
    mp_err e;
    mp_err_set(&e, MP_ECANCELED, "the deployment was canceled");
    mp_monitor_reg *reg = c->reg;
    c->reg = NULL;
    mp_monitor_fail(d->mon, reg, &e, MP_MONITOR_ERROR);
  }
  mp__deploy_check_done(d);
}

/* ---- provider functions (fn::invoke) ---- */

typedef struct invoke_job {
  uv_work_t work;
  deploy *d;
  char *tok, *ref;
  mp_value *args, *ret;
  mp_monitor_call *call;
  int rc;
  mp_err err;
} invoke_job;

static void invoke_work(uv_work_t *w) {
  invoke_job *j = mp_container_of(w, invoke_job, work);
  mp_err_clear(&j->err);
  mp_provider *p = NULL;
  if (j->ref) {
    p = mp_registry_get(j->d->reg, j->ref, &j->err);
  } else {
    char *pkg = mp_type_package(j->tok);
    p = pkg ? mp_registry_for_invoke(j->d->reg, pkg, j->d->o->config, &j->err)
            : NULL;
    if (pkg == NULL) mp_err_set(&j->err, MP_EINVAL, "invalid function token '%s'", j->tok);
    free(pkg);
  }
  if (p == NULL) {
    j->rc = j->err.code ? j->err.code : MP_ENOENT;
    return;
  }
  if (p->vt->invoke == NULL) {
    j->rc = mp_err_set(&j->err, MP_EPLUGIN, "unknown function %s", j->tok);
    return;
  }
  mp_prov_req q = {0};
  mp_prov_resp r;
  mp_prov_resp_init(&r);
  q.tok = j->tok;
  q.news = j->args;
  q.preview = j->d->o->dry_run;
  j->rc = p->vt->invoke(p, &q, &r, &j->err);
  if (j->rc == 0) {
    j->ret = r.outputs;
    r.outputs = NULL;
  }
  mp_prov_resp_destroy(&r);
}

static void invoke_after(uv_work_t *w, int status) {
  invoke_job *j = mp_container_of(w, invoke_job, work);
  deploy *d = j->d;
  if (status == UV_ECANCELED)
    j->rc = mp_err_set(&j->err, MP_ECANCELED, "the deployment was canceled");
  d->invokes--;
  mp_monitor_call_done(d->mon, j->call, j->rc < 0 ? NULL : j->ret,
                       j->rc < 0 ? &j->err : NULL);
  if (j->rc < 0) mp_value_free(j->ret);
  mp_value_free(j->args);
  free(j->tok);
  free(j->ref);
  free(j);
  mp__deploy_check_done(d);
}

static int on_invoke(void *ud, const char *tok, mp_value *args,
                     const char *ref, mp_monitor_call *call, mp_err *err) {
  deploy *d = ud;
  invoke_job *j = mp_xcalloc(1, sizeof(*j));
  j->d = d;
  j->tok = mp_xstrdup(tok);
  j->ref = mp_xstrdup(ref);
  j->args = args;
  j->call = call;
  int rc = uv_queue_work(&d->loop, &j->work, invoke_work, invoke_after);
  if (rc < 0) {
    mp_value_free(j->args);
    free(j->tok);
    free(j->ref);
    free(j);
    return mp_err_from_uv(err, rc, "cannot call function '%s'", tok);
  }
  d->invokes++;
  return 0;
}

/* ---- monitor hooks ---- */

static int depends_on_failed(deploy *d, const mp_goal *g) {
  if (d->failed_urns.len == 0) return 0;
  if (g->parent && mp_strv_contains(&d->failed_urns, g->parent)) return 1;
  if (g->deleted_with && mp_strv_contains(&d->failed_urns, g->deleted_with))
    return 1;
  for (size_t i = 0; i < g->dependencies.len; i++)
    if (mp_strv_contains(&d->failed_urns, g->dependencies.items[i])) return 1;
  for (size_t i = 0; i < g->propdeps.len; i++)
    for (size_t j = 0; j < g->propdeps.items[i].urns.len; j++)
      if (mp_strv_contains(&d->failed_urns, g->propdeps.items[i].urns.items[j]))
        return 1;
  return 0;
}

static void on_submit(void *ud, mp_goal *g, mp_monitor_reg *reg) {
  deploy *d = ud;
  if (d->stopping) {
    mp_err e;
    mp_err_set(&e, MP_ECANCELED, "the deployment was canceled");
    /* Answered from the loop, never inside the host's call. */
    mp__deploy_defer_fail(d, g, reg, &e, MP_MONITOR_ERROR);
    return;
  }
  if (d->o->continue_on_error && depends_on_failed(d, g)) {
    char *urn = mp_urn_new(d->o->stack.name, d->o->stack.project, g->parent,
                           g->type, g->name, NULL);
    if (urn) mp_strv_push_take(&d->failed_urns, urn);
    mp_err e;
    mp_err_set(&e, MP_EPLUGIN, "skipped because a dependency failed");
    mp__deploy_defer_fail(d, g, reg, &e, MP_MONITOR_SKIPPED);
    return;
  }
  d->in_flight++;
  mp__deploy_thread_push(d, WORK_REGISTER, g, reg);
}

static void on_log(void *ud, mp_log_severity sev, const char *urn,
                   const char *msg) {
  static const char *const names[] = {"debug", "info", "warning", "error"};
  deploy *d = ud;
  if (sev == MP_LOG_DEBUG) return;
  mp__deploy_diag(d, names[sev & 3], urn, msg);
}

static void on_program_done(void *ud, int failed, const char *msg) {
  deploy *d = ud;
  d->program_done = 1;
  if (failed) {
    fail(d, 0);
    if (msg && msg[0]) mp__deploy_diag(d, "error", NULL, msg);
    d->program_failed = 1;
  }
  mp__deploy_check_done(d);
}

/* ---- results from the generator thread ---- */

void mp__deploy_on_result(deploy *d, result_item *r) {
  emit_diags(d, &r->diags);
  if (r->kind == WORK_REGISTER) {
    d->in_flight--;
    if (r->rc < 0) {
      mp__deploy_diag(d, "error", r->urn, r->err.msg);
      fail(d, 0);
      /* Reported here on the resource; the host only learns the deployment
       * is stopping (as the Go engine answers UNAVAILABLE). */
      mp_err stop;
      mp_err_set(&stop, MP_ECANCELED, "%s", r->err.msg);
      mp_monitor_fail(d->mon, r->reg, &stop, MP_MONITOR_ERROR);
      if (!d->o->dry_run || r->err.code != MP_EINVAL || 1) mp__deploy_cancel(d, 0);
    } else if (d->stopping) {
      mp_err e;
      mp_err_set(&e, MP_ECANCELED, "the deployment was canceled");
      mp_monitor_fail(d->mon, r->reg, &e, MP_MONITOR_ERROR);
      mp_chain_free(r->chain);
    } else {
      submit_chain(d, r->chain);
    }
  } else if (r->kind == WORK_DELETES) {
    if (r->rc < 0) {
      if (r->err.msg[0]) mp__deploy_diag(d, "error", NULL, r->err.msg);
      fail(d, 0);
      mp_chain_free(r->chain);
      for (size_t i = 0; i < r->nlayers; i++) mp_chain_free(r->layers[i]);
      free(r->layers);
      d->phase = PHASE_DONE;
    } else {
      if (r->late_fail) fail(d, 0);
      d->layers = r->layers;
      d->nlayers = r->nlayers;
      d->next_layer = 0;
      d->phase = PHASE_LAYERS;
      if (r->chain->len > 0) mp_stepexec_submit(d->ex, r->chain);
      else mp_chain_free(r->chain);
    }
  }
  free(r->urn);
  free(r);
  mp__deploy_check_done(d);
}

/* ---- phases ---- */

/* 1 if the prior state has another entry (another id) with |o|'s URN that
 * is (|old|) or is not a `delete: true` copy. */
static int has_other_copy(const deploy *d, const mp_resource *o, int old) {
  for (size_t i = 0; i < d->snap->nres; i++) {
    const mp_resource *r = d->snap->res[i];
    if (!r->delete_ == !old && strcmp(r->urn, o->urn) == 0 &&
        !(r->id && o->id && strcmp(r->id, o->id) == 0))
      return 1;
  }
  return 0;
}

/* Whether a withheld reference names this step's copy. As Pulumi's
 * dependency graph resolves a URN with both copies present: a live entry
 * refers to the live copy, a `delete: true` one (or a copy replaced in
 * this run) to the old copy; with one copy only, that one. */
static int step_withheld(deploy *d, const mp_step *s) {
  const mp_resource *o = s->old;
  if (o == NULL) return 0;
  int by_live = mp_strv_contains(&d->withheld, o->urn);
  int by_old = mp_strv_contains(&d->withheld_old, o->urn);
  if (o->delete_) return by_old || (by_live && !has_other_copy(d, o, 0));
  return by_live || (by_old && !has_other_copy(d, o, 1));
}

static void submit_layer(deploy *d) {
  mp_chain *layer = d->layers[d->next_layer];
  d->layers[d->next_layer] = NULL;
  d->next_layer++;
  d->submitting++;
  for (size_t i = 0; i < layer->len; i++) {
    mp_step *s = layer->steps[i];
    layer->steps[i] = NULL;
    if (d->stopping || step_withheld(d, s)) {
      withhold(d, s->old);
      mp_step_free(s);
      continue;
    }
    mp_chain *c = mp_chain_new(NULL);
    mp_chain_push(c, s);
    mp_stepexec_submit(d->ex, c);
  }
  layer->len = 0;
  mp_chain_free(layer);
  d->submitting--;
}

void mp__deploy_check_done(deploy *d) {
  /* Steps without a provider call finish while their batch is still being
   * queued; judge progress only once the whole batch is in. */
  if (d->submitting) return;
  if (d->phase == PHASE_DONE) {
    if (mp_stepexec_busy(d->ex) == 0) mp__deploy_finish(d);
    return;
  }
  if (mp_stepexec_busy(d->ex) > 0 || d->in_flight > 0 || d->deferred ||
      d->invokes > 0)
    return;
  if (d->nparked > 0) {
    /* What they wait for will not come (it failed, or was cancelled). */
    release(d, 1);
    mp__deploy_check_done(d);
    return;
  }
  if (d->phase == PHASE_PROGRAM) {
    if (!d->program_done && !d->stopping) return;
    if (d->stopping && d->o->source && !d->program_done) {
      /* Wait for the host to notice the cancellation. */
      if (mp_monitor_outstanding(d->mon) > 0) return;
    }
    /* Under continue-on-error a failed step does not stop the delete
     * phase (what the failure needs is withheld there); a failed
     * registration, the program's own failure or a cancellation does. */
    if ((d->res->failed && !d->o->continue_on_error) || d->stopping ||
        d->program_failed) {
      d->phase = PHASE_DONE;
      mp__deploy_finish(d);
      return;
    }
    d->phase = PHASE_DELETES_WAIT;
    mp__deploy_thread_push(d, WORK_DELETES, NULL, NULL);
    return;
  }
  if (d->phase == PHASE_REFRESH) {
    if (!d->o->dry_run) mp__deploy_refresh_write(d);
    d->phase = PHASE_DONE;
    mp__deploy_finish(d);
    return;
  }
  if (d->phase == PHASE_LAYERS) {
    if ((d->res->failed && !d->o->continue_on_error && d->stopping) ||
        d->next_layer >= d->nlayers) {
      d->phase = PHASE_DONE;
      mp__deploy_finish(d);
      return;
    }
    submit_layer(d);
    mp__deploy_check_done(d);
  }
}

int mp_deploy_default_parallel(void) {
  const char *env = getenv("MINIPULUMI_PARALLEL");
  if (env == NULL) env = getenv("PULUMI_PARALLEL");
  if (env && atoi(env) > 0) return atoi(env);
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return 4 * (int)(n > 0 ? n : 1);
}

/* ---- hooks tables ---- */

mp_stepexec_hooks mp__deploy_exec_hooks(deploy *d) {
  mp_stepexec_hooks h = {d, on_step, on_reply, on_chain_done};
  return h;
}

mp_monitor_hooks mp__deploy_monitor_hooks(deploy *d) {
  mp_monitor_hooks h = {0};
  h.ud = d;
  h.submit = on_submit;
  h.outputs = on_outputs;
  h.log = on_log;
  h.program_done = on_program_done;
  h.invoke = on_invoke;
  return h;
}
