/* Property paths (tests/conformance/scenarios/S33-ignore-changes.scn,
 * S32-replace-on-changes.scn): parsing, formatting, get/set/delete,
 * prefix matching for replaceOnChanges, and ignoreChanges. */
#include "engine/value.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/value_int.h"

/* ==== Parsing ==== */

static void push_seg(mp_path *p, mp_path_seg_kind kind, char *key,
                     size_t index) {
  p->segs = mp_xreallocarray(p->segs, p->len + 1, sizeof(*p->segs));
  p->segs[p->len].kind = kind;
  p->segs[p->len].key = key;
  p->segs[p->len].index = index;
  p->len++;
}

static int parse_fail(const char *s, size_t off, const char *what,
                      mp_err *err) {
  return mp_err_set(err, MP_EINVAL,
                    "invalid property path '%s': %s at offset %zu", s, what,
                    off);
}

/* Parses `["key"]` starting at s[*i] == '[' and s[*i+1] == '"'. */
static int parse_quoted(const char *s, size_t *i, mp_path *out, mp_err *err) {
  size_t start = *i, j = *i + 2;
  mp_buf key;
  mp_buf_init(&key);
  mp_buf_puts(&key, "");
  for (;;) {
    if (s[j] == '\0') {
      mp_buf_destroy(&key);
      return parse_fail(s, start, "missing closing quote in property name",
                        err);
    }
    if (s[j] == '"')
      break;
    if (s[j] == '\\' && (s[j + 1] == '"' || s[j + 1] == '\\'))
      j++;
    mp_buf_putc(&key, s[j++]);
  }
  if (s[j + 1] != ']') {
    mp_buf_destroy(&key);
    return parse_fail(s, j + 1, "missing closing bracket after quoted name",
                      err);
  }
  push_seg(out, MP_PATH_KEY, mp_buf_detach(&key, NULL), 0);
  *i = j + 2;
  return 0;
}

/* Parses `[123]`, `[*]` or `["key"]` starting at s[*i] == '['. */
static int parse_bracket(const char *s, size_t *i, mp_path *out, mp_err *err) {
  size_t start = *i;
  if (s[start + 1] == '"')
    return parse_quoted(s, i, out, err);
  const char *close = strchr(s + start, ']');
  if (close == NULL)
    return parse_fail(s, start, "missing closing bracket in array index", err);
  size_t len = (size_t)(close - (s + start)) - 1;
  if (len == 1 && s[start + 1] == '*') {
    push_seg(out, MP_PATH_WILDCARD, NULL, 0);
    *i = start + 3;
    return 0;
  }
  size_t idx = 0;
  for (size_t k = 0; k < len; k++) {
    char c = s[start + 1 + k];
    if (c < '0' || c > '9' || idx > (SIZE_MAX - 9) / 10)
      return parse_fail(s, start + 1 + k,
                        "array index must be a non-negative integer, '*' or "
                        "a quoted name",
                        err);
    idx = idx * 10 + (size_t)(c - '0');
  }
  if (len == 0)
    return parse_fail(s, start + 1, "empty array index", err);
  push_seg(out, MP_PATH_INDEX, NULL, idx);
  *i = start + len + 2;
  return 0;
}

/* Parses a bare name starting at s[*i] up to the next '.' or '['. */
static int parse_name(const char *s, size_t *i, mp_path *out, mp_err *err) {
  size_t start = *i, j = *i;
  while (s[j] != '\0' && s[j] != '.' && s[j] != '[') {
    if (s[j] == ']')
      return parse_fail(s, j, "unexpected ']'", err);
    j++;
  }
  if (j - start == 1 && s[start] == '*')
    push_seg(out, MP_PATH_WILDCARD, NULL, 0);
  else
    push_seg(out, MP_PATH_KEY, mp_xstrndup(s + start, j - start), 0);
  *i = j;
  return 0;
}

