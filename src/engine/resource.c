/* Resource state objects: allocation, deep copy, equality, property dependency
 * maps and pending operation names
 * (tests/conformance/scenarios/S23-property-dependencies.scn,
 * S52-pending-operations.scn). */
#include "engine/resource.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/urn.h"

/* ==== references ==== */

void mp_refs_append(const char *parent, const char *deleted_with,
                    const mp_strv *dependencies,
                    const mp_propdeps *property_dependencies,
                    const char *provider, unsigned kinds, mp_strv *out) {
  if ((kinds & MP_REF_PARENT) && parent) mp_strv_push(out, parent);
  if ((kinds & MP_REF_DELETED_WITH) && deleted_with)
    mp_strv_push(out, deleted_with);
  if (kinds & MP_REF_DEPENDENCY) mp_strv_copy(out, dependencies);
  for (size_t i = 0;
       (kinds & MP_REF_PROPERTY) && i < property_dependencies->len; i++)
    mp_strv_copy(out, &property_dependencies->items[i].urns);
  mp_provider_ref pr;
  if ((kinds & MP_REF_PROVIDER) && provider &&
      mp_provider_ref_parse(provider, &pr, NULL) == 0) {
    mp_strv_push_take(out, pr.urn);
    pr.urn = NULL;
    mp_provider_ref_destroy(&pr);
  }
}

void mp_resource_refs(const mp_resource *r, unsigned kinds, mp_strv *out) {
  mp_refs_append(r->parent, r->deleted_with, &r->dependencies,
                 &r->property_dependencies, r->provider, kinds, out);
  if (kinds & MP_REF_REPLACE_WITH) mp_strv_copy(out, &r->replace_with);
}

/* ==== property dependencies ==== */

void mp_propdeps_init(mp_propdeps *p) { memset(p, 0, sizeof(*p)); }

void mp_propdeps_destroy(mp_propdeps *p) {
  for (size_t i = 0; i < p->len; i++) {
    free(p->items[i].key);
    mp_strv_destroy(&p->items[i].urns);
  }
  free(p->items);
  memset(p, 0, sizeof(*p));
}

void mp_propdeps_copy(mp_propdeps *dst, const mp_propdeps *src) {
  mp_propdeps_init(dst);
  if (src->len == 0)
    return;
  dst->items = mp_xcalloc(src->len, sizeof(*dst->items));
  dst->cap = dst->len = src->len;
  for (size_t i = 0; i < src->len; i++) {
    dst->items[i].key = mp_xstrdup(src->items[i].key);
    mp_strv_copy(&dst->items[i].urns, &src->items[i].urns);
  }
}

