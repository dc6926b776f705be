/* Classic refresh (tests/conformance/scenarios/S55-refresh-drift.scn,
 * S58-targeted-refresh.scn, X30, X31 for what --target and --exclude
 * reach): one refresh step per resource,
 * all in one parallel batch; the rebuilt snapshot is written once, at the
 * end (DS_REFRESHING). */
#include <stdlib.h>
#include <string.h>

#include "deploy/deploy_int.h"
#include "engine/urn.h"
#include "stepgen/targets.h"

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
  for (size_t i = 0; i < n; i++) {
    const mp_resource *r = d->snap->res[i];
    if (!sel[i]) continue;
    mp_step *s = mp_step_new(MP_OP_REFRESH, r->urn);
    s->old = mp_resource_dup(r);
    s->new_ = mp_resource_dup(r);
    s->snap_index = (long)i;
    s->flags = MP_STEP_REPLY;
    if (!r->custom || mp_type_is_provider(r->type) || r->pending_replacement)
      s->flags |= MP_STEP_NO_CALL;
    else if (r->provider)
      s->provider = mp_xstrdup(r->provider);
    mp_chain *c = mp_chain_new(NULL);
    mp_chain_push(c, s);
    mp_stepexec_submit(d->ex, c);
  }
  free(sel);
  mp__deploy_advance(d);
}

void mp__deploy_refresh_done(deploy *d, mp_step *s) {
  long i = s->snap_index;
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

void mp__deploy_refresh_write(deploy *d) {
  mp_snapshot *s = d->snap;
  mp_strv present;
  mp_strv_init(&present);
  mp_map gone_parent; /* gone URN -> its parent ("" for none) */
  mp_map_init(&gone_parent);
  mp_store_change *ch = mp_xcalloc(s->nres + 1, sizeof(*ch));
  mp_resource **keep = mp_xcalloc(s->nres + 1, sizeof(*keep));
  size_t n = 0;
  for (size_t i = 0; i < s->nres; i++) {
    const mp_resource *old = s->res[i];
    if (d->refresh_done[i] && d->refreshed[i] == NULL) {
      mp_map_put(&gone_parent, old->urn, old->parent ? old->parent : "");
      ch[n].kind = MP_STORE_DELETE;
      ch[n].row = old->row;
      n++;
      continue;
    }
    mp_resource *st = d->refresh_done[i] ? d->refreshed[i] : mp_resource_dup(old);
    if (!d->refresh_done[i]) keep[i] = st;
    st->row = old->row;
    mp__deploy_use_program_outputs(d, st);
    prune(st, &present, &gone_parent);
    if (old->row == 0) {
      /* A default provider injected into legacy state (S76). */
      ch[n].kind = MP_STORE_INSERT_NEW;
      ch[n].res = st;
      n++;
    } else if (!mp_resource_equal(st, old) ||
               mp_strv_contains(&d->injected, old->urn) ||
               mp_strv_contains(&d->from_program, old->urn)) {
      ch[n].kind = MP_STORE_UPDATE;
      ch[n].res = st;
      n++;
    }
    mp_strv_push(&present, st->urn);
  }
  mp_err e;
  mp_err_clear(&e);
  if (n > 0 && d->upd && mp_store_apply(d->upd, ch, n, &e) < 0) {
    mp__deploy_fail(d, 0);
    mp__deploy_diag(d, "error", NULL, e.msg);
  }
  for (size_t i = 0; i < s->nres; i++) mp_resource_free(keep[i]);
  free(keep);
  free(ch);
  mp_map_destroy(&gone_parent);
  mp_strv_destroy(&present);
}
