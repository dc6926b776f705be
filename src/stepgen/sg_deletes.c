/* Targets and the deletions after the program (BEHAVIOUR.md D.4, S35,
 * S60-S64). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/urn.h"
#include "stepgen/sg_int.h"

int mp__sg_glob(const char *pat, const char *s) { return mp_urn_glob(pat, s); }

static int matches_any(const mp_strv *pats, const char *urn) {
  for (size_t i = 0; i < pats->len; i++)
    if (mp__sg_glob(pats->items[i], urn)) return 1;
  return 0;
}

/* 1 if |st| points (provider, parent, dependencies, property dependencies,
 * deletedWith) at a registered resource for which |pred| holds. */
static int points_at(mp_stepgen *sg, const mp_resource *st, int want_targeted) {
  mp_strv refs;
  mp_strv_init(&refs);
  if (st->parent) mp_strv_push(&refs, st->parent);
  if (st->deleted_with) mp_strv_push(&refs, st->deleted_with);
  mp_strv_copy(&refs, &st->dependencies);
  for (size_t i = 0; i < st->property_dependencies.len; i++)
    mp_strv_copy(&refs, &st->property_dependencies.items[i].urns);
  mp_provider_ref pr;
  if (st->provider && mp_provider_ref_parse(st->provider, &pr, NULL) == 0) {
    mp_strv_push(&refs, pr.urn);
    mp_provider_ref_destroy(&pr);
  }
  int hit = 0;
  for (size_t i = 0; i < refs.len && !hit; i++) {
    sg_new *n = mp_map_get(&sg->news, refs.items[i]);
    /* Providers and the root stack not targeted themselves are in the
     * operation implicitly (targeted == 2): that does not make everything
     * under them a dependent. */
    if (n && n->targeted == want_targeted) hit = 1;
  }
  mp_strv_destroy(&refs);
  return hit;
}

int mp__sg_targeted(mp_stepgen *sg, const mp_resource *st) {
  if (mp_type_is_provider(st->type) ||
      strcmp(st->type, MP_ROOT_STACK_TYPE) == 0) {
    /* Always in the operation; its dependents follow it only when it is a
     * target itself (step_generator.go targetsActual). */
    if (sg->targets.len == 0 && sg->excludes.len == 0) return 1;
    if (sg->targets.len > 0 && (matches_any(&sg->targets, st->urn) ||
                                (sg->target_dependents && points_at(sg, st, 1))))
      return 1;
    return 2;
  }
  if (sg->excludes.len > 0) {
    if (matches_any(&sg->excludes, st->urn)) return 0;
    if (sg->exclude_dependents && points_at(sg, st, 0)) return 0;
  }
  if (sg->targets.len == 0) return 1;
  if (matches_any(&sg->targets, st->urn)) return 1;
  return sg->target_dependents && points_at(sg, st, 1);
}

/* 1 if |urn| is a prior resource's URN or registered in this run. */
static int known_urn(const mp_stepgen *sg, const char *urn) {
  if (mp__sg_old_index(sg, urn) >= 0 || mp_map_has(&sg->news, urn)) return 1;
  for (size_t i = 0; i < sg->olds->nres; i++) /* `delete` copies */
    if (strcmp(sg->olds->res[i]->urn, urn) == 0) return 1;
  return 0;
}

size_t mp_stepgen_check_targets(const mp_stepgen *sg, int replaces,
                                mp_diags *diags) {
  const mp_strv *names = replaces ? &sg->replaces : &sg->targets;
  size_t bad = 0;
  for (size_t i = 0; i < names->len; i++) {
    const char *t = names->items[i];
    if (strchr(t, '*') || known_urn(sg, t)) continue; /* globs: anything */
    mp_diags_add(diags, "error", NULL,
                 "Target '%s' could not be found in the stack.%s", t,
                 strchr(t, '$') ? ""
                                : " Did you forget to escape $ in your shell?");
    bad++;
  }
  return bad;
}

/* ---- condemned set ---- */

typedef struct condemned {
  long idx;       /* into the prior snapshot */
  mp_step_op op;
  int layer;
} condemned;

/* 1 if prior resource |r| depends on URN |u|. */
static int depends_on(const mp_resource *r, const char *u) {
  if (r->parent && strcmp(r->parent, u) == 0) return 1;
  if (r->deleted_with && strcmp(r->deleted_with, u) == 0) return 1;
  if (mp_strv_contains(&r->dependencies, u)) return 1;
  for (size_t i = 0; i < r->property_dependencies.len; i++)
    if (mp_strv_contains(&r->property_dependencies.items[i].urns, u)) return 1;
  if (r->provider) {
    size_t n = strlen(u);
    if (strncmp(r->provider, u, n) == 0 && strncmp(r->provider + n, "::", 2) == 0)
      return 1;
  }
  return 0;
}

