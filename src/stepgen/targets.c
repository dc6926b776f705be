/* Which resources an operation touches (stepgen/targets.h). */
#include "stepgen/targets.h"

#include <stdint.h>
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

/* ---- refresh: down the parent tree ---- */

enum { UNKNOWN = 0, NO = 1, YES = 2 };

/* memo[i]: whether resource |i| or an ancestor matches |pats|. The parent
 * of an entry is the last entry with the parent's URN (|last|). Each entry
 * is resolved once, so a whole walk is linear. |chain| is scratch. */
static int in_subtree(const mp_snapshot *s, const mp_map *last,
                      const mp_strv *pats, unsigned char *memo, size_t i,
                      size_t *chain) {
  size_t n = 0, at = i;
  int found = NO;
  for (;;) {
    if (memo[at] != UNKNOWN) {
      found = memo[at];
      break;
    }
    if (mp_targets_any(pats, s->res[at]->urn)) {
      memo[at] = YES;
      found = YES;
      break;
    }
    chain[n++] = at;
    const char *p = s->res[at]->parent;
    void *v = p ? mp_map_get(last, p) : NULL;
    if (v == NULL) {
      /* A parent the state lacks still counts by its URN. */
      if (p && mp_targets_any(pats, p)) found = YES;
      break;
    }
    if (n >= s->nres) break; /* a loop: not in a valid state */
    at = (size_t)(uintptr_t)v - 1;
  }
  for (size_t k = 0; k < n; k++) memo[chain[k]] = (unsigned char)found;
  return found == YES;
}

void mp_targets_select_tree(const mp_targets *t, const mp_snapshot *s,
                            unsigned char *sel) {
  size_t n = s->nres;
  mp_map last; /* URN -> last index + 1 */
  mp_map_init(&last);
  for (size_t i = 0; i < n; i++)
    mp_map_put(&last, s->res[i]->urn, (void *)(uintptr_t)(i + 1));
  unsigned char *ex = mp_xcalloc(n + 1, 1), *tg = mp_xcalloc(n + 1, 1);
  size_t *chain = mp_xcalloc(n + 1, sizeof(*chain));
  for (size_t i = 0; i < n; i++) {
    const char *urn = s->res[i]->urn;
    int out = 0, in = 1;
    if (t->excludes.len > 0)
      out = t->exclude_dependents
                ? in_subtree(s, &last, &t->excludes, ex, i, chain)
                : mp_targets_any(&t->excludes, urn);
    if (t->targets.len > 0)
      in = t->target_dependents
               ? in_subtree(s, &last, &t->targets, tg, i, chain)
               : mp_targets_any(&t->targets, urn);
    sel[i] = !out && in;
  }
  free(chain);
  free(ex);
  free(tg);
  mp_map_destroy(&last);
}

/* ---- deletions: along the references ---- */

/* 1 if |r| refers (by any kind) to a URN in the set |urns|. */
static int refers_to(const mp_resource *r, const mp_map *urns) {
  if (urns->len == 0) return 0;
  mp_strv refs;
  mp_strv_init(&refs);
  mp_resource_refs(r, MP_REF_ALL, &refs);
  int hit = 0;
  for (size_t i = 0; i < refs.len && !hit; i++)
    hit = mp_map_has(urns, refs.items[i]);
  mp_strv_destroy(&refs);
  return hit;
}

void mp_targets_walk_init(mp_targets_walk *w, const mp_targets *t,
                          const mp_snapshot *s) {
  w->t = t;
  mp_map_init(&w->excluded);
  mp_map_init(&w->deleted);
  /* Prior order is dependency order: one pass finds every dependent. */
  for (size_t i = 0; t->exclude_dependents && i < s->nres; i++) {
    const mp_resource *r = s->res[i];
    if (mp_targets_any(&t->excludes, r->urn) || refers_to(r, &w->excluded))
      mp_map_put(&w->excluded, r->urn, w);
  }
}

void mp_targets_walk_destroy(mp_targets_walk *w) {
  mp_map_destroy(&w->excluded);
  mp_map_destroy(&w->deleted);
}

int mp_targets_walk_deletes(const mp_targets_walk *w, const mp_resource *r) {
  const mp_targets *t = w->t;
  if (t->excludes.len > 0 && mp_targets_any(&t->excludes, r->urn)) return 0;
  if (refers_to(r, &w->excluded)) return 0;
  if (t->targets.len == 0) return 1;
  if (mp_targets_any(&t->targets, r->urn)) return 1;
  return t->target_dependents && refers_to(r, &w->deleted);
}

void mp_targets_walk_deleted(mp_targets_walk *w, const char *urn) {
  mp_map_put(&w->deleted, urn, w);
}
