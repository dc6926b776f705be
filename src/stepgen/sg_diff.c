/* Check and Diff for the step generator: provider calls, the engine's own
 * input comparison, replaceOnChanges, and the DBR dependents rule. */
#include <stdlib.h>
#include <string.h>

#include "engine/registry.h"
#include "engine/urn.h"
#include "stepgen/sg_int.h"

int mp__sg_check(mp_stepgen *sg, mp_resource *st, const mp_value *olds,
                 mp_err *err) {
  if (!st->custom) return 0;
  int is_prov = mp_type_is_provider(st->type);
  mp_provider *p;
  if (is_prov) {
    char *pkg = mp_type_package(st->type);
    p = mp_registry_for_check(sg->registry, st->urn, pkg, st->inputs, err);
    free(pkg);
  } else {
    p = mp_registry_get_for(sg->registry, st->provider, st->extension_ref,
                            err);
  }
  if (p == NULL) {
    if (!is_prov) mp_err_prefix(err, "resource '%s'", st->urn);
    return err->code;
  }
  int (*fn)(mp_provider *, const mp_prov_req *, mp_prov_resp *, mp_err *) =
      is_prov ? p->vt->check_config : p->vt->check;
  if (fn == NULL) return 0;
  mp_prov_req q = {0};
  mp_prov_resp r;
  mp_prov_resp_init(&r);
  q.urn = st->urn;
  q.type = st->type;
  size_t nlen = 0;
  const char *nm = mp_urn_name(st->urn, &nlen);
  char *name = nm ? mp_xstrndup(nm, nlen) : NULL;
  q.name = name;
  /* A provider's CheckConfig sees its config without __internal, which
   * its checked inputs then keep (as Pulumi's registry Check does). */
  mp_value *old_config = is_prov ? mp_provider_config(olds) : NULL;
  mp_value *new_config = is_prov ? mp_provider_config(st->inputs) : NULL;
  q.olds = is_prov ? old_config : olds;
  q.news = is_prov ? new_config : st->inputs;
  q.preview = sg->preview;
  int rc = 0;
  if (is_prov ||
      !mp__sg_ahead_take(sg->ahead, MP__SG_CALL_CHECK, p, &q, &r, err, &rc))
    rc = fn(p, &q, &r, err);
  free(name);
  mp_value_free(old_config);
  mp_value_free(new_config);
  const mp_value *internal =
      is_prov && st->inputs && st->inputs->kind == MP_VALUE_OBJECT
          ? mp_value_object_get(st->inputs, MP_PROVIDER_INTERNAL_KEY)
          : NULL;
  if (rc == 0 && r.inputs && internal && r.inputs->kind == MP_VALUE_OBJECT)
    mp_value_object_set(r.inputs, MP_PROVIDER_INTERNAL_KEY,
                        mp_value_dup(internal));
  if (rc == 0 && r.nfailures > 0) rc = mp_res_check_failures(st, &r, err);
  if (rc == 0 && r.inputs) {
    mp_value_free(st->inputs);
    st->inputs = r.inputs;
    r.inputs = NULL;
  }
  mp_prov_resp_destroy(&r);
  return rc;
}

/* The provider's Diff of prior |old| against |news| (for |urn|, |type|),
 * read as the engine reads it: where the provider has no opinion, the
 * engine compares the old inputs with |news| itself, re-applying
 * |ignore| first when |reapply_ignore| (the caller has not). */
static int diff_resource(mp_sg_ahead *ahead, mp_provider *p,
                         const mp_resource *old,
                         const char *urn, const char *type,
                         const mp_value *news, const mp_strv *ignore,
                         int reapply_ignore, sg_diff *d, mp_err *err) {
  mp_prov_resp r;
  mp_prov_resp_init(&r);
  int rc = 0;
  if (p->vt->diff) {
    mp_prov_req q = {0};
    q.urn = urn;
    q.type = type;
    q.id = old->id;
    q.olds = old->outputs;
    q.news = news;
    q.old_inputs = old->inputs;
    q.ignore_changes = ignore;
    if (!mp__sg_ahead_take(ahead, MP__SG_CALL_DIFF, p, &q, &r, err, &rc))
      rc = p->vt->diff(p, &q, &r, err);
  }
  if (rc == 0 && mp_res_diff_no_opinion(&r)) {
    mp_value *cmp = mp_value_dup(news);
    if (reapply_ignore && ignore->len > 0 && old->inputs && cmp)
      rc = mp_value_apply_ignore_changes(old->inputs, cmp, ignore, NULL, err);
    if (rc == 0) mp_res_diff_compare(old->inputs, cmp, d);
    mp_value_free(cmp);
  } else if (rc == 0) {
    mp_res_diff_from_answer(&r, d);
  }
  mp_prov_resp_destroy(&r);
  return rc;
}

