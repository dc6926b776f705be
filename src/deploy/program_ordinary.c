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

int mp__deploy_program_replaces(deploy *d, const mp_resource *r,
                                const mp_value *in) {
  const mp_step *p = noted(d->o->program_steps, r->urn);
  if (d->o->kind != MP_DEPLOY_REFRESH || p == NULL ||
      p->op != MP_OP_CREATE_REPLACEMENT || mp_value_contains_unknowns(in))
    return 0;
  mp_resource *n = mp_resource_dup(r);
  mp_value_free(n->inputs);
  n->inputs = mp_value_dup(in);
  free(n->id);
  n->id = mp_uuid_new();
  provider_updated(n);
  free(n->created);
  n->created = n->modified ? mp_xstrdup(n->modified) : NULL;
  d->replacements = mp_xreallocarray(d->replacements, d->nreplacements + 1,
                                     sizeof(*d->replacements));
  d->replacements[d->nreplacements++] = n;
  return 1;
}

const mp_resource *mp__deploy_program_replacement(deploy *d, const char *urn) {
  for (size_t i = 0; i < d->nreplacements; i++)
    if (strcmp(d->replacements[i]->urn, urn) == 0) return d->replacements[i];
  return NULL;
}

void mp__deploy_use_replacement_ref(deploy *d, mp_resource *n,
                                    const char *named) {
  mp_provider_ref pr;
  if (named == NULL || d->nreplacements == 0 ||
      mp_provider_ref_parse(named, &pr, NULL) < 0)
    return;
  const mp_resource *np = mp__deploy_program_replacement(d, pr.urn);
  mp_provider_ref_destroy(&pr);
  if (np == NULL) return;
  free(n->provider);
  n->provider = mp_xasprintf("%s::%s", np->urn, np->id);
}

/* |p|'s diff (keys, changed keys, detailed diff) on |s|. */
static void copy_diff(mp_step *s, const mp_step *p) {
  mp_strv_copy(&s->keys, &p->keys);
  mp_strv_copy(&s->diffs, &p->diffs);
  for (size_t i = 0; i < p->detailed.len; i++)
    mp_diff_add(&s->detailed, p->detailed.items[i].path,
                p->detailed.items[i].kind, p->detailed.items[i].input_diff);
  s->has_detailed = p->has_detailed;
}

/* A provider the program's run replaced: its create-replacement (the new
 * provider, made at setup) and replace steps, as Pulumi's ordinary step
 * generation gives it (step_generator.go continueStepsFromRefresh, then
 * the replacement of a provider whose DiffConfig asks for it); the old one
 * stays, marked for deletion (step.go CreateStep.Apply), as nothing
 * deletes during a refresh. */
static mp_step *replacement_step(const mp_step *p, const mp_resource *r,
                                 const mp_resource *np) {
  mp_step *s = mp_step_new(MP_OP_CREATE_REPLACEMENT, r->urn);
  s->old = mp_resource_dup(r);
  s->new_ = mp_resource_dup(np);
  copy_diff(s, p);
  s->snap_index = -1;
  s->flags = MP_STEP_REPLY | MP_STEP_NO_WRITE | MP_STEP_NO_CALL |
             MP_STEP_VERBATIM;
  return s;
}

mp_step *mp__deploy_program_replace_step(const mp_step *cr) {
  mp_step *s = mp_step_new(MP_OP_REPLACE, cr->urn);
  s->old = mp_resource_dup(cr->old);
  s->new_ = mp_resource_dup(cr->new_);
  mp_strv_copy(&s->keys, &cr->keys);
  mp_strv_copy(&s->diffs, &cr->diffs);
  s->snap_index = -1;
  s->flags = MP_STEP_NO_WRITE | MP_STEP_NO_CALL | MP_STEP_VERBATIM;
  return s;
}

mp_step *mp__deploy_program_ordinary(deploy *d, const mp_resource *r) {
  if (d->o->kind != MP_DEPLOY_REFRESH || !stack_or_provider(r->type))
    return NULL;
  const mp_step *p = noted(d->o->program_steps, r->urn);
  const mp_resource *np = mp__deploy_program_replacement(d, r->urn);
  if (p && np) return replacement_step(p, r, np);
  /* registered under an alias of its URN: its step under the new URN */
  const mp_resource *q = p ? NULL : mp__deploy_program_match(d, r);
  const char *urn = q ? q->urn : r->urn;
  if (q && mp_type_is_provider(r->type)) p = noted(d->o->program_steps, urn);
  if (p == NULL || (p->op != MP_OP_SAME && p->op != MP_OP_UPDATE)) return NULL;
  /* What the preview could not know is never written: a refresh step
   * keeps the recorded state. */
  if (r->inputs && mp_value_contains_unknowns(r->inputs)) return NULL;
  mp_step *s = mp_step_new(p->op, urn);
  s->old = mp_resource_dup(p->old ? p->old : r);
  s->new_ = mp_resource_dup(r);
  free(s->new_->urn);
  s->new_->urn = mp_xstrdup(urn);
  if (p->op == MP_OP_UPDATE && mp_type_is_provider(r->type))
    provider_updated(s->new_);
  mp__deploy_use_program_outputs(d, s->new_);
  copy_diff(s, p);
  /* The state is made here, and the registry already holds the provider
   * the reads use: nothing to call or to load again. Written with the
   * refresh's snapshot (refresh.c). */
  s->snap_index = -1;
  s->flags = MP_STEP_REPLY | MP_STEP_NO_WRITE | MP_STEP_NO_CALL |
             MP_STEP_VERBATIM;
  return s;
}
