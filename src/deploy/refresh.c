/* Classic refresh (tests/conformance/scenarios/S55-refresh-drift.scn,
 * S58-targeted-refresh.scn, X30, X31 for what --target and --exclude
 * reach): one refresh step per resource,
 * all in one parallel batch; the rebuilt snapshot is written once, at the
 * end (DS_REFRESHING). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "deploy/deploy_int.h"
#include "engine/urn.h"
#include "stepgen/targets.h"

/* refresh --run-program: the program's run read this resource already
 * (stepgen.c gen_refresh): its result stands, with no second Read. */
static void take_read(mp_step *s, const mp_step *pre) {
  s->flags |= MP_STEP_NO_CALL | MP_STEP_VERBATIM;
  s->refresh_result = pre->refresh_result;
  mp_strv_copy(&s->diffs, &pre->diffs);
  for (size_t i = 0; i < pre->detailed.len; i++)
    mp_diff_add(&s->detailed, pre->detailed.items[i].path,
                pre->detailed.items[i].kind, pre->detailed.items[i].input_diff);
  s->has_detailed = pre->has_detailed;
  mp_strv_copy(&s->warnings, &pre->warnings);
  if (pre->new_ == NULL) {
    mp_resource_free(s->new_);
    s->new_ = NULL;
    return;
  }
  mp_resource *n = s->new_;
  const mp_resource *r = pre->new_;
  free(n->id);
  n->id = r->id ? mp_xstrdup(r->id) : NULL;
  mp_value_free(n->inputs);
  n->inputs = r->inputs ? mp_value_dup(r->inputs) : NULL;
  mp_value_free(n->outputs);
  n->outputs = r->outputs ? mp_value_dup(r->outputs) : NULL;
  free(n->modified);
  n->modified = r->modified ? mp_xstrdup(r->modified) : NULL;
  mp_strv_destroy(&n->init_errors);
  mp_strv_copy(&n->init_errors, &r->init_errors);
}

void mp__deploy_refresh_start(deploy *d) {
  size_t n = d->snap->nres;
  d->refreshed = mp_xcalloc(n + 1, sizeof(*d->refreshed));
  d->refresh_done = mp_xcalloc(n + 1, 1);
  d->state = DS_REFRESHING;
  mp_targets t;
  const mp_stepgen_opts *so = &d->o->steps;
  mp_targets_init(&t, so->targets, so->excludes, so->target_dependents,
                  so->exclude_dependents);
  unsigned char *sel = mp_xcalloc(n + 1, 1);
  mp_targets_select_refresh(&t, d->snap, sel);
  mp_targets_destroy(&t);
  unsigned char *live = mp_xcalloc(n + 1, 1);
  for (size_t i = 0; i < n; i++) live[i] = !d->snap->res[i]->delete_;
  for (size_t i = 0; i < n; i++) {
    const mp_resource *r = d->snap->res[i];
    if (!sel[i] || mp__deploy_program_steps_own(d, r, live[i])) continue;
    mp_step *s = live[i] ? mp__deploy_program_ordinary(d, r) : NULL;
    if (s) {
      mp_chain *c = mp_chain_new(NULL);
      mp_chain_push(c, s);
      if (s->op == MP_OP_CREATE_REPLACEMENT)
        mp_chain_push(c, mp__deploy_program_replace_step(s));
      mp_stepexec_submit(d->ex, c);
      continue;
    }
    const mp_resource *p =
        live[i] && r->custom && !mp_type_is_provider(r->type) && !r->pending_replacement
            ? mp__deploy_program_match(d, r) : NULL;
    /* Under the URN the program registered (step.go RefreshStep.URN). */
    s = mp_step_new(MP_OP_REFRESH, p ? p->urn : r->urn);
    s->old = mp_resource_dup(r);
    s->new_ = p ? mp__deploy_program_goal(r, p) : mp_resource_dup(r);
    if (live[i]) mp__deploy_use_program_outputs(d, s->new_); /* shown too */
    if (p) mp__deploy_use_replacement_ref(d, s->new_, p->provider);
    s->snap_index = (long)i;
    s->flags = MP_STEP_REPLY;
    if (!r->custom || mp_type_is_provider(r->type) || r->pending_replacement)
      s->flags |= MP_STEP_NO_CALL;
    else if (s->new_->provider)
      s->provider = mp_xstrdup(s->new_->provider);
    const mp_step *pre = live[i] ? mp__deploy_program_read(d, s->urn) : NULL;
    if (pre) take_read(s, pre);
    mp_chain *c = mp_chain_new(NULL);
    mp_chain_push(c, s);
    mp_stepexec_submit(d->ex, c);
  }
  free(live);
  free(sel);
  mp__deploy_advance(d);
}

