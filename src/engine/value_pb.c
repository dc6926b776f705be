/* Property values <-> google.protobuf.Struct with Pulumi's signature keys. */
#include "engine/value_pb.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/value_int.h"

typedef Google__Protobuf__Value pb_value;
typedef Google__Protobuf__Struct pb_struct;
typedef Google__Protobuf__ListValue pb_list;

/* ==== Building messages ==== */

static pb_value *pbv_new(Google__Protobuf__Value__KindCase kind) {
  pb_value *v = mp_xmalloc(sizeof(*v));
  google__protobuf__value__init(v);
  v->kind_case = kind;
  return v;
}

static pb_value *pbv_null(void) {
  pb_value *v = pbv_new(GOOGLE__PROTOBUF__VALUE__KIND_NULL_VALUE);
  v->null_value = GOOGLE__PROTOBUF__NULL_VALUE__NULL_VALUE;
  return v;
}

static pb_value *pbv_string(const char *s) {
  pb_value *v = pbv_new(GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE);
  v->string_value = mp_xstrdup(s ? s : "");
  return v;
}

static pb_value *pbv_bool(int b) {
  pb_value *v = pbv_new(GOOGLE__PROTOBUF__VALUE__KIND_BOOL_VALUE);
  v->bool_value = b ? 1 : 0;
  return v;
}

static pb_value *pbv_number(double d) {
  pb_value *v = pbv_new(GOOGLE__PROTOBUF__VALUE__KIND_NUMBER_VALUE);
  v->number_value = d;
  return v;
}

static pb_struct *pbs_new(void) {
  pb_struct *s = mp_xmalloc(sizeof(*s));
  google__protobuf__struct__init(s);
  return s;
}

static pb_value *pbv_struct(pb_struct *s) {
  pb_value *v = pbv_new(GOOGLE__PROTOBUF__VALUE__KIND_STRUCT_VALUE);
  v->struct_value = s;
  return v;
}

/* Adds |key| -> |v| to |s|; takes ownership of |v|. */
static void pbs_add(pb_struct *s, const char *key, pb_value *v) {
  Google__Protobuf__Struct__FieldsEntry *e = mp_xmalloc(sizeof(*e));
  google__protobuf__struct__fields_entry__init(e);
  e->key = mp_xstrdup(key);
  e->value = v;
  s->fields = mp_xreallocarray(s->fields, s->n_fields + 1, sizeof(*s->fields));
  s->fields[s->n_fields++] = e;
}

static void pbs_add_opt_string(pb_struct *s, const char *key, const char *v) {
  if (v != NULL)
    pbs_add(s, key, pbv_string(v));
}

static pb_struct *sig_struct(const char *sig) {
  pb_struct *s = pbs_new();
  pbs_add(s, MP_SIG_KEY, pbv_string(sig));
  return s;
}

/* ==== Freeing ==== */

static void pbl_free(pb_list *l) {
  if (l == NULL)
    return;
  for (size_t i = 0; i < l->n_values; i++)
    mp_value_pb_value_free(l->values[i]);
  free(l->values);
  free(l);
}

void mp_value_pb_value_free(Google__Protobuf__Value *v) {
  if (v == NULL)
    return;
  switch (v->kind_case) {
  case GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE:
    free(v->string_value);
    break;
  case GOOGLE__PROTOBUF__VALUE__KIND_STRUCT_VALUE:
    mp_value_pb_struct_free(v->struct_value);
    break;
  case GOOGLE__PROTOBUF__VALUE__KIND_LIST_VALUE:
    pbl_free(v->list_value);
    break;
  default:
    break;
  }
  free(v);
}

void mp_value_pb_struct_free(Google__Protobuf__Struct *s) {
  if (s == NULL)
    return;
  for (size_t i = 0; i < s->n_fields; i++) {
    free(s->fields[i]->key);
    mp_value_pb_value_free(s->fields[i]->value);
    free(s->fields[i]);
  }
  free(s->fields);
  free(s);
}

/* ==== Encoding ==== */

/* Returns the encoded value, or NULL when it is to be dropped (an unknown
 * under MP_PB_DROP_UNKNOWNS). */
static pb_value *encode(const mp_value *v, unsigned flags);

static pb_value *encode_unknown(unsigned flags) {
  if (flags & MP_PB_DROP_UNKNOWNS)
    return NULL;
  return pbv_string(MP_UNKNOWN_SENTINEL);
}

