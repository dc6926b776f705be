/* The diff trees the display draws (cli/prop_diff.h): two values compared
 * element by element as Pulumi's PropertyValue.Diff compares them, or a
 * provider's detailed diff (a list of paths) laid out as the same tree. */
#include "cli/prop_diff.h"

#include <stdlib.h>
#include <string.h>

static mp_pdiff *node(mp_pdiff_kind kind, const mp_value *old,
                      const mp_value *new_) {
  mp_pdiff *d = mp_xcalloc(1, sizeof(*d));
  d->kind = kind;
  d->old = old;
  d->new_ = new_;
  return d;
}

void mp_pdiff_free(mp_pdiff *d) {
  if (!d)
    return;
  for (size_t i = 0; i < d->len; i++) {
    free(d->items[i].key);
    mp_pdiff_free(d->items[i].d);
  }
  free(d->items);
  free(d);
}

/* The item of |d| for |key| (objects) or |index| (arrays), or NULL. */
static mp_pdiff_item *find(mp_pdiff *d, const char *key, size_t index) {
  for (size_t i = 0; i < d->len; i++)
    if (key ? !strcmp(d->items[i].key, key) : d->items[i].index == index)
      return &d->items[i];
  return NULL;
}

/* Puts |sub| under |key| / |index|, in order, replacing what was there. */
static void put(mp_pdiff *d, const char *key, size_t index, mp_pdiff *sub) {
  mp_pdiff_item *it = find(d, key, index);
  if (it) {
    mp_pdiff_free(it->d);
    it->d = sub;
    return;
  }
  if (d->len == d->cap) {
    d->cap = d->cap ? d->cap * 2 : 8;
    d->items = mp_xreallocarray(d->items, d->cap, sizeof(*d->items));
  }
  size_t at = d->len;
  while (at > 0 && (key ? strcmp(d->items[at - 1].key, key) > 0
                        : d->items[at - 1].index > index))
    at--;
  memmove(&d->items[at + 1], &d->items[at], (d->len - at) * sizeof(*d->items));
  d->items[at] = (mp_pdiff_item){
      .key = key ? mp_xstrdup(key) : NULL, .index = index, .d = sub};
  d->len++;
}

static int changed(const mp_pdiff *d) {
  for (size_t i = 0; i < d->len; i++)
    if (d->items[i].d->kind != MP_PDIFF_SAME)
      return 1;
  return 0;
}

static int has_value(const mp_value *v) {
  return v && v->kind != MP_VALUE_NULL;
}

/* Pulumi's internal keys (`__provider` of a dynamic resource, the test
 * provider's scripts): never shown. */
static int internal(const char *key) { return !strncmp(key, "__", 2); }

static mp_pdiff *diff_values(const mp_value *o, const mp_value *n);

/* Objects |o| and |n| (either may be NULL: empty). */
static mp_pdiff *diff_objects(const mp_value *o, const mp_value *n) {
  mp_pdiff *d = node(MP_PDIFF_UPDATE, o, n);
  d->container = 'o';
  size_t ol = o && o->kind == MP_VALUE_OBJECT ? o->u.obj.len : 0;
  size_t nl = n && n->kind == MP_VALUE_OBJECT ? n->u.obj.len : 0;
  for (size_t i = 0; i < ol; i++) {
    const char *k = o->u.obj.items[i].key;
    const mp_value *ov = o->u.obj.items[i].value;
    const mp_value *nv = nl ? mp_value_object_get(n, k) : NULL;
    if (internal(k))
      continue;
    if (!nv) {
      if (has_value(ov))
        put(d, k, 0, node(MP_PDIFF_DELETE, ov, NULL));
      continue;
    }
    /* an output value in the news counts as the same, as with Pulumi */
    mp_pdiff *sub = nv->kind == MP_VALUE_OUTPUT ? NULL : diff_values(ov, nv);
    if (!sub)
      put(d, k, 0, node(MP_PDIFF_SAME, ov, ov));
    else if (!has_value(ov)) {
      mp_pdiff_free(sub);
      put(d, k, 0, node(MP_PDIFF_ADD, NULL, nv));
    } else if (!has_value(nv)) {
      mp_pdiff_free(sub);
      put(d, k, 0, node(MP_PDIFF_DELETE, ov, NULL));
    } else {
      put(d, k, 0, sub);
    }
  }
  for (size_t i = 0; i < nl; i++) {
    const char *k = n->u.obj.items[i].key;
    const mp_value *nv = n->u.obj.items[i].value;
    if (!internal(k) && !(ol && mp_value_object_get(o, k)) && has_value(nv))
      put(d, k, 0, node(MP_PDIFF_ADD, NULL, nv));
  }
  if (!changed(d)) {
    mp_pdiff_free(d);
    return NULL;
  }
  return d;
}

