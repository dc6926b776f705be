/* refresh and destroy --run-program (pkg/cmd/pulumi/operations/refresh.go,
 * destroy.go: "Run the program to determine up-to-date state for providers
 * to refresh resources"). The program runs once, first, as a preview whose
 * steps are not shown, and leaves what it registered. A refresh's run
 * reads each registered custom resource as it registers it, and answers
 * the program with what was read (pkg/engine/refresh.go RefreshV2 runs
 * the program as the refresh's source; step_generator.go generateSteps
 * gives such a registration a RefreshStep, continueStepsFromRefresh
 * answers it with the refreshed state), so what the program computes sees
 * the refreshed outputs. The provider resources it registered then stand
 * in for the recorded ones, so that the refresh or destroy configures
 * each provider as the program (and today's stack config) says. The
 * refresh that follows shows those reads without reading again, reads
 * what the program did not register, records the program's options for
 * what it read, creates or updates the components and providers the
 * program registers, and keeps the program's stack outputs
 * (docs/behaviour.md, X75, X76, X77). */
#include <stdlib.h>
#include <string.h>

#include "deploy/deploy_int.h"
#include "engine/urn.h"

/* Only what says why the program could not run reaches the caller's sink:
 * the preview's steps are not the operation's. */
static void diagnostics_only(void *ud, const mp_event *ev) {
  const mp_deploy_opts *o = ud;
  if (ev->kind == MP_EVENT_DIAGNOSTIC && ev->severity &&
      strcmp(ev->severity, "error") == 0)
    o->sink(o->sink_ud, ev);
}

/* The program's own log messages: the operation's. */
static void log_to_sink(void *ud, const mp_event *ev) {
  const mp_deploy_opts *o = ud;
  mp_event e = *ev;
  e.preview = o->dry_run;
  o->sink(o->sink_ud, &e);
}

/* The options of a preview of the program that leaves what it registered
 * in *news and its stack outputs in *outputs. */
static void preview_opts(const mp_deploy_opts *o, mp_deploy_opts *out,
                         mp_snapshot **news, mp_value **outputs,
                         mp_program_steps **steps) {
  mp_deploy_opts po = *o;
  po.kind = MP_DEPLOY_UPDATE;
  po.dry_run = 1;
  /* A refresh's run reads as it registers, within the refresh's targets
   * (stepgen.c gen_refresh), and the program is told whether the refresh
   * is a preview, as Pulumi's refresh runs it as its own source. */
  if (o->kind == MP_DEPLOY_REFRESH || o->refresh_first) {
    po.steps.refresh_reads = 1;
    po.steps.refresh_targets = o->steps.targets;
    po.steps.refresh_excludes = o->steps.excludes;
    po.steps.refresh_target_dependents = o->steps.target_dependents;
    po.steps.refresh_exclude_dependents = o->steps.exclude_dependents;
  }
  /* The program is told what the operation is, as Pulumi's RefreshV2 and
   * DestroyV2 (pkg/engine/refresh.go, destroy.go) run the update source
   * with the operation's own DryRun: false in `refresh --yes` and
   * `destroy --yes`, true in their previews. */
  po.tell_program_dry_run = 1;
  po.program_dry_run = o->dry_run;
  po.run_program = 0;
  po.refresh_first = 0;
  po.leave_memory = 0; /* the operation runs after it */
  po.plan = NULL;
  po.steps.targets = po.steps.excludes = po.steps.replaces = NULL;
  po.n_policy_packs = 0; /* its steps are not the operation's */
  po.sink = o->sink ? diagnostics_only : NULL;
  po.sink_ud = (void *)o;
  po.program_news_out = news;
  po.program_outputs_out = outputs;
  po.program_news = NULL;
  po.program_outputs = NULL;
  po.program_steps_out = steps;
  po.program_steps = NULL;
  po.program_log_sink = o->sink ? log_to_sink : NULL;
  po.program_log_sink_ud = (void *)o;
  *out = po;
}

int mp__deploy_program_preview(const mp_deploy_opts *o, mp_deploy_result *res,
                               mp_snapshot **news, mp_value **outputs,
                               mp_program_steps **steps, mp_err *err) {
  mp_deploy_opts po;
  preview_opts(o, &po, news, outputs, steps);
  return mp__deploy_run_one(&po, res, err);
}

