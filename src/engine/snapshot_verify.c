/* The snapshot integrity rules (docs/architecture.md; every conformance
 * scenario runs with them checked after each write) (Pulumi's
 * VerifyIntegrity): every reference names something that appears earlier
 * in the list, providers are referenced by URN and id, at most one live
 * copy per URN. Linear in the size of the snapshot. */
#include "engine/snapshot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/map.h"
#include "engine/urn.h"

/* ==== a string -> first index map (open addressing) ==== */

typedef struct index_map {
  const char **keys; /* borrowed, or owned by |owned| */
  size_t *vals;
  size_t cap; /* power of two */
  mp_strv owned;
} index_map;

static void map_init(index_map *m, size_t n) {
  m->cap = 16;
  while (m->cap < 2 * n + 1)
    m->cap *= 2;
  m->keys = mp_xcalloc(m->cap, sizeof(*m->keys));
  m->vals = mp_xcalloc(m->cap, sizeof(*m->vals));
  mp_strv_init(&m->owned);
}

static void map_destroy(index_map *m) {
  free(m->keys);
  free(m->vals);
  mp_strv_destroy(&m->owned);
}

static size_t map_slot(const index_map *m, const char *key) {
  size_t i = mp_map_hash(key) & (m->cap - 1);
  while (m->keys[i] && strcmp(m->keys[i], key) != 0)
    i = (i + 1) & (m->cap - 1);
  return i;
}

/* Records |key| at index |v| unless it is already present (first wins).
 * The map never fills: it is sized for twice the keys it will hold. */
static void map_put_first(index_map *m, const char *key, size_t v) {
  size_t i = map_slot(m, key);
  if (m->keys[i])
    return;
  m->keys[i] = key;
  m->vals[i] = v;
}

/* The index recorded for |key|, or SIZE_MAX. */
static size_t map_get(const index_map *m, const char *key) {
  size_t i = map_slot(m, key);
  return m->keys[i] ? m->vals[i] : SIZE_MAX;
}

/* ==== the rules ==== */

typedef struct verifier {
  const mp_snapshot *s;
  index_map urns;      /* urn -> first position */
  index_map providers; /* "urn::id" of provider resources -> position */
  index_map live;      /* urn -> position of its copy without delete */
  mp_err *err;
} verifier;

static int fail(verifier *v, const char *fmt, const char *a, const char *b) {
  return mp_err_set(v->err, MP_ESTATE, fmt, a, b);
}

/* A reference |ref| of resource #i (|what| names the field). */
static int check_ref(verifier *v, size_t i, const char *what, const char *ref) {
  if (ref == NULL || *ref == '\0')
    return 0;
  const char *urn = v->s->res[i]->urn;
  size_t at = map_get(&v->urns, ref);
  if (at < i)
    return 0;
  char fmt[160];
  if (at == i)
    snprintf(fmt, sizeof(fmt), "resource '%%s' lists itself as its %s '%%s'",
             what);
  else if (at == SIZE_MAX)
    snprintf(fmt, sizeof(fmt), "resource '%%s' refers to missing %s '%%s'",
             what);
  else
    snprintf(fmt, sizeof(fmt), "resource '%%s''s %s '%%s' comes after it",
             what);
  return fail(v, fmt, urn, ref);
}

static int check_refs(verifier *v, size_t i) {
  const mp_resource *r = v->s->res[i];
  if (check_ref(v, i, "parent", r->parent) < 0)
    return MP_ESTATE;
  for (size_t k = 0; k < r->dependencies.len; k++)
    if (check_ref(v, i, "dependency", r->dependencies.items[k]) < 0)
      return MP_ESTATE;
  const mp_propdeps *pd = &r->property_dependencies;
  for (size_t k = 0; k < pd->len; k++)
    for (size_t u = 0; u < pd->items[k].urns.len; u++)
      if (check_ref(v, i, "property dependency", pd->items[k].urns.items[u]) <
          0)
        return mp_err_prefix(v->err, "property '%s'", pd->items[k].key);
  if (check_ref(v, i, "deletedWith resource", r->deleted_with) < 0)
    return MP_ESTATE;
  for (size_t k = 0; k < r->replace_with.len; k++)
    if (check_ref(v, i, "replaceWith resource", r->replace_with.items[k]) < 0)
      return MP_ESTATE;
  return 0;
}

