/* Targets of registrations and the deletions after the program
 * (tests/conformance/scenarios/S35-delete-layers.scn, S60-target.scn to
 * S64-destroy-target.scn, X32 to X36, X60, X61); the rules of --target and --exclude
 * themselves are in stepgen/targets.c. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/urn.h"
#include "stepgen/sg_int.h"

/* 1 if |st| points (provider, parent, dependencies, property dependencies,
 * deletedWith) at a registered resource for which |pred| holds. */
static int points_at(mp_stepgen *sg, const mp_resource *st, int want_targeted) {
  mp_strv refs;
  mp_strv_init(&refs);
  mp_resource_refs(st, MP_REF_ALL, &refs);
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
  const mp_targets *t = &sg->t;
  if (mp_type_is_provider(st->type) ||
      strcmp(st->type, MP_ROOT_STACK_TYPE) == 0) {
    /* Always in the operation; its dependents follow it only when it is a
     * target itself (step_generator.go targetsActual). */
    if (t->targets.len == 0 && t->excludes.len == 0) return 1;
    if (t->targets.len > 0 && (mp_targets_any(&t->targets, st->urn) ||
                               (t->target_dependents && points_at(sg, st, 1))))
      return 1;
    return 2;
  }
  if (t->excludes.len > 0) {
    if (mp_targets_any(&t->excludes, st->urn)) return 0;
    if (t->exclude_dependents && points_at(sg, st, 0)) return 0;
  }
  if (t->targets.len == 0) return 1;
  if (mp_targets_any(&t->targets, st->urn)) return 1;
  return t->target_dependents && points_at(sg, st, 1);
}

size_t mp_stepgen_check_targets(const mp_stepgen *sg, int replaces,
                                mp_diags *diags) {
  const mp_strv *names = replaces ? &sg->replaces : &sg->t.targets;
  mp_map known; /* prior URNs (every copy's) and those registered here */
  mp_map_init(&known);
  mp_targets_known(sg->olds, &known);
  for (size_t i = 0; i < sg->news.cap; i++)
    if (sg->news.slots[i].key) mp_map_put(&known, sg->news.slots[i].key, &known);
  size_t bad = 0;
  for (size_t i = 0; i < names->len; i++) {
    const char *t = names->items[i];
    if (mp_targets_is_glob(t) || mp_map_has(&known, t)) continue;
    mp_diags_add(diags, "error", NULL,
                 "Target '%s' could not be found in the stack.%s", t,
                 strchr(t, '$') ? ""
                                : " Did you forget to escape $ in your shell?");
    bad++;
  }
  mp_map_destroy(&known);
  return bad;
}

/* ---- condemned set ---- */

typedef struct condemned {
  long idx;       /* into the prior snapshot */
  mp_step_op op;
  int layer;
} condemned;

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
  mp_resource_refs(r, MP_REF_ALL & ~MP_REF_PARENT, &refs);
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

/* The step deleting |me|; |urns| holds the condemned URNs (a resource
 * deleted with one of them needs no call of its own). */