void mp__deploy_refresh_done(deploy *d, mp_step *s) {
  long i = s->snap_index;
  if (i < 0) return; /* a program's component or provider (hooks.c) */
  d->refresh_done[i] = 1;
  d->refreshed[i] = s->new_;
  s->new_ = NULL;
}

/* Drops references to URNs not present earlier in the list (S56). */
static int prune(mp_resource *r, const mp_strv *present, const mp_map *gone_parent) {
  int changed = 0;
  for (size_t i = 0; i < r->dependencies.len;) {
    if (!mp_strv_contains(present, r->dependencies.items[i])) {
      mp_strv_remove_at(&r->dependencies, i);
      changed = 1;
    } else {
      i++;
    }
  }
  for (size_t k = 0; k < r->property_dependencies.len;) {
    mp_strv *u = &r->property_dependencies.items[k].urns;
    int pruned = 0;
    for (size_t i = 0; i < u->len;) {
      if (!mp_strv_contains(present, u->items[i])) {
        mp_strv_remove_at(u, i);
        changed = pruned = 1;
      } else {
        i++;
      }
    }
    if (pruned && u->len == 0) {
      /* S56: a key whose only sources vanished has no entry any more. */
      mp_propdeps *pd = &r->property_dependencies;
      free(pd->items[k].key);
      mp_strv_destroy(&pd->items[k].urns);
      memmove(&pd->items[k], &pd->items[k + 1],
              (pd->len - k - 1) * sizeof(*pd->items));
      pd->len--;
    } else {
      k++;
    }
  }
  if (r->deleted_with && !mp_strv_contains(present, r->deleted_with)) {
    free(r->deleted_with);
    r->deleted_with = NULL;
    changed = 1;
  }
  while (r->parent && !mp_strv_contains(present, r->parent)) {
    /* Re-parent to the grandparent; the URN is not rewritten. */
    const char *gp = mp_map_get(gone_parent, r->parent);
    char *np = gp && gp[0] ? mp_xstrdup(gp) : NULL;
    free(r->parent);
    r->parent = np;
    changed = 1;
  }
  return changed;
}

/* The rebuilt snapshot's changes, in the order they are made. */
typedef struct rewrite {
  mp_store_change *ch;
  size_t n;
  mp_resource **keep; /* states made here (freed after the write) */
  size_t nkeep;
  mp_strv present;
  mp_map gone_parent; /* gone URN -> its parent ("" for none) */
  /* Recorded URNs refreshed under the program's new URN (an alias), and
   * those new URNs: later entries' references follow them, as Pulumi's
   * snapshot NormalizeURNReferences makes them. */
  mp_strv renamed_from, renamed_to;
} rewrite;

static void change(rewrite *w, mp_store_change_kind k, mp_resource *res,
                   int64_t row) {
  w->ch[w->n].kind = k;
  w->ch[w->n].res = res;
  w->ch[w->n].row = row;
  w->n++;
}

static mp_resource *made(rewrite *w, mp_resource *r) {
  w->keep[w->nkeep++] = r;
  return r;
}

/* The state that replaces snapshot entry |i|; |placed|: it goes where the
 * program registered it (after what is placed so far), else it stays. */
