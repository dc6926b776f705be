/* Property values: construction, ownership, objects, equality. */
#include "engine/value.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/value_int.h"

/* ==== Construction ==== */

static mp_value *value_alloc(mp_value_kind kind) {
  mp_value *v = mp_xcalloc(1, sizeof(*v));
  v->kind = kind;
  return v;
}

mp_value *mp_value_new_null(void) { return value_alloc(MP_VALUE_NULL); }

mp_value *mp_value_new_bool(int b) {
  mp_value *v = value_alloc(MP_VALUE_BOOL);
  v->u.boolean = b ? 1 : 0;
  return v;
}

mp_value *mp_value_new_number(double n) {
  mp_value *v = value_alloc(MP_VALUE_NUMBER);
  v->u.number = n;
  return v;
}

mp_value *mp_value_new_string(const char *s, size_t len) {
  mp_value *v = value_alloc(MP_VALUE_STRING);
  v->u.str.ptr = mp_xstrndup(len ? s : "", len);
  v->u.str.len = len;
  return v;
}

mp_value *mp_value_new_cstring(const char *s) {
  if (s == NULL)
    s = "";
  return mp_value_new_string(s, strlen(s));
}

mp_value *mp_value_new_array(void) { return value_alloc(MP_VALUE_ARRAY); }

mp_value *mp_value_new_object(void) { return value_alloc(MP_VALUE_OBJECT); }

mp_value *mp_value_new_unknown(void) { return value_alloc(MP_VALUE_UNKNOWN); }

mp_value *mp_value_new_secret(mp_value *inner) {
  if (inner == NULL)
    inner = mp_value_new_null();
  if (inner->kind == MP_VALUE_SECRET)
    return inner;
  mp_value *v = value_alloc(MP_VALUE_SECRET);
  v->u.secret = inner;
  return v;
}

mp_value *mp_value_new_asset(const char *hash, const char *text,
                             const char *path, const char *uri) {
  mp_value *v = value_alloc(MP_VALUE_ASSET);
  v->u.asset.hash = mp_xstrdup(hash);
  v->u.asset.text = mp_xstrdup(text);
  v->u.asset.path = mp_xstrdup(path);
  v->u.asset.uri = mp_xstrdup(uri);
  return v;
}

mp_value *mp_value_new_archive(const char *hash, mp_value *assets,
                               const char *path, const char *uri) {
  mp_value *v = value_alloc(MP_VALUE_ARCHIVE);
  v->u.archive.hash = mp_xstrdup(hash);
  v->u.archive.assets = assets;
  v->u.archive.path = mp_xstrdup(path);
  v->u.archive.uri = mp_xstrdup(uri);
  return v;
}

mp_value *mp_value_new_ref(const char *urn, const char *id,
                           const char *package_version) {
  mp_value *v = value_alloc(MP_VALUE_RESOURCE_REF);
  v->u.ref.urn = mp_xstrdup(urn ? urn : "");
  v->u.ref.id = mp_xstrdup(id);
  v->u.ref.package_version = mp_xstrdup(package_version);
  return v;
}

mp_value *mp_value_new_output(mp_value *value, int secret,
                              const mp_strv *deps) {
  mp_value *v = value_alloc(MP_VALUE_OUTPUT);
  v->u.output.value = value;
  v->u.output.secret = secret ? 1 : 0;
  mp_strv_init(&v->u.output.deps);
  if (deps)
    mp_strv_copy(&v->u.output.deps, deps);
  return v;
}

/* ==== Release and copy ==== */