static int parse_segment(const char *s, size_t *i, mp_path *out, mp_err *err) {
  size_t at = *i;
  if (s[at] == '[')
    return parse_bracket(s, i, out, err);
  if (s[at] == '.') {
    if (at == 0)
      return parse_fail(s, 0, "a path must start with a name or an index", err);
    at++;
    if (s[at] == '\0' || s[at] == '.' || s[at] == '[')
      return parse_fail(s, at, "expected a property name after '.'", err);
    *i = at;
  } else if (at != 0) {
    return parse_fail(s, at, "expected '.' or '[' after ']'", err);
  }
  return parse_name(s, i, out, err);
}

int mp_path_parse(const char *s, mp_path *out, mp_err *err) {
  memset(out, 0, sizeof(*out));
  if (s == NULL || s[0] == '\0')
    return mp_err_set(err, MP_EINVAL,
                      "invalid property path '': the path is empty");
  size_t i = 0;
  while (s[i] != '\0') {
    int rc = parse_segment(s, &i, out, err);
    if (rc != 0) {
      mp_path_destroy(out);
      return rc;
    }
  }
  return 0;
}

void mp_path_destroy(mp_path *p) {
  if (p == NULL)
    return;
  for (size_t i = 0; i < p->len; i++)
    free(p->segs[i].key);
  free(p->segs);
  memset(p, 0, sizeof(*p));
}

/* ==== Formatting ==== */

static int key_needs_quotes(const char *k) {
  return k[0] == '\0' || strcmp(k, "*") == 0 || strpbrk(k, ".[]\"\\") != NULL;
}

void mp__path_append_key(mp_buf *b, const char *k, int first) {
  if (!key_needs_quotes(k)) {
    if (!first)
      mp_buf_putc(b, '.');
    mp_buf_puts(b, k);
    return;
  }
  mp_buf_puts(b, "[\"");
  for (const char *c = k; *c; c++) {
    if (*c == '"' || *c == '\\')
      mp_buf_putc(b, '\\');
    mp_buf_putc(b, *c);
  }
  mp_buf_puts(b, "\"]");
}

char *mp_path_format(const mp_path *p) {
  mp_buf b;
  mp_buf_init(&b);
  for (size_t i = 0; i < p->len; i++) {
    const mp_path_seg *s = &p->segs[i];
    if (s->kind == MP_PATH_KEY)
      mp__path_append_key(&b, s->key, i == 0);
    else if (s->kind == MP_PATH_INDEX)
      mp_buf_printf(&b, "[%zu]", s->index);
    else
      mp_buf_puts(&b, i == 0 ? "*" : "[*]");
  }
  return mp_buf_detach(&b, NULL);
}

/* ==== Get, set, delete ==== */

static const mp_value *skip_secret(const mp_value *v) {
  while (v != NULL && v->kind == MP_VALUE_SECRET)
    v = v->u.secret;
  return v;
}

static mp_value *skip_secret_mut(mp_value *v) {
  while (v != NULL && v->kind == MP_VALUE_SECRET)
    v = v->u.secret;
  return v;
}

/* The child of |v| selected by |seg| (wildcard: the first one). */
static const mp_value *child(const mp_value *v, const mp_path_seg *seg) {
  v = skip_secret(v);
  if (v == NULL)
    return NULL;
  if (v->kind == MP_VALUE_OBJECT) {
    if (seg->kind == MP_PATH_KEY)
      return mp_value_object_get(v, seg->key);
    if (seg->kind == MP_PATH_WILDCARD && v->u.obj.len > 0)
      return v->u.obj.items[0].value;
    return NULL;
  }
  if (v->kind == MP_VALUE_ARRAY && v->u.arr.len > 0) {
    if (seg->kind == MP_PATH_INDEX && seg->index < v->u.arr.len)
      return v->u.arr.items[seg->index];
    if (seg->kind == MP_PATH_WILDCARD)
      return v->u.arr.items[0];
  }
  return NULL;
}

static const mp_value *get_segs(const mp_value *root, const mp_path_seg *segs,
                                size_t n) {
  const mp_value *v = root;
  for (size_t i = 0; i < n && v != NULL; i++)
    v = child(v, &segs[i]);
  return v;
}

