/* refresh and destroy --run-program (pkg/cmd/pulumi/operations/refresh.go,
 * destroy.go: "Run the program to determine up-to-date state for providers
 * to refresh resources"). The program runs first, as a preview whose steps
 * are not shown; the provider resources it registers then stand in for the
 * recorded ones, so that the refresh or destroy configures each provider as
 * the program (and today's stack config) says, not as the state
 * remembers. A refresh then records them, and the program's stack
 * outputs, as Pulumi's refresh with a program does (X75). */
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

int mp__deploy_program_providers(const mp_deploy_opts *o,
                                 mp_deploy_result *res, mp_value **out,
                                 mp_value **outputs, mp_err *err) {
  mp_deploy_opts po = *o;
  po.kind = MP_DEPLOY_UPDATE;
  po.dry_run = 1;
  po.run_program = 0;
  po.refresh_first = 0;
  po.leave_memory = 0; /* the operation runs after it */
  po.plan = NULL;
  po.steps.targets = po.steps.excludes = po.steps.replaces = NULL;
  po.analyze_stack = NULL;
  po.steps.analyze = NULL;
  po.sink = o->sink ? diagnostics_only : NULL;
  po.sink_ud = (void *)o;
  po.program_providers_out = out;
  po.program_outputs_out = outputs;
  return mp__deploy_run_one(&po, res, err);
}

void mp__deploy_collect_providers(deploy *d) {
  mp_value *all = mp_value_new_object();
  for (size_t i = 0; i < d->news.cap; i++) {
    const mp_resource *st = d->news.slots[i].key ? d->news.slots[i].value : NULL;
    if (st && mp_type_is_provider(st->type) && st->inputs)
      mp_value_object_set(all, st->urn, mp_value_dup(st->inputs));
  }
  *d->o->program_providers_out = all;
  /* Outputs a preview could not know (from what the refresh skips
   * creating, say) are never written: the recorded ones stay. */
  const mp_value *so = d->stack_outputs;
  if (so && d->o->program_outputs_out && !d->res->failed && !mp_value_contains_unknowns(so))
    *d->o->program_outputs_out = mp_value_dup(so);
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

void mp__deploy_use_program_providers(deploy *d) {
  const mp_value *pp = d->o->program_providers;
  for (size_t i = 0; pp && i < d->snap->nres; i++) {
    mp_resource *r = d->snap->res[i];
    const mp_value *in = mp_value_object_get(pp, r->urn);
    if (!mp_type_is_provider(r->type) || in == NULL) continue;
    if (r->inputs && mp_value_equal(r->inputs, in, 0)) continue;
    /* Pulumi gives a registered provider its ordinary same/update step
     * (step_generator.go continueStepsFromRefresh): the refresh records
     * the program's inputs for it. What the preview could not know is
     * never written. */
    if (!mp_value_contains_unknowns(in)) mp_strv_push(&d->from_program, r->urn);
    mp_value_free(r->inputs);
    r->inputs = mp_value_dup(in);
  }
}