const mp_snapshot *mp__deploy_program_news(deploy *d) {
  return d->o->program_news;
}

int mp__deploy_program_after_reads(deploy *d) {
  if (d->o->program_news == NULL || d->o->kind != MP_DEPLOY_REFRESH ||
      d->program_steps_sent || d->res->failed)
    return 0;
  d->program_steps_sent = 1;
  size_t n = d->snap->nres;
  unsigned char *live = mp_xcalloc(n + 1, 1);
  for (size_t i = 0; i < n; i++) live[i] = !d->snap->res[i]->delete_;
  int sent = mp__deploy_program_steps(d, live);
  free(live);
  return sent > 0;
}

void mp__deploy_collect_program(deploy *d) {
  mp_snapshot *all = mp_snapshot_new();
  mp_map seen;
  mp_map_init(&seen);
  for (size_t i = 0; i < d->news_order.len; i++) {
    const char *urn = d->news_order.items[i];
    const mp_resource *st = mp_map_get(&d->news, urn);
    if (st == NULL || mp_map_get(&seen, urn)) continue;
    mp_map_put(&seen, urn, (void *)st);
    mp_snapshot_append(all, mp_resource_dup(st));
  }
  mp_map_destroy(&seen);
  *d->o->program_news_out = all;
  /* Outputs a preview could not know (from what the refresh skips
   * creating, say) are never written: the recorded ones stay. */
  const mp_value *so = d->stack_outputs;
  if (so && d->o->program_outputs_out && !d->res->failed && !mp_value_contains_unknowns(so))
    *d->o->program_outputs_out = mp_value_dup(so);
}

const mp_resource *mp__deploy_program_state(deploy *d, const char *urn) {
  const mp_snapshot *pn = mp__deploy_program_news(d);
  if (pn == NULL) return NULL;
  if (d->program_by_urn.len == 0)
    for (size_t i = 0; i < pn->nres; i++) {
      const mp_resource *p = pn->res[i];
      mp_map_put(&d->program_by_urn, p->urn, (void *)p);
      for (size_t k = 0; k < p->aliases.len; k++)
        mp_map_put(&d->program_by_alias, p->aliases.items[k], (void *)p);
    }
  return mp_map_get(&d->program_by_urn, urn);
}

/* Pulumi's step generator looks the old state up by the registered URN,
 * then by each alias (step_generator.go generateSteps): the preview
 * recorded the alias it matched, so a recorded custom resource is the
 * program's under that alias too, and is refreshed under its new URN; a
 * recorded component or provider is the program's too, and gets its
 * ordinary step under the new URN. */
const mp_resource *mp__deploy_program_match(deploy *d, const mp_resource *r) {
  const mp_resource *p = mp__deploy_program_state(d, r->urn);
  if (p || strcmp(r->type, MP_ROOT_STACK_TYPE) == 0) return p;
  p = mp_map_get(&d->program_by_alias, r->urn);
  return p && p->custom == r->custom &&
                 mp_type_is_provider(p->type) == mp_type_is_provider(r->type)
             ? p
             : NULL;
}

/* Drops what the preview could not know from a component's outputs: the
 * refresh records the rest. */
static mp_value *known_part(const mp_value *v) {
  if (v == NULL) return NULL;
  mp_value *k = mp_value_dup(v);
  if (k->kind != MP_VALUE_OBJECT) {
    if (!mp_value_contains_unknowns(k)) return k;
    mp_value_free(k);
    return NULL;
  }
  for (size_t i = 0; i < k->u.obj.len;) {
    if (mp_value_contains_unknowns(k->u.obj.items[i].value))
      mp_value_object_del(k, k->u.obj.items[i].key);
    else
      i++;
  }
  return k;
}

/* A provider reference whose id the preview knew. */
static int known_ref(const char *ref) {
  mp_provider_ref pr;
  if (ref == NULL || mp_provider_ref_parse(ref, &pr, NULL) < 0) return 0;
  int known = pr.id && pr.id[0] && strcmp(pr.id, MP_UNKNOWN_SENTINEL) != 0;
  mp_provider_ref_destroy(&pr);
  return known;
}