const mp_value *mp_path_get(const mp_value *root, const mp_path *p) {
  return get_segs(root, p->segs, p->len);
}

static int set_fail(const mp_path *p, const char *why, mp_err *err) {
  char *text = mp_path_format(p);
  int rc = mp_err_set(err, MP_EINVAL, "cannot set property path '%s': %s", text,
                      why);
  free(text);
  return rc;
}

/* Sets element |seg| of container |cur| to |v| (last path segment). */
static int set_last(mp_value *cur, const mp_path_seg *seg, mp_value *v,
                    const mp_path *p, mp_err *err) {
  if (seg->kind == MP_PATH_KEY) {
    if (cur->kind != MP_VALUE_OBJECT)
      return set_fail(p, "the parent is not an object", err);
    mp_value_object_set(cur, seg->key, v);
    return 0;
  }
  if (cur->kind != MP_VALUE_ARRAY)
    return set_fail(p, "the parent is not an array", err);
  if (seg->index < cur->u.arr.len)
    mp__value_array_replace(cur, seg->index, v);
  else if (seg->index == cur->u.arr.len)
    mp_value_array_push(cur, v);
  else
    return set_fail(p, "the array index is out of range", err);
  return 0;
}

int mp_path_set(mp_value *root, const mp_path *p, mp_value *v, mp_err *err) {
  if (p->len == 0)
    return set_fail(p, "the path is empty", err);
  for (size_t i = 0; i < p->len; i++)
    if (p->segs[i].kind == MP_PATH_WILDCARD)
      return set_fail(p, "wildcards cannot be set", err);
  mp_value *cur = skip_secret_mut(root);
  for (size_t i = 0; i + 1 < p->len; i++) {
    const mp_path_seg *seg = &p->segs[i];
    mp_value *next = NULL;
    if (seg->kind == MP_PATH_KEY) {
      if (cur == NULL || cur->kind != MP_VALUE_OBJECT)
        return set_fail(p, "an intermediate value is not an object", err);
      next = mp_value_object_get(cur, seg->key);
      if (next == NULL) {
        next = mp_value_new_object();
        mp_value_object_set(cur, seg->key, next);
      }
    } else {
      if (cur == NULL || cur->kind != MP_VALUE_ARRAY ||
          seg->index >= cur->u.arr.len)
        return set_fail(p, "an intermediate array index is out of range", err);
      next = cur->u.arr.items[seg->index];
    }
    cur = skip_secret_mut(next);
  }
  if (cur == NULL)
    return set_fail(p, "the root is missing", err);
  return set_last(cur, &p->segs[p->len - 1], v, p, err);
}

/* Frees every element of container |v|; returns 1 if there were any. */
static int clear_container(mp_value *v) {
  int any = 0;
  if (v->kind == MP_VALUE_OBJECT) {
    while (v->u.obj.len > 0)
      any |= mp_value_object_del(v, v->u.obj.items[0].key);
  } else if (v->kind == MP_VALUE_ARRAY) {
    any = v->u.arr.len > 0;
    for (size_t i = 0; i < v->u.arr.len; i++)
      mp_value_free(v->u.arr.items[i]);
    v->u.arr.len = 0;
  }
  return any;
}

static int delete_segs(mp_value *v, const mp_path_seg *segs, size_t n) {
  v = skip_secret_mut(v);
  if (v == NULL || n == 0)
    return 0;
  const mp_path_seg *seg = &segs[0];
  if (n == 1) {
    if (seg->kind == MP_PATH_WILDCARD)
      return clear_container(v);
    if (seg->kind == MP_PATH_KEY)
      return mp_value_object_del(v, seg->key);
    if (v->kind != MP_VALUE_ARRAY || seg->index >= v->u.arr.len)
      return 0;
    mp_value_free(mp__value_array_take(v, seg->index));
    return 1;
  }
  if (seg->kind != MP_PATH_WILDCARD)
    return delete_segs((mp_value *)child(v, seg), segs + 1, n - 1);
  int any = 0;
  if (v->kind == MP_VALUE_OBJECT)
    for (size_t i = 0; i < v->u.obj.len; i++)
      any |= delete_segs(v->u.obj.items[i].value, segs + 1, n - 1);
  if (v->kind == MP_VALUE_ARRAY)
    for (size_t i = 0; i < v->u.arr.len; i++)
      any |= delete_segs(v->u.arr.items[i], segs + 1, n - 1);
  return any;
}