static void rewrite_entry(deploy *d, rewrite *w, size_t i, int placed) {
  const mp_resource *old = d->snap->res[i];
  if (d->refresh_done[i] && d->refreshed[i] == NULL) {
    mp_map_put(&w->gone_parent, old->urn, old->parent ? old->parent : "");
    change(w, MP_STORE_DELETE, NULL, old->row);
    return;
  }
  mp_resource *st = NULL;
  const mp_resource *p = placed ? mp__deploy_program_match(d, old) : NULL;
  if (d->refresh_done[i])
    st = d->refreshed[i];
  else if (p && (st = mp_map_get(&d->news, p->urn)) != NULL)
    ; /* a component's update step (run_program.c) */
  else if (p && !old->custom)
    st = made(w, mp__deploy_program_goal(old, p));
  else
    st = made(w, mp_resource_dup(old));
  if (!placed && mp_type_is_provider(old->type) &&
      mp__deploy_program_replacement(d, old->urn))
    st->delete_ = 1; /* replaced by the program's run (program_ordinary.c) */
  st->row = old->row;
  mp__deploy_use_program_outputs(d, st);
  for (size_t k = 0; k < w->renamed_from.len; k++)
    mp_resource_rewrite_refs(st, w->renamed_from.items[k],
                             w->renamed_to.items[k]);
  if (strcmp(st->urn, old->urn) != 0) {
    mp_strv_push(&w->renamed_from, old->urn);
    mp_strv_push(&w->renamed_to, st->urn);
  }
  prune(st, &w->present, &w->gone_parent);
  int changed = !mp_resource_equal(st, old) ||
                mp_strv_contains(&d->injected, old->urn) ||
                mp_strv_contains(&d->from_program, old->urn);
  if (old->row == 0) /* a default provider injected into legacy state (S76) */
    change(w, MP_STORE_INSERT_NEW, st, 0);
  else if (placed)
    change(w, changed ? MP_STORE_UPDATE_NEW : MP_STORE_MOVE_NEW,
           changed ? st : NULL, old->row);
  else if (changed)
    change(w, MP_STORE_UPDATE, st, 0);
  mp_strv_push(&w->present, st->urn);
}

/* With a program, Pulumi's snapshot holds what the program registered in
 * the order its steps finished, then what GenerateRefreshes refreshed
 * (step_generator.go): the registered entries, and the components and
 * providers the program created, go first, in registration order. */
static void rewrite_registered(deploy *d, rewrite *w, unsigned char *placed) {
  const mp_snapshot *pn = mp__deploy_program_news(d);
  mp_map live; /* URN -> 1 + snapshot index */
  mp_map_init(&live);
  for (size_t i = 0; i < d->snap->nres; i++)
    if (!d->snap->res[i]->delete_)
      mp_map_put(&live, d->snap->res[i]->urn, (void *)(uintptr_t)(i + 1));
  for (size_t k = 0; k < pn->nres; k++) {
    const char *urn = pn->res[k]->urn;
    uintptr_t at = (uintptr_t)mp_map_get(&live, urn);
    /* a custom resource or component registered under an alias of its
     * recorded URN */
    for (size_t a = 0; !at && a < pn->res[k]->aliases.len; a++) {
      at = (uintptr_t)mp_map_get(&live, pn->res[k]->aliases.items[a]);
      if (at && mp__deploy_program_match(d, d->snap->res[at - 1]) != pn->res[k])
        at = 0;
    }
    if (at && !mp__deploy_program_replacement(d, urn)) {
      placed[at - 1] = 1;
      rewrite_entry(d, w, at - 1, 1);
      continue;
    }
    mp_resource *created = mp_map_get(&d->news, urn);
    if (created == NULL) continue; /* a custom resource: never created */
    prune(created, &w->present, &w->gone_parent);
    change(w, MP_STORE_INSERT_NEW, created, 0);
    mp_strv_push(&w->present, urn);
  }
  mp_map_destroy(&live);
}

void mp__deploy_refresh_write(deploy *d) {
  mp_snapshot *s = d->snap;
  const mp_snapshot *pn = mp__deploy_program_news(d);
  size_t cap = s->nres + (pn ? pn->nres : 0) + 1;
  rewrite w = {0};
  w.ch = mp_xcalloc(cap, sizeof(*w.ch));
  w.keep = mp_xcalloc(cap, sizeof(*w.keep));
  mp_strv_init(&w.present);
  mp_map_init(&w.gone_parent);
  unsigned char *placed = mp_xcalloc(s->nres + 1, 1);
  if (pn) rewrite_registered(d, &w, placed);
  for (size_t i = 0; i < s->nres; i++)
    if (!placed[i]) rewrite_entry(d, &w, i, 0);
  mp_err e;
  mp_err_clear(&e);
  if (w.n > 0 && d->upd && mp_store_apply(d->upd, w.ch, w.n, &e) < 0) {
    mp__deploy_fail(d, 0);
    mp__deploy_diag(d, "error", NULL, e.msg);
  }
  for (size_t i = 0; i < w.nkeep; i++) mp_resource_free(w.keep[i]);
  free(w.keep);
  free(w.ch);
  free(placed);
  mp_map_destroy(&w.gone_parent);
  mp_strv_destroy(&w.present);
  mp_strv_destroy(&w.renamed_from);
  mp_strv_destroy(&w.renamed_to);
}