void mp_value_free(mp_value *v) {
  if (v == NULL)
    return;
  switch (v->kind) {
  case MP_VALUE_STRING:
    free(v->u.str.ptr);
    break;
  case MP_VALUE_ARRAY:
    for (size_t i = 0; i < v->u.arr.len; i++)
      mp_value_free(v->u.arr.items[i]);
    free(v->u.arr.items);
    break;
  case MP_VALUE_OBJECT:
    for (size_t i = 0; i < v->u.obj.len; i++) {
      free(v->u.obj.items[i].key);
      mp_value_free(v->u.obj.items[i].value);
    }
    free(v->u.obj.items);
    break;
  case MP_VALUE_ASSET:
    free(v->u.asset.hash);
    free(v->u.asset.text);
    free(v->u.asset.path);
    free(v->u.asset.uri);
    break;
  case MP_VALUE_ARCHIVE:
    free(v->u.archive.hash);
    mp_value_free(v->u.archive.assets);
    free(v->u.archive.path);
    free(v->u.archive.uri);
    break;
  case MP_VALUE_RESOURCE_REF:
    free(v->u.ref.urn);
    free(v->u.ref.id);
    free(v->u.ref.package_version);
    break;
  case MP_VALUE_SECRET:
    mp_value_free(v->u.secret);
    break;
  case MP_VALUE_OUTPUT:
    mp_value_free(v->u.output.value);
    mp_strv_destroy(&v->u.output.deps);
    break;
  default:
    break;
  }
  free(v);
}

static mp_value *dup_array(const mp_value *v) {
  mp_value *c = mp_value_new_array();
  for (size_t i = 0; i < v->u.arr.len; i++)
    mp_value_array_push(c, mp_value_dup(v->u.arr.items[i]));
  return c;
}

static mp_value *dup_object(const mp_value *v) {
  mp_value *c = mp_value_new_object();
  size_t n = v->u.obj.len;
  /* The source is already sorted and unique: copy in one go. */
  c->u.obj.items = mp_xcalloc(n ? n : 1, sizeof(*c->u.obj.items));
  c->u.obj.cap = n ? n : 1;
  for (size_t i = 0; i < n; i++) {
    c->u.obj.items[i].key =
        mp_xstrndup(v->u.obj.items[i].key, v->u.obj.items[i].key_len);
    c->u.obj.items[i].key_len = v->u.obj.items[i].key_len;
    c->u.obj.items[i].value = mp_value_dup(v->u.obj.items[i].value);
  }
  c->u.obj.len = n;
  return c;
}

mp_value *mp_value_dup(const mp_value *v) {
  if (v == NULL)
    return NULL;
  switch (v->kind) {
  case MP_VALUE_NULL:
    return mp_value_new_null();
  case MP_VALUE_BOOL:
    return mp_value_new_bool(v->u.boolean);
  case MP_VALUE_NUMBER:
    return mp_value_new_number(v->u.number);
  case MP_VALUE_STRING:
    return mp_value_new_string(v->u.str.ptr, v->u.str.len);
  case MP_VALUE_ARRAY:
    return dup_array(v);
  case MP_VALUE_OBJECT:
    return dup_object(v);
  case MP_VALUE_ASSET:
    return mp_value_new_asset(v->u.asset.hash, v->u.asset.text, v->u.asset.path,
                              v->u.asset.uri);
  case MP_VALUE_ARCHIVE:
    return mp_value_new_archive(v->u.archive.hash,
                                mp_value_dup(v->u.archive.assets),
                                v->u.archive.path, v->u.archive.uri);
  case MP_VALUE_RESOURCE_REF:
    return mp_value_new_ref(v->u.ref.urn, v->u.ref.id,
                            v->u.ref.package_version);
  case MP_VALUE_UNKNOWN:
    return mp_value_new_unknown();
  case MP_VALUE_SECRET:
    return mp_value_new_secret(mp_value_dup(v->u.secret));
  case MP_VALUE_OUTPUT:
    return mp_value_new_output(mp_value_dup(v->u.output.value),
                               v->u.output.secret, &v->u.output.deps);
  }
  return mp_value_new_null();
}

/* ==== Arrays ==== */

void mp_value_array_push(mp_value *arr, mp_value *item) {
  if (arr->u.arr.len == arr->u.arr.cap) {
    arr->u.arr.cap = arr->u.arr.cap ? arr->u.arr.cap * 2 : 4;
    arr->u.arr.items = mp_xreallocarray(arr->u.arr.items, arr->u.arr.cap,
                                        sizeof(*arr->u.arr.items));
  }
  arr->u.arr.items[arr->u.arr.len++] = item;
}

mp_value *mp__value_array_take(mp_value *arr, size_t i) {
  mp_value *v = arr->u.arr.items[i];
  memmove(&arr->u.arr.items[i], &arr->u.arr.items[i + 1],
          (arr->u.arr.len - i - 1) * sizeof(*arr->u.arr.items));
  arr->u.arr.len--;
  return v;
}