/* The old provider resource a reference names, from the prior snapshot. */
static const mp_resource *old_provider(mp_stepgen *sg, const char *ref) {
  mp_provider_ref pr;
  if (ref == NULL || mp_provider_ref_parse(ref, &pr, NULL) < 0) return NULL;
  long i = mp__sg_old_index(sg, pr.urn);
  mp_provider_ref_destroy(&pr);
  return i >= 0 ? sg->olds->res[i] : NULL;
}

/* The new provider's DiffConfig(old provider outputs, new inputs) when a
 * resource's provider reference changed: 1 if it says replace. */
static int provider_change_replaces(mp_stepgen *sg, const mp_resource *old,
                                    const mp_resource *st, mp_err *err) {
  const mp_resource *oldp = old_provider(sg, old->provider);
  mp_provider_ref npr;
  if (mp_provider_ref_parse(st->provider, &npr, err) < 0) return err->code;
  sg_new *n = mp_map_get(&sg->news, npr.urn);
  mp_provider_ref_destroy(&npr);
  if (oldp == NULL || n == NULL) return 0;
  /* A provider replaced in this deployment replaces what it manages. */
  if (n->replaced) return 1;
  /* Otherwise the NEW provider decides whether it can manage what the old
   * one made: DiffConfig(old provider outputs, new provider inputs). */
  char *pkg = mp_type_package(n->state->type);
  mp_provider *p = pkg ? mp_registry_unconfigured(
                             sg->registry, pkg,
                             n->state->inputs, err)
                       : NULL;
  free(pkg);
  if (p == NULL || p->vt->diff_config == NULL) return 0;
  mp_prov_req q = {0};
  mp_prov_resp r;
  mp_prov_resp_init(&r);
  mp_value *news = mp_provider_config(n->state->inputs);
  mp_value *old_inputs = mp_provider_config(oldp->inputs);
  q.urn = n->state->urn;
  q.type = n->state->type;
  q.olds = oldp->outputs;
  q.news = news;
  q.old_inputs = old_inputs;
  int rc = p->vt->diff_config(p, &q, &r, err);
  mp_value_free(news);
  mp_value_free(old_inputs);
  int rep = rc < 0 ? rc : r.replaces.len > 0;
  mp_prov_resp_destroy(&r);
  return rep;
}

static int diff_provider_resource(mp_stepgen *sg, const mp_resource *old,
                                  const mp_resource *st, sg_diff *d,
                                  mp_err *err) {
  char *pkg = mp_type_package(st->type);
  mp_provider *p = mp_registry_unconfigured(
      sg->registry, pkg, st->inputs, err);
  free(pkg);
  if (p == NULL) return err->code;
  mp_prov_resp r;
  mp_prov_resp_init(&r);
  int rc = 0;
  mp_value *news = mp_provider_config(st->inputs);
  if (p->vt->diff_config) {
    mp_value *old_inputs = mp_provider_config(old->inputs);
    mp_prov_req q = {0};
    q.urn = st->urn;
    q.type = st->type;
    q.olds = old->outputs;
    q.news = news;
    q.old_inputs = old_inputs;
    rc = p->vt->diff_config(p, &q, &r, err);
    mp_value_free(old_inputs);
  }
  if (rc == 0) {
    if (mp_res_diff_no_opinion(&r))
      mp_res_diff_compare(old->outputs, news, d);
    else
      mp_res_diff_from_answer(&r, d);
  }
  mp_value_free(news);
  mp_prov_resp_destroy(&r);
  return rc;
}

static int no_trigger(const mp_value *v) {
  return v == NULL || v->kind == MP_VALUE_NULL;
}

