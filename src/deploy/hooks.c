/* What the executor and the monitor report to the deployment, turned into
 * engine events and inputs of the state machine; the answers deferred to
 * a later loop iteration. Loop thread. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "deploy/deploy_int.h"
#include "deploy/plan.h"
#include "engine/urn.h"

/* ---- events ---- */

/* A read is counted in the summary only when it found other outputs than
 * the prior entry's (engine/update.go ShouldRecordReadStep): a program's
 * unchanged reads do not show up in the summary. */
static int read_counts(const mp_step *s) {
  if (s->op != MP_OP_READ) return 1;
  return s->old && s->new_ && s->old->outputs && s->new_->outputs &&
         !mp_value_equal(s->old->outputs, s->new_->outputs, 0);
}

void mp__deploy_emit(deploy *d, mp_event *ev) { mp__deploy_emit_kept(d, ev, 1); }

void mp__deploy_emit_kept(deploy *d, mp_event *ev, int keep) {
  if (d->o->sink == NULL) return;
  ev->sequence = ++d->seq;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  ev->timestamp = (double)ts.tv_sec;
  ev->preview = d->o->dry_run;
  d->o->sink(d->o->sink_ud, ev);
  if (keep)
    mp__deploy_record(d, ev, (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000);
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

/* ---- executor hooks ---- */

/* The step generator's decision, in Pulumi's words (its step_generator.go
 * logs them at level 7). */
static void log_decision(mp_log *l, const mp_step *s) {
  if (!mp_log_on(l, 7)) return;
  if (s->op == MP_OP_SAME)
    MP_LOGV(l, 7, "Planner decided not to update '%s' due to not having "
            "changes", s->urn);
  else
    MP_LOGV(l, 7, "Planner decided to %s '%s'", mp_op_info_of(s->op)->name,
            s->urn);
}

/* Whether the update keeps a step's events for the console (record.c):
 * not those of a `same` step, a resource left as it was (no provider
 * call, no time, nothing to show), unless its protect flag changed or it
 * is the stack, as Pulumi's display and digest list them. A no-op of
 * 10,000 resources kept 20,000 events, written to the store and read by
 * every view of its update page, for a list the page never drew. */
static int kept_step(const mp_step *s) {
  if (s->op != MP_OP_SAME) return 1;
  const mp_resource *r = s->new_ ? s->new_ : s->old;
  if (r && strcmp(r->type, MP_ROOT_STACK_TYPE) == 0) return 1;
  return s->old && s->new_ && s->old->protect != s->new_->protect;
}

static void on_step(void *ud, mp_event_kind kind, const mp_step *s,
                    const char *msg) {
  deploy *d = ud;
  if (kind == MP_EVENT_DIAGNOSTIC && s->op == MP_OP_REFRESH &&
      d->o->program_steps_out && strncmp(msg, MP_PROV_INFO_PREFIX,
                                         strlen(MP_PROV_INFO_PREFIX)) != 0) {
    /* The program's read: shown by the refresh that follows. */
    mp__deploy_program_note_warning(d, s, msg);
    return;
  }
  if (kind == MP_EVENT_DIAGNOSTIC) {
    size_t n = strlen(MP_PROV_INFO_PREFIX);
    if (strncmp(msg, MP_PROV_INFO_PREFIX, n) == 0)
      mp__deploy_diag(d, "info", s->urn, msg + n);
    else
      mp__deploy_diag(d, "warning", s->urn, msg);
    return;
  }
  if (s->flags & MP_STEP_SKIPPED_CREATE) return;
  if (kind == MP_EVENT_RESOURCE_PRE) log_decision(d->o->log, s);
  if (kind == MP_EVENT_RESOURCE_PRE) mp__deploy_program_note_step(d, s);
  const mp_resource *st = s->new_ ? s->new_ : s->old;
  mp_event ev = {0};
  ev.kind = kind;
  /* A refresh's outputs event says what the read found (update, same or
   * delete), as Pulumi's do; its start said `refresh`. */
  /* Not in up --refresh --run-program, whose refresh steps are neither
   * counted nor shown by their result (Pulumi's update counts a refresh
   * step by its op only when the operation is a refresh, and a
   * RefreshStep is not logical: engine/update.go OnResourceStepPost). */
  int in_update = (s->flags & MP_STEP_REFRESH_WRITES) != 0;
  ev.meta.op = kind == MP_EVENT_RES_OUTPUTS && s->op == MP_OP_REFRESH &&
                       !in_update
                   ? s->refresh_result : s->op;
  ev.meta.urn = s->urn;
  ev.meta.type = st ? st->type : "";
  ev.meta.old = s->old;
  ev.meta.new_ = s->new_;
  ev.meta.keys = &s->keys;
  ev.meta.diffs = &s->diffs;
  ev.meta.detailed_diff = s->has_detailed ? &s->detailed : NULL;
  ev.meta.logical = (mp_op_info_of(s->op)->flags & MP_OP_LOGICAL) != 0;
  ev.meta.provider = s->provider;
  ev.urn = s->urn;
  ev.message = msg;
  /* A refresh before the diff is not the resource's final state: the
   * step after it is. */
  if (kind == MP_EVENT_RES_OUTPUTS && s->new_ && !in_update)
    mp__deploy_written(d, s->new_->urn);
  if (kind == MP_EVENT_RES_OUTPUTS && s->new_ && !in_update && d->o->plan &&
      !d->o->plan->applying)
    mp_plan_record_outputs(d->o->plan, s->new_->urn, s->new_->outputs);
  /* Default providers are internal, as with Pulumi: not counted. */
  if (kind == MP_EVENT_RES_OUTPUTS && ev.meta.logical && !in_update &&
      !mp_urn_is_default_provider(s->urn) && read_counts(s)) {
    d->res->counts[ev.meta.op]++;
  }
  if (kind == MP_EVENT_RES_OP_FAILED) {
    ev.severity = "error";
    /* As Pulumi's preview reports a failed step (pkg/engine/plan.go,
     * previewActions.OnResourceStepPost, diag.GetPreviewFailedError). */
    /* A refresh's or destroy's run of its program fails as the
     * operation does. */
    int preview = d->o->tell_program_dry_run ? d->o->program_dry_run
                                             : d->o->dry_run;
    char *text = preview ? mp_xasprintf("Preview failed: %s", msg) : NULL;
    mp__deploy_diag(d, "error", s->urn, text ? text : msg);
    free(text);
  }
  mp__deploy_emit_kept(d, &ev, kept_step(s));
}

/* refresh --run-program: the program registered a resource the read
 * found gone; as Pulumi's refreshMode skips creating a custom resource
 * with no state, the program gets its inputs and no id, and nothing is
 * recorded for it. */
static void answer_gone(deploy *d, mp_chain *c, const mp_step *s) {
  mp_resource *st = mp_resource_dup(s->old);
  free(st->urn);
  st->urn = mp_xstrdup(s->urn);
  free(st->id);
  st->id = NULL;
  mp_value_free(st->outputs);
  st->outputs = st->inputs ? mp_value_dup(st->inputs) : NULL;
  mp_monitor_reg *reg = c->reg;
  c->reg = NULL;
  mp_monitor_complete(d->mon, reg, st);
  mp_resource_free(st);
}

static void on_reply(void *ud, mp_chain *c, mp_step *s) {
  deploy *d = ud;
  if (s->op == MP_OP_REFRESH && c->reg == NULL) {
    mp__deploy_refresh_done(d, s);
    return;
  }
  if (s->op == MP_OP_REFRESH) { /* the program's read (stepgen gen_refresh) */
    mp__deploy_program_note_read(d, s);
    if (s->new_ == NULL) {
      answer_gone(d, c, s);
      return;
    }
  }
  mp_resource *st = s->new_;
  s->new_ = NULL;
  int skipped = (s->flags & MP_STEP_SKIPPED_CREATE) != 0;
  if (c->reg && !skipped && c->dbr >= -1 && c->dbr <= 1)
    mp_map_put(&d->goal_dbrs, st->urn,
               (void *)&mp__deploy_dbr_values[c->dbr + 1]);
  /* Known before the host hears of it: its answer may register outputs. */
  if (!skipped && d->o->program_news_out) mp_strv_push(&d->news_order, st->urn);
  if (!skipped) mp_resource_free(mp_map_put(&d->news, st->urn, st));
  mp_monitor_reg *reg = c->reg;
  c->reg = NULL;
  if (reg) mp_monitor_complete(d->mon, reg, st);
  if (skipped) mp_resource_free(st);
}

/* ---- answers given on a later loop iteration ---- */

/* Answers |reg| with |err| from the loop rather than inside the host's
 * call. Takes |g|. */
static void defer_fail(deploy *d, mp_goal *g, mp_monitor_reg *reg,
                       const mp_err *err, int how) {
  mp_goal_free(g);
  deferred *x = mp_xcalloc(1, sizeof(*x));
  x->registration = reg;
  x->err = *err;
  x->how = how;
  x->next = d->defer;
  d->defer = x;
  uv_async_send(&d->answers);
}

void mp__deploy_on_answers(uv_async_t *h) {
  deploy *d = h->data;
  while (d->defer) {
    deferred *x = d->defer;
    d->defer = x->next;
    mp_monitor_fail(d->mon, x->registration, &x->err, x->how);
    free(x);
  }
  mp__deploy_advance(d);
}

/* ---- monitor hooks ---- */

/* 1 if |g| refers (provider aside) to a resource that failed or was
 * skipped. */
static int depends_on_failed(deploy *d, const mp_goal *g) {
  if (d->failed_urns.len == 0) return 0;
  mp_strv refs;
  mp_strv_init(&refs);
  mp_refs_append(g->parent, g->deleted_with, &g->dependencies, &g->propdeps,
                 NULL, MP_REF_ALL & ~MP_REF_PROVIDER, &refs);
  int hit = 0;
  for (size_t i = 0; i < refs.len && !hit; i++)
    hit = mp_strv_contains(&d->failed_urns, refs.items[i]);
  mp_strv_destroy(&refs);
  return hit;
}

static void on_submit(void *ud, mp_goal *g, mp_monitor_reg *reg) {
  deploy *d = ud;
  mp_err e;
  if (d->state == DS_STOPPING || d->state == DS_FINISHED) {
    mp_err_set(&e, MP_ECANCELED, "the deployment was canceled");
    defer_fail(d, g, reg, &e, MP_MONITOR_ERROR);
    return;
  }
  if (d->o->continue_on_error && depends_on_failed(d, g)) {
    char *urn = mp_urn_new(d->o->stack.name, d->o->stack.project, g->parent,
                           g->type, g->name, NULL);
    if (urn) mp_strv_push_take(&d->failed_urns, urn);
    mp_err_set(&e, MP_EPLUGIN, "skipped because a dependency failed");
    defer_fail(d, g, reg, &e, MP_MONITOR_SKIPPED);
    return;
  }
  gen_job *j = mp_xcalloc(1, sizeof(*j));
  j->kind = GEN_REGISTER;
  j->goal = g;
  j->registration = reg;
  d->at_generator++;
  mp__deploy_ahead_arrive(d, j);
}

/* An update plan records or checks registered outputs against the prior
 * state's (step_executor.go ExecuteRegisterResourceOutputs). */
static int plan_outputs(deploy *d, const char *urn, const mp_value *outs,
                        mp_err *err) {
  const mp_value *old_outs = NULL;
  for (size_t i = 0; d->snap && i < d->snap->nres; i++) {
    const mp_resource *r = d->snap->res[i];
    if (!r->delete_ && strcmp(r->urn, urn) == 0) {
      old_outs = r->outputs;
      break;
    }
  }
  return mp_plan_outputs(d->o->plan, urn, old_outs, outs, err);
}

static int on_outputs(void *ud, const char *urn, mp_value *outs, mp_err *err) {
  deploy *d = ud;
  mp_resource *st = mp_map_get(&d->news, urn);
  if (st == NULL) {
    mp_value_free(outs);
    return mp_err_set(err, MP_EINVAL,
                      "RegisterResourceOutputs: unknown resource '%s'", urn);
  }
  if (strcmp(st->type, MP_ROOT_STACK_TYPE) == 0 && d->o->steps.import_only) {
    /* The `import` command's program is not the stack's: its outputs stay
     * what they were. */
    mp_value_free(outs);
    return 0;
  }
  if (d->o->plan && plan_outputs(d, urn, outs, err) != 0) {
    mp_value_free(outs);
    return err->code;
  }
  if (strcmp(st->type, MP_ROOT_STACK_TYPE) == 0) {
    /* Stack outputs are applied at the end (S08). */
    mp_value_free(d->stack_outputs);
    d->stack_outputs = outs;
    return 0;
  }
  /* The stored row already has these outputs: nothing to write. */
  int same = mp_value_equal(st->outputs, outs, 0);
  mp_value_free(st->outputs);
  st->outputs = outs;
  if (d->upd && st->row && !same) {
    mp_store_change c = {.kind = MP_STORE_UPDATE, .res = st};
    return mp_store_apply(d->upd, &c, 1, err);
  }
  return 0;
}

/* An extension package the program registered: the registry learns it
 * (to load it into the base package's instances), and the stack records
 * it before any resource names it, so that a later run (a destroy, a
 * refresh, a program without it) can load it again, as Pulumi's snapshot
 * keeps `extensions`. Stored once: the prior snapshot's are there. */
static int on_extension(void *ud, const mp_extension *e, mp_err *err) {
  deploy *d = ud;
  int added = mp_registry_add_extension(d->registry, e);
  if (!added || d->upd == NULL || mp_extensions_find(&d->snap->extensions, e->ref))
    return 0;
  mp_store_change c = {.kind = MP_STORE_EXTENSION, .ext = e};
  return mp_store_apply(d->upd, &c, 1, err);
}

static void on_log(void *ud, mp_log_severity sev, const char *urn,
                   const char *msg) {
  static const char *const names[] = {"debug", "info", "warning", "error"};
  deploy *d = ud;
  if (sev == MP_LOG_DEBUG && !d->o->debug) return;
  if (d->o->program_log_sink) { /* run_program.c */
    mp_event ev = {0};
    ev.kind = MP_EVENT_DIAGNOSTIC;
    ev.severity = names[sev & 3];
    ev.urn = urn;
    ev.message = msg;
    d->o->program_log_sink(d->o->program_log_sink_ud, &ev);
    return;
  }
  mp__deploy_diag(d, names[sev & 3], urn, msg);
}

static void on_program_done(void *ud, int failed, const char *msg) {
  deploy *d = ud;
  if (failed) {
    mp__deploy_fail(d, 0);
    if (msg && msg[0]) mp__deploy_diag(d, "error", NULL, msg);
  }
  if (d->state == DS_PROGRAM)
    d->state = failed ? DS_ENDING : DS_PROGRAM_EXITED;
  mp__deploy_advance(d);
}

/* ---- wiring ---- */

/* The program's resource hooks, kept by the monitor (worker thread). */
static int on_resource_hooks(void *ud, mp_step *s, int after, mp_err *err) {
  deploy *d = ud;
  return mp_monitor_run_hooks(d->mon, s, after, err);
}

/* The program's error hooks, kept by the monitor (worker thread). */
static int on_error_hooks(void *ud, const mp_step *s, const char *op,
                          const mp_strv *errors, int *retry, mp_err *err) {
  deploy *d = ud;
  return mp_monitor_run_error_hooks(d->mon, s, op, errors, retry, err);
}

mp_stepexec_hooks mp__deploy_exec_hooks(deploy *d) {
  return (mp_stepexec_hooks){.ud = d,
                             .on_step = on_step,
                             .on_reply = on_reply,
                             .on_chain_done = mp__deploy_chain_ended,
                             .resource_hooks = on_resource_hooks,
                             .error_hooks = on_error_hooks};
}

mp_monitor_hooks mp__deploy_monitor_hooks(deploy *d) {
  return (mp_monitor_hooks){.ud = d,
                            .submit = on_submit,
                            .outputs = on_outputs,
                            .log = on_log,
                            .program_done = on_program_done,
                            .invoke = mp__deploy_invoke,
                            .endpoint = mp__deploy_endpoint,
                            .construct = mp__deploy_construct,
                            .call = mp__deploy_call,
                            .schema = mp__deploy_schema,
                            .extension = on_extension};
}
