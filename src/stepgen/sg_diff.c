/* Check and Diff for the step generator: provider calls, the engine's own
 * input comparison, replaceOnChanges, and the DBR dependents rule. */
#include <stdlib.h>
#include <string.h>

#include "engine/urn.h"
#include "stepgen/sg_int.h"

void mp__sg_diff_init(sg_diff *d) {
  memset(d, 0, sizeof(*d));
  mp_diff_init(&d->detailed);
}

void mp__sg_diff_destroy(sg_diff *d) {
  mp_strv_destroy(&d->keys);
  mp_strv_destroy(&d->diffs);
  mp_diff_destroy(&d->detailed);
}

static const char *short_name(const char *urn) {
  size_t n;
  const char *p = mp_urn_name(urn, &n);
  return p ? p : urn;
}

static int check_failures(const mp_resource *st, const mp_prov_resp *r,
                          mp_err *err) {
  mp_buf b;
  mp_buf_init(&b);
  for (size_t i = 0; i < r->nfailures; i++) {
    const mp_check_failure *f = &r->failures[i];
    if (i) mp_buf_putc(&b, '\n');
    if (f->property && f->property[0]) {
      mp_buf tv;
      mp_buf_init(&tv);
      const mp_value *v = mp_value_object_get(st->inputs, f->property);
      /* A secret is never spelled out in a message. */
      if (v && mp_value_contains_secrets(v)) mp_buf_puts(&tv, "[secret]");
      else if (v) mp_value_to_json(v, NULL, MP_JSON_SHOW_SECRETS, &tv, NULL);
      mp_buf_printf(&b,
                    "%s resource '%s': property %s value {%s} has a problem: "
                    "%s",
                    st->type, short_name(st->urn), f->property,
                    tv.data ? tv.data : "<nil>", f->reason);
      mp_buf_destroy(&tv);
    } else {
      mp_buf_printf(&b, "%s resource '%s' has a problem: %s", st->type,
                    short_name(st->urn), f->reason);
    }
  }
  mp_err_set(err, MP_EPLUGIN, "%s", b.data);
  mp_buf_destroy(&b);
  return MP_EPLUGIN;
}

