/* Provider calls made ahead of the decision (stepgen.h, "ahead").
 *
 * The decision for a registration stays serial, in arrival order, on the
 * generator's thread; what makes it slow is waiting for Check and Diff.
 * Those calls depend on the goal and the prior snapshot, so they can be
 * predicted when a registration arrives and made concurrently with the
 * calls of other registrations. The decision then takes an answer only
 * when the request it would send is equal, field by field, to the one made
 * ahead; otherwise it calls the provider itself. So the decisions are
 * exactly the serial ones; a wrong prediction only costs a spare call.
 * Predictions are made only where they are sure unless another
 * registration changes the prior entry's fate (aliases, targets, imports,
 * reads, providers, deletedWith and forced replacements are left alone). */
#include <stdlib.h>
#include <string.h>

#include "engine/urn.h"
#include "stepgen/sg_int.h"

/* One call: its request (owned copies) and, once run, its answer. */
typedef struct ahead_call {
  int kind;
  char *prov_ref; /* the registry reference of the provider */
  mp_provider *p; /* resolved when run */
  char *urn, *name, *type, *id;
  const mp_value *olds;       /* borrowed from the prior snapshot */
  const mp_value *old_inputs; /* borrowed from the prior snapshot */
  mp_value *news;             /* owned */
  mp_strv ignore;
  int preview;
  int ran, used;
  int rc;
  mp_err err;
  mp_prov_resp resp;
} ahead_call;

enum { AHEAD_MAX = 3 };

struct mp_sg_ahead {
  mp_registry *reg;
  const mp_resource *old; /* the prior entry, borrowed */
  int protected_replace;  /* a replacement would be refused first */
  int may_diff;           /* the decision diffs with the goal's provider */
  mp_value *program;      /* the program's own inputs, when it may diff */
  ahead_call calls[AHEAD_MAX];
  size_t n; /* calls[n - 1] is the latest */
};

static void call_free(ahead_call *c) {
  free(c->prov_ref);
  free(c->urn);
  free(c->name);
  free(c->type);
  free(c->id);
  mp_value_free(c->news);
  mp_strv_destroy(&c->ignore);
  mp_prov_resp_destroy(&c->resp);
}

void mp_sg_ahead_free(mp_sg_ahead *a) {
  if (a == NULL) return;
  for (size_t i = 0; i < a->n; i++) call_free(&a->calls[i]);
  mp_value_free(a->program);
  free(a);
}

static ahead_call *add_call(mp_sg_ahead *a, int kind, const char *ref,
                            const char *urn, const char *type) {
  ahead_call *c = &a->calls[a->n++];
  memset(c, 0, sizeof(*c));
  c->kind = kind;
  c->prov_ref = mp_xstrdup(ref);
  c->urn = mp_xstrdup(urn);
  c->type = mp_xstrdup(type);
  mp_prov_resp_init(&c->resp);
  return c;
}

static int is_root_stack(const char *urn) {
  size_t n = 0;
  const char *t = mp_urn_type(urn, &n);
  return t && n == strlen(MP_ROOT_STACK_TYPE) &&
         strncmp(t, MP_ROOT_STACK_TYPE, n) == 0;
}

mp_sg_ahead *mp_stepgen_ahead_new(const mp_stepgen *sg, const mp_goal *g) {
  /* An extension's resource: its provider is loaded with the extension
   * on the generator's path first. */
  if (!sg->plain || !g->custom || g->is_read || g->import_id ||
      g->naliases > 0 || g->provider == NULL || g->extension_ref ||
      mp_type_is_provider(g->type))
    return NULL;
  const char *parent = g->parent && g->parent[0] ? g->parent : NULL;
  char *urn = mp_urn_new(sg->stack, sg->project, parent, g->type, g->name,
                         NULL);
  if (urn == NULL) return NULL;
  long oi = mp__sg_old_index(sg, urn);
  /* A new URN under a parent that is not in the prior snapshot by its own
   * URN: an alias of the parent may still find a prior entry (not in an
   * empty snapshot, nor under the root stack). */
  if (oi < 0 && parent && sg->olds->nres > 0 &&
      mp__sg_old_index(sg, parent) < 0 && !is_root_stack(parent)) {
    free(urn);
    return NULL;
  }
  const mp_resource *old = oi >= 0 ? sg->olds->res[oi] : NULL;
  /* refresh --run-program reads it instead (stepgen.c gen_refresh), and
   * up --refresh --run-program diffs against what it reads first
   * (refresh_before_diff). */
  if (old && (old->external || old->pending_replacement || old->taint ||
              (sg->read_sel && sg->read_sel[oi]) || sg->refresh ||
              mp_targets_any(&sg->replaces, urn))) {
    free(urn);
    return NULL;
  }
  mp_value *news = mp_value_dup(g->inputs);
  mp_err ignored;
  if (old && old->inputs && news && g->ignore_changes.len > 0 &&
      mp_value_apply_ignore_changes(old->inputs, news, &g->ignore_changes,
                                    NULL, &ignored) < 0) {
    mp_value_free(news);
    free(urn);
    return NULL;
  }
  mp_sg_ahead *a = mp_xcalloc(1, sizeof(*a));
  a->reg = sg->registry;
  a->old = old;
  a->protected_replace = old && old->protect && g->protect > 0 &&
                         !sg->ignore_protect;
  /* A replacementTrigger, deletedWith or replaceWith may replace without a
   * Diff: none is made ahead. */
  a->may_diff = old && !g->deleted_with && !g->replacement_trigger &&
                g->replace_with.len == 0 &&
                old->provider && strcmp(old->provider, g->provider) == 0;
  ahead_call *c = add_call(a, MP__SG_CALL_CHECK, g->provider, urn, g->type);
  size_t nlen = 0;
  const char *nm = mp_urn_name(urn, &nlen);
  c->name = nm ? mp_xstrndup(nm, nlen) : NULL;
  c->olds = old ? old->inputs : NULL;
  c->news = news;
  c->preview = sg->preview;
  if (a->may_diff) {
    mp_strv_copy(&c->ignore, &g->ignore_changes);
    a->program = mp_value_dup(g->inputs);
  }
  free(urn);
  return a;
}

