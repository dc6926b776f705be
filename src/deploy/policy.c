/* The policy packs' analysis, as Pulumi's step generator runs its
 * analyzers (pkg/resource/deploy/step_generator.go): each custom resource
 * after its Check, on the generator thread, then the stack before the
 * deletes, on the loop. Their findings become the deployment's own events
 * (OnPolicyViolation, OnPolicyRemediation), numbered with the others. */
#include <stdlib.h>
#include <string.h>

#include "deploy/deploy_int.h"
#include "engine/urn.h"

const int mp__deploy_dbr_values[3] = {-1, 0, 1};

static int count_mandatory(const mp_policy_diags *d) {
  int n = 0;
  for (size_t i = 0; i < d->len; i++)
    if (d->items[i].level == MP_POLICY_MANDATORY) n++;
  return n;
}

/* The resource's name, the last part of its URN. */
static char *urn_name(const char *urn) {
  size_t n = 0;
  const char *nm = mp_urn_name(urn, &n);
  return mp_xstrndup(nm ? nm : "", nm ? n : 0);
}

int mp__deploy_analyze(void *ud, mp_resource *st, const mp_sg_analyzed *x,
                       mp_diags *diags, mp_err *err) {
  (void)diags;
  deploy *d = ud;
  mp_policy_diags *found = &d->gen.current->policy;
  mp_analyzer *const *packs = d->o->policy_packs;
  size_t npacks = d->o->n_policy_packs;
  size_t before = found->len;
  char *name = urn_name(st->urn);
  int rc = 0;
  /* every pack's remediations first, each on the previous one's result,
   * so that no analysis sees inputs a remediation changes after it */
  for (size_t i = 0; i < npacks && rc == 0; i++) {
    mp_analyzer_resource r = {st->urn,    st->type, name,
                              st->parent, st->inputs, st,
                              x->delete_before_replace, x->provider};
    mp_value *fixed = NULL;
    rc = mp_analyzer_remediate(packs[i], &r, &fixed, found, err);
    if (fixed) {
      mp_value_free(st->inputs);
      st->inputs = fixed;
    }
  }
  for (size_t i = 0; i < npacks && rc == 0; i++) {
    mp_analyzer_resource r = {st->urn,    st->type, name,
                              st->parent, st->inputs, st,
                              x->delete_before_replace, x->provider};
    rc = mp_analyzer_analyze(packs[i], &r, found, err);
  }
  free(name);
  if (rc < 0) return rc;
  mp_policy_diags mine = {found->items + before, found->len - before, 0};
  if (count_mandatory(&mine) == 0) return 0;
  /* the generator decides: bail in an update, go on in a preview; the
   * policy events tell why */
  mp_err_set(err, MP_EINVAL, "resource %s is invalid", st->urn);
  return 1;
}

void mp__deploy_policy_events(deploy *d, const mp_policy_diags *found) {
  for (size_t i = 0; i < found->len; i++) {
    const mp_policy_diag *x = &found->items[i];
    mp_policy_finding f = {.policy = x->policy,
                           .pack = x->pack,
                           .pack_version = x->pack_version,
                           .level = mp_policy_level_name(x->level),
                           .description = x->description,
                           .diff = x->diff,
                           .before = x->before,
                           .after = x->after};
    mp_event ev = {0};
    ev.kind = x->level == MP_POLICY_REMEDIATE ? MP_EVENT_POLICY_REMEDIATION
                                              : MP_EVENT_POLICY_VIOLATION;
    ev.urn = x->urn && x->urn[0] ? x->urn : NULL;
    ev.message = x->message;
    ev.policy = &f;
    mp__deploy_emit(d, &ev);
  }
}

/* ---- the stack ---- */

static int by_urn(const void *a, const void *b) {
  const mp_resource *x = *(const mp_resource *const *)a;
  const mp_resource *y = *(const mp_resource *const *)b;
  return strcmp(x->urn, y->urn);
}

/* The provider resource |ref| ("<urn>::<id>") names, as registered. */
static const mp_resource *provider_of(deploy *d, const char *ref) {
  mp_provider_ref pr;
  if (ref == NULL || mp_provider_ref_parse(ref, &pr, NULL) < 0) return NULL;
  const mp_resource *p = mp_map_get(&d->news, pr.urn);
  mp_provider_ref_destroy(&pr);
  return p;
}

/* AnalyzeStack of every pack, with what the program registered (by URN,
 * no provider resources): their outputs, or their inputs in a preview. */
static int analyze_stack(deploy *d, mp_policy_diags *found, mp_err *err) {
  const mp_resource **rs = mp_xcalloc(d->news.len + 1, sizeof(*rs));
  size_t n = 0;
  for (size_t i = 0; i < d->news.cap; i++) {
    const mp_resource *r = d->news.slots[i].key ? d->news.slots[i].value
                                                : NULL;
    if (r && !mp_type_is_provider(r->type)) rs[n++] = r;
  }
  if (n > 1) qsort(rs, n, sizeof(*rs), by_urn);
  mp_analyzer_resource *ar = mp_xcalloc(n + 1, sizeof(*ar));
  char **names = mp_xcalloc(n + 1, sizeof(*names));
  for (size_t i = 0; i < n; i++) {
    /* the registration's deleteBeforeReplace; unset for what the program
     * did not register (Pulumi: no goal) */
    const int *dbr = mp_map_get(&d->goal_dbrs, rs[i]->urn);
    names[i] = urn_name(rs[i]->urn);
    const mp_value *props = rs[i]->outputs ? rs[i]->outputs : rs[i]->inputs;
    ar[i] = (mp_analyzer_resource){rs[i]->urn,    rs[i]->type, names[i],
                                   rs[i]->parent, props,       rs[i],
                                   dbr ? *dbr : -1,
                                   provider_of(d, rs[i]->provider)};
  }
  int rc = 0;
  for (size_t i = 0; i < d->o->n_policy_packs && rc == 0; i++)
    rc = mp_analyzer_analyze_stack(d->o->policy_packs[i], ar, n, found, err);
  for (size_t i = 0; i < n; i++) free(names[i]);
  free(names);
  free(ar);
  free(rs);
  return rc;
}

int mp__deploy_analyze_stack(deploy *d) {
  if (d->o->n_policy_packs == 0) return 0;
  mp_policy_diags found = {0};
  mp_err err;
  mp_err_clear(&err);
  int rc = analyze_stack(d, &found, &err);
  mp__deploy_policy_events(d, &found);
  /* a mandatory violation fails the run with no word of its own: as
   * Pulumi's step generator, which only marks itself errored, the policy
   * events tell it, then "update failed" */
  int mandatory = rc == 0 && count_mandatory(&found) > 0;
  mp_policy_diags_destroy(&found);
  if (rc == 0 && !mandatory) return 0;
  if (rc < 0 && err.msg[0]) mp__deploy_diag(d, "error", NULL, err.msg);
  mp__deploy_fail(d, 0);
  return 1;
}