/* Encodes the entries of OBJECT |v| (NULL: none) into a new Struct. */
static pb_struct *encode_fields(const mp_value *v, unsigned flags) {
  pb_struct *s = pbs_new();
  for (size_t i = 0; v && i < v->u.obj.len; i++) {
    const mp_value *item = v->u.obj.items[i].value;
    if ((flags & MP_PB_SKIP_NULLS) && item->kind == MP_VALUE_NULL)
      continue;
    pb_value *e = encode(item, flags);
    if (e != NULL)
      pbs_add(s, v->u.obj.items[i].key, e);
  }
  return s;
}

static pb_value *encode_array(const mp_value *v, unsigned flags) {
  pb_list *l = mp_xmalloc(sizeof(*l));
  google__protobuf__list_value__init(l);
  l->values = mp_xcalloc(v->u.arr.len ? v->u.arr.len : 1, sizeof(*l->values));
  for (size_t i = 0; i < v->u.arr.len; i++) {
    pb_value *e = encode(v->u.arr.items[i], flags);
    if (e != NULL)
      l->values[l->n_values++] = e;
  }
  pb_value *r = pbv_new(GOOGLE__PROTOBUF__VALUE__KIND_LIST_VALUE);
  r->list_value = l;
  return r;
}

static pb_value *encode_asset(const mp_value *v) {
  pb_struct *s = sig_struct(MP_SIG_ASSET);
  pbs_add_opt_string(s, "hash", v->u.asset.hash);
  pbs_add_opt_string(s, "path", v->u.asset.path);
  pbs_add_opt_string(s, "text", v->u.asset.text);
  pbs_add_opt_string(s, "uri", v->u.asset.uri);
  return pbv_struct(s);
}

static pb_value *encode_archive(const mp_value *v, unsigned flags) {
  pb_struct *s = sig_struct(MP_SIG_ARCHIVE);
  if (v->u.archive.assets != NULL)
    pbs_add(s, "assets", pbv_struct(encode_fields(v->u.archive.assets, flags)));
  pbs_add_opt_string(s, "hash", v->u.archive.hash);
  pbs_add_opt_string(s, "path", v->u.archive.path);
  pbs_add_opt_string(s, "uri", v->u.archive.uri);
  return pbv_struct(s);
}

static pb_value *encode_ref(const mp_value *v, unsigned flags) {
  if (!(flags & MP_PB_KEEP_RESOURCES)) {
    if (v->u.ref.id == NULL)
      return pbv_string(v->u.ref.urn);
    if (v->u.ref.id[0] == '\0')
      return encode_unknown(flags);
    return pbv_string(v->u.ref.id);
  }
  pb_struct *s = sig_struct(MP_SIG_RESOURCE_REF);
  pbs_add_opt_string(s, "id", v->u.ref.id);
  pbs_add_opt_string(s, "packageVersion", v->u.ref.package_version);
  pbs_add(s, "urn", pbv_string(v->u.ref.urn));
  return pbv_struct(s);
}

/* Wraps |inner| as a secret when the receiver accepts secrets. */
static pb_value *wrap_secret(pb_value *inner, unsigned flags) {
  if (inner == NULL || !(flags & MP_PB_KEEP_SECRETS))
    return inner;
  pb_struct *s = sig_struct(MP_SIG_SECRET);
  pbs_add(s, "value", inner);
  return pbv_struct(s);
}

static pb_value *encode_output(const mp_value *v, unsigned flags) {
  if (!(flags & MP_PB_KEEP_OUTPUT_VALUES)) {
    pb_value *inner = v->u.output.value ? encode(v->u.output.value, flags)
                                        : encode_unknown(flags);
    return v->u.output.secret ? wrap_secret(inner, flags) : inner;
  }
  pb_struct *s = sig_struct(MP_SIG_OUTPUT);
  if (v->u.output.deps.len > 0) {
    pb_list *l = mp_xmalloc(sizeof(*l));
    google__protobuf__list_value__init(l);
    l->values = mp_xcalloc(v->u.output.deps.len, sizeof(*l->values));
    for (size_t i = 0; i < v->u.output.deps.len; i++)
      l->values[l->n_values++] = pbv_string(v->u.output.deps.items[i]);
    pb_value *deps = pbv_new(GOOGLE__PROTOBUF__VALUE__KIND_LIST_VALUE);
    deps->list_value = l;
    pbs_add(s, "dependencies", deps);
  }
  if (v->u.output.secret)
    pbs_add(s, "secret", pbv_bool(1));
  if (v->u.output.value != NULL) {
    pb_value *inner = encode(v->u.output.value, flags);
    if (inner != NULL)
      pbs_add(s, "value", inner);
  }
  return pbv_struct(s);
}

