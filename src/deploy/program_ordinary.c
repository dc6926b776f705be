/* refresh --run-program: the stack and the recorded providers that the
 * program registers get their ordinary step, not a refresh step. Pulumi's
 * step generator in refreshMode (step_generator.go generateSteps and
 * continueStepsFromRefresh) gives a refresh step only to a registered
 * custom resource that is not a provider; the stack, a component, and a
 * provider flow on to the normal step generation, so a recorded one shows
 * `same`, or `update` with its diff. The program's preview decided those
 * steps (its DiffConfig); the refresh shows them with the states it
 * writes. docs/behaviour.md, X78. */
#include <stdlib.h>
#include <string.h>

#include "deploy/deploy_int.h"
#include "engine/registry.h"
#include "engine/urn.h"

static int stack_or_provider(const char *type) {
  return strcmp(type, MP_ROOT_STACK_TYPE) == 0 || mp_type_is_provider(type);
}

void mp__deploy_program_note_step(deploy *d, const mp_step *s) {
  mp_program_steps **out = d->o->program_steps_out;
  const mp_resource *st = s->new_ ? s->new_ : s->old;
  if (out == NULL || st == NULL || !stack_or_provider(st->type)) return;
  if (*out == NULL) *out = mp_xcalloc(1, sizeof(**out));
  mp_program_steps *l = *out;
  mp_step *c = mp_step_new(s->op, s->urn);
  c->old = s->old ? mp_resource_dup(s->old) : NULL; /* as recorded */
  mp_strv_copy(&c->keys, &s->keys);
  mp_strv_copy(&c->diffs, &s->diffs);
  for (size_t i = 0; i < s->detailed.len; i++)
    mp_diff_add(&c->detailed, s->detailed.items[i].path,
                s->detailed.items[i].kind, s->detailed.items[i].input_diff);
  c->has_detailed = s->has_detailed;
  l->items = mp_xreallocarray(l->items, l->len + 1, sizeof(*l->items));
  l->items[l->len++] = c;
}

void mp__deploy_program_steps_free(mp_program_steps *l) {
  if (l == NULL) return;
  for (size_t i = 0; i < l->len; i++) mp_step_free(l->items[i]);
  free(l->items);
  free(l);
}

static const mp_step *noted(const mp_program_steps *l, const char *urn) {
  for (size_t i = 0; l && i < l->len; i++)
    if (l->items[i]->op != MP_OP_REFRESH && strcmp(l->items[i]->urn, urn) == 0)
      return l->items[i];
  return NULL;
}

static mp_step *noted_read(const mp_program_steps *l, const char *urn) {
  for (size_t i = 0; l && i < l->len; i++)
    if (l->items[i]->op == MP_OP_REFRESH && strcmp(l->items[i]->urn, urn) == 0)
      return l->items[i];
  return NULL;
}

static mp_step *read_entry(deploy *d, const char *urn) {
  mp_program_steps **out = d->o->program_steps_out;
  if (*out == NULL) *out = mp_xcalloc(1, sizeof(**out));
  mp_program_steps *l = *out;
  mp_step *c = noted_read(l, urn);
  if (c) return c;
  c = mp_step_new(MP_OP_REFRESH, urn);
  l->items = mp_xreallocarray(l->items, l->len + 1, sizeof(*l->items));
  l->items[l->len++] = c;
  return c;
}

void mp__deploy_program_note_read(deploy *d, const mp_step *s) {
  if (d->o->program_steps_out == NULL) return;
  mp_step *c = read_entry(d, s->urn);
  c->old = mp_resource_dup(s->old); /* the read is done */
  c->new_ = s->new_ ? mp_resource_dup(s->new_) : NULL;
  c->refresh_result = s->refresh_result;
  mp_strv_copy(&c->diffs, &s->diffs);
  for (size_t i = 0; i < s->detailed.len; i++)
    mp_diff_add(&c->detailed, s->detailed.items[i].path,
                s->detailed.items[i].kind, s->detailed.items[i].input_diff);
  c->has_detailed = s->has_detailed;
}

void mp__deploy_program_note_warning(deploy *d, const mp_step *s,
                                     const char *msg) {
  mp_strv_push(&read_entry(d, s->urn)->warnings, msg);
}

const mp_step *mp__deploy_program_read(deploy *d, const char *urn) {
  const mp_step *c = noted_read(d->o->program_steps, urn);
  return c && c->old ? c : NULL;
}

/* The state a provider's update records: the program's inputs (already on
 * |r|, run_program.c), its outputs the same inputs, as a provider's
 * update writes them (stepexec provider_resource). */
static void provider_updated(mp_resource *n) {
  mp_value_free(n->outputs);
  n->outputs = n->inputs ? mp_value_dup(n->inputs) : mp_value_new_object();
  mp_value_object_del(n->outputs, MP_PROVIDER_INTERNAL_KEY);
  char *now = mp_now_rfc3339();
  free(n->modified);
  n->modified = now;
}

mp_step *mp__deploy_program_ordinary(deploy *d, const mp_resource *r) {
  if (d->o->kind != MP_DEPLOY_REFRESH || !stack_or_provider(r->type))
    return NULL;
  const mp_step *p = noted(d->o->program_steps, r->urn);
  if (p == NULL || (p->op != MP_OP_SAME && p->op != MP_OP_UPDATE)) return NULL;
  /* What the preview could not know is never written: a refresh step
   * keeps the recorded state. */
  if (r->inputs && mp_value_contains_unknowns(r->inputs)) return NULL;
  mp_step *s = mp_step_new(p->op, r->urn);
  s->old = mp_resource_dup(p->old ? p->old : r);
  s->new_ = mp_resource_dup(r);
  if (p->op == MP_OP_UPDATE && mp_type_is_provider(r->type))
    provider_updated(s->new_);
  mp__deploy_use_program_outputs(d, s->new_);
  mp_strv_copy(&s->keys, &p->keys);
  mp_strv_copy(&s->diffs, &p->diffs);
  for (size_t i = 0; i < p->detailed.len; i++)
    mp_diff_add(&s->detailed, p->detailed.items[i].path,
                p->detailed.items[i].kind, p->detailed.items[i].input_diff);
  s->has_detailed = p->has_detailed;
  /* The state is made here, and the registry already holds the provider
   * the reads use: nothing to call or to load again. Written with the
   * refresh's snapshot (refresh.c). */
  s->snap_index = -1;
  s->flags = MP_STEP_REPLY | MP_STEP_NO_WRITE | MP_STEP_NO_CALL |
             MP_STEP_VERBATIM;
  return s;
}