static mp_step *delete_step(mp_stepgen *sg, const mp_map *urns,
                            const condemned *me) {
  const mp_resource *old = mp__sg_old_at(sg, me->idx);
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
  if (old->deleted_with && mp_map_has(urns, old->deleted_with)) nocall = 1;
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

/* Marks in |keep| (a set of URNs) the excluded entry |urn| and what
 * Pulumi keeps with it (step_generator.go
 * determineForbiddenResourcesToDeleteFromExcludes): each ancestor up its
 * parent chain, and the provider of each of them. |last| maps a URN to
 * its last prior index + 1. */
static void keep_with_ancestors(const mp_snapshot *olds, const mp_map *last,
                                const char *urn, mp_map *keep) {
  for (size_t depth = 0; urn && depth <= olds->nres; depth++) {
    void *v = mp_map_get(last, urn);
    if (v == NULL) return;
    const mp_resource *r = olds->res[(size_t)(uintptr_t)v - 1];
    mp_strv prov;
    mp_strv_init(&prov);
    mp_resource_refs(r, MP_REF_PROVIDER, &prov);
    for (size_t k = 0; k < prov.len; k++) mp_map_put(keep, prov.items[k], keep);
    mp_strv_destroy(&prov);
    mp_map_put(keep, urn, keep);
    urn = r->parent;
  }
}

/* With excludes: the entries Pulumi may not delete. With
 * --exclude-dependents, the excluded ones' dependents (getTargetDependents,
 * as for targets); then each excluded entry with its ancestors and their
 * providers. Nothing else: what a kept entry depends on is deleted unless
 * it is kept this way too (and then dangling_refs refuses the run). Pulumi
 * walks only the literal URNs; a glob's matches are walked here too, so
 * that a glob never lets an entry it names be deleted. Clears allowed[i]
 * for each kept entry. */
static void forbid_excluded(const mp_targets *t, const mp_snapshot *olds,
                            unsigned char *allowed) {
  size_t n = olds->nres;
  unsigned char *named = mp_xcalloc(n + 1, 1);
  mp_targets_closure(olds, &t->excludes, t->exclude_dependents, MP_REF_ALL,
                     named);
  mp_map last, keep;
  mp_map_init(&last);
  mp_map_init(&keep);
  for (size_t i = 0; i < n; i++)
    mp_map_put(&last, olds->res[i]->urn, (void *)(uintptr_t)(i + 1));
  for (size_t i = 0; i < n; i++) {
    if (!named[i]) continue;
    if (mp_targets_any(&t->excludes, olds->res[i]->urn))
      keep_with_ancestors(olds, &last, olds->res[i]->urn, &keep);
    else
      mp_map_put(&keep, olds->res[i]->urn, &keep); /* a dependent */
  }
  for (size_t i = 0; i < n; i++)
    allowed[i] = !mp_map_has(&keep, olds->res[i]->urn);
  mp_map_destroy(&keep);
  mp_map_destroy(&last);
  free(named);
}

/* Which condemned entries the targets and excludes allow to delete
 * (step_generator.go GenerateDeletes): with targets, the closure of the
 * targets' dependents (getTargetDependents: children, dependencies,
 * property dependencies, deletedWith and provider references,
 * transitively); with excludes, all but those forbid_excluded keeps. Sets
 * allowed[i] per prior entry. */
static void allowed_deletes(const mp_targets *t, const mp_snapshot *olds,
                            unsigned char *allowed) {
  if (t->targets.len > 0)
    mp_targets_closure(olds, &t->targets, 1, MP_REF_ALL, allowed);
  else if (t->excludes.len > 0)
    forbid_excluded(t, olds, allowed);
  else
    memset(allowed, 1, olds->nres);
}

/* A delete the targets allow but do not name is an error without
 * --target-dependents; a preview reports it and goes on. Returns 1 when
 * the delete is planned. */
static int untargeted_delete(mp_stepgen *sg, const mp_resource *r,
                             mp_diags *diags, mp_err *err) {
  mp_diags_add(diags, "error", r->urn,
               "Resource '%s' will be destroyed but was not specified in "
               "--target list.\nEither include resource in --target list or "
               "pass --target-dependents to proceed.",
               r->urn);
  if (sg->preview) {
    sg->preview_failed = 1;
    return 1;
  }
  mp_err_set(err, MP_EINVAL, "delete untargeted resource");
  return 0;
}

/* The condemned entries the targets delete (in |c|, prior order), and the
 * kept ones in |skip|. */
static size_t select_deletes(mp_stepgen *sg, condemned *c, unsigned char *skip,
                             mp_diags *diags, mp_err *err) {
  const mp_snapshot *olds = sg->olds;
  const mp_targets *t = &sg->t;
  unsigned char *allowed = mp_xcalloc(olds->nres + 1, 1);
  allowed_deletes(t, olds, allowed);
  size_t n = 0;
  for (size_t i = 0; i < olds->nres; i++) {
    mp_step_op op;
    if (!condemn_op(sg, i, &op)) continue;
    const mp_resource *r = olds->res[i];
    /* Copies left by a replacement in this deployment finish it, whatever
     * the targets. */
    int copy = sg->status[i] == OLD_REPLACED_CBD ||
               sg->status[i] == OLD_DBR_DELETED;
    int targeted = copy || allowed[i];
    if (targeted && !copy && t->targets.len > 0 && !t->target_dependents &&
        !mp_targets_any(&t->targets, r->urn))
      targeted = untargeted_delete(sg, r, diags, err);
    if (!targeted) {
      skip[i] = 1;
      continue;
    }
    c[n].idx = (long)i;
    c[n].op = op;
    n++;
  }
  free(allowed);
  return n;
}

/* Reports |kept| referring to |gone|, which is deleted. */
static void dangling_ref(mp_stepgen *sg, const char *kept, const char *gone,
                         mp_diags *diags, mp_err *err) {
  if (sg->t.excludes.len > 0)
    mp_diags_add(diags, "error", gone,
                 "Resource '%s' will be destroyed but '%s', which --exclude "
                 "keeps, refers to it.\nEither exclude resource too or stop "
                 "excluding '%s'.",
                 gone, kept, kept);
  else
    mp_diags_add(diags, "error", gone,
                 "Resource '%s' will be destroyed but '%s', which stays, "
                 "refers to it.\nEither include '%s' in --target list or "
                 "leave resource out of it.",
                 gone, kept, kept);
  if (sg->preview) sg->preview_failed = 1;
  else if (err->code == 0)
    mp_err_set(err, MP_EINVAL, "delete a resource a kept one refers to");
}

/* Each URN of |r|'s references that |gone| holds is reported. */
static void check_kept(mp_stepgen *sg, const mp_resource *r, const mp_map *gone,
                       mp_diags *diags, mp_err *err) {
  mp_strv refs;
  mp_strv_init(&refs);
  mp_resource_refs(r, MP_REF_ALL, &refs);
  for (size_t k = 0; k < refs.len; k++)
    if (mp_map_has(gone, refs.items[k]))
      dangling_ref(sg, r->urn, refs.items[k], diags, err);
  mp_strv_destroy(&refs);
}

/* What stays must not refer to what is deleted. Pulumi deletes it anyway
 * and then fails the snapshot's integrity check (snapshot.go
 * VerifyIntegrity: "refers to missing resource") with the broken state
 * already written; here the run is refused before any delete, as an
 * untargeted delete is. The entries kept are the leftovers in |skip| and
 * the untargeted registrations, which keep their prior state. */
static void dangling_refs(mp_stepgen *sg, const condemned *c, size_t n,
                          const unsigned char *skip, mp_diags *diags,
                          mp_err *err) {
  const mp_snapshot *olds = sg->olds;
  unsigned char *dies = mp_xcalloc(olds->nres + 1, 1);
  for (size_t i = 0; i < n; i++) dies[c[i].idx] = 1;
  mp_map stays, gone;
  mp_map_init(&stays);
  mp_map_init(&gone);
  for (size_t i = 0; i < olds->nres; i++)
    if (!dies[i]) mp_map_put(&stays, olds->res[i]->urn, &stays);
  for (size_t i = 0; i < n; i++) {
    const char *urn = olds->res[c[i].idx]->urn;
    if (!mp_map_has(&stays, urn) && !mp_map_has(&sg->news, urn))
      mp_map_put(&gone, urn, &gone);
  }
  for (size_t i = 0; i < olds->nres; i++)
    if (skip[i]) check_kept(sg, olds->res[i], &gone, diags, err);
  for (size_t i = 0; i < sg->news.cap; i++) {
    const sg_new *nw = sg->news.slots[i].value;
    if (sg->news.slots[i].key && nw->targeted == 0 && nw->state)
      check_kept(sg, nw->state, &gone, diags, err);
  }
  mp_map_destroy(&gone);
  mp_map_destroy(&stays);
  free(dies);
}

/* An update plan is told of each delete before any runs; a refused one
 * fails them all (step_generator.go GenerateDeletes). */
static int plan_deletes(mp_stepgen *sg, mp_chain **layers, size_t nlayers,
                        mp_err *err) {
  if (sg->plan == NULL) return 0;
  for (size_t l = 0; l < nlayers; l++)
    for (size_t i = 0; i < layers[l]->len; i++)
      if (sg->plan->step(sg->plan->ctx, layers[l]->steps[i], err) != 0)
        return err->code;
  return 0;
}

int mp_stepgen_deletes(mp_stepgen *sg, mp_chain ***layers_out,
                       size_t *nlayers, mp_diags *diags, mp_err *err) {
  const mp_snapshot *olds = sg->olds;
  *layers_out = NULL;
  *nlayers = 0;
  condemned *c = mp_xcalloc(olds->nres + 1, sizeof(*c));
  unsigned char *skip = mp_xcalloc(olds->nres + 1, 1);
  /* What is not deleted gets no step (Pulumi's GenerateDeletes): the
   * state keeps it where it was. */
  size_t n = select_deletes(sg, c, skip, diags, err);
  if (err->code == 0) dangling_refs(sg, c, n, skip, diags, err);
  free(skip);
  if (err->code || n == 0) {
    free(c);
    return err->code;
  }
  int maxl = assign_layers(c, n, olds);
  mp_map urns;
  mp_map_init(&urns);
  for (size_t i = 0; i < n; i++) mp_map_put(&urns, olds->res[c[i].idx]->urn, c);
  /* Deepest layer first; within a layer, prior order. */
  mp_chain **layers = mp_xcalloc((size_t)maxl + 1, sizeof(*layers));
  for (int l = 0; l <= maxl; l++) layers[l] = mp_chain_new(NULL);
  for (size_t i = 0; i < n; i++)
    mp_chain_push(layers[maxl - c[i].layer], delete_step(sg, &urns, &c[i]));
  mp_map_destroy(&urns);
  free(c);
  *layers_out = layers;
  *nlayers = (size_t)maxl + 1;
  return plan_deletes(sg, layers, *nlayers, err);
}