void mp_sg_ahead_run(mp_sg_ahead *a) {
  ahead_call *c = &a->calls[a->n - 1];
  c->ran = 1;
  mp_err_clear(&c->err);
  c->p = mp_registry_get(a->reg, c->prov_ref, &c->err);
  if (c->p == NULL) {
    c->rc = c->err.code ? c->err.code : MP_EINVAL;
    return;
  }
  int (*fn)(mp_provider *, const mp_prov_req *, mp_prov_resp *, mp_err *) =
      c->kind == MP__SG_CALL_DIFF ? c->p->vt->diff : c->p->vt->check;
  if (fn == NULL) {
    c->rc = MP_EINVAL; /* never taken: the decision does not call it */
    return;
  }
  mp_prov_req q = {0};
  q.urn = c->urn;
  q.type = c->type;
  q.name = c->name;
  q.id = c->id;
  q.olds = c->olds;
  q.news = c->news;
  q.old_inputs = c->old_inputs;
  q.ignore_changes = c->kind == MP__SG_CALL_DIFF ? &c->ignore : NULL;
  q.preview = c->preview;
  c->rc = fn(c->p, &q, &c->resp, &c->err);
}

int mp_sg_ahead_next(mp_sg_ahead *a) {
  ahead_call *c = &a->calls[a->n - 1];
  if (c->rc < 0 || a->n >= AHEAD_MAX) return 0;
  if (c->kind == MP__SG_CALL_CHECK && a->n == 1) {
    /* Diff follows a clean Check of a resource with a prior entry. */
    if (!a->may_diff || c->resp.nfailures > 0 || c->p->vt->diff == NULL)
      return 0;
    const mp_value *checked = c->resp.inputs ? c->resp.inputs : c->news;
    ahead_call *d = add_call(a, MP__SG_CALL_DIFF, c->prov_ref, c->urn, c->type);
    c = &a->calls[0]; /* add_call does not move the array */
    d->id = mp_xstrdup(a->old->id);
    d->olds = a->old->outputs;
    d->old_inputs = a->old->inputs;
    d->news = mp_value_dup(checked);
    mp_strv_copy(&d->ignore, &c->ignore);
    return 1;
  }
  if (c->kind == MP__SG_CALL_DIFF) {
    /* A replacement checks the program's own inputs again, without the
     * prior inputs. */
    if (c->resp.replaces.len == 0 || a->protected_replace) return 0;
    ahead_call *k = add_call(a, MP__SG_CALL_CHECK, c->prov_ref, c->urn,
                             c->type);
    const ahead_call *first = &a->calls[0];
    k->name = mp_xstrdup(first->name);
    k->news = mp_value_dup(a->program);
    k->preview = first->preview;
    return 1;
  }
  return 0;
}

static int same_str(const char *a, const char *b) {
  return (a == NULL) == (b == NULL) && (a == NULL || strcmp(a, b) == 0);
}

static int same_strv(const mp_strv *a, const mp_strv *b) {
  if ((a ? a->len : 0) != (b ? b->len : 0)) return 0;
  for (size_t i = 0; a && i < a->len; i++)
    if (strcmp(a->items[i], b->items[i]) != 0) return 0;
  return 1;
}

static int same_request(const ahead_call *c, int kind, const mp_provider *p,
                        const mp_prov_req *q) {
  return c->kind == kind && c->p == p && same_str(c->urn, q->urn) &&
         same_str(c->type, q->type) &&
         (kind == MP__SG_CALL_DIFF || same_str(c->name, q->name)) &&
         same_str(c->id, q->id) && c->preview == q->preview &&
         q->random_seed == NULL &&
         mp_value_equal(c->olds, q->olds, 0) &&
         mp_value_equal(c->news, q->news, 0) &&
         mp_value_equal(c->old_inputs, q->old_inputs, 0) &&
         (kind != MP__SG_CALL_DIFF || same_strv(&c->ignore, q->ignore_changes));
}

int mp__sg_ahead_take(mp_sg_ahead *a, int kind, const mp_provider *p,
                      const mp_prov_req *q, mp_prov_resp *r, mp_err *err,
                      int *rc) {
  if (a == NULL) return 0;
  for (size_t i = 0; i < a->n; i++) {
    ahead_call *c = &a->calls[i];
    if (!c->ran || c->used || c->p == NULL || !same_request(c, kind, p, q))
      continue;
    c->used = 1;
    mp_prov_resp_destroy(r);
    *r = c->resp;
    mp_prov_resp_init(&c->resp);
    *rc = c->rc;
    if (c->rc < 0) *err = c->err;
    return 1;
  }
  return 0;
}
