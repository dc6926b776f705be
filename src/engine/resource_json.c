/* One checkpoint resource (ResourceV3) to and from JSON. Keys are written
 * in Pulumi's order; empty and false values are omitted
 * except urn, custom and type. */
#include "engine/json_nul.h"
#include "engine/snapshot_json_int.h"

#include <stdlib.h>
#include <string.h>

#include "engine/map.h"
#include "engine/value_json_int.h"

/* ==== writing ==== */

static void put_str(cJSON *o, const char *key, const char *s) {
  if (s && *s)
    cJSON_AddStringToObject(o, key, s);
}

static void put_bool(cJSON *o, const char *key, int b) {
  if (b)
    cJSON_AddTrueToObject(o, key);
}

static cJSON *strv_to_cjson(const mp_strv *v) {
  cJSON *a = cJSON_CreateArray();
  for (size_t i = 0; i < v->len; i++)
    cJSON_AddItemToArray(a, cJSON_CreateString(v->items[i]));
  return a;
}

static void put_strv(cJSON *o, const char *key, const mp_strv *v) {
  if (v->len)
    cJSON_AddItemToObject(o, key, strv_to_cjson(v));
}

/* "resourceHooks": {"BeforeDelete": [names], ...}, only the kinds used. */
static void put_hooks(cJSON *o, const mp_resource *r) {
  cJSON *h = NULL;
  for (int k = 0; k < MP_HOOK_KINDS; k++) {
    const mp_strv *names = mp_resource_hooks(r, k);
    if (names->len == 0) continue;
    if (h == NULL) h = cJSON_AddObjectToObject(o, "resourceHooks");
    put_strv(h, mp_hook_state_keys[k], names);
  }
}

static int value_is_empty(const mp_value *v) {
  return v == NULL || v->kind == MP_VALUE_NULL ||
         (v->kind == MP_VALUE_OBJECT && v->u.obj.len == 0);
}

static int put_value(cJSON *o, const char *key, const mp_value *v,
                     const mp_crypter *c, unsigned flags, mp_err *err) {
  if (value_is_empty(v))
    return 0;
  cJSON *j = NULL;
  unsigned vflags =
      (flags & MP_DEPLOY_JSON_SHOW_SECRETS) ? MP_JSON_SHOW_SECRETS : 0;
  int rc = mp__value_to_cjson(v, c, vflags, &j, err);
  if (rc < 0)
    return mp_err_prefix(err, "%s", key);
  cJSON_AddItemToObject(o, key, j);
  return 0;
}

static void put_propdeps(cJSON *o, const mp_propdeps *p) {
  if (p->len == 0)
    return;
  cJSON *m = cJSON_AddObjectToObject(o, "propertyDependencies");
  for (size_t i = 0; i < p->len; i++)
    cJSON_AddItemToObject(m, p->items[i].key, strv_to_cjson(&p->items[i].urns));
}

static void put_timeouts(cJSON *o, const mp_resource *r) {
  if (!r->has_custom_timeouts)
    return;
  const mp_timeouts *t = &r->custom_timeouts;
  cJSON *m = cJSON_AddObjectToObject(o, "customTimeouts");
  if (t->create >= 0)
    cJSON_AddNumberToObject(m, "create", t->create);
  if (t->update >= 0)
    cJSON_AddNumberToObject(m, "update", t->update);
  if (t->del >= 0)
    cJSON_AddNumberToObject(m, "delete", t->del);
  if (t->read >= 0)
    cJSON_AddNumberToObject(m, "read", t->read);
}

/* replacementTrigger: any value (an empty object too), omitted when none. */
static int put_trigger(cJSON *o, const mp_value *v, const mp_crypter *c,
                       unsigned flags, mp_err *err) {
  if (v == NULL || v->kind == MP_VALUE_NULL)
    return 0;
  cJSON *j = NULL;
  unsigned vflags =
      (flags & MP_DEPLOY_JSON_SHOW_SECRETS) ? MP_JSON_SHOW_SECRETS : 0;
  if (mp__value_to_cjson(v, c, vflags, &j, err) < 0)
    return mp_err_prefix(err, "replacementTrigger");
  cJSON_AddItemToObject(o, "replacementTrigger", j);
  return 0;
}