int mp_path_delete(mp_value *root, const mp_path *p) {
  return delete_segs(root, p->segs, p->len);
}

int mp_path_covers(const mp_path *pattern, const mp_path *path) {
  if (pattern->len > path->len)
    return 0;
  for (size_t i = 0; i < pattern->len; i++) {
    const mp_path_seg *a = &pattern->segs[i], *b = &path->segs[i];
    if (a->kind == MP_PATH_WILDCARD)
      continue;
    if (a->kind != b->kind)
      return 0;
    if (a->kind == MP_PATH_KEY && strcmp(a->key, b->key) != 0)
      return 0;
    if (a->kind == MP_PATH_INDEX && a->index != b->index)
      return 0;
  }
  return 1;
}

/* ==== ignoreChanges ==== */

/* Each reset function makes |nw| (the new inputs at this level) agree with
 * |old| (the old inputs at this level, NULL when absent) at the remaining
 * path |segs|[0..n). They return 1 on success and 0 when the path cannot be
 * applied (index on one side only, array length mismatch, shape clash). */
static int reset(const mp_path_seg *segs, size_t n, const mp_value *old,
                 mp_value *nw);

static int is_container(const mp_value *v) {
  return v != NULL && (v->kind == MP_VALUE_OBJECT || v->kind == MP_VALUE_ARRAY);
}

/* Resets key |key| of OBJECT |nw| against |old| (an OBJECT or NULL); segs[0]
 * is the key or wildcard segment being applied. */
static int reset_key(const mp_path_seg *segs, size_t n, const char *key,
                     const mp_value *old, mp_value *nw) {
  const mp_value *ov = old ? mp_value_object_get(old, key) : NULL;
  if (n == 1) {
    if (ov)
      mp_value_object_set(nw, key, mp_value_dup(ov));
    else
      mp_value_object_del(nw, key);
    return 1;
  }
  mp_value *nv = mp_value_object_get(nw, key);
  if (nv != NULL)
    return reset(segs + 1, n - 1, ov, nv);
  const mp_value *oc = skip_secret(ov);
  if (!is_container(oc))
    return 1; /* absent on both sides */
  /* The old value has the path but the new one lacks the parent: rebuild
   * it, and keep it only if something was copied into it. */
  mp_value *fresh = oc->kind == MP_VALUE_OBJECT ? mp_value_new_object()
                                                : mp_value_new_array();
  int ok = reset(segs + 1, n - 1, ov, fresh);
  if (ok && !mp__value_is_absent(fresh) &&
      !(fresh->kind == MP_VALUE_ARRAY && fresh->u.arr.len == 0))
    mp_value_object_set(nw, key, fresh);
  else
    mp_value_free(fresh);
  return ok;
}

static int reset_index(const mp_path_seg *segs, size_t n, const mp_value *old,
                       mp_value *nw) {
  size_t i = segs[0].index;
  int in_old = old && old->kind == MP_VALUE_ARRAY && i < old->u.arr.len;
  int in_new = i < nw->u.arr.len;
  if (in_old != in_new)
    return 0;
  if (!in_old)
    return 1;
  if (n == 1) {
    mp__value_array_replace(nw, i, mp_value_dup(old->u.arr.items[i]));
    return 1;
  }
  return reset(segs + 1, n - 1, old->u.arr.items[i], nw->u.arr.items[i]);
}

static int reset_wild_array(const mp_path_seg *segs, size_t n,
                            const mp_value *old, mp_value *nw) {
  size_t olen = old && old->kind == MP_VALUE_ARRAY ? old->u.arr.len : 0;
  if (olen != nw->u.arr.len)
    return 0;
  for (size_t i = 0; i < olen; i++) {
    if (n == 1)
      mp__value_array_replace(nw, i, mp_value_dup(old->u.arr.items[i]));
    else if (!reset(segs + 1, n - 1, old->u.arr.items[i], nw->u.arr.items[i]))
      return 0;
  }
  return 1;
}

