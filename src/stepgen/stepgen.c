/* The step decision for one registration (docs/architecture.md lists the
 * scenarios that show each rule). */
#include "stepgen/stepgen.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/urn.h"
#include "stepgen/sg_int.h"

/* ---- diagnostics ---- */

void mp_diags_add(mp_diags *d, const char *severity, const char *urn,
                  const char *fmt, ...) {
  if (d->len == d->cap) {
    d->cap = d->cap ? d->cap * 2 : 4;
    d->items = mp_xreallocarray(d->items, d->cap, sizeof(*d->items));
  }
  mp_diag *x = &d->items[d->len++];
  x->severity = mp_xstrdup(severity);
  x->urn = mp_xstrdup(urn);
  va_list ap;
  va_start(ap, fmt);
  x->message = mp_xvasprintf(fmt, ap);
  va_end(ap);
}

void mp_diags_destroy(mp_diags *d) {
  for (size_t i = 0; i < d->len; i++) {
    free(d->items[i].severity);
    free(d->items[i].urn);
    free(d->items[i].message);
  }
  free(d->items);
  memset(d, 0, sizeof(*d));
}

/* ---- lifetime ---- */

/* refresh --run-program: the prior resources whose registration is read.
 * Like the refresh without a program (deploy/refresh.c), a pending
 * replacement is kept as it is, and a resource only read before (external)
 * is left to the refresh that follows. */
static void select_reads(mp_stepgen *sg, const mp_stepgen_opts *o) {
  const mp_snapshot *s = sg->olds;
  mp_targets t;
  mp_targets_init(&t, o->refresh_targets, o->refresh_excludes,
                  o->refresh_target_dependents, o->refresh_exclude_dependents);
  sg->read_sel = mp_xcalloc(s->nres + 1, 1);
  mp_targets_select_refresh(&t, s, sg->read_sel);
  mp_targets_destroy(&t);
  for (size_t i = 0; i < s->nres; i++) {
    const mp_resource *r = s->res[i];
    if (r->delete_ || !r->custom || mp_type_is_provider(r->type) ||
        r->pending_replacement || r->external)
      sg->read_sel[i] = 0;
  }
}

mp_stepgen *mp_stepgen_new(const mp_stepgen_opts *o, const mp_snapshot *olds,
                           mp_registry *registry) {
  mp_stepgen *sg = mp_xcalloc(1, sizeof(*sg));
  sg->stack = mp_xstrdup(o->stack);
  sg->project = mp_xstrdup(o->project);
  sg->preview = o->preview;
  mp_targets_init(&sg->t, o->targets, o->excludes, o->target_dependents,
                  o->exclude_dependents);
  if (o->replaces) mp_strv_copy(&sg->replaces, o->replaces);
  sg->ignore_protect = o->ignore_protect;
  sg->import_only = o->import_only;
  sg->import_properties = o->import_properties;
  sg->import_properties_ud = o->import_properties_ud;
  sg->plan = o->plan;
  sg->analyze = o->analyze;
  sg->analyze_ud = o->analyze_ud;
  sg->plain = sg->t.targets.len == 0 && sg->t.excludes.len == 0;
  sg->olds = olds;
  sg->registry = registry;
  sg->status = mp_xcalloc(olds->nres + 1, 1);
  sg->cur = mp_xcalloc(olds->nres + 1, sizeof(*sg->cur));
  mp_map_init(&sg->old_live);
  mp_map_init(&sg->news);
  mp_map_init(&sg->alias_claims);
  mp_map_init(&sg->aliases);
  for (size_t i = 0; i < olds->nres; i++) {
    const mp_resource *r = olds->res[i];
    if (!r->delete_) mp_map_put(&sg->old_live, r->urn, (void *)(i + 1));
  }
  sg->refresh_mode = o->refresh_reads;
  if (o->refresh_before_diff) {
    sg->refresh = o->refresh;
    sg->refresh_ud = o->refresh_ud;
  }
  if (o->refresh_reads) select_reads(sg, o);
  return sg;
}

void mp_stepgen_free(mp_stepgen *sg) {
  if (sg == NULL) return;
  free(sg->read_sel);
  for (size_t i = 0; i < sg->news.cap; i++) {
    sg_new *n = sg->news.slots[i].key ? sg->news.slots[i].value : NULL;
    if (n) {
      mp_resource_free(n->state);
      free(n);
    }
  }
  for (size_t i = 0; i < sg->alias_claims.cap; i++)
    if (sg->alias_claims.slots[i].key) free(sg->alias_claims.slots[i].value);
  for (size_t i = 0; i < sg->aliases.cap; i++)
    if (sg->aliases.slots[i].key) free(sg->aliases.slots[i].value);
  mp_map_destroy(&sg->aliases);
  mp_map_destroy(&sg->news);
  mp_map_destroy(&sg->old_live);
  mp_map_destroy(&sg->alias_claims);
  mp_targets_destroy(&sg->t);
  mp_strv_destroy(&sg->replaces);
  for (size_t i = 0; i < sg->olds->nres; i++) mp_resource_free(sg->cur[i]);
  free(sg->cur);
  free(sg->status);
  free(sg->stack);
  free(sg->project);
  free(sg);
}

int mp_stepgen_preview_failed(const mp_stepgen *sg) {
  return sg->preview_failed;
}

const mp_resource *mp__sg_old_at(const mp_stepgen *sg, size_t i) {
  return sg->cur[i] ? sg->cur[i] : sg->olds->res[i];
}

/* An alias matched: prior entries still in the store that refer to the
 * prior URN are rewritten to the new one along with |s|'s result
 * (docs/behaviour.md, "Aliases"). */
static void alias_rewrites(mp_stepgen *sg, long oi, const char *urn,
                           mp_step *s) {
  const char *from = sg->olds->res[oi]->urn;
  for (size_t j = 0; j < sg->olds->nres; j++) {
    if ((long)j == oi || sg->status[j] != OLD_UNTOUCHED) continue;
    mp_resource *c = mp_resource_dup(mp__sg_old_at(sg, j));
    if (!mp_resource_rewrite_refs(c, from, urn)) {
      mp_resource_free(c);
      continue;
    }
    mp_resource_free(sg->cur[j]);
    sg->cur[j] = c;
    s->rewrites = mp_xreallocarray(s->rewrites, s->nrewrites + 1,
                                   sizeof(*s->rewrites));
    s->rewrites[s->nrewrites++] = mp_resource_dup(c);
  }
}

long mp__sg_old_index(const mp_stepgen *sg, const char *urn) {
  void *v = mp_map_get(&sg->old_live, urn);
  return v ? (long)(uintptr_t)v - 1 : -1;
}