static mp_pdiff *diff_arrays(const mp_value *o, const mp_value *n) {
  mp_pdiff *d = node(MP_PDIFF_UPDATE, o, n);
  d->container = 'a';
  size_t ol = o->u.arr.len, nl = n->u.arr.len;
  for (size_t i = 0; i < ol || i < nl; i++) {
    const mp_value *ov = i < ol ? o->u.arr.items[i] : NULL;
    const mp_value *nv = i < nl ? n->u.arr.items[i] : NULL;
    if (!nv)
      put(d, NULL, i, node(MP_PDIFF_DELETE, ov, NULL));
    else if (!ov)
      put(d, NULL, i, node(MP_PDIFF_ADD, NULL, nv));
    else {
      mp_pdiff *sub = diff_values(ov, nv);
      put(d, NULL, i, sub ? sub : node(MP_PDIFF_SAME, ov, ov));
    }
  }
  if (!changed(d)) {
    mp_pdiff_free(d);
    return NULL;
  }
  return d;
}

/* NULL when |o| and |n| are equal. */
static mp_pdiff *diff_values(const mp_value *o, const mp_value *n) {
  if (o && n && o->kind == MP_VALUE_ARRAY && n->kind == MP_VALUE_ARRAY)
    return diff_arrays(o, n);
  if (o && n && o->kind == MP_VALUE_OBJECT && n->kind == MP_VALUE_OBJECT)
    return diff_objects(o, n);
  if (!has_value(o) && !has_value(n))
    return NULL;
  if (o && n && mp_value_equal(o, n, 0))
    return NULL;
  return node(MP_PDIFF_UPDATE, o, n);
}

mp_pdiff *mp_pdiff_objects(const mp_value *olds, const mp_value *news) {
  return diff_objects(olds, news);
}

/* ---- a detailed diff as a tree ---- */

/* The element |seg| of |v|; an unknown, output or secret stands for its
 * own elements (what it holds cannot be known or shown). */
static const mp_value *child(const mp_path_seg *seg, const mp_value *v) {
  if (!v)
    return NULL;
  if (v->kind == MP_VALUE_UNKNOWN || v->kind == MP_VALUE_OUTPUT ||
      v->kind == MP_VALUE_SECRET)
    return v;
  if (seg->kind == MP_PATH_INDEX && v->kind == MP_VALUE_ARRAY)
    return seg->index < v->u.arr.len ? v->u.arr.items[seg->index] : NULL;
  if (seg->kind == MP_PATH_KEY && v->kind == MP_VALUE_OBJECT)
    return mp_value_object_get(v, seg->key);
  return NULL;
}

/* Records change |kind| at path |segs| (|n| of them) under |parent|,
 * whose old and new values are |op| and |np|. On the way down, a part
 * that exists on one side only is an add or a delete of it whole. */
static void add_path(const mp_path_seg *segs, size_t n, mp_diff_kind kind,
                     mp_pdiff *parent, const mp_value *op, const mp_value *np) {
  const mp_path_seg *seg = &segs[0];
  char want = seg->kind == MP_PATH_KEY ? 'o' : 'a';
  if (seg->kind == MP_PATH_WILDCARD)
    return;
  if (!parent->container)
    parent->container = want;
  if (parent->container != want)
    return; /* a path at odds with the value */
  const char *key = seg->kind == MP_PATH_KEY ? seg->key : NULL;
  const mp_value *o = child(seg, op), *nv = child(seg, np);
  if (n == 1) {
    mp_pdiff *sub;
    if (kind == MP_DIFF_ADD || kind == MP_DIFF_ADD_REPLACE)
      sub = node(MP_PDIFF_ADD, NULL, nv);
    else if (kind == MP_DIFF_DELETE || kind == MP_DIFF_DELETE_REPLACE)
      sub = node(MP_PDIFF_DELETE, o, NULL);
    else if (!(sub = diff_values(o, nv)))
      sub = node(MP_PDIFF_UPDATE, o, nv);
    put(parent, key, seg->index, sub);
    return;
  }
  if (!has_value(o) && has_value(nv)) {
    put(parent, key, seg->index, node(MP_PDIFF_ADD, NULL, nv));
  } else if (has_value(o) && !has_value(nv)) {
    put(parent, key, seg->index, node(MP_PDIFF_DELETE, o, NULL));
  } else {
    mp_pdiff_item *it = find(parent, key, seg->index);
    if (!it) {
      put(parent, key, seg->index, node(MP_PDIFF_UPDATE, o, nv));
      it = find(parent, key, seg->index);
    }
    /* an add or a delete of the whole part already says it all */
    if (it->d->kind == MP_PDIFF_UPDATE)
      add_path(segs + 1, n - 1, kind, it->d, o, nv);
  }
}

mp_pdiff *mp_pdiff_detailed(const mp_diff *dd, const mp_value *old_outputs,
                            const mp_value *old_inputs,
                            const mp_value *new_inputs) {
  mp_pdiff *root = node(MP_PDIFF_UPDATE, NULL, new_inputs);
  root->container = 'o';
  for (size_t i = 0; dd && i < dd->len; i++) {
    mp_path p;
    if (mp_path_parse(dd->items[i].path, &p, NULL) != 0)
      continue;
    const mp_value *olds = dd->items[i].input_diff ? old_inputs : old_outputs;
    if (p.len > 0)
      add_path(p.segs, p.len, dd->items[i].kind, root, olds, new_inputs);
    mp_path_destroy(&p);
  }
  if (root->len == 0) {
    mp_pdiff_free(root);
    return NULL;
  }
  return root;
}