/* The fields after `outputs`, in Pulumi's order. */
static void put_tail(cJSON *o, const mp_resource *r) {
  put_str(o, "parent", r->parent);
  put_bool(o, "protect", r->protect);
  put_bool(o, "taint", r->taint);
  put_bool(o, "external", r->external);
  put_strv(o, "dependencies", &r->dependencies);
  put_strv(o, "initErrors", &r->init_errors);
  put_str(o, "provider", r->provider);
  put_propdeps(o, &r->property_dependencies);
  put_bool(o, "pendingReplacement", r->pending_replacement);
  put_strv(o, "additionalSecretOutputs", &r->additional_secret_outputs);
  put_strv(o, "aliases", &r->aliases);
  put_timeouts(o, r);
  put_str(o, "importID", r->import_id);
  put_bool(o, "retainOnDelete", r->retain_on_delete);
  put_str(o, "deletedWith", r->deleted_with);
  put_strv(o, "replaceWith", &r->replace_with);
  put_str(o, "created", r->created);
  put_str(o, "modified", r->modified);
  put_str(o, "sourcePosition", r->source_position);
  put_strv(o, "ignoreChanges", &r->ignore_changes);
  put_strv(o, "replaceOnChanges", &r->replace_on_changes);
  put_strv(o, "hideDiff", &r->hide_diffs);
}

int mp__resource_to_cjson(const mp_resource *r, const mp_crypter *c,
                          unsigned flags, cJSON **out, mp_err *err) {
  *out = NULL;
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "urn", r->urn);
  cJSON_AddBoolToObject(o, "custom", r->custom != 0);
  put_bool(o, "delete", r->delete_);
  put_str(o, "id", r->id);
  cJSON_AddStringToObject(o, "type", r->type);
  if (put_value(o, "inputs", r->inputs, c, flags, err) < 0 ||
      put_value(o, "outputs", r->outputs, c, flags, err) < 0) {
    cJSON_Delete(o);
    return mp_err_prefix(err, "cannot encode resource '%s'", r->urn);
  }
  put_tail(o, r);
  if (put_trigger(o, r->replacement_trigger, c, flags, err) < 0) {
    cJSON_Delete(o);
    return mp_err_prefix(err, "cannot encode resource '%s'", r->urn);
  }
  put_hooks(o, r);
  put_bool(o, "refreshBeforeUpdate", r->refresh_before_update);
  put_str(o, "extensionRef", r->extension_ref);
  *out = o;
  return 0;
}

/* ==== reading ==== */

/* A resource has ten or so of the thirty-odd keys read here, and looking
 * each key up among the members would compare it with every one of them:
 * the members are hashed into |slots| once (when there are at most
 * INDEX_SLOTS / 2 of them, else the plain lookup is used). */
#define INDEX_SLOTS 64

/* Context for reading one resource: names the resource in messages. */
typedef struct reader {
  const cJSON *obj;
  const char *urn;
  mp_err *err;
  int indexed;
  const cJSON *slots[INDEX_SLOTS];
} reader;

/* The slot of |key|: its member's, or the empty one where it would go. */
static size_t find_slot(const reader *rd, const char *key) {
  size_t i = mp_map_hash(key) % INDEX_SLOTS;
  while (rd->slots[i] && strcmp(rd->slots[i]->string, key) != 0)
    i = (i + 1) % INDEX_SLOTS;
  return i;
}

static void index_members(reader *rd) {
  size_t n = 0;
  const cJSON *it;
  cJSON_ArrayForEach(it, rd->obj) {
    if (it->string == NULL || ++n > INDEX_SLOTS / 2) return;
  }
  memset(rd->slots, 0, sizeof(rd->slots));
  cJSON_ArrayForEach(it, rd->obj) {
    size_t i = find_slot(rd, it->string);
    if (rd->slots[i] == NULL) rd->slots[i] = it; /* the first one wins */
  }
  rd->indexed = 1;
}

static int bad_field(reader *rd, const char *key, const char *want) {
  return mp_err_set(rd->err, MP_EINVAL,
                    "field '%s' of resource '%s' must be %s", key,
                    rd->urn ? rd->urn : "(no urn)", want);
}

static const cJSON *field(reader *rd, const char *key) {
  const cJSON *j = rd->indexed ? rd->slots[find_slot(rd, key)]
                               : cJSON_GetObjectItemCaseSensitive(rd->obj, key);
  return (j == NULL || cJSON_IsNull(j)) ? NULL : j;
}

/* An owned copy of a string field of a tree read by mp__cjson_parse, with
 * its markers turned back into what they stand for (a field that is no
 * property value cannot hold a NUL: it ends there). */
static char *plain_copy(const char *s) { return mp__json_plain(s); }

static int get_str(reader *rd, const char *key, char **dst) {
  const cJSON *j = field(rd, key);
  if (j == NULL)
    return 0;
  if (!cJSON_IsString(j))
    return bad_field(rd, key, "a string");
  free(*dst);
  *dst = (*j->valuestring) ? plain_copy(j->valuestring) : NULL;
  return 0;
}

static int get_bool(reader *rd, const char *key, int *dst) {
  const cJSON *j = field(rd, key);
  if (j == NULL)
    return 0;
  if (!cJSON_IsBool(j))
    return bad_field(rd, key, "true or false");
  *dst = cJSON_IsTrue(j) ? 1 : 0;
  return 0;
}