static int is_condemned_urn(const condemned *c, size_t n,
                            const mp_snapshot *olds, const char *u) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(olds->res[c[i].idx]->urn, u) == 0) return 1;
  return 0;
}

/* The URNs |r| refers to other than its parent (deletedWith, dependencies,
 * property dependencies, provider), appended to |out|. */
static void refs_of(const mp_resource *r, mp_strv *out) {
  if (r->deleted_with) mp_strv_push(out, r->deleted_with);
  mp_strv_copy(out, &r->dependencies);
  for (size_t i = 0; i < r->property_dependencies.len; i++)
    mp_strv_copy(out, &r->property_dependencies.items[i].urns);
  if (r->provider) {
    const char *sep = strstr(r->provider, "::");
    const char *last = NULL;
    for (; sep; sep = strstr(sep + 2, "::")) last = sep;
    if (last) mp_strv_push_take(out, mp_xstrndup(r->provider,
                                                 (size_t)(last - r->provider)));
  }
}

/* Delete layers (step_generator.go ScheduleDeletes over
 * dependency_graph.go DependenciesOf). A condemned entry waits for the
 * condemned entries EARLIER in the prior list that it depends on: those
 * with its parent's URN, those with a URN it refers to, and, where such an
 * entry is a component, that component's descendants (depending on a
 * component means depending on its subtree). Layer = 1 + the deepest such
 * dependency (longest path); dependencies are earlier entries, so one pass
 * in prior order computes it. Layers are deleted deepest first. */
typedef struct layering {
  condemned *c;
  size_t n;
  const mp_snapshot *olds;
  long *cond;        /* prior index -> condemned index, or -1 */
  mp_map by_urn;     /* URN -> (first prior index + 1); copies share a URN */
  size_t *next_same; /* next prior index with the same URN, or nres */
  mp_map children;   /* URN -> size_t* list of descendants' prior indexes,
                        element 0 = count */
} layering;

static void add_child(mp_map *children, const char *urn, size_t idx) {
  size_t *l = mp_map_get(children, urn);
  size_t n = l ? l[0] : 0;
  /* Grow at powers of two. */
  if (l == NULL || (n & (n + 1)) == 0)
    l = mp_xreallocarray(l, 2 * (n + 1), sizeof(*l));
  l[0] = n + 1;
  l[n + 1] = idx;
  mp_map_put(children, urn, l);
}

/* Considers prior entry |k| as a dependency of the entry at prior index
 * |self|; returns the layer it imposes (0 when none). */
static int via(const layering *L, size_t k, size_t self) {
  if (k >= self || L->cond[k] < 0) return 0;
  return L->c[L->cond[k]].layer + 1;
}

/* The layer of condemned entry |i|; those before it are known. */
static int layer_of(layering *L, size_t i) {
  size_t self = (size_t)L->c[i].idx, nres = L->olds->nres;
  const mp_resource *r = L->olds->res[self];
  mp_strv refs;
  mp_strv_init(&refs);
  refs_of(r, &refs);
  int layer = 0, l;
  for (size_t k = 0; k < refs.len; k++) {
    if (strcmp(refs.items[k], r->urn) == 0) continue;
    void *v = mp_map_get(&L->by_urn, refs.items[k]);
    int component = 0;
    for (size_t j = v ? (size_t)(uintptr_t)v - 1 : nres; j < self;
         j = L->next_same[j]) {
      if ((l = via(L, j, self)) > layer) layer = l;
      component |= !L->olds->res[j]->custom;
    }
    size_t *kids = component ? mp_map_get(&L->children, refs.items[k]) : NULL;
    for (size_t m = 1; kids && m <= kids[0]; m++)
      if ((l = via(L, kids[m], self)) > layer) layer = l;
  }
  mp_strv_destroy(&refs);
  void *pv = r->parent ? mp_map_get(&L->by_urn, r->parent) : NULL;
  for (size_t j = pv ? (size_t)(uintptr_t)pv - 1 : nres; j < self;
       j = L->next_same[j])
    if ((l = via(L, j, self)) > layer) layer = l;
  L->c[i].layer = layer;
  return layer;
}

