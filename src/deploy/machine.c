/* The deployment's phases as one state machine (deploy_int.h names the
 * states), and the decisions it makes on the way: what the generator's
 * answers start, what a failed chain stops, which deletions are withheld,
 * and when the run ends. Loop thread. */
#include <stdlib.h>
#include <string.h>

#include "deploy/deploy_int.h"
#include "deploy/plan.h"
#include "engine/urn.h"

/* ---- what is in flight ---- */

static int waits_done(const deploy *d, const mp_chain *c) {
  for (size_t i = 0; i < c->waits.len; i++)
    if (!mp_map_has(&d->done_urns, c->waits.items[i])) return 0;
  return 1;
}

static void park(deploy *d, mp_chain *c) {
  d->parked = mp_xreallocarray(d->parked, d->nparked + 1, sizeof(*d->parked));
  d->parked[d->nparked++] = c;
}

/* Submits the parked chains that can go; with |all|, every one (nothing
 * else will ever finish, so waiting longer would hang). */
static void release(deploy *d, int all) {
  mp_chain **list = d->parked;
  size_t n = d->nparked;
  d->parked = NULL;
  d->nparked = 0;
  for (size_t i = 0; i < n; i++) {
    if (all || waits_done(d, list[i])) mp_stepexec_submit(d->ex, list[i]);
    else park(d, list[i]);
  }
  free(list);
}

void mp__deploy_submit(deploy *d, mp_chain *c) {
  if (waits_done(d, c)) mp_stepexec_submit(d->ex, c);
  else park(d, c);
}

void mp__deploy_written(deploy *d, const char *urn) {
  mp_map_put(&d->done_urns, urn, d);
  if (d->nparked) release(d, 0);
}

/* 1 when nothing is in flight, so that the machine may move. Chains still
 * parked then wait for something that will not come (it failed, or was
 * cancelled): they are submitted, and the deployment is busy again. */
static int quiet(deploy *d) {
  if (mp_stepexec_busy(d->ex) > 0 || d->at_generator > 0 || d->defer ||
      d->invokes > 0)
    return 0;
  if (d->nparked == 0) return 1;
  release(d, 1);
  return mp_stepexec_busy(d->ex) == 0;
}

/* ---- the delete phase ---- */

/* Keeps what |r| (a failed or withheld step's resource) refers to out of
 * the later delete layers. References of a `delete: true` copy and of a
 * live entry are kept apart: they name different copies of a URN. */
static void withhold(deploy *d, const mp_resource *r) {
  if (r == NULL) return;
  mp_resource_refs(r, MP_REF_ALL, r->delete_ ? &d->withheld_old : &d->withheld);
}

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

/* Submits the next delete layer, one chain per step, leaving out what a
 * failure withheld. Returns 0 when no layer is left. */
