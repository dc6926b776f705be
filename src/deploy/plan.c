/* Update plans: recording a preview's decisions and holding an update to
 * them (pkg/resource/deploy/plan.go, the plan checks of
 * step_generator.go and deployment_executor.go). The messages are
 * Pulumi's. */
#include "deploy/plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/op.h"
#include "engine/urn.h"

void mp_plan_diff_init(mp_plan_diff *d) {
  d->adds = mp_value_new_object();
  d->updates = mp_value_new_object();
  mp_strv_init(&d->deletes);
}

static void diff_destroy(mp_plan_diff *d) {
  mp_value_free(d->adds);
  mp_value_free(d->updates);
  mp_strv_destroy(&d->deletes);
}

static void goal_free(mp_plan_goal *g) {
  if (g == NULL)
    return;
  free(g->type);
  free(g->name);
  diff_destroy(&g->input_diff);
  diff_destroy(&g->output_diff);
  free(g->parent);
  mp_strv_destroy(&g->dependencies);
  free(g->provider);
  mp_strv_destroy(&g->ignore_changes);
  mp_strv_destroy(&g->additional_secret_outputs);
  free(g->id);
  mp_strv_destroy(&g->aliases);
  mp_propdeps_destroy(&g->propdeps);
  free(g);
}

static void resource_plan_free(mp_resource_plan *rp) {
  goal_free(rp->goal);
  mp_strv_destroy(&rp->steps);
  mp_value_free(rp->outputs);
  free(rp);
}

mp_resource_plan *mp_plan_resource(mp_plan *p, const char *urn, int make) {
  mp_resource_plan *rp = mp_map_get(&p->resources, urn);
  if (rp || !make)
    return rp;
  rp = mp_xcalloc(1, sizeof(*rp));
  mp_strv_init(&rp->steps);
  mp_map_put(&p->resources, urn, rp);
  return rp;
}

/* ---- the top-level difference of two objects ---- */

/* A key whose value is null counts as absent (PropertyValue.HasValue). */
static const mp_value *present(const mp_value *obj, const char *key) {
  const mp_value *v = obj && obj->kind == MP_VALUE_OBJECT
                          ? mp_value_object_get(obj, key)
                          : NULL;
  return v && v->kind != MP_VALUE_NULL ? v : NULL;
}

/* Unknowns differ from everything, themselves included. */
static int same_value(const mp_value *a, const mp_value *b) {
  if (mp_value_contains_unknowns(a) || mp_value_contains_unknowns(b))
    return 0;
  return mp_value_equal(a, b, 0);
}

/* olds -> news as adds, updates (new values) and deletes. */
static void object_diff(const mp_value *olds, const mp_value *news,
                        mp_plan_diff *out) {
  mp_plan_diff_init(out);
  for (size_t i = 0;
       news && news->kind == MP_VALUE_OBJECT && i < news->u.obj.len; i++) {
    const char *k = news->u.obj.items[i].key;
    const mp_value *n = present(news, k), *o = present(olds, k);
    if (n == NULL)
      continue;
    if (o == NULL)
      mp_value_object_set(out->adds, k, mp_value_dup(n));
    else if (!same_value(o, n))
      mp_value_object_set(out->updates, k, mp_value_dup(n));
  }
  for (size_t i = 0;
       olds && olds->kind == MP_VALUE_OBJECT && i < olds->u.obj.len; i++) {
    const char *k = olds->u.obj.items[i].key;
    if (present(olds, k) && !present(news, k))
      mp_strv_push(&out->deletes, k);
  }
}

/* ---- matching a planned value ---- */

static int is_unknown(const mp_value *v) {
  return v->kind == MP_VALUE_UNKNOWN ||
         (v->kind == MP_VALUE_OUTPUT && v->u.output.value == NULL);
}

/* An unknown in the plan allows any value; a known one must be equal
 * (PropertyValue.DeepEqualsIncludeUnknowns). */