/* replacementTrigger (step_generator.go shouldTriggerReplace): an unknown
 * on either side replaces; no trigger on either side (the first one, or
 * one taken away) does not; else a value that differs, compared through
 * secrets and outputs, does. */
static int trigger_replaces(const mp_value *old, const mp_value *now) {
  if (mp_value_contains_unknowns(old) || mp_value_contains_unknowns(now))
    return 1;
  if (no_trigger(old) || no_trigger(now)) return 0;
  return !mp_value_equal(old, now, MP_VALUE_EQ_IGNORE_SECRETS);
}

int mp__sg_diff(mp_stepgen *sg, const mp_resource *old, const mp_resource *st,
                sg_diff *d, mp_err *err) {
  /* An unknown trigger is for previews only: an update could not tell
   * whether to replace. */
  if (!sg->preview && mp_value_contains_unknowns(st->replacement_trigger))
    return mp_err_set(err, MP_EINVAL,
                      "replacement trigger contains unknowns for %s", st->urn);
  /* A trigger that fires replaces without asking the provider, and with
   * no diff keys (Pulumi shows none either). */
  if (trigger_replaces(old->replacement_trigger, st->replacement_trigger)) {
    d->changed = d->replace = 1;
    return 0;
  }
  /* A resource named in replaceWith being replaced in this deployment
   * replaces this one, whatever it is (step_generator.go diff, before the
   * provider and component cases); its Diff is not asked. */
  for (size_t i = 0; i < st->replace_with.len; i++) {
    sg_new *n = mp_map_get(&sg->news, st->replace_with.items[i]);
    if (n && n->replaced) {
      d->changed = d->replace = 1;
      mp_strv_push(&d->keys, "replaceWith");
      return 0;
    }
  }
  if (mp_type_is_provider(st->type))
    return diff_provider_resource(sg, old, st, d, err);
  if (!st->custom) {
    mp_res_diff_compare(old->inputs, st->inputs, d);
    return 0;
  }
  /* A deletedWith target being replaced replaces this one too. */
  if (st->deleted_with) {
    sg_new *n = mp_map_get(&sg->news, st->deleted_with);
    if (n && n->replaced) {
      d->changed = d->replace = 1;
      mp_strv_push(&d->keys, "deletedWith");
      return 0;
    }
  }
  if (old->provider && st->provider &&
      strcmp(old->provider, st->provider) != 0) {
    int rep = provider_change_replaces(sg, old, st, err);
    if (rep < 0) return rep;
    if (rep) {
      d->changed = d->replace = 1;
      mp_strv_push(&d->keys, "provider");
      return 0;
    }
  }
  mp_provider *p = mp_registry_get_for(sg->registry, st->provider,
                                       st->extension_ref, err);
  if (p == NULL) return err->code;
  int rc = diff_resource(sg->ahead, p, old, st->urn, st->type, st->inputs,
                         &st->ignore_changes, 0, d, err);
  if (rc < 0) {
    mp_err_prefix(err, "diffing %s", st->urn);
    return rc;
  }
  mp_res_diff_replace_on_changes(&st->replace_on_changes, old->init_errors.len > 0, d);
  return 0;
}

/* ---- delete-before-replace dependents ---- */
/* Shown by
 * tests/conformance/scenarios/S21-dbr-dependents-diff-with-unknowns.scn. */

static int provider_urn_in(const mp_strv *set, const char *ref) {
  mp_provider_ref pr;
  if (ref == NULL || mp_provider_ref_parse(ref, &pr, NULL) < 0) return 0;
  int in = mp_strv_contains(set, pr.urn);
  mp_provider_ref_destroy(&pr);
  return in;
}

/* 1 if prior resource |r|, with the inputs that come from the replace set
 * |set| unknown, would be replaced: its provider's Diff (DiffConfig for a
 * provider resource) read as for a registration, then its
 * replaceOnChanges. Only input keys present in |r| count. */