int mp__sg_check(mp_stepgen *sg, mp_resource *st, const mp_value *olds,
                 mp_err *err) {
  if (!st->custom) return 0;
  int is_prov = mp_type_is_provider(st->type);
  mp_provider *p;
  if (is_prov) {
    char *pkg = mp_type_package(st->type);
    p = mp_registry_unconfigured(sg->reg, pkg, err);
    free(pkg);
  } else {
    p = mp_registry_get(sg->reg, st->provider, err);
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
  q.olds = olds;
  q.news = st->inputs;
  q.preview = sg->preview;
  int rc = fn(p, &q, &r, err);
  free(name);
  if (rc == 0 && r.nfailures > 0) rc = check_failures(st, &r, err);
  if (rc == 0 && r.inputs) {
    mp_value_free(st->inputs);
    st->inputs = r.inputs;
    r.inputs = NULL;
  }
  mp_prov_resp_destroy(&r);
  return rc;
}

/* The engine's comparison when the provider has no opinion. */
static void engine_diff(const mp_value *olds, const mp_value *news,
                        sg_diff *d) {
  mp_diff det;
  mp_diff_init(&det);
  mp_value_diff(olds, news, MP_VALUE_EQ_IGNORE_SECRETS, &det, &d->diffs);
  if (d->diffs.len > 0) {
    d->changed = 1;
    d->has_detailed = 1;
    for (size_t i = 0; i < det.len; i++)
      mp_diff_add(&d->detailed, det.items[i].path, det.items[i].kind, 1);
  }
  mp_diff_destroy(&det);
}

static void apply_provider_diff(const mp_prov_resp *r, sg_diff *d) {
  if (r->changes == MP_DIFF_CHANGES_SOME || r->replaces.len > 0)
    d->changed = 1;
  if (r->replaces.len > 0) {
    d->replace = 1;
    mp_strv_copy(&d->keys, &r->replaces);
  }
  d->dbr = r->delete_before_replace;
  mp_strv_copy(&d->diffs, &r->diffs);
  for (size_t i = 0; i < r->replaces.len; i++)
    if (!mp_strv_contains(&d->diffs, r->replaces.items[i]))
      mp_strv_push(&d->diffs, r->replaces.items[i]);
  if (r->has_detailed_diff) {
    d->has_detailed = 1;
    for (size_t i = 0; i < r->detailed_diff.len; i++)
      mp_diff_add(&d->detailed, r->detailed_diff.items[i].path,
                  r->detailed_diff.items[i].kind,
                  r->detailed_diff.items[i].input_diff);
  }
}

/* replaceOnChanges: a changed key covered by a listed path replaces. */
static void replace_on_changes(const mp_resource *old, const mp_resource *st,
                               sg_diff *d) {
  if (st->replace_on_changes.len == 0) return;
  mp_strv changed;
  mp_strv_init(&changed);
  mp_strv_copy(&changed, &d->diffs);
  for (size_t i = 0; i < d->detailed.len; i++)
    mp_strv_push(&changed, d->detailed.items[i].path);
  if (old->init_errors.len > 0) mp_strv_push(&changed, "#initerror");
  for (size_t i = 0; i < st->replace_on_changes.len; i++) {
    mp_path pat;
    if (mp_path_parse(st->replace_on_changes.items[i], &pat, NULL) < 0)
      continue;
    for (size_t j = 0; j < changed.len; j++) {
      mp_path p;
      if (mp_path_parse(changed.items[j], &p, NULL) < 0) continue;
      if (mp_path_covers(&pat, &p)) {
        d->changed = d->replace = 1;
        size_t n;
        const char *top = changed.items[j];
        for (n = 0; top[n] && top[n] != '.' && top[n] != '['; n++) {
        }
        char *k = mp_xstrndup(top, n);
        if (!mp_strv_contains(&d->keys, k)) mp_strv_push(&d->keys, k);
        free(k);
      }
      mp_path_destroy(&p);
    }
    mp_path_destroy(&pat);
  }
  mp_strv_destroy(&changed);
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
  mp_provider *p = pkg ? mp_registry_unconfigured(sg->reg, pkg, err) : NULL;
  free(pkg);
  if (p == NULL || p->vt->diff_config == NULL) return 0;
  mp_prov_req q = {0};
  mp_prov_resp r;
  mp_prov_resp_init(&r);
  q.urn = n->state->urn;
  q.type = n->state->type;
  q.olds = oldp->outputs;
  q.news = n->state->inputs;
  q.old_inputs = oldp->inputs;
  int rc = p->vt->diff_config(p, &q, &r, err);
  int rep = rc < 0 ? rc : r.replaces.len > 0;
  mp_prov_resp_destroy(&r);
  return rep;
}

static int diff_provider_resource(mp_stepgen *sg, const mp_resource *old,
                                  const mp_resource *st, sg_diff *d,
                                  mp_err *err) {
  char *pkg = mp_type_package(st->type);
  mp_provider *p = mp_registry_unconfigured(sg->reg, pkg, err);
  free(pkg);
  if (p == NULL) return err->code;
  mp_prov_resp r;
  mp_prov_resp_init(&r);
  int rc = 0;
  if (p->vt->diff_config) {
    mp_prov_req q = {0};
    q.urn = st->urn;
    q.type = st->type;
    q.olds = old->outputs;
    q.news = st->inputs;
    q.old_inputs = old->inputs;
    rc = p->vt->diff_config(p, &q, &r, err);
  }
  if (rc == 0) {
    if (r.changes == MP_DIFF_CHANGES_UNKNOWN && r.replaces.len == 0) {
      mp_value *news = mp_value_dup(st->inputs);
      if (news) mp_value_object_del(news, "__internal");
      engine_diff(old->outputs, news, d);
      mp_value_free(news);
    } else {
      apply_provider_diff(&r, d);
    }
  }
  mp_prov_resp_destroy(&r);
  return rc;
}

int mp__sg_diff(mp_stepgen *sg, const mp_resource *old, const mp_resource *st,
                sg_diff *d, mp_err *err) {
  if (mp_type_is_provider(st->type))
    return diff_provider_resource(sg, old, st, d, err);
  if (!st->custom) {
    engine_diff(old->inputs, st->inputs, d);
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
  mp_provider *p = mp_registry_get(sg->reg, st->provider, err);
  if (p == NULL) return err->code;
  mp_prov_resp r;
  mp_prov_resp_init(&r);
  int rc = 0;
  if (p->vt->diff) {
    mp_prov_req q = {0};
    q.urn = st->urn;
    q.type = st->type;
    q.id = old->id;
    q.olds = old->outputs;
    q.news = st->inputs;
    q.old_inputs = old->inputs;
    q.ignore_changes = &st->ignore_changes;
    rc = p->vt->diff(p, &q, &r, err);
    if (rc < 0) mp_err_prefix(err, "diffing %s", st->urn);
  }
  if (rc == 0) {
    if (r.changes == MP_DIFF_CHANGES_UNKNOWN && r.replaces.len == 0)
      engine_diff(old->inputs, st->inputs, d);
    else
      apply_provider_diff(&r, d);
    replace_on_changes(old, st, d);
  }
  mp_prov_resp_destroy(&r);
  return rc;
}

/* ---- delete-before-replace dependents (BEHAVIOUR.md S21) ---- */

static int urn_in(const mp_strv *set, const char *urn) {
  return urn && mp_strv_contains(set, urn);
}

static int provider_urn_in(const mp_strv *set, const char *ref) {
  mp_provider_ref pr;
  if (ref == NULL || mp_provider_ref_parse(ref, &pr, NULL) < 0) return 0;
  int in = mp_strv_contains(set, pr.urn);
  mp_provider_ref_destroy(&pr);
  return in;
}

/* Diff of |r| with the inputs that come from the replace set unknown. */
static int replaced_by_unknowns(mp_stepgen *sg, const mp_resource *r,
                                const mp_strv *set, mp_err *err) {
  mp_value *news = r->inputs ? mp_value_dup(r->inputs) : mp_value_new_object();
  int touched = 0;
  for (size_t i = 0; i < r->property_dependencies.len; i++) {
    const mp_propdep *pd = &r->property_dependencies.items[i];
    for (size_t j = 0; j < pd->urns.len; j++) {
      if (!mp_strv_contains(set, pd->urns.items[j])) continue;
      mp_value_object_set(news, pd->key, mp_value_new_unknown());
      touched = 1;
      break;
    }
  }
  int rep = 0;
  if (touched && r->provider) {
    mp_provider *p = mp_registry_get(sg->reg, r->provider, err);
    if (p == NULL) {
      mp_value_free(news);
      return err->code;
    }
    if (p->vt->diff) {
      mp_prov_req q = {0};
      mp_prov_resp resp;
      mp_prov_resp_init(&resp);
      q.urn = r->urn;
      q.type = r->type;
      q.id = r->id;
      q.olds = r->outputs;
      q.news = news;
      q.old_inputs = r->inputs;
      q.ignore_changes = &r->ignore_changes;
      int rc = p->vt->diff(p, &q, &resp, err);
      rep = rc < 0 ? rc : resp.replaces.len > 0;
      mp_prov_resp_destroy(&resp);
    }
  }
  mp_value_free(news);
  return rep;
}

int mp__sg_dbr_dependents(mp_stepgen *sg, long self, long **out, size_t *n,
                          mp_err *err) {
  mp_strv set;
  mp_strv_init(&set);
  mp_strv_push(&set, sg->olds->res[self]->urn);
  long *list = NULL;
  size_t len = 0;
  for (size_t i = (size_t)self + 1; i < sg->olds->nres; i++) {
    const mp_resource *r = sg->olds->res[i];
    if (r->delete_ || sg->status[i] != OLD_UNTOUCHED) continue;
    int joins = provider_urn_in(&set, r->provider);
    if (!joins) {
      int rep = replaced_by_unknowns(sg, r, &set, err);
      if (rep < 0) {
        mp_strv_destroy(&set);
        free(list);
        return rep;
      }
      joins = rep;
    }
    if (!joins) continue;
    mp_strv_push(&set, r->urn);
    list = mp_xreallocarray(list, len + 1, sizeof(*list));
    list[len++] = (long)i;
  }
  /* Reverse dependency order: the last dependent goes first. */
  for (size_t i = 0; i < len / 2; i++) {
    long t = list[i];
    list[i] = list[len - 1 - i];
    list[len - 1 - i] = t;
  }
  (void)urn_in;
  mp_strv_destroy(&set);
  *out = list;
  *n = len;
  return 0;
}