/* ---- building the new state ---- */

/* The provider resource a reference names, for the policy packs: this
 * deployment's registration of it, else the prior snapshot's. */
static const mp_resource *provider_resource(mp_stepgen *sg, const char *ref) {
  mp_provider_ref pr;
  if (ref == NULL || mp_provider_ref_parse(ref, &pr, NULL) < 0) return NULL;
  const sg_new *n = mp_map_get(&sg->news, pr.urn);
  long i = n ? -1 : mp__sg_old_index(sg, pr.urn);
  mp_provider_ref_destroy(&pr);
  return n ? n->state : i >= 0 ? sg->olds->res[i] : NULL;
}

static mp_resource *state_from_goal(mp_goal *g, const char *urn,
                                    const mp_resource *old) {
  mp_resource *r = mp_resource_new(urn, g->type, g->custom);
  /* With a prior entry the goal keeps the program's own inputs: a
   * replacement is checked again from them (program_inputs). */
  if (old && g->custom) {
    r->inputs = mp_value_dup(g->inputs);
  } else {
    r->inputs = g->inputs;
    g->inputs = NULL;
  }
  r->parent = mp_xstrdup(g->parent);
  r->provider = mp_xstrdup(g->provider);
  mp_strv_copy(&r->dependencies, &g->dependencies);
  if (g->has_propdeps) {
    mp_propdeps_copy(&r->property_dependencies, &g->propdeps);
  } else if (g->dependencies.len > 0 && r->inputs) {
    /* S23: with no per-property map every input depends on everything. */
    for (size_t i = 0; i < r->inputs->u.obj.len; i++) {
      mp_propdep *pd =
          mp_propdeps_get(&r->property_dependencies, r->inputs->u.obj.items[i].key);
      mp_strv_copy(&pd->urns, &g->dependencies);
    }
  }
  r->protect = g->protect > 0; /* inherited by the monitor when unset */
  r->retain_on_delete = g->retain_on_delete > 0;
  r->deleted_with = mp_xstrdup(g->deleted_with);
  r->import_id = mp_xstrdup(g->import_id);
  r->has_custom_timeouts = g->has_timeouts;
  r->custom_timeouts = g->timeouts;
  mp_strv_copy(&r->additional_secret_outputs, &g->additional_secret_outputs);
  mp_strv_copy(&r->ignore_changes, &g->ignore_changes);
  mp_strv_copy(&r->replace_on_changes, &g->replace_on_changes);
  mp_strv_copy(&r->hide_diffs, &g->hide_diffs);
  r->replacement_trigger = mp_value_dup(g->replacement_trigger);
  for (int k = 0; k < MP_HOOK_KINDS; k++)
    if (g->hooks[k].len) mp_strv_copy(mp_resource_hooks_mut(r, k), &g->hooks[k]);
  mp_strv_copy(&r->replace_with, &g->replace_with);
  r->source_position = mp_xstrdup(g->source_position);
  r->extension_ref = mp_xstrdup(g->extension_ref);
  if (old) {
    r->created = mp_xstrdup(old->created);
    r->modified = mp_xstrdup(old->modified);
  }
  if (g->is_read) {
    r->external = 1;
    r->id = mp_xstrdup(g->read_id);
  }
  return r;
}

/* ---- aliases ---- */
/* Shown by tests/conformance/scenarios/S38-alias-rename.scn and
 * X22-alias-lookup-and-normalisation.scn. */

/* The URN an alias spec stands for (step_generator.go
 * collapseAliasToUrn). The parent is the spec's, with that parent's own
 * matched alias substituted, or else the current one as it is. */
static char *alias_urn(mp_stepgen *sg, const mp_goal *g, const mp_alias *a) {
  if (a->urn) return mp_xstrdup(a->urn);
  const char *name = a->name ? a->name : g->name;
  const char *type = a->type ? a->type : g->type;
  const char *parent = g->parent;
  if (a->parent_urn && a->parent_urn[0]) {
    const char *moved = mp_map_get(&sg->aliases, a->parent_urn);
    parent = moved ? moved : a->parent_urn;
  }
  if (a->no_parent) parent = NULL;
  if (parent) {
    size_t qlen = 0;
    const char *q = mp_urn_qualified_type(parent, &qlen);
    if (q && !(qlen == strlen(MP_ROOT_STACK_TYPE) &&
               strncmp(q, MP_ROOT_STACK_TYPE, qlen) == 0)) {
      /* Stack and project come from the parent's URN. */
      return mp_xasprintf("%.*s$%s::%s", (int)(q + qlen - parent), parent, type,
                          name);
    }
  }
  return mp_xasprintf("urn:pulumi:%s::%s::%s::%s",
                      a->stack ? a->stack : sg->stack,
                      a->project ? a->project : sg->project, type, name);
}

/* The old URN a child of a parent that matched the alias |parent_old|
 * would have had (step_generator.go inheritedChildAlias): |name| under the
 * parent's old type, a leading |parent_name| swapped for the old name. */
static char *inherited_alias(mp_stepgen *sg, const char *type, const char *name,
                             const char *parent_name, size_t plen,
                             const char *parent_old) {
  size_t olen = 0;
  const char *oname = mp_urn_name(parent_old, &olen);
  char *aname = oname && strncmp(name, parent_name, plen) == 0
                    ? mp_xasprintf("%.*s%s", (int)olen, oname, name + plen)
                    : mp_xstrdup(name);
  char *u = mp_urn_new(sg->stack, sg->project, parent_old, type, aname, NULL);
  free(aname);
  return u;
}

static void add_candidate(mp_strv *cands, char *u) {
  if (u && !mp_strv_contains(cands, u)) mp_strv_push_take(cands, u);
  else free(u);
}

/* The candidate old URNs of a registration, in lookup order
 * (step_generator.go generateAliases): its own aliases; then, when its
 * parent matched an alias, its name and each own alias re-rooted under the
 * parent's old URN. */
/* The URNs of the registration's own aliases (its goal's, as an update
 * plan keeps them). */
static void own_alias_urns(mp_stepgen *sg, const mp_goal *g, mp_strv *out) {
  for (size_t i = 0; i < g->naliases; i++)
    add_candidate(out, alias_urn(sg, g, &g->aliases[i]));
}