static int planned_matches(const mp_value *want, const mp_value *got) {
  if (is_unknown(want))
    return 1;
  if (want->kind != got->kind)
    return 0;
  switch (want->kind) {
  case MP_VALUE_SECRET:
    return planned_matches(want->u.secret, got->u.secret);
  case MP_VALUE_ARRAY:
    if (want->u.arr.len != got->u.arr.len)
      return 0;
    for (size_t i = 0; i < want->u.arr.len; i++)
      if (!planned_matches(want->u.arr.items[i], got->u.arr.items[i]))
        return 0;
    return 1;
  case MP_VALUE_OBJECT:
    if (want->u.obj.len != got->u.obj.len)
      return 0;
    for (size_t i = 0; i < want->u.obj.len; i++) {
      const mp_value *g = mp_value_object_get(got, want->u.obj.items[i].key);
      if (g == NULL || !planned_matches(want->u.obj.items[i].value, g))
        return 0;
    }
    return 1;
  default:
    return mp_value_equal(want, got, 0);
  }
}

/* A value as Pulumi's messages print one (Go's %v of a PropertyValue):
 * {text}, {42}, {[{a} {b}]}, {map[k:{v}]}; a secret's value is not shown. */
static void put_value(mp_buf *b, const mp_value *v) {
  char num[32];
  mp_buf_putc(b, '{');
  switch (v->kind) {
  case MP_VALUE_NULL:
    mp_buf_puts(b, "<nil>");
    break;
  case MP_VALUE_BOOL:
    mp_buf_puts(b, v->u.boolean ? "true" : "false");
    break;
  case MP_VALUE_NUMBER:
    for (int prec = 1; prec <= 17; prec++) {
      snprintf(num, sizeof(num), "%.*g", prec, v->u.number);
      if (strtod(num, NULL) == v->u.number)
        break;
    }
    mp_buf_puts(b, num);
    break;
  case MP_VALUE_STRING:
    mp_buf_puts(b, v->u.str.ptr);
    break;
  case MP_VALUE_ARRAY:
    mp_buf_putc(b, '[');
    for (size_t i = 0; i < v->u.arr.len; i++) {
      if (i)
        mp_buf_putc(b, ' ');
      put_value(b, v->u.arr.items[i]);
    }
    mp_buf_putc(b, ']');
    break;
  case MP_VALUE_OBJECT:
    mp_buf_puts(b, "map[");
    for (size_t i = 0; i < v->u.obj.len; i++) {
      mp_buf_printf(b, "%s%s:", i ? " " : "", v->u.obj.items[i].key);
      put_value(b, v->u.obj.items[i].value);
    }
    mp_buf_putc(b, ']');
    break;
  case MP_VALUE_UNKNOWN:
    mp_buf_puts(b, "{{}}");
    break;
  case MP_VALUE_SECRET:
    mp_buf_puts(b, "[secret]");
    break;
  default:
    mp_buf_puts(b, mp_value_kind_name(v->kind));
    break;
  }
  mp_buf_putc(b, '}');
}

/* One violation (PlanDiff.MakeError): what the plan meant for |key|, what
 * happens instead (|op|), and the values. */