static int strv_from(reader *rd, const char *key, const cJSON *j,
                     mp_strv *dst) {
  if (!cJSON_IsArray(j))
    return bad_field(rd, key, "a list of strings");
  const cJSON *it;
  cJSON_ArrayForEach(it, j) {
    if (!cJSON_IsString(it))
      return bad_field(rd, key, "a list of strings");
    mp_strv_push_take(dst, plain_copy(it->valuestring));
  }
  return 0;
}

static int get_strv(reader *rd, const char *key, mp_strv *dst) {
  const cJSON *j = field(rd, key);
  return j ? strv_from(rd, key, j, dst) : 0;
}

static int get_hooks(reader *rd, mp_resource *r) {
  const char *key = "resourceHooks";
  const cJSON *j = field(rd, key);
  if (j == NULL) return 0;
  if (!cJSON_IsObject(j)) return bad_field(rd, key, "an object of name lists");
  for (int k = 0; k < MP_HOOK_KINDS; k++) {
    const cJSON *l = cJSON_GetObjectItemCaseSensitive(j, mp_hook_state_keys[k]);
    /* states written before we used Pulumi's keys */
    if (l == NULL) l = cJSON_GetObjectItemCaseSensitive(j, mp_hook_kind_names[k]);
    if (l && !cJSON_IsNull(l) &&
        strv_from(rd, key, l, mp_resource_hooks_mut(r, k)) < 0)
      return rd->err->code;
  }
  return 0;
}

static int get_propdeps(reader *rd, mp_propdeps *dst) {
  const char *key = "propertyDependencies";
  const cJSON *j = field(rd, key);
  if (j == NULL)
    return 0;
  if (!cJSON_IsObject(j))
    return bad_field(rd, key, "an object of URN lists");
  const cJSON *it;
  cJSON_ArrayForEach(it, j) {
    char *name = plain_copy(it->string);
    mp_propdep *d = mp_propdeps_get(dst, name);
    free(name);
    if (!cJSON_IsNull(it) && strv_from(rd, key, it, &d->urns) < 0)
      return rd->err->code;
  }
  return 0;
}

static int get_timeout(reader *rd, const cJSON *m, const char *key,
                       double *dst) {
  const cJSON *j = cJSON_GetObjectItemCaseSensitive(m, key);
  if (j == NULL || cJSON_IsNull(j))
    return 0;
  if (!cJSON_IsNumber(j) || j->valuedouble < 0)
    return bad_field(rd, "customTimeouts", "an object of seconds");
  *dst = j->valuedouble;
  return 0;
}

static int get_timeouts(reader *rd, mp_resource *r) {
  const cJSON *m = field(rd, "customTimeouts");
  if (m == NULL)
    return 0;
  if (!cJSON_IsObject(m))
    return bad_field(rd, "customTimeouts", "an object of seconds");
  r->has_custom_timeouts = 1;
  mp_timeouts *t = &r->custom_timeouts;
  if (get_timeout(rd, m, "create", &t->create) < 0 ||
      get_timeout(rd, m, "update", &t->update) < 0 ||
      get_timeout(rd, m, "delete", &t->del) < 0 ||
      get_timeout(rd, m, "read", &t->read) < 0)
    return rd->err->code;
  return 0;
}

static int get_value(reader *rd, const char *key, const mp_crypter *c,
                     mp_value **dst) {
  const cJSON *j = field(rd, key);
  if (j == NULL)
    return 0;
  if (!cJSON_IsObject(j))
    return bad_field(rd, key, "an object");
  if (mp__value_from_cjson(j, c, dst, rd->err) < 0)
    return mp_err_prefix(rd->err, "%s of resource '%s'", key, rd->urn);
  return 0;
}

/* replacementTrigger: any JSON value; null is the same as none. */
static int get_trigger(reader *rd, const mp_crypter *c, mp_value **dst) {
  const cJSON *j = field(rd, "replacementTrigger");
  if (j == NULL || cJSON_IsNull(j))
    return 0;
  if (mp__value_from_cjson(j, c, dst, rd->err) < 0)
    return mp_err_prefix(rd->err, "replacementTrigger of resource '%s'",
                         rd->urn);
  return 0;
}

static int get_flags(reader *rd, mp_resource *r) {
  if (get_bool(rd, "custom", &r->custom) < 0 ||
      get_bool(rd, "delete", &r->delete_) < 0 ||
      get_bool(rd, "protect", &r->protect) < 0 ||
      get_bool(rd, "taint", &r->taint) < 0 ||
      get_bool(rd, "external", &r->external) < 0 ||
      get_bool(rd, "pendingReplacement", &r->pending_replacement) < 0 ||
      get_bool(rd, "retainOnDelete", &r->retain_on_delete) < 0 ||
      get_bool(rd, "refreshBeforeUpdate", &r->refresh_before_update) < 0)
    return rd->err->code;
  return 0;
}