static void alias_candidates(mp_stepgen *sg, const mp_goal *g, mp_strv *out) {
  own_alias_urns(sg, g, out);
  const char *pold = g->parent ? mp_map_get(&sg->aliases, g->parent) : NULL;
  if (pold == NULL) return;
  size_t plen = 0;
  const char *pname = mp_urn_name(g->parent, &plen);
  if (pname == NULL) return;
  add_candidate(out, inherited_alias(sg, g->type, g->name, pname, plen, pold));
  for (size_t i = 0; i < g->naliases; i++) {
    char *c = alias_urn(sg, g, &g->aliases[i]);
    size_t tl = 0, nl = 0;
    const char *t = mp_urn_type(c, &tl), *n = mp_urn_name(c, &nl);
    if (t && n) {
      char *type = mp_xstrndup(t, tl), *name = mp_xstrndup(n, nl);
      add_candidate(out, inherited_alias(sg, type, name, pname, plen, pold));
      free(type);
      free(name);
    }
    free(c);
  }
}

/* Reports a conflict: the first becomes the registration's error, any
 * further one a diagnostic of its own. */
static void conflict(mp_err *err, mp_diags *diags, const char *urn,
                     const char *fmt, const char *a, const char *b,
                     const char *c) {
  if (err->code == 0) {
    mp_err_set(err, MP_EINVAL, fmt, a, b, c);
    return;
  }
  mp_err e;
  mp_err_set(&e, MP_EINVAL, fmt, a, b, c);
  mp_diags_add(diags, "error", urn, "%s", e.msg);
}

static const char dup_alias_fmt[] =
    "Duplicate resource alias '%s' applied to resource with URN '%s' "
    "conflicting with resource with URN '%s'";

/* Finds the prior state for |urn| or, failing that, the first candidate
 * alias with one (step_generator.go getOldResource). Sets *idx (-1 when
 * none). An alias naming a resource this deployment registered, or one
 * another resource already claimed, is an error in Pulumi's words. */
static int find_old(mp_stepgen *sg, const mp_goal *g, const char *urn,
                    long *idx, mp_diags *diags, mp_err *err) {
  *idx = mp__sg_old_index(sg, urn);
  if (*idx >= 0 && sg->status[*idx] == OLD_UNTOUCHED) return 0;
  if (*idx >= 0 && sg->status[*idx] == OLD_DBR_DELETED) return 0;
  *idx = -1;
  mp_strv cands;
  mp_strv_init(&cands);
  alias_candidates(sg, g, &cands);
  for (size_t i = 0; i < cands.len; i++) {
    const char *a = cands.items[i];
    if (strcmp(a, urn) == 0) continue;
    long j = mp__sg_old_index(sg, a);
    if (j < 0) continue;
    if (mp_map_has(&sg->news, a))
      conflict(err, diags, urn, dup_alias_fmt, a, urn, urn);
    const char *claimer = mp_map_get(&sg->alias_claims, a);
    if (claimer) conflict(err, diags, urn, dup_alias_fmt, a, urn, claimer);
    if (err->code == 0) {
      free(mp_map_put(&sg->alias_claims, a, mp_xstrdup(urn)));
      free(mp_map_put(&sg->aliases, urn, mp_xstrdup(a)));
      *idx = j;
    }
    break;
  }
  mp_strv_destroy(&cands);
  return err->code ? err->code : 0;
}

/* ---- step helpers ---- */

static mp_step *mk_step(mp_step_op op, const char *urn, const mp_resource *old,
                        const mp_resource *new_, unsigned flags) {
  mp_step *s = mp_step_new(op, urn);
  s->old = old ? mp_resource_dup(old) : NULL;
  s->new_ = new_ ? mp_resource_dup(new_) : NULL;
  s->flags = flags;
  const mp_resource *r = new_ ? new_ : old;
  if (r && r->custom && !mp_type_is_provider(r->type) && r->provider)
    s->provider = mp_xstrdup(r->provider);
  if (r && mp_type_is_provider(r->type)) s->flags |= MP_STEP_PROVIDER_RES;
  if (r && !r->custom) s->flags |= MP_STEP_NO_CALL;
  return s;
}

static void copy_diff(mp_step *s, const sg_diff *d) {
  mp_strv_copy(&s->keys, &d->keys);
  mp_strv_copy(&s->diffs, &d->diffs);
  if (d->has_detailed) {
    s->has_detailed = 1;
    for (size_t i = 0; i < d->detailed.len; i++)
      mp_diff_add(&s->detailed, d->detailed.items[i].path,
                  d->detailed.items[i].kind, d->detailed.items[i].input_diff);
  }
}

static void remember_new(mp_stepgen *sg, const mp_resource *st, int targeted,
                         int replaced, int skipped_create) {
  sg_new *n = mp_xcalloc(1, sizeof(*n));
  n->state = mp_resource_dup(st);
  if (!mp_type_is_provider(st->type)) {
    /* Only a provider's inputs are needed later (DiffConfig). */
    mp_value_free(n->state->inputs);
    n->state->inputs = NULL;
  }
  n->targeted = targeted;
  n->replaced = replaced;
  n->skipped_create = skipped_create;
  mp_map_put(&sg->news, st->urn, n);
}

static int is_replace_target(mp_stepgen *sg, const char *urn) {
  return mp_targets_any(&sg->replaces, urn);
}

static const char protect_replace_fmt[] =
    "unable to replace resource \"%s\"\nas it is currently marked for "
    "protection. To unprotect the resource, remove the `protect` flag from "
    "the resource in your Pulumi program and run `pulumi up`";

/* A mandatory policy violation (the analyze hook's 1): the resource is
 * invalid in an update, where Pulumi's step generator bails ("resource
 * <urn> is invalid"), printing nothing: the registration fails with an
 * empty message, which the deployment reports as no diagnostic (the
 * policy event tells it). A preview only marks itself failed, with no
 * diagnostic of its own either, and goes on (step_generator.go
 * analyzeResource: sawError, not invalid, in a dry run; the deployment
 * then fails with "preview failed"). */
static int mandatory_violation(mp_stepgen *sg, mp_err *err) {
  if (!sg->preview) return mp_err_set(err, MP_EINVAL, "%s", "");
  sg->preview_failed = 1;
  mp_err_clear(err);
  return 0;
}

/* Reports a problem that fails `up` but only marks a preview failed. */
static int preview_or_fail(mp_stepgen *sg, mp_diags *diags, const char *urn,
                           mp_err *err) {
  if (!sg->preview) return err->code ? err->code : MP_EINVAL;
  mp_diags_add(diags, "error", urn, "%s", err->msg);
  sg->preview_failed = 1;
  mp_err_clear(err);
  return 0;
}

/* ---- replacement ---- */