static int next_layer(deploy *d) {
  if (d->next_layer >= d->nlayers) return 0;
  mp_chain *layer = d->layers[d->next_layer];
  d->layers[d->next_layer++] = NULL;
  for (size_t i = 0; i < layer->len; i++) {
    mp_step *s = layer->steps[i];
    layer->steps[i] = NULL;
    if (step_withheld(d, s)) {
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
  return 1;
}

/* ---- inputs ---- */

void mp__deploy_cancel(deploy *d, int interrupted) {
  if (d->state == DS_STOPPING || d->state == DS_FINISHED) return;
  d->state = DS_STOPPING;
  if (interrupted) d->res->canceled = 1;
  mp_stepexec_cancel(d->ex);
  mp_registry_cancel(d->registry);
  if (d->o->source) d->o->source->vt->cancel(d->o->source);
  mp_monitor_cancel_all(d->mon);
  mp__deploy_advance(d);
}

/* Answers the registration of chain |c| with its failure. */
static void fail_registration(deploy *d, mp_chain *c, const mp_step *bad,
                              int canceled, int stops) {
  mp_monitor_reg *reg = c->reg;
  c->reg = NULL;
  mp_err e;
  if (canceled) {
    mp_err_set(&e, MP_ECANCELED, "the deployment was canceled");
    mp_monitor_fail(d->mon, reg, &e, MP_MONITOR_ERROR);
    return;
  }
  /* The step's error is already on the resource; without
   * continue-on-error the host only learns the deployment stops. */
  int coe = d->o->continue_on_error && !stops;
  mp_err_set(&e, coe ? MP_EPLUGIN : MP_ECANCELED, "%s",
             bad && bad->error ? bad->error : "step failed");
  mp_monitor_fail(d->mon, reg, &e, coe ? MP_MONITOR_FAILED : MP_MONITOR_ERROR);
}

/* 1 if |s| loads a provider: a step of a provider resource other than its
 * deletion, which starts and configures the plugin. */
static int loads_provider(const mp_step *s) {
  size_t len;
  const char *type = mp_urn_type(s->urn, &len);
  size_t n = strlen(MP_PROVIDER_TYPE_PREFIX);
  return type && len > n && !strncmp(type, MP_PROVIDER_TYPE_PREFIX, n) &&
         s->op != MP_OP_DELETE && s->op != MP_OP_DELETE_REPLACED;
}

/* |c| stopped with an error of its own after its steps went well (an
 * import the program would replace): as an error of the step generator
 * (registered), the error is on the resource and the deployment stops. */
static void chain_error(deploy *d, mp_chain *c) {
  mp__deploy_diag(d, "error", c->error_urn, c->error);
  mp__deploy_fail(d, 0);
  if (c->reg) {
    mp_err e;
    mp_err_set(&e, MP_ECANCELED, "%s", c->error);
    mp_monitor_fail(d->mon, c->reg, &e, MP_MONITOR_ERROR);
    c->reg = NULL;
  }
  mp__deploy_cancel(d, 0);
}

void mp__deploy_chain_ended(void *ud, mp_chain *c, int failed) {
  deploy *d = ud;
  if (failed < 0 && c->reg) fail_registration(d, c, NULL, 1, 1);
  if (failed == 1 && c->error) {
    chain_error(d, c);
    mp__deploy_advance(d);
    return;
  }
  if (failed == 1) {
    mp_step *bad = NULL;
    for (size_t i = 0; i < c->len; i++)
      if (c->steps[i]->failed) bad = c->steps[i];
    /* A protected resource's refused delete fails the run but stops
     * nothing else. */
    int protect_err = bad && bad->op == MP_OP_DELETE && bad->old &&
                      bad->old->protect && !d->o->steps.ignore_protect;
    /* A provider that cannot start or be configured is no resource
     * failure (docs/plugins.md): the run stops, even under
     * continue-on-error, as a plugin that cannot start at Check does. */
    int load_err = bad && loads_provider(bad);
    mp__deploy_fail(d, !protect_err && !load_err);
    if (bad) {
      mp_strv_push(&d->failed_urns, bad->urn);
      withhold(d, bad->old);
    }
    if (c->reg) fail_registration(d, c, bad, 0, load_err);
    if ((!d->o->continue_on_error || load_err) && !protect_err)
      mp__deploy_cancel(d, 0);
  }
  mp__deploy_advance(d);
}

/* The steps of one registration, or why there are none. */
static void registered(deploy *d, gen_job *j) {
  if (j->rc < 0) {
    /* No message: a bail (a mandatory policy violation, told by its
     * policy event): as Pulumi's executor, no diagnostic on the resource
     * and no "update failed" on the stack. */
    int bail = j->err.msg[0] == '\0';
    if (bail) d->bailed = 1;
    else mp__deploy_diag(d, "error", j->urn, j->err.msg);
    mp__deploy_fail(d, 0);
    /* Reported here on the resource; the host only learns the deployment
     * is stopping (as the Go engine answers UNAVAILABLE). */
    mp_err stop;
    if (bail) mp_err_set(&stop, MP_ECANCELED, "resource %s is invalid", j->urn);
    else mp_err_set(&stop, MP_ECANCELED, "%s", j->err.msg);
    mp_monitor_fail(d->mon, j->registration, &stop, MP_MONITOR_ERROR);
    mp__deploy_cancel(d, 0);
    return;
  }
  if (d->state == DS_STOPPING) {
    mp_err e;
    mp_err_set(&e, MP_ECANCELED, "the deployment was canceled");
    mp_monitor_fail(d->mon, j->registration, &e, MP_MONITOR_ERROR);
    return;
  }
  mp_chain *c = j->chain;
  j->chain = NULL;
  mp__deploy_submit(d, c);
}

/* The planned deletions: the layers one by one (DS_DELETING). */
static void deletes_planned(deploy *d, gen_job *j) {
  if (j->rc < 0) {
    if (j->err.msg[0]) mp__deploy_diag(d, "error", NULL, j->err.msg);
    mp__deploy_fail(d, 0);
    if (d->state != DS_STOPPING) d->state = DS_ENDING;
    return;
  }
  if (j->late_fail) mp__deploy_fail(d, 0);
  if (d->state == DS_STOPPING) return; /* nothing more starts */
  d->layers = j->layers;
  d->nlayers = j->nlayers;
  j->layers = NULL;
  j->nlayers = 0;
  d->next_layer = 0;
  d->state = DS_DELETING;
}

void mp__deploy_on_answer(deploy *d, gen_job *j) {
  mp__deploy_policy_events(d, &j->policy); /* before what they caused */
  for (size_t i = 0; i < j->diags.len; i++)
    mp__deploy_diag(d, j->diags.items[i].severity, j->diags.items[i].urn,
                    j->diags.items[i].message);
  d->at_generator--;
  if (j->kind == GEN_REGISTER) registered(d, j);
  else deletes_planned(d, j);
}

/* ---- the machine ---- */

/* The program exited and its steps are done: plan the deletions, unless
 * a failure (without --continue-on-error) ends the run here. */
static void after_program(deploy *d) {
  if (d->res->failed && !d->o->continue_on_error) {
    d->state = DS_ENDING;
    return;
  }
  if (mp__deploy_analyze_stack(d) && !d->o->continue_on_error) {
    d->state = DS_ENDING;
    return;
  }
  gen_job *j = mp_xcalloc(1, sizeof(*j));
  j->kind = GEN_DELETES;
  d->at_generator++;
  d->state = DS_PLANNING_DELETES;
  mp__deploy_gen_push(d, j);
}

/* Every step an applied plan planned must have been met
 * (deployment_executor.go); not checked after a failure, which would
 * leave steps unmet anyway. */
static void plan_end_check(deploy *d) {
  if (d->o->plan == NULL || !d->o->plan->applying || d->res->failed) return;
  mp_diags diags = {0};
  if (mp_plan_check_end(d->o->plan, d->snap, &diags) > 0) {
    for (size_t i = 0; i < diags.len; i++)
      mp__deploy_diag(d, diags.items[i].severity, diags.items[i].urn,
                      diags.items[i].message);
    mp__deploy_fail(d, 0);
  }
  mp_diags_destroy(&diags);
}

/* One move from the current state; returns 1 when it made one (look
 * again), 0 when the state waits for an input. Called only when quiet. */
static int move(deploy *d) {
  switch (d->state) {
  case DS_PROGRAM:          /* waits for the program to exit */
  case DS_PLANNING_DELETES: /* waits for the generator's answer */
  case DS_FINISHED:
    return 0;
  case DS_PROGRAM_EXITED:
    after_program(d);
    return 1;
  case DS_DELETING:
    if (next_layer(d)) return 1;
    plan_end_check(d);
    mp__deploy_finish(d);
    return 0;
  case DS_REFRESHING:
    if (mp__deploy_program_after_reads(d)) return 1;
    mp__deploy_finish(d);
    return 0;
  case DS_STOPPING:
  case DS_ENDING:
    mp__deploy_finish(d);
    return 0;
  }
  return 0;
}

void mp__deploy_advance(deploy *d) {
  while (d->state != DS_FINISHED && quiet(d) && move(d)) {
  }
}
