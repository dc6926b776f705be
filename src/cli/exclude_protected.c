/* destroy --exclude-protected (Pulumi's pkg/cmd/pulumi/operations/
 * destroy.go, getProtectedExcludes): every protected resource and what it
 * depends on, transitively, become excludes of the destroy. The count
 * Pulumi reports is of that whole set. */
#include <stdint.h>
#include <stdlib.h>

#include "cli/operation.h"
#include "cli/secrets.h"
#include "engine/map.h"

/* Appends |i| to the list kept under |urn| in |m| (element 0: count). */
static void list_add(mp_map *m, const char *urn, size_t i) {
  size_t *l = mp_map_get(m, urn);
  size_t n = l ? l[0] : 0;
  if (l == NULL || (n & (n + 1)) == 0) /* grow at powers of two */
    l = mp_xreallocarray(l, 2 * (n + 1), sizeof(*l));
  l[0] = n + 1;
  l[n + 1] = i;
  mp_map_put(m, urn, l);
}

static void list_map_destroy(mp_map *m) {
  for (size_t i = 0; i < m->cap; i++)
    if (m->slots[i].key) free(m->slots[i].value);
  mp_map_destroy(m);
}

/* The walk of DependencyGraph.TransitiveDependenciesOf
 * (pkg/resource/graph/dependency_graph.go) from one protected entry. */
typedef struct closure {
  const mp_snapshot *s;
  mp_map by_urn, children; /* URN -> indexes of its copies / its children */
  unsigned char *in;       /* the union over every protected entry */
  size_t *seen;            /* root + 1 once reached from that root */
  size_t *pending, npending, root;
} closure;

/* The last copy of |urn| listed before |before|, or -1. */
static long copy_before(const closure *c, const char *urn, size_t before) {
  const size_t *l = mp_map_get(&c->by_urn, urn);
  long best = -1;
  for (size_t m = 1; l && m <= l[0] && l[m] < before; m++) best = (long)l[m];
  return best;
}

/* A component's children (and theirs) listed before the root: depending
 * on a component is depending on its subtree so far. Their own
 * dependencies are not followed, as Pulumi's addAllChildren does not. */
static void add_children(closure *c, const char *urn, size_t depth) {
  const size_t *kids = mp_map_get(&c->children, urn);
  for (size_t k = 1; kids && k <= kids[0] && depth <= c->s->nres; k++) {
    size_t j = kids[k];
    if (j >= c->root) continue;
    c->in[j] = 1;
    add_children(c, c->s->res[j]->urn, depth + 1);
  }
}

/* Entry |j|, reached from the root: kept, and what it depends on (its
 * provider, parent, dependencies, property dependencies, deletedWith, as
 * the copies listed before it) walked next. */
static void reach(closure *c, size_t j) {
  if (c->seen[j] == c->root + 1) return;
  c->seen[j] = c->root + 1;
  c->in[j] = 1;
  if (!c->s->res[j]->custom) add_children(c, c->s->res[j]->urn, 0);
  c->pending[c->npending++] = j;
}

static void walk_from(closure *c, size_t root) {
  c->root = root;
  c->in[root] = 1;
  c->seen[root] = root + 1;
  c->pending[c->npending++] = root;
  while (c->npending > 0) {
    size_t i = c->pending[--c->npending];
    mp_strv refs;
    mp_strv_init(&refs);
    mp_resource_refs(c->s->res[i], MP_REF_ALL, &refs);
    for (size_t k = 0; k < refs.len; k++) {
      long j = copy_before(c, refs.items[k], i);
      if (j >= 0) reach(c, (size_t)j);
    }
    mp_strv_destroy(&refs);
  }
}

int mp_cli_exclude_protected(mp_ctx *ctx, const char *stack, mp_op_flags *f,
                             size_t *protected_n, int *nothing_left) {
  mp_snapshot *snap = NULL;
  mp_crypter cr;
  int has_c = 0;
  *protected_n = 0;
  *nothing_left = 0;
  int status = mp_cli_load_snapshot(ctx, stack, &snap, &cr, &has_c);
  if (status) return status;
  closure c = {.s = snap};
  size_t n = snap->nres;
  c.in = mp_xcalloc(n + 1, 1);
  c.seen = mp_xcalloc(n + 1, sizeof(*c.seen));
  c.pending = mp_xcalloc(n + 1, sizeof(*c.pending));
  mp_map_init(&c.by_urn);
  mp_map_init(&c.children);
  for (size_t i = 0; i < n; i++) {
    list_add(&c.by_urn, snap->res[i]->urn, i);
    if (snap->res[i]->parent) list_add(&c.children, snap->res[i]->parent, i);
  }
  for (size_t i = 0; i < n; i++)
    if (snap->res[i]->protect) walk_from(&c, i);
  size_t count = 0;
  mp_map seen;
  mp_map_init(&seen);
  for (size_t i = 0; i < n; i++) {
    const char *urn = snap->res[i]->urn;
    count += c.in[i];
    if (!c.in[i] || mp_map_has(&seen, urn)) continue;
    mp_map_put(&seen, urn, &seen);
    mp_strv_push(&f->excludes, urn);
  }
  mp_map_destroy(&seen);
  *protected_n = count;
  if (count > 0 && count == n) {
    /* Nothing to do: Pulumi returns before the destroy, which would
     * otherwise fail on the protected resources. */
    if (!f->json)
      fprintf(ctx->out,
              "There were no unprotected resources to destroy. There are "
              "still %zu protected resources associated with this stack.\n",
              count);
    *nothing_left = 1;
  }
  list_map_destroy(&c.children);
  list_map_destroy(&c.by_urn);
  free(c.pending);
  free(c.seen);
  free(c.in);
  mp_snapshot_free(snap);
  return status;
}