static void violation(const mp_plan_diff *pd, const char *key, char op,
                      const mp_value *actual, mp_strv *out) {
  const mp_value *want = mp_value_object_get(pd->adds, key);
  char planned = '+';
  if (want == NULL && (want = mp_value_object_get(pd->updates, key)))
    planned = '~';
  if (want == NULL)
    planned = mp_strv_contains(&pd->deletes, key) ? '-' : '=';
  mp_buf b;
  mp_buf_init(&b);
  mp_buf_printf(&b, "%c%c%s", planned, op, key);
  if (actual || want) {
    mp_buf_putc(&b, '[');
    if (want)
      put_value(&b, want);
    if (want && actual)
      mp_buf_puts(&b, "!=");
    if (actual)
      put_value(&b, actual);
    mp_buf_putc(&b, ']');
  }
  mp_strv_push(out, b.data);
  mp_buf_destroy(&b);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* checkDiff of plan.go: the change olds -> news must be the planned one. */
static int check_diff(const mp_value *olds, const mp_value *news,
                      const mp_plan_diff *pd, mp_err *err) {
  mp_plan_diff d;
  object_diff(olds, news, &d);
  mp_strv bad;
  mp_strv_init(&bad);
  for (size_t i = 0; i < d.adds->u.obj.len; i++) {
    const char *k = d.adds->u.obj.items[i].key;
    const mp_value *got = d.adds->u.obj.items[i].value;
    const mp_value *want = mp_value_object_get(pd->adds, k);
    if (want == NULL || !planned_matches(want, got))
      violation(pd, k, '+', got, &bad);
  }
  for (size_t i = 0; i < d.deletes.len; i++) {
    const char *k = d.deletes.items[i];
    if (mp_strv_contains(&pd->deletes, k))
      continue;
    const mp_value *want = mp_value_object_get(pd->updates, k);
    /* An update to an unknown may have come out as no value. */
    if (want == NULL || !is_unknown(want))
      violation(pd, k, '-', NULL, &bad);
  }
  for (size_t i = 0; i < d.updates->u.obj.len; i++) {
    const char *k = d.updates->u.obj.items[i].key;
    const mp_value *got = d.updates->u.obj.items[i].value;
    const mp_value *want = mp_value_object_get(pd->updates, k);
    if (want == NULL)
      want = mp_value_object_get(pd->adds, k);
    if (want == NULL || !planned_matches(want, got))
      violation(pd, k, '~', got, &bad);
  }
  /* What the plan expected and did not happen. */
  for (int pass = 0; pass < 2; pass++) {
    const mp_value *planned = pass == 0 ? pd->adds : pd->updates;
    for (size_t i = 0; i < planned->u.obj.len; i++) {
      const char *k = planned->u.obj.items[i].key;
      const mp_value *want = planned->u.obj.items[i].value;
      if (mp_value_object_get(d.updates, k))
        continue;
      const mp_value *added = mp_value_object_get(d.adds, k);
      if (added) {
        if (pass == 1)
          violation(pd, k, '+', added, &bad);
        continue;
      }
      const mp_value *got = present(news, k);
      if (got) {
        if (!planned_matches(want, got))
          violation(pd, k, '=', got, &bad);
      } else if (!is_unknown(want)) {
        violation(pd, k, '-', NULL, &bad);
      }
    }
  }
  for (size_t i = 0; i < pd->deletes.len; i++) {
    const char *k = pd->deletes.items[i];
    if (mp_strv_contains(&d.deletes, k))
      continue;
    const mp_value *got = mp_value_object_get(d.adds, k);
    char op = '+';
    if (got == NULL && (got = mp_value_object_get(d.updates, k)))
      op = '~';
    if (got == NULL && (got = present(news, k)))
      op = '=';
    if (got)
      violation(pd, k, op, got, &bad);
  }
  diff_destroy(&d);
  int rc = 0;
  if (bad.len > 0) {
    qsort(bad.items, bad.len, sizeof(*bad.items), cmp_str);
    mp_buf b;
    mp_buf_init(&b);
    for (size_t i = 0; i < bad.len; i++)
      mp_buf_printf(&b, "%s%s", i ? ", " : "", bad.items[i]);
    rc = mp_err_set(err, MP_EINVAL, "properties changed: %s", b.data);
    mp_buf_destroy(&b);
  }
  mp_strv_destroy(&bad);
  return rc;
}

/* "added a, b; deleted c" between two sets of strings, or NULL when equal
 * (ResourcePlan.diffStringSets). Owned result. */
static char *set_change(const mp_strv *want, const mp_strv *got) {
  mp_strv added, deleted;
  mp_strv_init(&added);
  mp_strv_init(&deleted);
  for (size_t i = 0; i < got->len; i++)
    if (!mp_strv_contains(want, got->items[i]) &&
        !mp_strv_contains(&added, got->items[i]))
      mp_strv_push(&added, got->items[i]);
  for (size_t i = 0; i < want->len; i++)
    if (!mp_strv_contains(got, want->items[i]) &&
        !mp_strv_contains(&deleted, want->items[i]))
      mp_strv_push(&deleted, want->items[i]);
  char *msg = NULL;
  if (added.len || deleted.len) {
    mp_buf b;
    mp_buf_init(&b);
    for (int pass = 0; pass < 2; pass++) {
      mp_strv *s = pass == 0 ? &added : &deleted;
      if (s->len == 0)
        continue;
      qsort(s->items, s->len, sizeof(*s->items), cmp_str);
      mp_buf_printf(&b, "%s%s ", b.len ? "; " : "",
                    pass == 0 ? "added" : "deleted");
      for (size_t i = 0; i < s->len; i++)
        mp_buf_printf(&b, "%s%s", i ? ", " : "", s->items[i]);
    }
    msg = mp_xstrdup(b.data);
    mp_buf_destroy(&b);
  }
  mp_strv_destroy(&added);
  mp_strv_destroy(&deleted);
  return msg;
}

static int str_eq(const char *a, const char *b) {
  return strcmp(a ? a : "", b ? b : "") == 0;
}

/* A provider reference whose id was unknown in the plan allows any id. */
static int provider_matches(const char *want, const char *got) {
  if (str_eq(want, got))
    return 1;
  if (want == NULL || got == NULL)
    return 0;
  const char *wsep = strstr(want, "::" MP_UNKNOWN_SENTINEL);
  const char *gsep = strrchr(got, ':');
  if (wsep == NULL || strcmp(wsep + 2, MP_UNKNOWN_SENTINEL) != 0 ||
      gsep == NULL)
    return 0;
  size_t n = (size_t)(wsep - want);
  return (size_t)(gsep - 1 - got) == n && strncmp(want, got, n) == 0;
}

/* ResourcePlan.checkGoal: the options must be those planned and the
 * inputs' change the planned one. */
static int check_goal(const mp_plan_goal *pg, const mp_goal *g,
                      const mp_value *old_inputs, const mp_resource *st,
                      const mp_value *inputs, const mp_strv *aliases,
                      mp_err *err) {
  if (pg == NULL)
    return mp_err_set(err, MP_EINVAL, "resource unexpectedly not deleted");
  if (pg->custom != st->custom)
    return mp_err_set(err, MP_EINVAL, "resource kind changed (expected %s)",
                      pg->custom ? "custom" : "component");
  if (!provider_matches(pg->provider, st->provider))
    return mp_err_set(err, MP_EINVAL, "provider changed (expected %s)",
                      pg->provider ? pg->provider : "");
  if (!str_eq(pg->parent, st->parent))
    return mp_err_set(err, MP_EINVAL, "parent changed (expected %s)",
                      pg->parent ? pg->parent : "");
  if (pg->protect != st->protect)
    return mp_err_set(err, MP_EINVAL, "protect changed (expected %s)",
                      pg->protect ? "true" : "false");
  if (pg->dbr != g->dbr)
    return mp_err_set(err, MP_EINVAL,
                      "deleteBeforeReplace changed (expected %s)",
                      pg->dbr < 0 ? "no value"
                      : pg->dbr   ? "true"
                                  : "false");
  if (!str_eq(pg->id, st->import_id))
    return mp_err_set(err, MP_EINVAL, "importID changed (expected %s)",
                      pg->id ? pg->id : "");
  double got[3];
  mp_plan_timeouts_of(st, got);
  static const char *const kinds[3] = {"create", "update", "delete"};
  for (int i = 0; i < 3; i++)
    if (pg->timeouts[i] != got[i])
      return mp_err_set(err, MP_EINVAL, "%s timeout changed (expected %g)",
                        kinds[i], pg->timeouts[i]);
  struct {
    const char *what;
    const mp_strv *want, *got;
  } sets[] = {
      {"ignoreChanges", &pg->ignore_changes, &st->ignore_changes},
      {"additionalSecretOutputs", &pg->additional_secret_outputs,
       &st->additional_secret_outputs},
      {"dependencies", &pg->dependencies, &st->dependencies},
      {"aliases", &pg->aliases, aliases},
  };
  for (size_t i = 0; i < sizeof(sets) / sizeof(sets[0]); i++) {
    char *msg = set_change(sets[i].want, sets[i].got);
    if (msg) {
      mp_err_set(err, MP_EINVAL, "%s changed: %s", sets[i].what, msg);
      free(msg);
      return err->code;
    }
  }
  if (check_diff(old_inputs, inputs, &pg->input_diff, err) != 0)
    return err->code;
  /* A key planned with dependencies may be missing from the program (its
   * value was unknown and came out unset); one present must match. */
  for (size_t i = 0; i < pg->propdeps.len; i++) {
    const mp_propdep *want = &pg->propdeps.items[i];
    const mp_propdep *have =
        mp_propdeps_find(&st->property_dependencies, want->key);
    if (have == NULL)
      continue;
    char *msg = set_change(&want->urns, &have->urns);
    if (msg) {
      mp_err_set(err, MP_EINVAL, "dependencies for %s changed: %s", want->key,
                 msg);
      free(msg);
      return err->code;
    }
  }
  return 0;
}

void mp_plan_timeouts_of(const mp_resource *r, double out[3]) {
  const mp_timeouts *t = &r->custom_timeouts;
  double v[3] = {t->create, t->update, t->del};
  for (int i = 0; i < 3; i++)
    out[i] = r->has_custom_timeouts && v[i] > 0 ? v[i] : 0;
}

/* checkMissingPlan: a resource the plan does not name must not change. */
static int check_missing(const mp_resource *old, const mp_goal *g,
                         const mp_resource *st, const mp_value *inputs,
                         const mp_strv *aliases, mp_err *err) {
  mp_plan_goal pg = {0};
  pg.custom = old->custom;
  pg.provider = old->provider;
  pg.parent = old->parent;
  pg.protect = old->protect;
  pg.dbr = g->dbr; /* not in the state: not compared */
  pg.dependencies = old->dependencies;
  pg.ignore_changes = st->ignore_changes;
  pg.additional_secret_outputs = old->additional_secret_outputs;
  pg.id = st->import_id;
  /* the alias the prior state was found under (oldState.GetAliases()) */
  pg.aliases = old->aliases;
  pg.propdeps = old->property_dependencies;
  mp_plan_timeouts_of(old, pg.timeouts);
  mp_plan_diff_init(&pg.input_diff);
  int rc = check_goal(&pg, g, old->inputs, st, inputs, aliases, err);
  mp_value_free(pg.input_diff.adds);
  mp_value_free(pg.input_diff.updates);
  return rc;
}

/* ---- steps ---- */

/* Whether |op| may stand for the planned |planned| (ConstrainedTo): a same
 * for a create, update or replacement, an update for a replacement. */
static int constrained_to(mp_step_op op, const char *planned) {
  const char *name = mp_op_info_of(op)->name;
  if (strcmp(name, planned) == 0)
    return 1;
  if (op == MP_OP_SAME)
    return !strcmp(planned, "create") || !strcmp(planned, "update") ||
           !strcmp(planned, "replace") ||
           !strcmp(planned, "create-replacement") ||
           !strcmp(planned, "delete-replaced");
  if (op == MP_OP_UPDATE)
    return !strcmp(planned, "replace") ||
           !strcmp(planned, "create-replacement") ||
           !strcmp(planned, "delete-replaced");
  return 0;
}

static int check_step(mp_plan *p, const mp_step *s, mp_err *err) {
  const char *op = mp_op_info_of(s->op)->name;
  mp_resource_plan *rp = mp_plan_resource(p, s->urn, 0);
  if (rp == NULL) {
    if (constrained_to(s->op, "same"))
      return 0;
    return mp_err_set(err, MP_EINVAL,
                      "%s is not allowed by the plan: no steps were expected "
                      "for this resource",
                      op);
  }
  if (rp->next >= rp->steps.len)
    return mp_err_set(err, MP_EINVAL,
                      "%s is not allowed by the plan: no more steps were "
                      "expected for this resource",
                      op);
  const char *planned = rp->steps.items[rp->next++];
  if (!constrained_to(s->op, planned))
    return mp_err_set(err, MP_EINVAL,
                      "%s is not allowed by the plan: this resource is "
                      "constrained to %s",
                      op, planned);
  return 0;
}

static void record_step(mp_plan *p, const mp_step *s) {
  mp_strv_push(&mp_plan_resource(p, s->urn, 1)->steps,
               mp_op_info_of(s->op)->name);
}

static mp_plan_goal *goal_of(const mp_goal *g, const mp_value *old_inputs,
                             const mp_resource *st, const mp_value *inputs,
                             const mp_strv *aliases) {
  mp_plan_goal *pg = mp_xcalloc(1, sizeof(*pg));
  pg->type = mp_xstrdup(st->type);
  pg->name = mp_xstrdup(g->name);
  pg->custom = st->custom;
  object_diff(old_inputs, inputs, &pg->input_diff);
  mp_plan_diff_init(&pg->output_diff);
  pg->parent = st->parent ? mp_xstrdup(st->parent) : NULL;
  pg->protect = st->protect;
  mp_strv_copy(&pg->dependencies, &st->dependencies);
  pg->provider = st->provider ? mp_xstrdup(st->provider) : NULL;
  pg->dbr = g->dbr;
  mp_strv_copy(&pg->ignore_changes, &st->ignore_changes);
  mp_strv_copy(&pg->additional_secret_outputs, &st->additional_secret_outputs);
  pg->id = st->import_id ? mp_xstrdup(st->import_id) : NULL;
  mp_strv_copy(&pg->aliases, aliases);
  mp_propdeps_copy(&pg->propdeps, &st->property_dependencies);
  mp_plan_timeouts_of(st, pg->timeouts);
  return pg;
}

/* Generator thread. */
static int on_registered(void *ctx, const mp_goal *g, const mp_resource *old,
                         const mp_resource *st, const mp_value *inputs,
                         const mp_strv *aliases, const mp_chain *c,
                         mp_err *err) {
  mp_plan *p = ctx;
  const mp_value *old_inputs = old ? old->inputs : NULL;
  int rc = 0;
  uv_mutex_lock(&p->mu);
  if (!p->applying) {
    mp_resource_plan *rp = mp_plan_resource(p, st->urn, 1);
    goal_free(rp->goal);
    rp->goal = goal_of(g, old_inputs, st, inputs, aliases);
    for (size_t i = 0; i < c->len; i++)
      record_step(p, c->steps[i]);
  } else {
    mp_resource_plan *rp = mp_plan_resource(p, st->urn, 0);
    if (rp)
      rc = check_goal(rp->goal, g, old_inputs, st, inputs, aliases, err);
    else if (old)
      rc = check_missing(old, g, st, inputs, aliases, err);
    if (rc != 0) {
      char *msg = mp_xstrdup(err->msg);
      mp_err_set(err, MP_EINVAL, "resource %s violates plan: %s", st->urn, msg);
      free(msg);
    }
    for (size_t i = 0; rc == 0 && i < c->len; i++)
      rc = check_step(p, c->steps[i], err);
  }
  uv_mutex_unlock(&p->mu);
  return rc ? err->code : 0;
}

static int on_step(void *ctx, const mp_step *s, mp_err *err) {
  mp_plan *p = ctx;
  int rc = 0;
  uv_mutex_lock(&p->mu);
  if (p->applying)
    rc = check_step(p, s, err);
  else
    record_step(p, s);
  uv_mutex_unlock(&p->mu);
  return rc;
}

mp_plan *mp_plan_new(int applying) {
  mp_plan *p = mp_xcalloc(1, sizeof(*p));
  uv_mutex_init(&p->mu);
  p->applying = applying;
  mp_map_init(&p->resources);
  p->hook.registered = on_registered;
  p->hook.step = on_step;
  p->hook.ctx = p;
  return p;
}

void mp_plan_free(mp_plan *p) {
  if (p == NULL)
    return;
  for (size_t i = 0; i < p->resources.cap; i++)
    if (p->resources.slots[i].key)
      resource_plan_free(p->resources.slots[i].value);
  mp_map_destroy(&p->resources);
  uv_mutex_destroy(&p->mu);
  free(p);
}

void mp_plan_record_outputs(mp_plan *p, const char *urn,
                            const mp_value *outputs) {
  uv_mutex_lock(&p->mu);
  mp_resource_plan *rp = mp_plan_resource(p, urn, 0);
  if (rp && rp->goal) {
    mp_value_free(rp->outputs);
    rp->outputs = outputs ? mp_value_dup(outputs) : mp_value_new_object();
  }
  uv_mutex_unlock(&p->mu);
}

int mp_plan_outputs(mp_plan *p, const char *urn, const mp_value *old_outs,
                    const mp_value *outs, mp_err *err) {
  int rc = 0;
  uv_mutex_lock(&p->mu);
  mp_resource_plan *rp = mp_plan_resource(p, urn, 0);
  if (!p->applying) {
    if (rp && rp->goal) {
      diff_destroy(&rp->goal->output_diff);
      object_diff(old_outs, outs, &rp->goal->output_diff);
      mp_value_free(rp->outputs);
      rp->outputs = mp_value_dup(outs);
    }
  } else if (rp == NULL) {
    rc = mp_err_set(err, MP_EINVAL, "no plan for resource %s", urn);
  } else if (rp->goal == NULL) {
    rc = mp_err_set(err, MP_EINVAL,
                    "resource violates plan: resource unexpectedly not deleted");
  } else if (check_diff(old_outs, outs, &rp->goal->output_diff, err) != 0) {
    char *msg = mp_xstrdup(err->msg);
    rc = mp_err_set(err, MP_EINVAL, "resource violates plan: %s", msg);
    free(msg);
  }
  uv_mutex_unlock(&p->mu);
  return rc;
}

typedef struct end_check {
  const mp_snapshot *prior;
  mp_diags *diags;
  size_t n;
} end_check;

static void check_one(const char *urn, void *value, void *ud) {
  end_check *e = ud;
  mp_resource_plan *rp = value;
  if (rp->next >= rp->steps.len)
    return;
  if (rp->next + 1 == rp->steps.len &&
      strcmp(rp->steps.items[rp->next], "delete") == 0) {
    int held = 0;
    for (size_t i = 0; i < e->prior->nres && !held; i++)
      held = strcmp(e->prior->res[i]->urn, urn) == 0;
    if (!held)
      return;
  }
  mp_diags_add(e->diags, "error", urn,
               "expected resource operations for %s but none were seen", urn);
  e->n++;
}

size_t mp_plan_check_end(mp_plan *p, const mp_snapshot *prior,
                         mp_diags *diags) {
  end_check e = {prior, diags, 0};
  uv_mutex_lock(&p->mu);
  for (size_t i = 0; i < p->resources.cap; i++)
    if (p->resources.slots[i].key)
      check_one(p->resources.slots[i].key, p->resources.slots[i].value, &e);
  uv_mutex_unlock(&p->mu);
  return e.n;
}