void mp__value_array_replace(mp_value *arr, size_t i, mp_value *v) {
  mp_value_free(arr->u.arr.items[i]);
  arr->u.arr.items[i] = v;
}

/* ==== Objects (sorted by key; binary search) ==== */

/* Orders keys by their bytes, a prefix first: strcmp's order for keys
 * without a NUL character. */
static int key_cmp(const mp_value_entry *e, const char *key, size_t len) {
  size_t n = e->key_len < len ? e->key_len : len;
  int c = n ? memcmp(e->key, key, n) : 0;
  if (c != 0)
    return c;
  return e->key_len < len ? -1 : e->key_len > len;
}

/* Index of |key| in |obj|, or -(insertion point) - 1 when absent. */
static long obj_find(const mp_value *obj, const char *key, size_t len) {
  size_t lo = 0, hi = obj->u.obj.len;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = key_cmp(&obj->u.obj.items[mid], key, len);
    if (c == 0)
      return (long)mid;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return -(long)lo - 1;
}

void mp_value_object_set(mp_value *obj, const char *key, mp_value *v) {
  mp_value_object_setn(obj, key, strlen(key), v);
}

void mp_value_object_setn(mp_value *obj, const char *key, size_t len,
                          mp_value *v) {
  long at = obj_find(obj, key, len);
  if (at >= 0) {
    mp_value_free(obj->u.obj.items[at].value);
    obj->u.obj.items[at].value = v;
    return;
  }
  size_t pos = (size_t)(-(at + 1));
  if (obj->u.obj.len == obj->u.obj.cap) {
    obj->u.obj.cap = obj->u.obj.cap ? obj->u.obj.cap * 2 : 4;
    obj->u.obj.items = mp_xreallocarray(obj->u.obj.items, obj->u.obj.cap,
                                        sizeof(*obj->u.obj.items));
  }
  memmove(&obj->u.obj.items[pos + 1], &obj->u.obj.items[pos],
          (obj->u.obj.len - pos) * sizeof(*obj->u.obj.items));
  obj->u.obj.items[pos].key = mp_xstrndup(key, len);
  obj->u.obj.items[pos].key_len = len;
  obj->u.obj.items[pos].value = v;
  obj->u.obj.len++;
}

mp_value *mp_value_object_get(const mp_value *obj, const char *key) {
  return mp_value_object_getn(obj, key, strlen(key));
}

mp_value *mp_value_object_getn(const mp_value *obj, const char *key,
                               size_t len) {
  if (obj == NULL || obj->kind != MP_VALUE_OBJECT)
    return NULL;
  long at = obj_find(obj, key, len);
  return at >= 0 ? obj->u.obj.items[at].value : NULL;
}

mp_value *mp_value_object_take(mp_value *obj, const char *key) {
  if (obj == NULL || obj->kind != MP_VALUE_OBJECT)
    return NULL;
  long at = obj_find(obj, key, strlen(key));
  if (at < 0)
    return NULL;
  mp_value *v = obj->u.obj.items[at].value;
  free(obj->u.obj.items[at].key);
  memmove(&obj->u.obj.items[at], &obj->u.obj.items[at + 1],
          (obj->u.obj.len - (size_t)at - 1) * sizeof(*obj->u.obj.items));
  obj->u.obj.len--;
  return v;
}

int mp_value_object_del(mp_value *obj, const char *key) {
  mp_value *v = mp_value_object_take(obj, key);
  if (v == NULL)
    return 0;
  mp_value_free(v);
  return 1;
}

/* ==== Equality ==== */

const mp_value *mp__value_unwrap(const mp_value *v, unsigned flags) {
  if (!(flags & MP_VALUE_EQ_IGNORE_SECRETS))
    return v;
  while (v != NULL) {
    if (v->kind == MP_VALUE_SECRET)
      v = v->u.secret;
    else if (v->kind == MP_VALUE_OUTPUT && v->u.output.value != NULL)
      v = v->u.output.value;
    else
      break;
  }
  return v;
}

int mp__value_is_absent(const mp_value *v) {
  return v == NULL || v->kind == MP_VALUE_NULL ||
         (v->kind == MP_VALUE_OBJECT && v->u.obj.len == 0);
}

