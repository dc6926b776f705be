/* Detailed diffs between two property maps, one entry per changed leaf. */
#include "engine/value.h"

#include <stdlib.h>
#include <string.h>

#include "engine/value_int.h"

/* ==== mp_diff ==== */

void mp_diff_init(mp_diff *d) { memset(d, 0, sizeof(*d)); }

void mp_diff_destroy(mp_diff *d) {
  for (size_t i = 0; i < d->len; i++)
    free(d->items[i].path);
  free(d->items);
  memset(d, 0, sizeof(*d));
}

void mp_diff_add(mp_diff *d, const char *path, mp_diff_kind kind,
                 int input_diff) {
  size_t lo = 0, hi = d->len;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = strcmp(d->items[mid].path, path);
    if (c == 0) {
      /* One entry per path: the latest report wins. */
      d->items[mid].kind = kind;
      d->items[mid].input_diff = input_diff;
      return;
    }
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (d->len == d->cap) {
    d->cap = d->cap ? d->cap * 2 : 8;
    d->items = mp_xreallocarray(d->items, d->cap, sizeof(*d->items));
  }
  memmove(&d->items[lo + 1], &d->items[lo], (d->len - lo) * sizeof(*d->items));
  d->items[lo].path = mp_xstrdup(path);
  d->items[lo].kind = kind;
  d->items[lo].input_diff = input_diff;
  d->len++;
}

const char *mp_diff_kind_name(mp_diff_kind k) {
  static const char *const names[] = {"add",    "add-replace",
                                      "delete", "delete-replace",
                                      "update", "update-replace"};
  if ((unsigned)k >= MP_ARRAY_LEN(names))
    return "invalid";
  return names[k];
}

/* ==== Computing the diff ==== */

/* Appends key |k| to the path text in |b| (quoted when needed). */
static void path_push_key(mp_buf *b, const char *k) {
  mp__path_append_key(b, k, b->len == 0);
}

static void path_truncate(mp_buf *b, size_t len) {
  b->len = len;
  if (b->data)
    b->data[len] = '\0';
}

static void diff_values(const mp_value *o, const mp_value *n, unsigned flags,
                        mp_buf *path, mp_diff *out);

/* Secrets are looked through when both sides are secret (or when the
 * caller ignores secrets), so that the path names the changed leaf. */
static void unwrap_pair(const mp_value **o, const mp_value **n,
                        unsigned flags) {
  *o = mp__value_unwrap(*o, flags);
  *n = mp__value_unwrap(*n, flags);
  while (*o && *n && (*o)->kind == MP_VALUE_SECRET &&
         (*n)->kind == MP_VALUE_SECRET) {
    *o = (*o)->u.secret;
    *n = (*n)->u.secret;
  }
}

static void diff_objects(const mp_value *o, const mp_value *n, unsigned flags,
                         mp_buf *path, mp_diff *out) {
  size_t i = 0, j = 0, saved = path->len;
  size_t ol = o ? o->u.obj.len : 0, nl = n ? n->u.obj.len : 0;
  while (i < ol || j < nl) {
    const mp_value_entry *oe = i < ol ? &o->u.obj.items[i] : NULL;
    const mp_value_entry *ne = j < nl ? &n->u.obj.items[j] : NULL;
    int c = !oe ? 1 : !ne ? -1 : strcmp(oe->key, ne->key);
    path_push_key(path, c <= 0 ? oe->key : ne->key);
    diff_values(c <= 0 ? oe->value : NULL, c >= 0 ? ne->value : NULL, flags,
                path, out);
    path_truncate(path, saved);
    if (c <= 0)
      i++;
    if (c >= 0)
      j++;
  }
}

static void diff_arrays(const mp_value *o, const mp_value *n, unsigned flags,
                        mp_buf *path, mp_diff *out) {
  size_t saved = path->len;
  size_t len = o->u.arr.len > n->u.arr.len ? o->u.arr.len : n->u.arr.len;
  for (size_t i = 0; i < len; i++) {
    mp_buf_printf(path, "[%zu]", i);
    const mp_value *oi = i < o->u.arr.len ? o->u.arr.items[i] : NULL;
    const mp_value *ni = i < n->u.arr.len ? n->u.arr.items[i] : NULL;
    if (oi == NULL)
      mp_diff_add(out, path->data, MP_DIFF_ADD, 1);
    else if (ni == NULL)
      mp_diff_add(out, path->data, MP_DIFF_DELETE, 1);
    else
      diff_values(oi, ni, flags, path, out);
    path_truncate(path, saved);
  }
}

static void diff_values(const mp_value *o, const mp_value *n, unsigned flags,
                        mp_buf *path, mp_diff *out) {
  if (mp_value_equal(o, n, flags))
    return;
  unwrap_pair(&o, &n, flags);
  if (o == NULL) {
    mp_diff_add(out, path->data, MP_DIFF_ADD, 1);
  } else if (n == NULL) {
    mp_diff_add(out, path->data, MP_DIFF_DELETE, 1);
  } else if (o->kind == MP_VALUE_OBJECT && n->kind == MP_VALUE_OBJECT &&
             path->len > 0) {
    diff_objects(o, n, flags, path, out);
  } else if (o->kind == MP_VALUE_ARRAY && n->kind == MP_VALUE_ARRAY) {
    diff_arrays(o, n, flags, path, out);
  } else {
    mp_diff_add(out, path->data, MP_DIFF_UPDATE, 1);
  }
}

void mp_value_diff(const mp_value *olds, const mp_value *news, unsigned flags,
                   mp_diff *out, mp_strv *changed_keys) {
  if (olds != NULL && olds->kind != MP_VALUE_OBJECT)
    olds = NULL;
  if (news != NULL && news->kind != MP_VALUE_OBJECT)
    news = NULL;
  size_t ol = olds ? olds->u.obj.len : 0, nl = news ? news->u.obj.len : 0;
  size_t i = 0, j = 0;
  mp_buf path;
  mp_buf_init(&path);
  mp_buf_puts(&path, "");
  while (i < ol || j < nl) {
    const mp_value_entry *oe = i < ol ? &olds->u.obj.items[i] : NULL;
    const mp_value_entry *ne = j < nl ? &news->u.obj.items[j] : NULL;
    int c = !oe ? 1 : !ne ? -1 : strcmp(oe->key, ne->key);
    const char *key = c <= 0 ? oe->key : ne->key;
    const mp_value *ov = c <= 0 ? oe->value : NULL;
    const mp_value *nv = c >= 0 ? ne->value : NULL;
    if (!mp_value_equal(ov, nv, flags)) {
      if (changed_keys)
        mp_strv_push(changed_keys, key);
      path_push_key(&path, key);
      diff_values(ov, nv, flags, &path, out);
      path_truncate(&path, 0);
    }
    if (c <= 0)
      i++;
    if (c >= 0)
      j++;
  }
  mp_buf_destroy(&path);
}
