/* Property values <-> google.protobuf.Struct with Pulumi's signature keys. */
#include "engine/value_pb.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/crypto.h"
#include "engine/text.h"
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

/* Owned bytes of |s| (|len| bytes, NULs kept), NUL-terminated as well. */
static ProtobufCBinaryData pb_bytes(const char *s, size_t len) {
  ProtobufCBinaryData b = {len, (uint8_t *)mp_xstrndup(s ? s : "", len)};
  return b;
}

static pb_value *pbv_stringn(const char *s, size_t len) {
  pb_value *v = pbv_new(GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE);
  v->string_value = pb_bytes(s, len);
  return v;
}

static pb_value *pbv_string(const char *s) {
  return pbv_stringn(s, s ? strlen(s) : 0);
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

/* Adds |key| (|len| bytes) -> |v| to |s|; takes ownership of |v|. */
static void pbs_addn(pb_struct *s, const char *key, size_t len,
                     pb_value *v) {
  Google__Protobuf__Struct__FieldsEntry *e = mp_xmalloc(sizeof(*e));
  google__protobuf__struct__fields_entry__init(e);
  e->key = pb_bytes(key, len);
  e->value = v;
  s->fields = mp_xreallocarray(s->fields, s->n_fields + 1, sizeof(*s->fields));
  s->fields[s->n_fields++] = e;
}

static void pbs_add(pb_struct *s, const char *key, pb_value *v) {
  pbs_addn(s, key, strlen(key), v);
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
    free(v->string_value.data);
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
    free(s->fields[i]->key.data);
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
      pbs_addn(s, v->u.obj.items[i].key, v->u.obj.items[i].key_len, e);
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

/* A protobuf string must be UTF-8: other bytes travel as a byte string,
 * their base64 under the ByteString signature, as Pulumi marshals them. */
static pb_value *encode_string(const mp_value *v) {
  if (mp_utf8_invalid_at(v->u.str.ptr, v->u.str.len) == v->u.str.len)
    return pbv_stringn(v->u.str.ptr, v->u.str.len);
  mp_buf b;
  mp_buf_init(&b);
  mp_base64_encode((const unsigned char *)v->u.str.ptr, v->u.str.len, &b);
  pb_struct *s = sig_struct(MP_SIG_BYTE_STRING);
  pbs_add(s, "value", pbv_stringn(b.data ? b.data : "", b.len));
  mp_buf_destroy(&b);
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
    return encode_string(v);
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

/* The plain tree of |pb| (no signature decoding; value_sig.c does that);
 * NULL or a Value without a kind is a null. Deeper than the decoder
 * accepts, a subtree is cut to a null: the decoder refuses the node above
 * it, naming its path. */
static mp_value *plain_of(const pb_value *pb, int depth);

static mp_value *plain_fields(const pb_struct *s, int depth) {
  mp_value *obj = mp_value_new_object();
  for (size_t i = 0; s && i < s->n_fields; i++) /* the last of a key wins */
    mp_value_object_setn(obj, (const char *)s->fields[i]->key.data,
                         s->fields[i]->key.len,
                         plain_of(s->fields[i]->value, depth + 1));
  return obj;
}

static mp_value *plain_of(const pb_value *pb, int depth) {
  if (pb == NULL || depth > MP_VALUE_MAX_DEPTH) return mp_value_new_null();
  switch (pb->kind_case) {
  case GOOGLE__PROTOBUF__VALUE__KIND_NUMBER_VALUE:
    return mp_value_new_number(pb->number_value);
  case GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE:
    return mp_value_new_string((const char *)pb->string_value.data,
                               pb->string_value.len);
  case GOOGLE__PROTOBUF__VALUE__KIND_BOOL_VALUE:
    return mp_value_new_bool(pb->bool_value);
  case GOOGLE__PROTOBUF__VALUE__KIND_STRUCT_VALUE:
    return plain_fields(pb->struct_value, depth);
  case GOOGLE__PROTOBUF__VALUE__KIND_LIST_VALUE: {
    mp_value *arr = mp_value_new_array();
    const pb_list *l = pb->list_value;
    for (size_t i = 0; l && i < l->n_values; i++)
      mp_value_array_push(arr, plain_of(l->values[i], depth + 1));
    return arr;
  }
  default:
    return mp_value_new_null();
  }
}

int mp_value_from_pb(const Google__Protobuf__Value *pb, mp_value **out,
                     mp_err *err) {
  mp__sig_opts o = {.code = MP_EPROTO};
  return mp__value_decode_sigs(plain_of(pb, 0), &o, out, err);
}

int mp_value_from_pb_struct(const Google__Protobuf__Struct *s, mp_value **out,
                            mp_err *err) {
  mp__sig_opts o = {.code = MP_EPROTO, .top_fields = 1};
  return mp__value_decode_sigs(plain_fields(s, 0), &o, out, err);
}

void mp_pb_pack(const ProtobufCMessage *msg, mp_buf *out) {
  size_t n = protobuf_c_message_get_packed_size(msg);
  uint8_t *b = mp_xmalloc(n ? n : 1);
  protobuf_c_message_pack(msg, b);
  mp_buf_append(out, b, n);
  free(b);
}