static pb_value *encode(const mp_value *v, unsigned flags) {
  if (v == NULL)
    return pbv_null();
  switch (v->kind) {
  case MP_VALUE_NULL:
    return pbv_null();
  case MP_VALUE_BOOL:
    return pbv_bool(v->u.boolean);
  case MP_VALUE_NUMBER:
    return pbv_number(v->u.number);
  case MP_VALUE_STRING:
    return pbv_string(v->u.str.ptr);
  case MP_VALUE_ARRAY:
    return encode_array(v, flags);
  case MP_VALUE_OBJECT:
    return pbv_struct(encode_fields(v, flags));
  case MP_VALUE_ASSET:
    return encode_asset(v);
  case MP_VALUE_ARCHIVE:
    return encode_archive(v, flags);
  case MP_VALUE_RESOURCE_REF:
    return encode_ref(v, flags);
  case MP_VALUE_UNKNOWN:
    return encode_unknown(flags);
  case MP_VALUE_SECRET:
    return wrap_secret(encode(v->u.secret, flags), flags);
  case MP_VALUE_OUTPUT:
    return encode_output(v, flags);
  }
  return pbv_null();
}

Google__Protobuf__Value *mp_value_to_pb(const mp_value *v, unsigned flags) {
  pb_value *r = encode(v, flags);
  return r ? r : pbv_null();
}

int mp_value_to_pb_struct(const mp_value *obj, unsigned flags,
                          Google__Protobuf__Struct **out, mp_err *err) {
  *out = NULL;
  while (obj != NULL && (obj->kind == MP_VALUE_SECRET ||
                         (obj->kind == MP_VALUE_OUTPUT && obj->u.output.value)))
    obj = obj->kind == MP_VALUE_SECRET ? obj->u.secret : obj->u.output.value;
  if (obj != NULL && obj->kind != MP_VALUE_OBJECT)
    return mp_err_set(err, MP_EINVAL,
                      "cannot encode a %s as a protobuf Struct: property maps "
                      "must be objects",
                      mp_value_kind_name(obj->kind));
  *out = encode_fields(obj, flags);
  return 0;
}

/* ==== Decoding ==== */

typedef struct dec_ctx {
  int depth;
  mp_buf path; /* property path of the node being decoded, for errors */
} dec_ctx;

static int decode(const pb_value *pb, dec_ctx *cx, mp_value **out, mp_err *err);