static int assign_layers(condemned *c, size_t n, const mp_snapshot *olds) {
  size_t nres = olds->nres;
  layering L = {c, n, olds, NULL, {0}, NULL, {0}};
  L.cond = mp_xcalloc(nres + 1, sizeof(*L.cond));
  L.next_same = mp_xcalloc(nres + 1, sizeof(*L.next_same));
  mp_map_init(&L.by_urn);
  mp_map_init(&L.children);
  for (size_t k = 0; k < nres; k++) L.cond[k] = -1;
  for (size_t i = 0; i < n; i++) L.cond[c[i].idx] = (long)i;
  for (size_t k = nres; k-- > 0;) {
    void *prev = mp_map_put(&L.by_urn, olds->res[k]->urn,
                            (void *)(uintptr_t)(k + 1));
    L.next_same[k] = prev ? (size_t)(uintptr_t)prev - 1 : nres;
  }
  /* Each entry is a descendant of every ancestor up its parent chain (the
   * last entry with the parent's URN before it, as the state is ordered). */
  mp_map last; /* URN -> last prior index + 1 so far */
  mp_map_init(&last);
  for (size_t k = 0; k < nres; k++) {
    const char *p = olds->res[k]->parent;
    for (size_t depth = 0; p && depth < nres; depth++) {
      add_child(&L.children, p, k);
      void *v = mp_map_get(&last, p);
      p = v ? olds->res[(size_t)(uintptr_t)v - 1]->parent : NULL;
    }
    mp_map_put(&last, olds->res[k]->urn, (void *)(uintptr_t)(k + 1));
  }
  mp_map_destroy(&last);
  int maxl = 0;
  for (size_t i = 0; i < n; i++) { /* in prior order */
    int l = layer_of(&L, i);
    if (l > maxl) maxl = l;
  }
  for (size_t i = 0; i < L.children.cap; i++)
    if (L.children.slots[i].key) free(L.children.slots[i].value);
  mp_map_destroy(&L.children);
  mp_map_destroy(&L.by_urn);
  free(L.cond);
  free(L.next_same);
  return maxl;
}

static mp_step *delete_step(mp_stepgen *sg, const condemned *c, size_t n,
                            const condemned *me) {
  const mp_resource *old = sg->olds->res[me->idx];
  mp_step *s = mp_step_new(me->op, old->urn);
  s->old = mp_resource_dup(old);
  if (me->op == MP_OP_DELETE_REPLACED && sg->status[me->idx] == OLD_REPLACED_CBD)
    s->old->delete_ = 1;
  if (old->custom && !mp_type_is_provider(old->type) && old->provider)
    s->provider = mp_xstrdup(old->provider);
  if (mp_type_is_provider(old->type)) s->flags |= MP_STEP_PROVIDER_RES;
  int nocall = !old->custom || old->retain_on_delete || old->external ||
               me->op == MP_OP_DISCARD || me->op == MP_OP_DISCARD_REPLACED ||
               me->op == MP_OP_REMOVE_PENDING_REPLACE;
  if (old->deleted_with &&
      is_condemned_urn(c, n, sg->olds, old->deleted_with))
    nocall = 1;
  if (nocall) s->flags |= MP_STEP_NO_CALL;
  return s;
}

/* Which step, if any, ends prior resource |i| after the program. */
static int condemn_op(mp_stepgen *sg, size_t i, mp_step_op *op) {
  const mp_resource *r = sg->olds->res[i];
  switch (sg->status[i]) {
  case OLD_CLAIMED:
  case OLD_RECREATED:
  case OLD_GONE:
    return 0;
  case OLD_REPLACED_CBD:
    *op = r->external ? MP_OP_DISCARD_REPLACED : MP_OP_DELETE_REPLACED;
    return 1;
  case OLD_DBR_DELETED:
    *op = MP_OP_REMOVE_PENDING_REPLACE;
    return 1;
  default:
    break;
  }
  if (r->delete_) *op = MP_OP_DELETE_REPLACED;
  else if (r->pending_replacement) *op = MP_OP_REMOVE_PENDING_REPLACE;
  else if (r->external) *op = MP_OP_DISCARD;
  else *op = MP_OP_DELETE;
  return 1;
}

static int targeted_for_delete(mp_stepgen *sg, const mp_resource *r,
                               const mp_strv *deleted, const mp_strv *excluded) {
  if (sg->excludes.len > 0 && matches_any(&sg->excludes, r->urn)) return 0;
  for (size_t i = 0; i < excluded->len; i++)
    if (depends_on(r, excluded->items[i])) return 0;
  if (sg->targets.len == 0) return 1;
  if (matches_any(&sg->targets, r->urn)) return 1;
  if (!sg->target_dependents) return 0;
  for (size_t i = 0; i < deleted->len; i++)
    if (depends_on(r, deleted->items[i])) return 1;
  return 0;
}