/* Optional strings: NULL and "" are the same. */
static int opt_str_eq(const char *a, const char *b) {
  return strcmp(a ? a : "", b ? b : "") == 0;
}

/* An unknown OUTPUT counts as UNKNOWN when secrets are ignored. */
static mp_value_kind eff_kind(const mp_value *v, unsigned flags) {
  if ((flags & MP_VALUE_EQ_IGNORE_SECRETS) && v->kind == MP_VALUE_OUTPUT &&
      v->u.output.value == NULL)
    return MP_VALUE_UNKNOWN;
  return v->kind;
}

static int array_equal(const mp_value *a, const mp_value *b, unsigned flags) {
  if (a->u.arr.len != b->u.arr.len)
    return 0;
  for (size_t i = 0; i < a->u.arr.len; i++)
    if (!mp_value_equal(a->u.arr.items[i], b->u.arr.items[i], flags))
      return 0;
  return 1;
}

static int object_equal(const mp_value *a, const mp_value *b, unsigned flags) {
  if (a->u.obj.len != b->u.obj.len)
    return 0;
  for (size_t i = 0; i < a->u.obj.len; i++) {
    const mp_value_entry *ea = &a->u.obj.items[i], *eb = &b->u.obj.items[i];
    if (key_cmp(ea, eb->key, eb->key_len) != 0)
      return 0;
    if (!mp_value_equal(a->u.obj.items[i].value, b->u.obj.items[i].value,
                        flags))
      return 0;
  }
  return 1;
}

static int output_equal(const mp_value *a, const mp_value *b, unsigned flags) {
  if ((a->u.output.value == NULL) != (b->u.output.value == NULL))
    return 0;
  if (a->u.output.value &&
      !mp_value_equal(a->u.output.value, b->u.output.value, flags))
    return 0;
  return a->u.output.secret == b->u.output.secret &&
         mp_strv_set_equal(&a->u.output.deps, &b->u.output.deps);
}

static int same_kind_equal(const mp_value *a, const mp_value *b,
                           unsigned flags) {
  switch (a->kind) {
  case MP_VALUE_NULL:
  case MP_VALUE_UNKNOWN:
    return 1;
  case MP_VALUE_BOOL:
    return a->u.boolean == b->u.boolean;
  case MP_VALUE_NUMBER:
    /* NaN equals NaN so that a NaN input does not diff forever. */
    return a->u.number == b->u.number ||
           (isnan(a->u.number) && isnan(b->u.number));
  case MP_VALUE_STRING:
    return a->u.str.len == b->u.str.len &&
           memcmp(a->u.str.ptr, b->u.str.ptr, a->u.str.len) == 0;
  case MP_VALUE_ARRAY:
    return array_equal(a, b, flags);
  case MP_VALUE_OBJECT:
    return object_equal(a, b, flags);
  case MP_VALUE_ASSET:
    return opt_str_eq(a->u.asset.hash, b->u.asset.hash) &&
           opt_str_eq(a->u.asset.text, b->u.asset.text) &&
           opt_str_eq(a->u.asset.path, b->u.asset.path) &&
           opt_str_eq(a->u.asset.uri, b->u.asset.uri);
  case MP_VALUE_ARCHIVE:
    return opt_str_eq(a->u.archive.hash, b->u.archive.hash) &&
           opt_str_eq(a->u.archive.path, b->u.archive.path) &&
           opt_str_eq(a->u.archive.uri, b->u.archive.uri) &&
           mp_value_equal(a->u.archive.assets, b->u.archive.assets, flags);
  case MP_VALUE_RESOURCE_REF:
    return strcmp(a->u.ref.urn, b->u.ref.urn) == 0 &&
           (a->u.ref.id == NULL) == (b->u.ref.id == NULL) &&
           opt_str_eq(a->u.ref.id, b->u.ref.id) &&
           opt_str_eq(a->u.ref.package_version, b->u.ref.package_version);
  case MP_VALUE_SECRET:
    return mp_value_equal(a->u.secret, b->u.secret, flags);
  case MP_VALUE_OUTPUT:
    return output_equal(a, b, flags);
  }
  return 0;
}