/* Index of the first entry whose key is >= |key|. */
static size_t propdeps_lower_bound(const mp_propdeps *p, const char *key) {
  size_t lo = 0, hi = p->len;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (strcmp(p->items[mid].key, key) < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

mp_propdep *mp_propdeps_get(mp_propdeps *p, const char *key) {
  size_t i = propdeps_lower_bound(p, key);
  if (i < p->len && strcmp(p->items[i].key, key) == 0)
    return &p->items[i];
  if (p->len == p->cap) {
    p->cap = p->cap ? p->cap * 2 : 4;
    p->items = mp_xreallocarray(p->items, p->cap, sizeof(*p->items));
  }
  memmove(&p->items[i + 1], &p->items[i], (p->len - i) * sizeof(*p->items));
  p->len++;
  p->items[i].key = mp_xstrdup(key);
  mp_strv_init(&p->items[i].urns);
  return &p->items[i];
}

const mp_propdep *mp_propdeps_find(const mp_propdeps *p, const char *key) {
  size_t i = propdeps_lower_bound(p, key);
  if (i < p->len && strcmp(p->items[i].key, key) == 0)
    return &p->items[i];
  return NULL;
}

int mp_propdeps_equal(const mp_propdeps *a, const mp_propdeps *b) {
  if (a->len != b->len)
    return 0;
  for (size_t i = 0; i < a->len; i++) {
    if (strcmp(a->items[i].key, b->items[i].key) != 0)
      return 0;
    if (!mp_strv_set_equal(&a->items[i].urns, &b->items[i].urns))
      return 0;
  }
  return 1;
}

/* ==== resources ==== */

mp_resource *mp_resource_new(const char *urn, const char *type, int custom) {
  mp_resource *r = mp_xcalloc(1, sizeof(*r));
  r->urn = mp_xstrdup(urn ? urn : "");
  r->type = mp_xstrdup(type ? type : "");
  r->custom = custom ? 1 : 0;
  r->custom_timeouts.create = -1;
  r->custom_timeouts.update = -1;
  r->custom_timeouts.del = -1;
  r->custom_timeouts.read = -1;
  return r;
}

void mp_resource_free(mp_resource *r) {
  if (r == NULL)
    return;
  free(r->urn);
  free(r->type);
  free(r->id);
  mp_value_free(r->inputs);
  mp_value_free(r->outputs);
  free(r->parent);
  mp_strv_destroy(&r->dependencies);
  mp_strv_destroy(&r->init_errors);
  free(r->provider);
  mp_propdeps_destroy(&r->property_dependencies);
  mp_strv_destroy(&r->additional_secret_outputs);
  mp_strv_destroy(&r->aliases);
  free(r->import_id);
  free(r->deleted_with);
  mp_strv_destroy(&r->replace_with);
  free(r->created);
  free(r->modified);
  free(r->source_position);
  mp_strv_destroy(&r->ignore_changes);
  mp_strv_destroy(&r->replace_on_changes);
  mp_strv_destroy(&r->hide_diffs);
  mp_value_free(r->replacement_trigger);
  for (int k = 0; r->hooks && k < MP_HOOK_KINDS; k++)
    mp_strv_destroy(&r->hooks[k]);
  free(r->hooks);
  free(r->extension_ref);
  free(r);
}

mp_resource *mp_resource_dup(const mp_resource *r) {
  mp_resource *d = mp_xmalloc(sizeof(*d));
  *d = *r; /* scalars; every pointer is replaced below */
  d->urn = mp_xstrdup(r->urn);
  d->type = mp_xstrdup(r->type);
  d->id = mp_xstrdup(r->id);
  d->inputs = mp_value_dup(r->inputs);
  d->outputs = mp_value_dup(r->outputs);
  d->parent = mp_xstrdup(r->parent);
  mp_strv_init(&d->dependencies);
  mp_strv_copy(&d->dependencies, &r->dependencies);
  mp_strv_init(&d->init_errors);
  mp_strv_copy(&d->init_errors, &r->init_errors);
  d->provider = mp_xstrdup(r->provider);
  mp_propdeps_copy(&d->property_dependencies, &r->property_dependencies);
  mp_strv_init(&d->additional_secret_outputs);
  mp_strv_copy(&d->additional_secret_outputs, &r->additional_secret_outputs);
  mp_strv_init(&d->aliases);
  mp_strv_copy(&d->aliases, &r->aliases);
  d->import_id = mp_xstrdup(r->import_id);
  d->deleted_with = mp_xstrdup(r->deleted_with);
  mp_strv_init(&d->replace_with);
  mp_strv_copy(&d->replace_with, &r->replace_with);
  d->created = mp_xstrdup(r->created);
  d->modified = mp_xstrdup(r->modified);
  d->source_position = mp_xstrdup(r->source_position);
  mp_strv_init(&d->ignore_changes);
  mp_strv_copy(&d->ignore_changes, &r->ignore_changes);
  mp_strv_init(&d->replace_on_changes);
  mp_strv_copy(&d->replace_on_changes, &r->replace_on_changes);
  mp_strv_init(&d->hide_diffs);
  mp_strv_copy(&d->hide_diffs, &r->hide_diffs);
  d->replacement_trigger = mp_value_dup(r->replacement_trigger);
  d->extension_ref = mp_xstrdup(r->extension_ref);
  d->hooks = NULL;
  for (int k = 0; r->hooks && k < MP_HOOK_KINDS; k++)
    if (r->hooks[k].len)
      mp_strv_copy(mp_resource_hooks_mut(d, k), &r->hooks[k]);
  return d;
}

const mp_strv *mp_resource_hooks(const mp_resource *r, int kind) {
  static const mp_strv none = {0};
  return r->hooks ? &r->hooks[kind] : &none;
}

mp_strv *mp_resource_hooks_mut(mp_resource *r, int kind) {
  if (r->hooks == NULL) {
    r->hooks = mp_xcalloc(MP_HOOK_KINDS, sizeof(*r->hooks));
    for (int k = 0; k < MP_HOOK_KINDS; k++) mp_strv_init(&r->hooks[k]);
  }
  return &r->hooks[kind];
}

/* NULL and "" are the same in the checkpoint (omitted either way). */
static int str_eq(const char *a, const char *b) {
  return strcmp(a ? a : "", b ? b : "") == 0;
}

/* Ordered equality of two string lists. */
static int strv_eq(const mp_strv *a, const mp_strv *b) {
  if (a->len != b->len)
    return 0;
  for (size_t i = 0; i < a->len; i++)
    if (strcmp(a->items[i], b->items[i]) != 0)
      return 0;
  return 1;
}

static int timeouts_eq(const mp_resource *a, const mp_resource *b) {
  if (a->has_custom_timeouts != b->has_custom_timeouts)
    return 0;
  if (!a->has_custom_timeouts)
    return 1;
  const mp_timeouts *x = &a->custom_timeouts, *y = &b->custom_timeouts;
  return x->create == y->create && x->update == y->update && x->del == y->del &&
         x->read == y->read;
}

static int flags_eq(const mp_resource *a, const mp_resource *b) {
  return !a->custom == !b->custom && !a->delete_ == !b->delete_ &&
         !a->protect == !b->protect && !a->taint == !b->taint &&
         !a->external == !b->external &&
         !a->pending_replacement == !b->pending_replacement &&
         !a->retain_on_delete == !b->retain_on_delete &&
         !a->refresh_before_update == !b->refresh_before_update;
}

static int strings_eq(const mp_resource *a, const mp_resource *b) {
  return str_eq(a->urn, b->urn) && str_eq(a->type, b->type) &&
         str_eq(a->id, b->id) && str_eq(a->parent, b->parent) &&
         str_eq(a->provider, b->provider) &&
         str_eq(a->import_id, b->import_id) &&
         str_eq(a->deleted_with, b->deleted_with) &&
         str_eq(a->created, b->created) && str_eq(a->modified, b->modified) &&
         str_eq(a->source_position, b->source_position) &&
         str_eq(a->extension_ref, b->extension_ref);
}

const char *const mp_hook_kind_names[MP_HOOK_KINDS] = {
    "beforeCreate", "afterCreate", "beforeUpdate",
    "afterUpdate",  "beforeDelete", "afterDelete", "onError"};

const char *const mp_hook_state_keys[MP_HOOK_KINDS] = {
    "BeforeCreate", "AfterCreate", "BeforeUpdate", "AfterUpdate",
    "BeforeDelete", "AfterDelete", "OnError"};

static int hooks_eq(const mp_resource *a, const mp_resource *b) {
  for (int k = 0; k < MP_HOOK_KINDS; k++)
    if (!strv_eq(mp_resource_hooks(a, k), mp_resource_hooks(b, k))) return 0;
  return 1;
}

static int lists_eq(const mp_resource *a, const mp_resource *b) {
  return mp_strv_set_equal(&a->dependencies, &b->dependencies) &&
         strv_eq(&a->init_errors, &b->init_errors) &&
         mp_propdeps_equal(&a->property_dependencies,
                           &b->property_dependencies) &&
         strv_eq(&a->additional_secret_outputs,
                 &b->additional_secret_outputs) &&
         strv_eq(&a->aliases, &b->aliases) &&
         strv_eq(&a->replace_with, &b->replace_with) &&
         strv_eq(&a->ignore_changes, &b->ignore_changes) &&
         strv_eq(&a->replace_on_changes, &b->replace_on_changes) &&
         strv_eq(&a->hide_diffs, &b->hide_diffs) && hooks_eq(a, b);
}

int mp_resource_equal(const mp_resource *a, const mp_resource *b) {
  return flags_eq(a, b) && strings_eq(a, b) && lists_eq(a, b) &&
         timeouts_eq(a, b) && mp_value_equal(a->inputs, b->inputs, 0) &&
         mp_value_equal(a->outputs, b->outputs, 0) &&
         mp_value_equal(a->replacement_trigger, b->replacement_trigger, 0);
}

/* ==== pending operations ==== */

static const char *const pending_names[] = {"creating", "updating", "deleting",
                                            "reading", "importing"};

const char *mp_pending_type_name(mp_pending_type t) {
  if ((size_t)t >= MP_ARRAY_LEN(pending_names))
    return "unknown";
  return pending_names[t];
}

int mp_pending_type_parse(const char *s, mp_pending_type *out) {
  for (size_t i = 0; s && i < MP_ARRAY_LEN(pending_names); i++) {
    if (strcmp(s, pending_names[i]) == 0) {
      *out = (mp_pending_type)i;
      return 0;
    }
  }
  return MP_EINVAL;
}

char *mp_now_rfc3339(void) {
  time_t now = time(NULL);
  struct tm tm;
  char buf[32];
  gmtime_r(&now, &tm);
  strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return mp_xstrdup(buf);
}

int mp_resource_rewrite_refs(mp_resource *r, const char *from, const char *to) {
  int n = 0;
  if (r->parent && strcmp(r->parent, from) == 0) {
    free(r->parent);
    r->parent = mp_xstrdup(to);
    n++;
  }
  if (r->deleted_with && strcmp(r->deleted_with, from) == 0) {
    free(r->deleted_with);
    r->deleted_with = mp_xstrdup(to);
    n++;
  }
  for (size_t i = 0; i < r->dependencies.len; i++)
    if (strcmp(r->dependencies.items[i], from) == 0) {
      free(r->dependencies.items[i]);
      r->dependencies.items[i] = mp_xstrdup(to);
      n++;
    }
  for (size_t i = 0; i < r->replace_with.len; i++)
    if (strcmp(r->replace_with.items[i], from) == 0) {
      free(r->replace_with.items[i]);
      r->replace_with.items[i] = mp_xstrdup(to);
      n++;
    }
  for (size_t k = 0; k < r->property_dependencies.len; k++) {
    mp_strv *u = &r->property_dependencies.items[k].urns;
    for (size_t i = 0; i < u->len; i++)
      if (strcmp(u->items[i], from) == 0) {
        free(u->items[i]);
        u->items[i] = mp_xstrdup(to);
        n++;
      }
  }
  mp_provider_ref pr;
  if (r->provider && mp_provider_ref_parse(r->provider, &pr, NULL) == 0) {
    if (strcmp(pr.urn, from) == 0) {
      free(r->provider);
      r->provider = mp_provider_ref_format(to, pr.id);
      n++;
    }
    mp_provider_ref_destroy(&pr);
  }
  return n > 0;
}