static int is_provider_type(const char *type) {
  size_t n = strlen(MP_PROVIDER_TYPE_PREFIX);
  return strncmp(type, MP_PROVIDER_TYPE_PREFIX, n) == 0 && type[n] != '\0';
}

static int check_provider(verifier *v, size_t i) {
  const mp_resource *r = v->s->res[i];
  if (r->provider == NULL || *r->provider == '\0' || r->pending_replacement)
    return 0;
  const char *sep = NULL;
  for (const char *p = strstr(r->provider, "::"); p; p = strstr(p + 1, "::"))
    sep = p;
  size_t ulen = sep ? (size_t)(sep - r->provider) : 0;
  char *purn = mp_xstrndup(r->provider, ulen);
  const char *ptype = mp_urn_type(purn, &ulen);
  int ok = sep && ptype && mp_urn_valid(purn);
  if (ok) {
    char *t = mp_xstrndup(ptype, ulen);
    ok = is_provider_type(t);
    free(t);
  }
  free(purn);
  if (!ok)
    return fail(v, "resource '%s' has a bad provider reference '%s'", r->urn,
                r->provider);
  size_t at = map_get(&v->providers, r->provider);
  if (at < i)
    return 0;
  if (at == SIZE_MAX)
    return fail(v, "resource '%s' refers to unknown provider '%s'", r->urn,
                r->provider);
  return fail(v, "resource '%s''s provider '%s' comes after it", r->urn,
              r->provider);
}

static int check_self(verifier *v, size_t i) {
  const mp_resource *r = v->s->res[i];
  if (r->urn == NULL || *r->urn == '\0') {
    char pos[32]; /* made only here: 10,000 snprintf a load otherwise */
    snprintf(pos, sizeof(pos), "%zu", i + 1);
    return fail(v, "resource #%s has no urn%s", pos, "");
  }
  if (r->type == NULL || *r->type == '\0')
    return fail(v, "resource '%s' has no type%s", r->urn, "");
  int has_id = r->id && *r->id;
  if (!r->custom && has_id)
    return fail(v,
                "component resource '%s' has an id ('%s'); only custom "
                "resources have ids",
                r->urn, r->id);
  if (r->custom && !has_id && !r->pending_replacement &&
      r->init_errors.len == 0)
    return fail(v, "custom resource '%s' has no id%s", r->urn, "");
  if (!r->delete_) {
    size_t at = map_get(&v->live, r->urn);
    if (at != SIZE_MAX && at != i)
      return fail(v,
                  "duplicate resource '%s'%s: more than one copy is not "
                  "marked for deletion",
                  r->urn, "");
  }
  return 0;
}

/* Fills the maps with every position (first wins) before the checks, so
 * that a reference forward can be told from a reference to nothing. */
static void index_all(verifier *v) {
  const mp_snapshot *s = v->s;
  for (size_t i = 0; i < s->nres; i++) {
    const mp_resource *r = s->res[i];
    map_put_first(&v->urns, r->urn, i);
    if (!r->delete_)
      map_put_first(&v->live, r->urn, i);
    if (is_provider_type(r->type) && r->id && *r->id) {
      char *key = mp_xasprintf("%s::%s", r->urn, r->id);
      mp_strv_push_take(&v->providers.owned, key);
      map_put_first(&v->providers, key, i);
    }
  }
}

int mp_snapshot_verify(const mp_snapshot *s, mp_err *err) {
  verifier v = {.s = s, .err = err};
  map_init(&v.urns, s->nres);
  map_init(&v.providers, s->nres);
  map_init(&v.live, s->nres);
  index_all(&v);
  int rc = 0;
  for (size_t i = 0; i < s->nres && rc == 0; i++) {
    rc = check_self(&v, i);
    if (rc == 0)
      rc = check_provider(&v, i);
    if (rc == 0)
      rc = check_refs(&v, i);
  }
  map_destroy(&v.urns);
  map_destroy(&v.providers);
  map_destroy(&v.live);
  return rc;
}