/* Checks the program's own inputs with no prior inputs (step_generator.go
 * "recompute the default values"): ignoreChanges and the values Check kept
 * from the prior inputs do not reach a new object. */
static int check_program_inputs(mp_stepgen *sg, const mp_goal *g,
                                mp_resource *st, mp_err *err) {
  if (!st->custom) return 0; /* components are not checked */
  mp_value_free(st->inputs);
  st->inputs = mp_value_dup(g->inputs);
  return mp__sg_check(sg, st, NULL, err);
}

/* The steps of replacing prior entry |oi| (a targeted, non-import old
 * whose diff |d| says replace, or |forced|: a --replace target or a
 * tainted one) by the new state |st| of goal |g| (st->id already cleared).
 * Pushes onto |c|, in order:
 *  - create-before-delete (the default): create-replacement (which marks
 *    the old copy `delete` once it succeeds) then replace (no provider
 *    call); the old copy is deleted at the end of the deployment;
 *  - delete-before-replace (the goal's deleteBeforeReplace, else the
 *    provider's answer in |d|): each dependent the replacement condemns
 *    (mp__sg_dbr_dependents) deleted for replacement, then |oi| itself,
 *    then replace and create-replacement.
 * Sets sg->status for |oi| and every condemned dependent. A protected old
 * or dependent is refused: an error, or in a preview an error diagnostic
 * in |diags| that fails the preview (a protected dependent then pushes no
 * step). An import id the program still names is an error (a warning in
 * a preview). Unless |forced| already did, Check runs again from the
 * program's own inputs (seed step 11). Returns 0, or an MP_E code with
 * |err| and nothing pushed. */
static int gen_replace(mp_stepgen *sg, mp_goal *g, long oi, mp_resource *st,
                       const sg_diff *d, int forced, mp_chain *c,
                       mp_diags *diags, mp_err *err) {
  const mp_resource *old = mp__sg_old_at(sg, (size_t)oi);
  if (old->protect && st->protect && !sg->ignore_protect) {
    mp_err_set(err, MP_EINVAL, protect_replace_fmt, st->urn);
    if (preview_or_fail(sg, diags, st->urn, err) < 0) return err->code;
  }
  if (st->import_id) { /* not an import (decide): the program names the id */
    char *msg = mp_res_diff_import_replace_msg(d, old->inputs, st->inputs);
    if (!sg->preview) {
      mp_err_set(err, MP_EINVAL, "%s", msg);
      free(msg);
      return MP_EINVAL;
    }
    mp_diags_add(diags, "warning", st->urn, "%s", msg);
    free(msg);
  }
  /* Seed step 11: check again, from the program's own inputs (not the
   * ignore-processed ones) and without the prior inputs, unless a forced
   * replacement already checked them so. */
  int rc = forced ? 0 : check_program_inputs(sg, g, st, err);
  if (rc < 0) return rc;
  int dbr = g->dbr >= 0 ? g->dbr : d->dbr;
  if (!dbr) {
    mp_step *cr = mk_step(MP_OP_CREATE_REPLACEMENT, st->urn, old, st,
                          MP_STEP_REPLY | MP_STEP_MARK_OLD_DELETE);
    copy_diff(cr, d);
    mp_chain_push(c, cr);
    mp_step *rp = mk_step(MP_OP_REPLACE, st->urn, old, st, MP_STEP_NO_CALL);
    copy_diff(rp, d);
    mp_chain_push(c, rp);
    sg->status[oi] = OLD_REPLACED_CBD;
    return 0;
  }
  long *deps = NULL;
  size_t nd = 0;
  rc = mp__sg_dbr_dependents(sg, oi, &deps, &nd, err);
  if (rc < 0) return rc;
  for (size_t i = 0; i < nd; i++) {
    const mp_resource *dep = mp__sg_old_at(sg, (size_t)deps[i]);
    if (dep->protect && !dep->delete_ && !sg->ignore_protect) {
      mp_err_set(err, MP_EINVAL,
                 "unable to replace resource \"%s\" as part of replacing "
                 "\"%s\" as it is currently marked for protection. To "
                 "unprotect the resource, remove the `protect` flag from the "
                 "resource in your Pulumi program and run `pulumi up`, or use "
                 "the command:\n`pulumi state unprotect '%s'`",
                 dep->urn, st->urn, dep->urn);
      free(deps);
      return preview_or_fail(sg, diags, st->urn, err);
    }
  }
  /* The chain: each condemned dependent, then |old|. A copy already marked
   * `delete` is simply deleted; the others are deleted for replacement and
   * re-created when the program registers them. One deleted with a member
   * of the chain goes with it: no provider call. */
  mp_strv chain;
  mp_strv_init(&chain);
  mp_strv_push(&chain, old->urn);
  for (size_t i = 0; i < nd; i++)
    mp_strv_push(&chain, sg->olds->res[deps[i]]->urn);
  for (size_t i = 0; i < nd; i++) {
    const mp_resource *dep = mp__sg_old_at(sg, (size_t)deps[i]);
    mp_step *s = dep->delete_
                     ? mk_step(MP_OP_DELETE, dep->urn, dep, NULL, 0)
                     : mk_step(MP_OP_DELETE_REPLACED, dep->urn, dep, NULL,
                               MP_STEP_MARK_OLD_PENDING);
    if (dep->deleted_with && mp_strv_contains(&chain, dep->deleted_with))
      s->flags |= MP_STEP_NO_CALL;
    mp_chain_push(c, s);
    sg->status[deps[i]] = dep->delete_ ? OLD_GONE : OLD_DBR_DELETED;
  }
  mp_strv_destroy(&chain);
  free(deps);
  mp_step *del = mk_step(MP_OP_DELETE_REPLACED, old->urn, old, NULL,
                         MP_STEP_MARK_OLD_PENDING);
  if (old->retain_on_delete) del->flags |= MP_STEP_NO_CALL;
  mp_chain_push(c, del);
  mp_step *rp = mk_step(MP_OP_REPLACE, st->urn, old, st, MP_STEP_NO_CALL);
  copy_diff(rp, d);
  mp_chain_push(c, rp);
  mp_step *cr = mk_step(MP_OP_CREATE_REPLACEMENT, st->urn, old, st,
                        MP_STEP_REPLY);
  copy_diff(cr, d);
  mp_chain_push(c, cr);
  sg->status[oi] = OLD_RECREATED;
  return 0;
}

/* A prior entry deleted earlier (DBR in this deployment, or an interrupted
 * DBR recorded as pendingReplacement): re-create it without a Diff. */