/* Pulumi builds the refresh's new state from the registration's goal
 * (step_generator.go generateSteps: resource.NewState from the goal, then
 * NewRefreshStep with it), and RefreshStep.Apply copies it with what Read
 * returned: the options are the program's, the id, inputs and outputs the
 * provider's. What the preview could not know stays as recorded. */
mp_resource *mp__deploy_program_goal(const mp_resource *old,
                                     const mp_resource *prog) {
  mp_resource *g = mp_resource_dup(prog);
  free(g->id);
  g->id = old->id ? mp_xstrdup(old->id) : NULL;
  mp_value_free(g->inputs);
  g->inputs = old->inputs ? mp_value_dup(old->inputs) : NULL;
  mp_value_free(g->outputs);
  g->outputs = old->outputs ? mp_value_dup(old->outputs) : NULL;
  if (!old->custom) {
    /* A component's inputs and outputs are the program's own (its
     * ordinary same or update step, then RegisterResourceOutputs). */
    if (prog->inputs && !mp_value_contains_unknowns(prog->inputs)) {
      mp_value_free(g->inputs);
      g->inputs = mp_value_dup(prog->inputs);
    }
    if (prog->outputs) {
      mp_value_free(g->outputs);
      g->outputs = known_part(prog->outputs);
    }
  }
  if (!known_ref(g->provider)) {
    free(g->provider);
    g->provider = old->provider ? mp_xstrdup(old->provider) : NULL;
  }
  if (g->replacement_trigger &&
      mp_value_contains_unknowns(g->replacement_trigger)) {
    mp_value_free(g->replacement_trigger);
    g->replacement_trigger =
        old->replacement_trigger ? mp_value_dup(old->replacement_trigger) : NULL;
  }
  free(g->created);
  g->created = old->created ? mp_xstrdup(old->created) : NULL;
  free(g->modified);
  g->modified = old->modified ? mp_xstrdup(old->modified) : NULL;
  mp_strv_destroy(&g->init_errors);
  mp_strv_copy(&g->init_errors, &old->init_errors);
  g->refresh_before_update = old->refresh_before_update;
  /* Not an option of the program: kept as recorded (`state taint`, an
   * adopted resource, the provider's extension). */
  g->taint = old->taint;
  g->external = old->external;
  free(g->extension_ref);
  g->extension_ref = old->extension_ref ? mp_xstrdup(old->extension_ref) : NULL;
  g->pending_replacement = old->pending_replacement;
  g->delete_ = 0;
  g->row = old->row;
  return g;
}

int mp__deploy_program_steps_own(deploy *d, const mp_resource *r, int live) {
  return d->o->program_news && d->o->kind == MP_DEPLOY_REFRESH && live &&
         !r->custom && strcmp(r->type, MP_ROOT_STACK_TYPE) != 0 &&
         mp__deploy_program_match(d, r) != NULL;
}

/* What the refresh writes for a component or provider that the program
 * registers: its ordinary step (step_generator.go continueStepsFromRefresh
 * hands them to the normal step generation). */
static mp_step *program_step(mp_step_op op, const mp_resource *old,
                             mp_resource *new_) {
  mp_step *s = mp_step_new(op, new_->urn);
  s->old = old ? mp_resource_dup(old) : NULL;
  s->new_ = new_;
  s->snap_index = -1;
  s->flags = MP_STEP_REPLY | MP_STEP_NO_WRITE;
  if (mp_type_is_provider(new_->type)) s->flags |= MP_STEP_PROVIDER_RES;
  else s->flags |= MP_STEP_NO_CALL;
  return s;
}