static int dec_fail(dec_ctx *cx, mp_err *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int dec_fail(dec_ctx *cx, mp_err *err, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  return mp__value_dec_fail(&cx->path, MP_EPROTO, err, msg);
}

static const pb_value *pbs_get(const pb_struct *s, const char *key) {
  const pb_value *found = NULL;
  for (size_t i = 0; s && i < s->n_fields; i++)
    if (s->fields[i]->key && strcmp(s->fields[i]->key, key) == 0)
      found = s->fields[i]->value; /* last one wins, as for a map */
  return found;
}

static int is_null(const pb_value *v) {
  return v == NULL || v->kind_case == GOOGLE__PROTOBUF__VALUE__KIND__NOT_SET ||
         v->kind_case == GOOGLE__PROTOBUF__VALUE__KIND_NULL_VALUE;
}

/* Reads optional string field |key| of |s| into *dst (NULL if absent). */
static int opt_string(const pb_struct *s, const char *key, dec_ctx *cx,
                      const char **dst, mp_err *err) {
  const pb_value *v = pbs_get(s, key);
  *dst = NULL;
  if (is_null(v))
    return 0;
  if (v->kind_case != GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE)
    return dec_fail(cx, err, "field '%s' must be a string", key);
  *dst = v->string_value ? v->string_value : "";
  return 0;
}

/* Decodes |s| as a plain object, or the fields of an archive's assets. */
static int decode_fields(const pb_struct *s, dec_ctx *cx, mp_value **out,
                         mp_err *err);

static int decode_secret(const pb_struct *s, dec_ctx *cx, mp_value **out,
                         mp_err *err) {
  mp_value *inner = NULL;
  int rc = decode(pbs_get(s, "value"), cx, &inner, err);
  if (rc != 0)
    return rc;
  *out = mp_value_new_secret(inner);
  return 0;
}

static int decode_asset(const pb_struct *s, dec_ctx *cx, mp_value **out,
                        mp_err *err) {
  const char *hash, *text, *path, *uri;
  int rc;
  if ((rc = opt_string(s, "hash", cx, &hash, err)) != 0 ||
      (rc = opt_string(s, "text", cx, &text, err)) != 0 ||
      (rc = opt_string(s, "path", cx, &path, err)) != 0 ||
      (rc = opt_string(s, "uri", cx, &uri, err)) != 0)
    return rc;
  *out = mp_value_new_asset(hash, text, path, uri);
  return 0;
}

static int decode_archive(const pb_struct *s, dec_ctx *cx, mp_value **out,
                          mp_err *err) {
  const char *hash, *path, *uri;
  int rc;
  if ((rc = opt_string(s, "hash", cx, &hash, err)) != 0 ||
      (rc = opt_string(s, "path", cx, &path, err)) != 0 ||
      (rc = opt_string(s, "uri", cx, &uri, err)) != 0)
    return rc;
  mp_value *assets = NULL;
  const pb_value *a = pbs_get(s, "assets");
  if (!is_null(a)) {
    if (a->kind_case != GOOGLE__PROTOBUF__VALUE__KIND_STRUCT_VALUE)
      return dec_fail(cx, err, "archive field 'assets' must be an object");
    rc = decode_fields(a->struct_value, cx, &assets, err);
    if (rc != 0)
      return rc;
  }
  *out = mp_value_new_archive(hash, assets, path, uri);
  return 0;
}

static int decode_ref(const pb_struct *s, dec_ctx *cx, mp_value **out,
                      mp_err *err) {
  const char *urn, *id, *pv;
  int rc;
  if ((rc = opt_string(s, "urn", cx, &urn, err)) != 0 ||
      (rc = opt_string(s, "id", cx, &id, err)) != 0 ||
      (rc = opt_string(s, "packageVersion", cx, &pv, err)) != 0)
    return rc;
  if (urn == NULL || urn[0] == '\0')
    return dec_fail(cx, err, "resource reference has no 'urn'");
  if (id != NULL && strcmp(id, MP_UNKNOWN_SENTINEL) == 0)
    id = "";
  *out = mp_value_new_ref(urn, id, pv);
  return 0;
}

static int decode_deps(const pb_value *d, dec_ctx *cx, mp_strv *deps,
                       mp_err *err) {
  if (is_null(d))
    return 0;
  if (d->kind_case != GOOGLE__PROTOBUF__VALUE__KIND_LIST_VALUE)
    return dec_fail(cx, err, "output 'dependencies' must be a list of URNs");
  for (size_t i = 0; d->list_value && i < d->list_value->n_values; i++) {
    const pb_value *e = d->list_value->values[i];
    if (e == NULL || e->kind_case != GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE)
      return dec_fail(cx, err, "output 'dependencies' must be a list of URNs");
    mp_strv_push(deps, e->string_value ? e->string_value : "");
  }
  return 0;
}

static int decode_output(const pb_struct *s, dec_ctx *cx, mp_value **out,
                         mp_err *err) {
  const pb_value *sec = pbs_get(s, "secret");
  if (!is_null(sec) &&
      sec->kind_case != GOOGLE__PROTOBUF__VALUE__KIND_BOOL_VALUE)
    return dec_fail(cx, err, "output field 'secret' must be a boolean");
  mp_strv deps;
  mp_strv_init(&deps);
  int rc = decode_deps(pbs_get(s, "dependencies"), cx, &deps, err);
  mp_value *val = NULL;
  const pb_value *vp = pbs_get(s, "value");
  if (rc == 0 && vp != NULL)
    rc = decode(vp, cx, &val, err);
  if (rc != 0) {
    mp_strv_destroy(&deps);
    return rc;
  }
  if (val != NULL && val->kind == MP_VALUE_UNKNOWN) {
    mp_value_free(val);
    val = NULL;
  }
  int secret = !is_null(sec) && sec->bool_value;
  *out = mp_value_new_output(val, secret, &deps);
  mp_strv_destroy(&deps);
  return 0;
}

static int decode_signature(const pb_struct *s, const char *sig, dec_ctx *cx,
                            mp_value **out, mp_err *err) {
  if (strcmp(sig, MP_SIG_SECRET) == 0)
    return decode_secret(s, cx, out, err);
  if (strcmp(sig, MP_SIG_ASSET) == 0)
    return decode_asset(s, cx, out, err);
  if (strcmp(sig, MP_SIG_ARCHIVE) == 0)
    return decode_archive(s, cx, out, err);
  if (strcmp(sig, MP_SIG_RESOURCE_REF) == 0)
    return decode_ref(s, cx, out, err);
  if (strcmp(sig, MP_SIG_OUTPUT) == 0)
    return decode_output(s, cx, out, err);
  return dec_fail(cx, err, "unrecognized signature '%s'", sig);
}

static int decode_child(const pb_value *v, const char *key, size_t index,
                        dec_ctx *cx, mp_value **out, mp_err *err) {
  size_t saved = cx->path.len;
  if (key != NULL && saved > 0)
    mp_buf_putc(&cx->path, '.');
  if (key != NULL)
    mp_buf_puts(&cx->path, key);
  else
    mp_buf_printf(&cx->path, "[%zu]", index);
  int rc = decode(v, cx, out, err);
  cx->path.len = saved;
  cx->path.data[saved] = '\0';
  return rc;
}

static int decode_fields(const pb_struct *s, dec_ctx *cx, mp_value **out,
                         mp_err *err) {
  mp_value *obj = mp_value_new_object();
  for (size_t i = 0; s && i < s->n_fields; i++) {
    const char *key = s->fields[i]->key ? s->fields[i]->key : "";
    mp_value *item = NULL;
    int rc = decode_child(s->fields[i]->value, key, 0, cx, &item, err);
    if (rc != 0) {
      mp_value_free(obj);
      return rc;
    }
    mp_value_object_set(obj, key, item);
  }
  *out = obj;
  return 0;
}

static int decode_list(const pb_list *l, dec_ctx *cx, mp_value **out,
                       mp_err *err) {
  mp_value *arr = mp_value_new_array();
  for (size_t i = 0; l && i < l->n_values; i++) {
    mp_value *item = NULL;
    int rc = decode_child(l->values[i], NULL, i, cx, &item, err);
    if (rc != 0) {
      mp_value_free(arr);
      return rc;
    }
    mp_value_array_push(arr, item);
  }
  *out = arr;
  return 0;
}

static int decode_struct(const pb_struct *s, dec_ctx *cx, mp_value **out,
                         mp_err *err) {
  const pb_value *sig = pbs_get(s, MP_SIG_KEY);
  if (sig == NULL)
    return decode_fields(s, cx, out, err);
  if (sig->kind_case != GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE ||
      sig->string_value == NULL)
    return dec_fail(cx, err, "the signature key's value must be a string");
  return decode_signature(s, sig->string_value, cx, out, err);
}

static int decode_node(const pb_value *pb, dec_ctx *cx, mp_value **out,
                       mp_err *err) {
  const char *str;
  switch (pb ? pb->kind_case : GOOGLE__PROTOBUF__VALUE__KIND__NOT_SET) {
  case GOOGLE__PROTOBUF__VALUE__KIND_NUMBER_VALUE:
    *out = mp_value_new_number(pb->number_value);
    return 0;
  case GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE:
    str = pb->string_value ? pb->string_value : "";
    *out = strcmp(str, MP_UNKNOWN_SENTINEL) == 0 ? mp_value_new_unknown()
                                                 : mp_value_new_cstring(str);
    return 0;
  case GOOGLE__PROTOBUF__VALUE__KIND_BOOL_VALUE:
    *out = mp_value_new_bool(pb->bool_value);
    return 0;
  case GOOGLE__PROTOBUF__VALUE__KIND_STRUCT_VALUE:
    return decode_struct(pb->struct_value, cx, out, err);
  case GOOGLE__PROTOBUF__VALUE__KIND_LIST_VALUE:
    return decode_list(pb->list_value, cx, out, err);
  default:
    *out = mp_value_new_null();
    return 0;
  }
}

static int decode(const pb_value *pb, dec_ctx *cx, mp_value **out,
                  mp_err *err) {
  if (cx->depth >= MP_VALUE_MAX_DEPTH)
    return dec_fail(cx, err, "nested more than %d levels deep",
                    MP_VALUE_MAX_DEPTH);
  cx->depth++;
  int rc = decode_node(pb, cx, out, err);
  cx->depth--;
  return rc;
}

static void ctx_init(dec_ctx *cx) {
  cx->depth = 0;
  mp_buf_init(&cx->path);
  mp_buf_puts(&cx->path, ""); /* allocate so that truncation can write */
}

int mp_value_from_pb(const Google__Protobuf__Value *pb, mp_value **out,
                     mp_err *err) {
  dec_ctx cx;
  *out = NULL;
  ctx_init(&cx);
  int rc = decode(pb, &cx, out, err);
  mp_buf_destroy(&cx.path);
  return rc;
}

int mp_value_from_pb_struct(const Google__Protobuf__Struct *s, mp_value **out,
                            mp_err *err) {
  dec_ctx cx;
  *out = NULL;
  ctx_init(&cx);
  int rc = decode_fields(s, &cx, out, err);
  mp_buf_destroy(&cx.path);
  return rc;
}