static void gen_recreate(mp_stepgen *sg, long oi, mp_resource *st,
                         mp_chain *c) {
  const mp_resource *old = mp__sg_old_at(sg, (size_t)oi);
  mp_step *rp = mk_step(MP_OP_REPLACE, st->urn, old, st, MP_STEP_NO_CALL);
  mp_strv_push(&rp->keys, "id");
  mp_chain_push(c, rp);
  mp_chain_push(c, mk_step(MP_OP_CREATE_REPLACEMENT, st->urn, old, st,
                           MP_STEP_REPLY));
  sg->status[oi] = OLD_RECREATED;
}

/* ---- the decision ---- */

static int check_parent_and_urn(mp_stepgen *sg, const mp_goal *g, char **urn,
                                mp_err *err) {
  *urn = NULL;
  if (g->parent && g->parent[0] && !mp_map_has(&sg->news, g->parent))
    return mp_err_set(err, MP_EINVAL, "could not find parent resource %s",
                      g->parent);
  char *u = mp_urn_new(sg->stack, sg->project,
                       g->parent && g->parent[0] ? g->parent : NULL, g->type,
                       g->name, err);
  if (u == NULL) return err->code ? err->code : MP_EINVAL;
  sg_new *prev = mp_map_get(&sg->news, u);
  if (prev && prev->carried) {
    *urn = u;
    return 0;
  }
  if (prev) {
    mp_err_set(err, MP_EINVAL,
               "Duplicate resource URN '%s'; try giving it a unique name", u);
    free(u);
    return MP_EINVAL;
  }
  const char *claimer = mp_map_get(&sg->alias_claims, u);
  if (claimer) {
    mp_err_set(err, MP_EINVAL,
               "Duplicate resource URN '%s' conflicting with alias on "
               "resource with URN '%s'",
               u, claimer);
    free(u);
    return MP_EINVAL;
  }
  *urn = u;
  return 0;
}

static int gen_import(mp_stepgen *sg, long oi, mp_resource *st, mp_chain *c) {
  const mp_resource *old = oi >= 0 ? mp__sg_old_at(sg, (size_t)oi) : NULL;
  st->id = mp_xstrdup(st->import_id);
  mp_step *s;
  if (old) {
    s = mk_step(MP_OP_IMPORT_REPLACEMENT, st->urn, old, st,
                MP_STEP_REPLY | MP_STEP_MARK_OLD_DELETE);
    mp_chain_push(c, s);
    mp_chain_push(c, mk_step(MP_OP_REPLACE, st->urn, old, st, MP_STEP_NO_CALL));
    sg->status[oi] = OLD_REPLACED_CBD;
  } else {
    s = mk_step(MP_OP_IMPORT, st->urn, NULL, st, MP_STEP_REPLY);
    mp_chain_push(c, s);
  }
  s->goal_inputs = sg->import_only ? NULL : mp_value_dup(st->inputs);
  const mp_strv *keep = sg->import_properties
                            ? sg->import_properties(sg->import_properties_ud,
                                                    st->urn)
                            : NULL;
  if (keep) mp_strv_copy(&s->import_keep, keep);
  return 0;
}

static int gen_read(mp_stepgen *sg, long oi, mp_resource *st, mp_chain *c) {
  const mp_resource *old = oi >= 0 ? mp__sg_old_at(sg, (size_t)oi) : NULL;
  unsigned f = MP_STEP_REPLY | MP_STEP_EXTERNAL;
  if (old && !old->external && !(old->id && st->id &&
                                  strcmp(old->id, st->id) == 0)) {
    /* A managed resource becomes another, external one: the old object is
     * deleted later. Reading the same id relinquishes it (a plain read
     * below: it stays alive and becomes external). */
    mp_chain_push(c, mk_step(MP_OP_READ_REPLACEMENT, st->urn, old, st,
                             f | MP_STEP_MARK_OLD_DELETE));
    mp_chain_push(c, mk_step(MP_OP_REPLACE, st->urn, old, st, MP_STEP_NO_CALL));
    sg->status[oi] = OLD_REPLACED_CBD;
  } else {
    mp_chain_push(c, mk_step(MP_OP_READ, st->urn, old, st, f));
    if (oi >= 0) sg->status[oi] = OLD_CLAIMED;
  }
  return 0;
}

/* refresh --run-program: the registration of a prior custom resource is
 * answered by its read (step_generator.go generateSteps: a RefreshStep
 * for a custom non-provider resource with an old state; its result is the
 * state the program gets, continueStepsFromRefresh in refreshMode). The
 * step reads with the provider the program registered, and starts from
 * the program's options with the prior id, inputs and outputs. A provider
 * the preview cannot name (a new one) is left to the refresh that
 * follows, which reads with the recorded provider. */
static int provider_known(const char *ref) {
  mp_provider_ref pr;
  if (ref == NULL || mp_provider_ref_parse(ref, &pr, NULL) < 0) return 0;
  int known = pr.id && pr.id[0] && strcmp(pr.id, MP_UNKNOWN_SENTINEL) != 0;
  mp_provider_ref_destroy(&pr);
  return known;
}

static int reads_here(const mp_stepgen *sg, long oi, const mp_resource *st) {
  if (oi < 0 || !sg->read_sel || !sg->read_sel[oi] || !st->custom ||
      mp_type_is_provider(st->type))
    return 0;
  return provider_known(st->provider);
}

static int gen_refresh(mp_stepgen *sg, long oi, const mp_resource *st,
                       mp_chain *c) {
  const mp_resource *old = mp__sg_old_at(sg, (size_t)oi);
  mp_resource *n = mp_resource_dup(st);
  free(n->id);
  n->id = old->id ? mp_xstrdup(old->id) : NULL;
  mp_value_free(n->inputs);
  n->inputs = old->inputs ? mp_value_dup(old->inputs) : NULL;
  mp_value_free(n->outputs);
  n->outputs = old->outputs ? mp_value_dup(old->outputs) : NULL;
  mp_strv_destroy(&n->init_errors);
  mp_strv_copy(&n->init_errors, &old->init_errors);
  mp_chain_push(c, mk_step(MP_OP_REFRESH, st->urn, old, n, MP_STEP_REPLY));
  mp_resource_free(n);
  sg->status[oi] = OLD_CLAIMED;
  return 0;
}

/* refresh --run-program, a custom resource not read here: nothing is
 * created, updated or replaced during a refresh (continueStepsFromRefresh
 * in refreshMode). One with no prior state is a skipped create (the
 * program gets its inputs); one the refresh leaves out, or whose provider
 * is new to this run (the refresh that follows reads it), keeps its prior
 * id, inputs and outputs under the program's options. */
