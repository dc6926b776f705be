/* Which resources an operation touches (stepgen/targets.h). */
#include "stepgen/targets.h"

#include <stdlib.h>
#include <string.h>

#include "engine/urn.h"

void mp_targets_init(mp_targets *t, const mp_strv *targets,
                     const mp_strv *excludes, int target_dependents,
                     int exclude_dependents) {
  memset(t, 0, sizeof(*t));
  if (targets) mp_strv_copy(&t->targets, targets);
  if (excludes) mp_strv_copy(&t->excludes, excludes);
  t->target_dependents = target_dependents;
  t->exclude_dependents = exclude_dependents;
}

void mp_targets_destroy(mp_targets *t) {
  mp_strv_destroy(&t->targets);
  mp_strv_destroy(&t->excludes);
}

int mp_targets_any(const mp_strv *pats, const char *urn) {
  for (size_t i = 0; i < pats->len; i++)
    if (mp_urn_glob(pats->items[i], urn)) return 1;
  return 0;
}

int mp_targets_is_glob(const char *name) { return strchr(name, '*') != NULL; }

void mp_targets_known(const mp_snapshot *s, mp_map *urns) {
  for (size_t i = 0; i < s->nres; i++) mp_map_put(urns, s->res[i]->urn, urns);
}

const char *mp_targets_first_unknown(const mp_strv *names, const mp_map *urns) {
  for (size_t i = 0; names && i < names->len; i++)
    if (!mp_targets_is_glob(names->items[i]) &&
        !mp_map_has(urns, names->items[i]))
      return names->items[i];
  return NULL;
}

/* ---- closures along the references ---- */

/* 1 if |r| refers (by one of |kinds|) to a URN that matches |pats| or is
 * in the set |marked|. */
static int refers_to(const mp_resource *r, unsigned kinds, const mp_strv *pats,
                     const mp_map *marked) {
  mp_strv refs;
  mp_strv_init(&refs);
  mp_resource_refs(r, kinds, &refs);
  int hit = 0;
  for (size_t i = 0; i < refs.len && !hit; i++)
    hit = mp_map_has(marked, refs.items[i]) ||
          mp_targets_any(pats, refs.items[i]);
  mp_strv_destroy(&refs);
  return hit;
}

void mp_targets_closure(const mp_snapshot *s, const mp_strv *pats, int follow,
                        unsigned kinds, unsigned char *in) {
  mp_map marked; /* URNs marked so far (every copy of a URN counts) */
  mp_map_init(&marked);
  /* Prior order is dependency order: one pass finds every dependent. */
  for (size_t i = 0; i < s->nres; i++) {
    const mp_resource *r = s->res[i];
    in[i] = (unsigned char)(mp_targets_any(pats, r->urn) ||
                            (follow && refers_to(r, kinds, pats, &marked)));
    if (in[i]) mp_map_put(&marked, r->urn, &marked);
  }
  mp_map_destroy(&marked);
}

void mp_targets_select_refresh(const mp_targets *t, const mp_snapshot *s,
                               unsigned char *sel) {
  /* deployment_executor.go refresh: a resource's parent, dependencies,
   * property dependencies and deletedWith, not its provider; with
   * excludes the targets are not looked at. */
  const unsigned kinds = MP_REF_ALL & ~MP_REF_PROVIDER;
  if (t->excludes.len > 0) {
    mp_targets_closure(s, &t->excludes, t->exclude_dependents, kinds, sel);
    for (size_t i = 0; i < s->nres; i++) sel[i] = !sel[i];
  } else if (t->targets.len > 0) {
    mp_targets_closure(s, &t->targets, t->target_dependents, kinds, sel);
  } else {
    memset(sel, 1, s->nres);
  }
}