int mp__deploy_program_steps(deploy *d, const unsigned char *live_by_index) {
  const mp_snapshot *pn = mp__deploy_program_news(d);
  int sent = 0;
  if (pn == NULL || d->o->kind != MP_DEPLOY_REFRESH) return 0;
  mp_map live; /* URN -> live snapshot entry */
  mp_map_init(&live);
  for (size_t i = 0; i < d->snap->nres; i++)
    if (live_by_index[i]) mp_map_put(&live, d->snap->res[i]->urn, d->snap->res[i]);
  for (size_t i = 0; i < pn->nres; i++) {
    const mp_resource *p = pn->res[i];
    int provider = mp_type_is_provider(p->type);
    if ((p->custom && !provider) || strcmp(p->type, MP_ROOT_STACK_TYPE) == 0)
      continue; /* custom: refreshed or never created; the stack: below */
    const mp_resource *old = mp_map_get(&live, p->urn);
    /* a component or provider registered under an alias of its recorded
     * URN */
    for (size_t a = 0; !old && a < p->aliases.len; a++) {
      old = mp_map_get(&live, p->aliases.items[a]);
      if (old && mp__deploy_program_match(d, old) != p) old = NULL;
    }
    mp_step *s = NULL;
    if (old == NULL) {
      if (p->inputs && mp_value_contains_unknowns(p->inputs)) continue;
      mp_resource *n = mp_resource_dup(p);
      free(n->id);
      n->id = NULL;
      mp_value *known = known_part(n->outputs);
      mp_value_free(n->outputs);
      n->outputs = known;
      s = program_step(MP_OP_CREATE, NULL, n);
    } else if (!provider) {
      mp_resource *n = mp__deploy_program_goal(old, p);
      int changed = !mp_value_equal(n->inputs, old->inputs, 0) ||
                    !mp_value_equal(n->outputs, old->outputs, 0);
      s = program_step(changed ? MP_OP_UPDATE : MP_OP_SAME, old, n);
      if (!changed) s->flags |= MP_STEP_VERBATIM; /* keeps n as it is */
    }
    if (s == NULL) continue;
    mp_chain *c = mp_chain_new(NULL);
    mp_chain_push(c, s);
    mp_stepexec_submit(d->ex, c);
    sent++;
  }
  mp_map_destroy(&live);
  return sent;
}

/* Pulumi registers the root stack as an ordinary component during a
 * refresh with a program (step_generator.go continueStepsFromRefresh) and
 * finalizes its outputs at the end (deployment_executor.go Execute): the
 * stack keeps the outputs the program gave it. */
void mp__deploy_use_program_outputs(deploy *d, mp_resource *st) {
  const mp_value *po = d->o->program_outputs;
  if (po == NULL || d->o->kind != MP_DEPLOY_REFRESH ||
      strcmp(st->type, MP_ROOT_STACK_TYPE) != 0)
    return;
  mp_value_free(st->outputs);
  st->outputs = mp_value_dup(po);
}

/* A recorded provider the program registered under an alias of its URN
 * is also served under the new URN (Pulumi's step generator registers the
 * alias with the provider registry), for the resources that name it. */
static void serve_renamed(deploy *d, const mp_resource *r,
                          const mp_resource *p) {
  if (p == NULL || strcmp(p->urn, r->urn) == 0) return;
  mp_resource *n = mp_resource_dup(r);
  free(n->urn);
  n->urn = mp_xstrdup(p->urn);
  d->renamed_providers =
      mp_xreallocarray(d->renamed_providers, d->nrenamed_providers + 1,
                       sizeof(*d->renamed_providers));
  d->renamed_providers[d->nrenamed_providers++] = n;
}

void mp__deploy_use_program_providers(deploy *d) {
  for (size_t i = 0; d->o->program_news && i < d->snap->nres; i++) {
    mp_resource *r = d->snap->res[i];
    if (!mp_type_is_provider(r->type) || r->delete_) continue;
    const mp_resource *p = mp__deploy_program_match(d, r);
    const mp_value *in = p ? p->inputs : NULL;
    if (in == NULL ||
        (r->inputs && mp_value_equal(r->inputs, in, 0)) ||
        mp__deploy_program_replaces(d, r, in)) {
      serve_renamed(d, r, p);
      continue;
    }
    /* Pulumi gives a registered provider its ordinary same/update step
     * (step_generator.go continueStepsFromRefresh): the refresh records
     * the program's inputs for it. What the preview could not know is
     * never written. */
    if (!mp_value_contains_unknowns(in)) mp_strv_push(&d->from_program, r->urn);
    mp_value_free(r->inputs);
    r->inputs = mp_value_dup(in);
    serve_renamed(d, r, p);
  }
}