static int replaced_by_unknowns(mp_stepgen *sg, const mp_resource *r,
                                const mp_strv *set, mp_err *err) {
  if (r->inputs == NULL || r->inputs->kind != MP_VALUE_OBJECT) return 0;
  mp_value *news = mp_value_dup(r->inputs);
  int touched = 0;
  for (size_t i = 0; i < r->property_dependencies.len; i++) {
    const mp_propdep *pd = &r->property_dependencies.items[i];
    if (mp_value_object_get(news, pd->key) == NULL) continue;
    for (size_t j = 0; j < pd->urns.len; j++) {
      if (!mp_strv_contains(set, pd->urns.items[j])) continue;
      mp_value_object_set(news, pd->key, mp_value_new_unknown());
      touched = 1;
      break;
    }
  }
  int rc = 0;
  sg_diff d;
  mp_res_diff_init(&d);
  if (touched && mp_type_is_provider(r->type)) {
    mp_resource probe = *r;
    probe.inputs = news;
    rc = diff_provider_resource(sg, r, &probe, &d, err);
  } else if (touched) {
    mp_provider *p =
        mp_registry_get_for(sg->registry, r->provider, r->extension_ref, err);
    rc = p ? diff_resource(NULL, p, r, r->urn, r->type, news,
                           &r->ignore_changes, 1, &d, err)
           : err->code;
    if (rc == 0) mp_res_diff_replace_on_changes(&r->replace_on_changes, 0, &d);
  }
  int rep = rc < 0 ? rc : d.replace;
  mp_res_diff_destroy(&d);
  mp_value_free(news);
  return rep;
}

/* Whether prior resource |r| must go when the resources in |set| are
 * deleted before being replaced (step_generator.go's
 * calculateDependentReplacements): components and external resources
 * never; a resource whose provider or deletedWith target is in the set
 * always; otherwise when its Diff with unknowns says replace. */
static int requires_replacement(mp_stepgen *sg, const mp_resource *r,
                                const mp_strv *set, mp_err *err) {
  if (!r->custom || r->external) return 0;
  if (provider_urn_in(set, r->provider)) return 1;
  if (r->deleted_with && mp_strv_contains(set, r->deleted_with)) return 1;
  return replaced_by_unknowns(sg, r, set, err);
}

/* Whether prior resource |r| goes with |root| whatever its Diff says
 * (step_generator.go findDependentCascadeReplacements): it is deleted
 * with |root|, or names it in replaceWith. Such a resource does not by
 * itself condemn its own dependents: only requires_replacement does. */
static int cascades(const mp_resource *r, const char *root) {
  return (r->deleted_with && strcmp(r->deleted_with, root) == 0) ||
         mp_strv_contains(&r->replace_with, root);
}

int mp__sg_dbr_dependents(mp_stepgen *sg, long self, long **out, size_t *n,
                          mp_err *err) {
  const char *root = sg->olds->res[self]->urn;
  mp_strv set;
  mp_strv_init(&set);
  mp_strv_push(&set, root);
  long *list = mp_xcalloc(sg->olds->nres + 1, sizeof(*list));
  size_t len = 0, ncascade = 0;
  /* Prior order is dependency order: one pass finds every dependent. What
   * this deployment already registered cannot depend on the root. */
  for (size_t i = (size_t)self + 1; i < sg->olds->nres; i++) {
    const mp_resource *r = sg->olds->res[i];
    if (sg->status[i] != OLD_UNTOUCHED || mp_map_has(&sg->news, r->urn))
      continue;
    int rep = requires_replacement(sg, r, &set, err);
    if (rep < 0) {
      mp_strv_destroy(&set);
      free(list);
      return rep;
    }
    if (rep == 0 && !cascades(r, root)) continue;
    /* Only what requires replacement condemns further dependents. */
    if (rep == 1 && !mp_strv_contains(&set, r->urn)) mp_strv_push(&set, r->urn);
    list[len++] = (long)i;
  }
  /* Deletion order: what is deleted with the root or replaced with it
   * first (Pulumi appends those again after the walk and deletes from the
   * end), then the other dependents in reverse dependency order. */
  long *order = mp_xcalloc(len + 1, sizeof(*order));
  for (size_t k = len; k-- > 0;)
    if (cascades(sg->olds->res[list[k]], root)) order[ncascade++] = list[k];
  for (size_t k = len, m = ncascade; k-- > 0;)
    if (!cascades(sg->olds->res[list[k]], root)) order[m++] = list[k];
  free(list);
  mp_strv_destroy(&set);
  *out = order;
  *n = len;
  return 0;
}