int mp_stepgen_deletes(mp_stepgen *sg, int destroy, mp_chain **sames,
                       mp_chain ***layers_out, size_t *nlayers, mp_diags *diags,
                       mp_err *err) {
  const mp_snapshot *olds = sg->olds;
  (void)destroy; /* everything unclaimed is condemned either way */
  condemned *c = mp_xcalloc(olds->nres + 1, sizeof(*c));
  size_t n = 0;
  mp_strv deleted; /* targeted, condemned URNs (for --target-dependents) */
  mp_strv_init(&deleted);
  /* --exclude-dependents: what depends on an excluded resource stays too
   * (prior order is dependency order, so one pass finds them all). */
  mp_strv excluded;
  mp_strv_init(&excluded);
  for (size_t i = 0; sg->exclude_dependents && i < olds->nres; i++) {
    const mp_resource *r = olds->res[i];
    int ex = matches_any(&sg->excludes, r->urn);
    for (size_t k = 0; !ex && k < excluded.len; k++)
      ex = depends_on(r, excluded.items[k]);
    if (ex) mp_strv_push(&excluded, r->urn);
  }
  *sames = mp_chain_new(NULL);
  *layers_out = NULL;
  *nlayers = 0;
  unsigned char *skip = mp_xcalloc(olds->nres + 1, 1);
  for (size_t i = 0; i < olds->nres; i++) {
    mp_step_op op;
    if (!condemn_op(sg, i, &op)) continue;
    const mp_resource *r = olds->res[i];
    /* Providers are condemned too; one still used by a kept resource is
     * kept below. Copies left by a replacement in this deployment finish
     * it, whatever the targets. */
    int prov_targeted =
        mp_type_is_provider(r->type) &&
        (sg->targets.len == 0 || matches_any(&sg->targets, r->urn)) &&
        !matches_any(&sg->excludes, r->urn);
    int targeted = prov_targeted || sg->status[i] == OLD_REPLACED_CBD ||
                   sg->status[i] == OLD_DBR_DELETED ||
                   targeted_for_delete(sg, r, &deleted, &excluded);
    if (!targeted) {
      skip[i] = 1;
      continue;
    }
    mp_strv_push(&deleted, r->urn);
    c[n].idx = (long)i;
    c[n].op = op;
    n++;
  }
  /* A provider kept because something untargeted still uses it. */
  size_t m = 0;
  int any_skip = 0;
  for (size_t j = 0; j < olds->nres; j++) any_skip |= skip[j];
  for (size_t i = 0; i < n; i++) {
    const mp_resource *r = olds->res[c[i].idx];
    int needed = 0;
    for (size_t j = 0; any_skip && j < olds->nres && !needed; j++)
      if (skip[j] && depends_on(olds->res[j], r->urn)) needed = 1;
    if (needed && sg->targets.len > 0 && !mp_type_is_provider(r->type) &&
        r->custom) {
      /* An untargeted dependent would be left dangling. */
      for (size_t j = 0; j < olds->nres; j++) {
        if (!skip[j] || !depends_on(olds->res[j], r->urn)) continue;
        mp_diags_add(diags, "error", olds->res[j]->urn,
                     "Resource '%s' will be destroyed but was not specified in "
                     "--target list.\nEither include resource in --target list "
                     "or pass --target-dependents to proceed.",
                     olds->res[j]->urn);
      }
      mp_err_set(err, MP_EINVAL, "delete untargeted resource");
    }
    if (needed) {
      skip[c[i].idx] = 1;
      continue;
    }
    c[m++] = c[i];
  }
  n = m;
  for (size_t i = 0; i < olds->nres; i++) {
    if (!skip[i]) continue;
    const mp_resource *r = mp__sg_old_at(sg, i);
    /* Untargeted leftovers are carried forward. */
    mp_step *s = mp_step_new(MP_OP_SAME, r->urn);
    s->old = mp_resource_dup(r);
    s->new_ = mp_resource_dup(r);
    s->flags = MP_STEP_NO_CALL | MP_STEP_VERBATIM;
    mp_chain_push(*sames, s);
  }
  free(skip);
  mp_strv_destroy(&deleted);
  mp_strv_destroy(&excluded);
  if (err->code) {
    free(c);
    return err->code;
  }
  if (n == 0) {
    free(c);
    return 0;
  }
  int maxl = assign_layers(c, n, olds);
  mp_chain **layers = mp_xcalloc((size_t)maxl + 1, sizeof(*layers));
  for (int l = maxl; l >= 0; l--) {
    mp_chain *ch = mp_chain_new(NULL);
    for (size_t i = 0; i < n; i++)
      if (c[i].layer == l) mp_chain_push(ch, delete_step(sg, c, n, &c[i]));
    layers[maxl - l] = ch;
  }
  free(c);
  *layers_out = layers;
  *nlayers = (size_t)maxl + 1;
  return 0;
}