static int get_strings(reader *rd, mp_resource *r) {
  if (get_str(rd, "id", &r->id) < 0 || get_str(rd, "parent", &r->parent) < 0 ||
      get_str(rd, "provider", &r->provider) < 0 ||
      get_str(rd, "importID", &r->import_id) < 0 ||
      get_str(rd, "deletedWith", &r->deleted_with) < 0 ||
      get_str(rd, "created", &r->created) < 0 ||
      get_str(rd, "modified", &r->modified) < 0 ||
      get_str(rd, "sourcePosition", &r->source_position) < 0 ||
      get_str(rd, "extensionRef", &r->extension_ref) < 0)
    return rd->err->code;
  return 0;
}

static int get_lists(reader *rd, mp_resource *r) {
  if (get_strv(rd, "dependencies", &r->dependencies) < 0 ||
      get_strv(rd, "initErrors", &r->init_errors) < 0 ||
      get_propdeps(rd, &r->property_dependencies) < 0 ||
      get_strv(rd, "additionalSecretOutputs", &r->additional_secret_outputs) <
          0 ||
      get_strv(rd, "aliases", &r->aliases) < 0 ||
      get_strv(rd, "replaceWith", &r->replace_with) < 0 ||
      get_strv(rd, "ignoreChanges", &r->ignore_changes) < 0 ||
      get_strv(rd, "replaceOnChanges", &r->replace_on_changes) < 0 ||
      get_strv(rd, "hideDiff", &r->hide_diffs) < 0 || get_hooks(rd, r) < 0)
    return rd->err->code;
  return 0;
}

/* urn and type: strings; a missing one is left empty for the integrity
 * check to report with the resource's position. */
static int get_identity(reader *rd, char **urn, char **type) {
  const cJSON *u = field(rd, "urn"), *t = field(rd, "type");
  if (u && !cJSON_IsString(u))
    return bad_field(rd, "urn", "a string");
  if (t && !cJSON_IsString(t))
    return bad_field(rd, "type", "a string");
  *urn = plain_copy(u ? u->valuestring : "");
  *type = plain_copy(t ? t->valuestring : "");
  return 0;
}

int mp__resource_from_cjson(const cJSON *j, const mp_crypter *c, unsigned flags,
                            mp_resource **out, mp_err *err) {
  *out = NULL;
  if (!cJSON_IsObject(j))
    return mp_err_set(err, MP_EINVAL, "a resource must be a JSON object");
  reader rd = {j, NULL, err, 0, {0}};
  index_members(&rd);
  char *urn = NULL, *type = NULL; /* set by get_identity; -O3 cannot tell */
  if (get_identity(&rd, &urn, &type) < 0)
    return err->code;
  mp_resource *r = mp_resource_new(urn, type, 0);
  free(urn);
  free(type);
  rd.urn = r->urn;
  int rc = 0;
  if (get_flags(&rd, r) < 0 || get_strings(&rd, r) < 0 ||
      get_lists(&rd, r) < 0 || get_timeouts(&rd, r) < 0)
    rc = err->code;
  if (rc == 0 && !(flags & MP__RES_SKIP_VALUES) &&
      (get_value(&rd, "inputs", c, &r->inputs) < 0 ||
       get_value(&rd, "outputs", c, &r->outputs) < 0 ||
       get_trigger(&rd, c, &r->replacement_trigger) < 0))
    rc = err->code;
  if (rc < 0) {
    mp_resource_free(r);
    return rc;
  }
  *out = r;
  return 0;
}

/* ==== text ==== */

void mp__json_print(const cJSON *j, unsigned flags, mp_buf *out) {
  mp__cjson_print(j, (flags & MP_DEPLOY_JSON_PRETTY) ? MP_JSON_PRETTY : 0, out);
}

int mp_resource_to_json(const mp_resource *r, const mp_crypter *c,
                        unsigned flags, mp_buf *out, mp_err *err) {
  cJSON *j;
  int rc = mp__resource_to_cjson(r, c, flags, &j, err);
  if (rc < 0)
    return rc;
  mp__json_print(j, flags, out);
  cJSON_Delete(j);
  return 0;
}

int mp_resource_from_json(const char *text, size_t len, const mp_crypter *c,
                          mp_resource **out, mp_err *err) {
  *out = NULL;
  cJSON *j = mp__cjson_parse(text, len, NULL);
  if (j == NULL)
    return mp_err_set(err, MP_EINVAL, "resource state is not valid JSON");
  int rc = mp__resource_from_cjson(j, c, 0, out, err);
  cJSON_Delete(j);
  return rc;
}