static int reset_wild_object(const mp_path_seg *segs, size_t n,
                             const mp_value *old, mp_value *nw) {
  if (old != NULL && old->kind != MP_VALUE_OBJECT)
    old = NULL;
  mp_strv keys;
  mp_strv_init(&keys);
  for (size_t i = 0; old && i < old->u.obj.len; i++)
    mp_strv_push(&keys, old->u.obj.items[i].key);
  for (size_t i = 0; i < nw->u.obj.len; i++)
    if (mp_value_object_get(old, nw->u.obj.items[i].key) == NULL)
      mp_strv_push(&keys, nw->u.obj.items[i].key);
  int ok = 1;
  for (size_t i = 0; ok && i < keys.len; i++)
    ok = reset_key(segs, n, keys.items[i], old, nw);
  mp_strv_destroy(&keys);
  return ok;
}

static int reset(const mp_path_seg *segs, size_t n, const mp_value *old,
                 mp_value *nw) {
  old = skip_secret(old);
  nw = skip_secret_mut(nw);
  const mp_path_seg *seg = &segs[0];
  int want_obj = seg->kind == MP_PATH_KEY ||
                 (seg->kind == MP_PATH_WILDCARD && nw->kind == MP_VALUE_OBJECT);
  int want_arr = seg->kind == MP_PATH_INDEX ||
                 (seg->kind == MP_PATH_WILDCARD && nw->kind == MP_VALUE_ARRAY);
  if ((want_obj && nw->kind != MP_VALUE_OBJECT) ||
      (want_arr && nw->kind != MP_VALUE_ARRAY) || (!want_obj && !want_arr))
    /* The new value has another shape here: fine only if the old one has
     * nothing to restore at this path. */
    return get_segs(old, segs, n) == NULL;
  if (seg->kind == MP_PATH_KEY)
    return reset_key(segs, n, seg->key,
                     old && old->kind == MP_VALUE_OBJECT ? old : NULL, nw);
  if (seg->kind == MP_PATH_INDEX)
    return reset_index(segs, n, old, nw);
  if (nw->kind == MP_VALUE_ARRAY)
    return reset_wild_array(segs, n, old, nw);
  return reset_wild_object(segs, n, old, nw);
}

/* Applies one parsed path on a copy of |news|, committing on success. */
static int apply_one(const mp_value *olds, mp_value *news, const mp_path *p) {
  mp_value *work = mp_value_dup(news);
  int ok = reset(p->segs, p->len, olds, work);
  if (ok) {
    mp_value tmp = *news;
    *news = *work;
    *work = tmp;
  }
  mp_value_free(work);
  return ok;
}

int mp_value_apply_ignore_changes(const mp_value *olds, mp_value *news,
                                  const mp_strv *paths, mp_strv *invalid,
                                  mp_err *err) {
  if (paths == NULL || paths->len == 0)
    return 0;
  if (news == NULL || news->kind != MP_VALUE_OBJECT)
    return mp_err_set(err, MP_EINVAL,
                      "cannot apply ignoreChanges: the new inputs are not an "
                      "object");
  mp_path *parsed = mp_xcalloc(paths->len, sizeof(*parsed));
  int rc = 0;
  size_t i;
  for (i = 0; i < paths->len && rc == 0; i++) {
    rc = mp_path_parse(paths->items[i], &parsed[i], err);
    if (rc != 0)
      mp_err_prefix(err, "invalid ignoreChanges entry");
  }
  for (size_t k = 0; rc == 0 && k < paths->len; k++)
    if (!apply_one(olds, news, &parsed[k]) && invalid != NULL)
      mp_strv_push(invalid, paths->items[k]);
  for (size_t k = 0; k < paths->len; k++)
    mp_path_destroy(&parsed[k]);
  free(parsed);
  return rc;
}