static int gen_refresh_other(mp_stepgen *sg, long oi, const mp_resource *st,
                             mp_chain *c) {
  if (oi < 0) {
    mp_chain_push(c, mk_step(MP_OP_SAME, st->urn, NULL, st,
                             MP_STEP_REPLY | MP_STEP_SKIPPED_CREATE |
                                 MP_STEP_NO_CALL));
    return 0;
  }
  gen_refresh(sg, oi, st, c);
  mp_step *s = c->steps[c->len - 1];
  s->op = MP_OP_SAME;
  s->flags |= MP_STEP_NO_CALL | MP_STEP_VERBATIM;
  free(s->provider);
  s->provider = NULL;
  return 0;
}

/* up --refresh --run-program: prior custom resource |oi| is read before
 * its step is decided (step_generator.go generateSteps: a RefreshStep for
 * a registered custom non-provider resource with an old state, then
 * continueStepsFromRefresh against what it read). The read is made here,
 * with the provider the program registered (the recorded one if the
 * registry does not know it), as refresh --run-program reads
 * (gen_refresh); the refreshed state keeps its recorded provider. The
 * chain's refresh step carries its
 * result (the executor shows it and writes it over the old row, without
 * reading again), and the decision that follows sees the refreshed state
 * as the prior one. Returns 1 when the read found the resource gone (it
 * is then created), 0, or an MP_E code with |err|. */
static int refresh_before_diff(mp_stepgen *sg, long oi, const mp_resource *st,
                               mp_chain *c, mp_err *err) {
  const mp_resource *old = mp__sg_old_at(sg, (size_t)oi);
  mp_step *s = mk_step(MP_OP_REFRESH, st->urn, old, old, 0);
  mp_err ignored;
  if (st->provider && mp_registry_get(sg->registry, st->provider, &ignored)) {
    free(s->provider); /* configured as the program does */
    s->provider = mp_xstrdup(st->provider);
  }
  /* A pending replacement is not read (step.go RefreshStep.Apply). */
  s->refresh_result = MP_OP_SAME;
  int rc = old->pending_replacement ? 0 : sg->refresh(sg->refresh_ud, s, err);
  if (rc < 0) {
    mp_step_free(s);
    return rc;
  }
  s->flags |= MP_STEP_NO_CALL | MP_STEP_VERBATIM | MP_STEP_REFRESH_WRITES;
  mp_resource *now = s->new_ ? mp_resource_dup(s->new_) : NULL;
  mp_chain_push(c, s);
  if (now == NULL) {
    sg->status[oi] = OLD_CLAIMED; /* its row goes with the next step */
    sg->gone_row = old->row;
    return 1;
  }
  mp_resource_free(sg->cur[oi]);
  sg->cur[oi] = now;
  return 0;
}

/* A targeted resource cannot use one that an untargeted run did not
 * create. */
static int check_untargeted_deps(mp_stepgen *sg, const mp_resource *st,
                                 mp_diags *diags, mp_err *err) {
  mp_strv refs;
  mp_strv_init(&refs);
  mp_resource_refs(st, MP_REF_ALL & ~MP_REF_PROVIDER, &refs);
  int rc = 0;
  for (size_t i = 0; i < refs.len && rc == 0; i++) {
    sg_new *n = mp_map_get(&sg->news, refs.items[i]);
    if (n == NULL || !n->skipped_create) continue;
    mp_err_set(err, MP_EINVAL,
               "Resource '%s' depends on '%s' which was was not specified in "
               "--target list.",
               st->urn, refs.items[i]);
    rc = preview_or_fail(sg, diags, st->urn, err);
  }
  mp_strv_destroy(&refs);
  return rc;
}

/* An untargeted resource keeps its old provider; that provider must be
 * one this deployment registered (step_generator.go: a provider change
 * mixed with --target is refused for the untargeted resource). */
static int check_untargeted_provider(mp_stepgen *sg, const mp_resource *old,
                                     const char *urn, mp_err *err) {
  mp_provider_ref pr;
  if (old->provider == NULL ||
      mp_provider_ref_parse(old->provider, &pr, NULL) < 0)
    return 0;
  int rc = 0;
  if (!mp_map_has(&sg->news, pr.urn)) {
    long j = mp__sg_old_index(sg, pr.urn);
    if (j < 0 || !sg->olds->res[j]->id || strcmp(sg->olds->res[j]->id, pr.id))
      rc = mp_err_set(err, MP_EINVAL, "could not find provider %s in old state",
                      old->provider);
    else
      rc = mp_err_set(err, MP_EINVAL,
                      "provider %s for resource %s has not been registered "
                      "yet, this is due to a change of providers mixed with "
                      "--target. Change your program back to the original "
                      "providers",
                      old->provider, urn);
  }
  mp_provider_ref_destroy(&pr);
  return rc;
}

/* Appends `same` steps carrying forward the untouched prior resources that
 * prior resource |oi| refers to (recursively, dependencies first); the
 * caller then appends |oi|'s own step. */
static void carry_prior_deps(mp_stepgen *sg, long oi, mp_chain *c, int depth) {
  const mp_resource *r = mp__sg_old_at(sg, (size_t)oi);
  mp_strv refs;
  mp_strv_init(&refs);
  mp_resource_refs(r, MP_REF_ALL, &refs);
  for (size_t i = 0; i < refs.len && depth < 64; i++) {
    if (mp_map_has(&sg->news, refs.items[i])) {
      /* Registered here, maybe not done yet: the chain waits for it. */
      if (!mp_strv_contains(&c->waits, refs.items[i]))
        mp_strv_push(&c->waits, refs.items[i]);
      continue;
    }
    long j = mp__sg_old_index(sg, refs.items[i]);
    if (j < 0 || sg->status[j] != OLD_UNTOUCHED) continue;
    sg->status[j] = OLD_CLAIMED;
    carry_prior_deps(sg, j, c, depth + 1);
    const mp_resource *d = mp__sg_old_at(sg, (size_t)j);
    mp_step *s = mk_step(MP_OP_SAME, d->urn, sg->olds->res[j], d,
                         MP_STEP_VERBATIM | MP_STEP_NO_CALL);
    s->flags &= ~(unsigned)MP_STEP_PROVIDER_RES;
    mp_chain_push(c, s); /* after its own dependencies, pushed above */
    remember_new(sg, d, 0, 0, 0);
    sg_new *n = mp_map_get(&sg->news, d->urn);
    n->carried = 1;
  }
  mp_strv_destroy(&refs);
}

/* The program registers a resource that was carried forward earlier for an
 * untargeted dependent: its state is already written; answer with it. */