int mp_value_equal(const mp_value *a, const mp_value *b, unsigned flags) {
  a = mp__value_unwrap(a, flags);
  b = mp__value_unwrap(b, flags);
  if (a == NULL || b == NULL)
    return mp__value_is_absent(a == NULL ? b : a);
  mp_value_kind ka = eff_kind(a, flags), kb = eff_kind(b, flags);
  if (ka != kb)
    return 0;
  if (ka == MP_VALUE_UNKNOWN)
    return 1;
  return same_kind_equal(a, b, flags);
}

/* ==== Queries and transforms ==== */

/* Walks |v| and returns 1 as soon as |pred| holds for some node. */
static int any_node(const mp_value *v, int (*pred)(const mp_value *)) {
  if (v == NULL)
    return 0;
  if (pred(v))
    return 1;
  switch (v->kind) {
  case MP_VALUE_ARRAY:
    for (size_t i = 0; i < v->u.arr.len; i++)
      if (any_node(v->u.arr.items[i], pred))
        return 1;
    return 0;
  case MP_VALUE_OBJECT:
    for (size_t i = 0; i < v->u.obj.len; i++)
      if (any_node(v->u.obj.items[i].value, pred))
        return 1;
    return 0;
  case MP_VALUE_ARCHIVE:
    return any_node(v->u.archive.assets, pred);
  case MP_VALUE_SECRET:
    return any_node(v->u.secret, pred);
  case MP_VALUE_OUTPUT:
    return any_node(v->u.output.value, pred);
  default:
    return 0;
  }
}

static int is_unknown_node(const mp_value *v) {
  return v->kind == MP_VALUE_UNKNOWN ||
         (v->kind == MP_VALUE_OUTPUT && v->u.output.value == NULL);
}

static int is_secret_node(const mp_value *v) {
  return v->kind == MP_VALUE_SECRET ||
         (v->kind == MP_VALUE_OUTPUT && v->u.output.secret);
}

int mp_value_contains_unknowns(const mp_value *v) {
  return any_node(v, is_unknown_node);
}

int mp_value_contains_secrets(const mp_value *v) {
  return any_node(v, is_secret_node);
}

mp_value *mp_value_strip_secrets(const mp_value *v) {
  if (v == NULL)
    return NULL;
  switch (v->kind) {
  case MP_VALUE_SECRET:
    return mp_value_strip_secrets(v->u.secret);
  case MP_VALUE_OUTPUT:
    if (v->u.output.value == NULL)
      return mp_value_new_unknown();
    return mp_value_strip_secrets(v->u.output.value);
  case MP_VALUE_ARRAY: {
    mp_value *c = mp_value_new_array();
    for (size_t i = 0; i < v->u.arr.len; i++)
      mp_value_array_push(c, mp_value_strip_secrets(v->u.arr.items[i]));
    return c;
  }
  case MP_VALUE_OBJECT: {
    mp_value *c = mp_value_new_object();
    for (size_t i = 0; i < v->u.obj.len; i++)
      mp_value_object_setn(c, v->u.obj.items[i].key,
                           v->u.obj.items[i].key_len,
                           mp_value_strip_secrets(v->u.obj.items[i].value));
    return c;
  }
  case MP_VALUE_ARCHIVE:
    return mp_value_new_archive(v->u.archive.hash,
                                mp_value_strip_secrets(v->u.archive.assets),
                                v->u.archive.path, v->u.archive.uri);
  default:
    return mp_value_dup(v);
  }
}

const char *mp_value_kind_name(mp_value_kind k) {
  static const char *const names[] = {
      "null",    "bool",    "number",
      "string",  "array",   "object",
      "asset",   "archive", "resource reference",
      "unknown", "secret",  "output"};
  if ((unsigned)k >= MP_ARRAY_LEN(names))
    return "invalid";
  return names[k];
}

int mp__value_dec_fail(const mp_buf *path, int code, mp_err *err,
                       const char *msg) {
  if (path->len == 0)
    return mp_err_set(err, code, "invalid property value: %s", msg);
  if (path->len > 160) /* keep the message readable */
    return mp_err_set(err, code, "invalid property value at '%.60s...%s': %s",
                      path->data, path->data + path->len - 80, msg);
  return mp_err_set(err, code, "invalid property value at '%s': %s",
                    path->data, msg);
}