static int gen_carried(mp_stepgen *sg, sg_new *n, void *reg, mp_chain **out) {
  n->carried = 0;
  mp_chain *c = mp_chain_new(reg);
  mp_step *s = mk_step(MP_OP_SAME, n->state->urn, n->state, n->state,
                       MP_STEP_REPLY | MP_STEP_NO_CALL | MP_STEP_VERBATIM |
                           MP_STEP_NO_WRITE);
  s->flags &= ~(unsigned)MP_STEP_PROVIDER_RES;
  mp_chain_push(c, s);
  mp_strv_push(&c->waits, n->state->urn);
  (void)sg;
  *out = c;
  return 0;
}

/* The step generator's one decision for a registration: goal |g|, whose
 * new state is |st| (taken over by the chain's steps), matched to prior
 * entry |oi| (-1: none). Pushes onto |c| the steps that bring the prior
 * state to |st|, exactly one of:
 *  - read (a ReadResource goal), import (an import id the old entry does
 *    not already have), re-create (the old was deleted by a
 *    delete-before-replace chain or is pendingReplacement);
 *  - carried forward verbatim (*targeted set to 0: --target leaves it out;
 *    an untargeted new resource gets a skipped create);
 *  - create (no old), take-over of a read resource, update, same, or a
 *    replacement (gen_replace) as Check and Diff, ignoreChanges, a
 *    --replace target or a taint say.
 * Targeted goals are checked (and analyzed by the policy packs) before
 * the diff. Marks sg->status[oi] for the old entry it claims. Returns 0,
 * or an MP_E code with |err| (a preview turns some refusals into
 * diagnostics in |diags| instead). */
static int decide(mp_stepgen *sg, mp_goal *g, long oi, mp_resource *st,
                  mp_chain *c, mp_diags *diags, int *targeted, mp_err *err) {
  /* The prior state as this deployment left it so far: an alias matched
   * earlier may have rewritten its references, and a copy of it that a
   * step writes back (marked delete or pendingReplacement) must keep
   * those. */
  const mp_resource *old = oi >= 0 ? mp__sg_old_at(sg, (size_t)oi) : NULL;
  int rc;
  *targeted = mp__sg_targeted(sg, st);
  if (g->is_read) return gen_read(sg, oi, st, c);
  if (reads_here(sg, oi, st)) return gen_refresh(sg, oi, st, c);
  if (sg->refresh_mode && st->custom && !mp_type_is_provider(st->type))
    return gen_refresh_other(sg, oi, st, c);
  if (sg->refresh && old && st->custom && !mp_type_is_provider(st->type)) {
    rc = refresh_before_diff(sg, oi, st, c, err);
    if (rc < 0) return rc;
    oi = rc == 1 ? -1 : oi;
    old = oi >= 0 ? mp__sg_old_at(sg, (size_t)oi) : NULL;
  }
  /* An import unless the old state already is that object: its import
   * id, or for a resource never imported its id, names the goal's. */
  const char *had = old ? (old->import_id ? old->import_id : old->id) : NULL;
  if (st->import_id &&
      (!old || old->external || !had || strcmp(had, st->import_id) != 0)) {
    if (!*targeted && old) goto untargeted;
    return gen_import(sg, oi, st, c);
  }
  int recreate = old && (sg->status[oi] == OLD_DBR_DELETED ||
                         old->pending_replacement);
  int forced = old && (is_replace_target(sg, st->urn) || old->taint);
  if (old && old->inputs && st->inputs && st->ignore_changes.len > 0) {
    mp_strv invalid;
    mp_strv_init(&invalid);
    rc = mp_value_apply_ignore_changes(old->inputs, st->inputs,
                                       &st->ignore_changes, &invalid, err);
    if (rc == 0 && invalid.len > 0) {
      mp_buf b;
      mp_buf_init(&b);
      for (size_t i = 0; i < invalid.len; i++)
        mp_buf_printf(&b, "%s%s", i ? ", " : "", invalid.items[i]);
      mp_diags_add(diags, "info", st->urn,
                   "cannot ignore changes in added or removed elements of the "
                   "path: \"%s\"",
                   b.data);
      mp_buf_destroy(&b);
    }
    mp_strv_destroy(&invalid);
    if (rc < 0) return rc;
  }
  if (!*targeted && old && sg->status[oi] == OLD_DBR_DELETED) {
    /* Deleted by another resource's delete-before-replace chain (its
     * dependent, or named in its replaceWith): re-created even outside
     * --target, from the prior inputs, unchecked (step_generator.go:
     * "recreating" comes before the targets, and an untargeted Check
     * answers the old inputs). */
    mp_value_free(st->inputs);
    st->inputs = mp_value_dup(old->inputs);
    gen_recreate(sg, oi, st, c);
    return 0;
  }
  if (!*targeted) {
    if (old) goto untargeted;
    /* An untargeted create: nothing happens; the program gets its inputs. */
    mp_chain_push(c, mk_step(MP_OP_SAME, st->urn, NULL, st,
                             MP_STEP_REPLY | MP_STEP_SKIPPED_CREATE |
                                 MP_STEP_NO_CALL));
    return 0;
  }
  rc = check_untargeted_deps(sg, st, diags, err);
  if (rc < 0) return rc;
  /* Prior inputs that no longer count (a resource recreated or taken over
   * from a read, a --replace target, a tainted one): Check the program's
   * own inputs, so ignoreChanges keeps nothing (step_generator.go
   * continueStepsFromImport). */
  if (old && (old->external || recreate || forced))
    rc = check_program_inputs(sg, g, st, err);
  else
    rc = mp__sg_check(sg, st, old ? old->inputs : NULL, err);
  if (rc == 0 && sg->analyze && st->custom && !mp_type_is_provider(st->type)) {
    mp_sg_analyzed x = {provider_resource(sg, st->provider), g->dbr};
    rc = sg->analyze(sg->analyze_ud, st, &x, diags, err);
    if (rc > 0) rc = mandatory_violation(sg, err);
  }
  if (rc < 0) return rc;
  if (!old) {
    mp_chain_push(c, mk_step(MP_OP_CREATE, st->urn, NULL, st, MP_STEP_REPLY));
    return 0;
  }
  if (old->external) {
    /* Taking ownership of a resource that was only read before. */
    mp_chain_push(c, mk_step(MP_OP_CREATE_REPLACEMENT, st->urn, old, st,
                             MP_STEP_REPLY | MP_STEP_MARK_OLD_DELETE));
    mp_chain_push(c, mk_step(MP_OP_REPLACE, st->urn, old, st, MP_STEP_NO_CALL));
    sg->status[oi] = OLD_REPLACED_CBD;
    return 0;
  }
  if (recreate) {
    gen_recreate(sg, oi, st, c);
    return 0;
  }
  st->id = mp_xstrdup(old->id);
  sg_diff d;
  mp_res_diff_init(&d);
  if (forced) {
    d.changed = d.replace = 1;
    mp_strv_push(&d.keys, "id");
  } else {
    rc = mp__sg_diff(sg, old, st, &d, err);
    if (rc < 0) {
      mp_res_diff_destroy(&d);
      return rc;
    }
  }
  if (d.replace) {
    free(st->id);
    st->id = NULL;
    rc = gen_replace(sg, g, oi, st, &d, forced, c, diags, err);
  } else if (d.changed || old->init_errors.len > 0) {
    mp_step *s = mk_step(MP_OP_UPDATE, st->urn, old, st, MP_STEP_REPLY);
    copy_diff(s, &d);
    mp_chain_push(c, s);
    sg->status[oi] = OLD_CLAIMED;
  } else {
    mp_chain_push(c, mk_step(MP_OP_SAME, st->urn, old, st, MP_STEP_REPLY));
    sg->status[oi] = OLD_CLAIMED;
  }
  mp_res_diff_destroy(&d);
  return rc;

untargeted:
  /* Carried forward verbatim: no Check, no Diff (S60). What it refers to
   * and the program did not register goes first, also verbatim, so the
   * written list stays in dependency order. Its old provider must be one
   * this deployment has: a program that changed it cannot be applied to
   * an untargeted resource. */
  rc = check_untargeted_provider(sg, mp__sg_old_at(sg, (size_t)oi), st->urn,
                                 err);
  if (rc < 0) return rc;
  carry_prior_deps(sg, oi, c, 0);
  {
    mp_resource *keep = mp_resource_dup(mp__sg_old_at(sg, oi));
    free(keep->urn);
    keep->urn = mp_xstrdup(st->urn);
    mp_chain_push(c, mk_step(MP_OP_SAME, st->urn, old, keep,
                             MP_STEP_REPLY | MP_STEP_VERBATIM));
    mp_resource_free(keep);
    sg->status[oi] = OLD_CLAIMED;
  }
  return 0;
}

static int register_one(mp_stepgen *sg, mp_goal *g, void *reg, mp_chain **out,
                        mp_diags *diags, mp_err *err) {
  *out = NULL;
  char *urn = NULL;
  long oi = -1;
  mp_resource *st = NULL;
  int rc = check_parent_and_urn(sg, g, &urn, err);
  if (rc == 0) {
    sg_new *carried = mp_map_get(&sg->news, urn);
    if (carried && carried->carried) {
      rc = gen_carried(sg, carried, reg, out);
      goto done;
    }
  }
  if (rc == 0) rc = find_old(sg, g, urn, &oi, diags, err);
  if (rc < 0) goto done;
  st = state_from_goal(g, urn, oi >= 0 ? sg->olds->res[oi] : NULL);
  /* Found under an alias: the state keeps the URN it was found under, as
   * Pulumi's does (step_generator.go generateSteps: the new state's
   * Aliases are the one alias that matched), for the policy packs and the
   * next run's plan checks. */
  if (oi >= 0 && strcmp(sg->olds->res[oi]->urn, urn) != 0)
    mp_strv_push(&st->aliases, sg->olds->res[oi]->urn);
  if (g->custom && !mp_type_is_provider(g->type) && !g->is_read &&
      st->provider == NULL) {
    rc = mp_err_set(err, MP_EINVAL, "resource '%s' has no provider", urn);
    goto done;
  }
  if (mp_strv_contains(&st->additional_secret_outputs, "id"))
    mp_diags_add(diags, "warning", urn,
                 "The 'id' property cannot be made secret. See "
                 "pulumi/pulumi#2717 for more details.");
  mp_chain *c = mp_chain_new(reg);
  c->dbr = g->dbr;
  int targeted = 1;
  sg->gone_row = 0;
  rc = decide(sg, g, oi, st, c, diags, &targeted, err);
  if (rc == 0 && sg->gone_row && c->len > 1) c->steps[1]->gone_row = sg->gone_row;
  if (rc == 0 && sg->plan) {
    const mp_resource *old = oi >= 0 ? mp__sg_old_at(sg, (size_t)oi) : NULL;
    /* A custom resource the targets leave out is held to the plan with its
     * prior inputs: Pulumi stubs its provider's Check with them
     * (step_generator.go continueStepsFromImport; a component has no Check
     * to stub), so a planned change it does not make is a violation
     * (X70). */
    const mp_value *inputs = st->inputs;
    if (!targeted && !g->is_read && g->custom)
      inputs = old ? old->inputs : NULL;
    mp_strv aliases;
    mp_strv_init(&aliases);
    own_alias_urns(sg, g, &aliases);
    rc = sg->plan->registered(sg->plan->ctx, g, old, st, inputs, &aliases, c,
                              err);
    mp_strv_destroy(&aliases);
  }
  if (rc < 0) {
    mp_chain_free(c);
    goto done;
  }
  int replaced = 0, skipped = 0;
  for (size_t i = 0; i < c->len; i++) {
    if (c->steps[i]->op == MP_OP_REPLACE) replaced = 1;
    if (c->steps[i]->flags & MP_STEP_SKIPPED_CREATE) skipped = 1;
  }
  if (oi >= 0 && strcmp(sg->olds->res[oi]->urn, urn) != 0) {
    for (size_t i = 0; i < c->len; i++)
      if (c->steps[i]->flags & MP_STEP_REPLY) {
        alias_rewrites(sg, oi, urn, c->steps[i]);
        break;
      }
  }
  remember_new(sg, st, targeted, replaced, skipped);
  *out = c;
done:
  mp_resource_free(st);
  free(urn);
  mp_goal_free(g);
  return rc;
}

int mp_stepgen_register(mp_stepgen *sg, mp_goal *g, void *reg, mp_chain **out,
                        mp_diags *diags, mp_err *err) {
  return mp_stepgen_register_ahead(sg, g, reg, NULL, out, diags, err);
}

int mp_stepgen_register_ahead(mp_stepgen *sg, mp_goal *g, void *reg,
                              mp_sg_ahead *ahead, mp_chain **out,
                              mp_diags *diags, mp_err *err) {
  sg->ahead = ahead;
  int rc = register_one(sg, g, reg, out, diags, err);
  sg->ahead = NULL;
  return rc;
}
