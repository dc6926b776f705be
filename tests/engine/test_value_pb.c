/* Tests for src/engine/value_pb.c: values <-> google.protobuf.Struct. */
#include "engine/value_pb.h"

#include <math.h>
#include <stdlib.h>

#include "testutil.h"

#define ALL_KEEP                                                               \
  (MP_PB_KEEP_SECRETS | MP_PB_KEEP_RESOURCES | MP_PB_KEEP_OUTPUT_VALUES)

static mp_value *every_kind(void) {
  mp_strv deps;
  mp_strv_init(&deps);
  mp_strv_push(&deps, "urn:pulumi:dev::p::t:m:R::a");
  mp_value *o = mp_value_new_object();
  mp_value_object_set(o, "null", mp_value_new_null());
  mp_value_object_set(o, "t", mp_value_new_bool(1));
  mp_value_object_set(o, "f", mp_value_new_bool(0));
  mp_value_object_set(o, "z", mp_value_new_number(0));
  mp_value_object_set(o, "n", mp_value_new_number(-1.5));
  mp_value_object_set(o, "e", mp_value_new_cstring(""));
  mp_value_object_set(o, "s", mp_value_new_cstring("hi"));
  mp_value *arr = mp_value_new_array();
  mp_value_array_push(arr, mp_value_new_number(1));
  mp_value_array_push(arr, mp_value_new_unknown());
  mp_value_array_push(arr, mp_value_new_array());
  mp_value_object_set(o, "arr", arr);
  mp_value_object_set(o, "obj", mp_value_new_object());
  mp_value_object_set(o, "asset", mp_value_new_asset("h1", "text", NULL, NULL));
  mp_value *assets = mp_value_new_object();
  mp_value_object_set(assets, "f.txt",
                      mp_value_new_asset(NULL, NULL, "./f.txt", NULL));
  mp_value_object_set(o, "archive",
                      mp_value_new_archive("h2", assets, NULL, NULL));
  mp_value_object_set(o, "uriarchive",
                      mp_value_new_archive(NULL, NULL, NULL, "https://a/b"));
  mp_value_object_set(
      o, "ref",
      mp_value_new_ref("urn:pulumi:dev::p::t:m:R::a", "id-1", "1.2.3"));
  mp_value_object_set(
      o, "comp", mp_value_new_ref("urn:pulumi:dev::p::t:m:C::c", NULL, NULL));
  mp_value_object_set(o, "secret",
                      mp_value_new_secret(mp_value_new_cstring("shh")));
  mp_value_object_set(o, "out",
                      mp_value_new_output(mp_value_new_number(3), 1, &deps));
  mp_value_object_set(o, "outu", mp_value_new_output(NULL, 0, NULL));
  mp_strv_destroy(&deps);
  return o;
}

/* Every Value in the tree has its oneof member set. */
static int all_kinds_set(const Google__Protobuf__Value *v);

static int struct_kinds_set(const Google__Protobuf__Struct *s) {
  for (size_t i = 0; i < s->n_fields; i++)
    if (!all_kinds_set(s->fields[i]->value))
      return 0;
  return 1;
}

static int all_kinds_set(const Google__Protobuf__Value *v) {
  if (v == NULL || v->kind_case == GOOGLE__PROTOBUF__VALUE__KIND__NOT_SET)
    return 0;
  if (v->kind_case == GOOGLE__PROTOBUF__VALUE__KIND_STRUCT_VALUE)
    return struct_kinds_set(v->struct_value);
  if (v->kind_case == GOOGLE__PROTOBUF__VALUE__KIND_LIST_VALUE)
    for (size_t i = 0; i < v->list_value->n_values; i++)
      if (!all_kinds_set(v->list_value->values[i]))
        return 0;
  return 1;
}

/* Owned bytes of the C string |s| (a key or string_value). */
static ProtobufCBinaryData bytes_of(const char *s) {
  ProtobufCBinaryData b = {strlen(s), (uint8_t *)strdup(s)};
  return b;
}

/* 1 if the bytes |b| are the C string |s|. */
static int bytes_are(ProtobufCBinaryData b, const char *s) {
  return b.len == strlen(s) && memcmp(b.data, s, b.len) == 0;
}

/* The bytes |b| ordered as strcmp orders strings (NULs kept). */
static int bytes_cmp(ProtobufCBinaryData a, ProtobufCBinaryData b) {
  size_t n = a.len < b.len ? a.len : b.len;
  int c = n ? memcmp(a.data, b.data, n) : 0;
  return c ? c : (a.len > b.len) - (a.len < b.len);
}

static const Google__Protobuf__Value *field(const Google__Protobuf__Struct *s,
                                            const char *key) {
  for (size_t i = 0; s && i < s->n_fields; i++)
    if (bytes_are(s->fields[i]->key, key))
      return s->fields[i]->value;
  return NULL;
}

static void test_value_pb_round_trip_every_kind(void) {
  mp_value *v = every_kind();
  Google__Protobuf__Struct *s = NULL;
  mp_err err;
  mp_err_clear(&err);
  CHECK(mp_value_to_pb_struct(v, ALL_KEEP, &s, &err) == 0);
  CHECK(s != NULL && struct_kinds_set(s));
  /* Keys are written sorted. */
  for (size_t i = 1; s && i < s->n_fields; i++)
    CHECK(bytes_cmp(s->fields[i - 1]->key, s->fields[i]->key) < 0);
  /* Through the wire and back. */
  size_t n = google__protobuf__struct__get_packed_size(s);
  uint8_t *buf = malloc(n);
  google__protobuf__struct__pack(s, buf);
  Google__Protobuf__Struct *un = google__protobuf__struct__unpack(NULL, n, buf);
  CHECK(un != NULL);
  mp_value *back = NULL;
  CHECK(mp_value_from_pb_struct(un, &back, &err) == 0);
  CHECK(back && mp_value_equal(v, back, 0));
  google__protobuf__struct__free_unpacked(un, NULL);
  free(buf);
  mp_value_free(back);
  mp_value_pb_struct_free(s);
  mp_value_free(v);
}

static void test_value_pb_wire_bytes_match_sdk(void) {
  /* {e:"", f:false, l:[], n:null, o:{}, z:0} as the Node SDK encodes it. */
  mp_value *v = mp_value_new_object();
  mp_value_object_set(v, "z", mp_value_new_number(0));
  mp_value_object_set(v, "o", mp_value_new_object());
  mp_value_object_set(v, "n", mp_value_new_null());
  mp_value_object_set(v, "l", mp_value_new_array());
  mp_value_object_set(v, "f", mp_value_new_bool(0));
  mp_value_object_set(v, "e", mp_value_new_cstring(""));
  Google__Protobuf__Struct *s = NULL;
  CHECK(mp_value_to_pb_struct(v, 0, &s, NULL) == 0);
  static const uint8_t want[] = {
      0x0a, 0x07, 0x0a, 0x01, 'e',  0x12, 0x02, 0x1a, 0x00, 0x0a, 0x07,
      0x0a, 0x01, 'f',  0x12, 0x02, 0x20, 0x00, 0x0a, 0x07, 0x0a, 0x01,
      'l',  0x12, 0x02, 0x32, 0x00, 0x0a, 0x07, 0x0a, 0x01, 'n',  0x12,
      0x02, 0x08, 0x00, 0x0a, 0x07, 0x0a, 0x01, 'o',  0x12, 0x02, 0x2a,
      0x00, 0x0a, 0x0e, 0x0a, 0x01, 'z',  0x12, 0x09, 0x11, 0,    0,
      0,    0,    0,    0,    0,    0};
  size_t n = google__protobuf__struct__get_packed_size(s);
  CHECK(n == sizeof(want));
  uint8_t buf[128];
  if (n <= sizeof(buf)) {
    google__protobuf__struct__pack(s, buf);
    CHECK(memcmp(buf, want, sizeof(want)) == 0);
  }
  mp_value_pb_struct_free(s);
  mp_value_free(v);
}

static void test_value_pb_signature_encodings(void) {
  mp_value *v = every_kind();
  Google__Protobuf__Struct *s = NULL;
  CHECK(mp_value_to_pb_struct(v, ALL_KEEP, &s, NULL) == 0);
  const Google__Protobuf__Value *sec = field(s, "secret");
  CHECK(sec && sec->kind_case == GOOGLE__PROTOBUF__VALUE__KIND_STRUCT_VALUE);
  CHECK_STR((const char *)field(sec->struct_value, MP_SIG_KEY)->string_value.data, MP_SIG_SECRET);
  CHECK_STR((const char *)field(sec->struct_value, "value")->string_value.data, "shh");
  const Google__Protobuf__Value *ref = field(s, "ref");
  CHECK_STR((const char *)field(ref->struct_value, MP_SIG_KEY)->string_value.data,
            MP_SIG_RESOURCE_REF);
  CHECK_STR((const char *)field(ref->struct_value, "id")->string_value.data, "id-1");
  CHECK_STR((const char *)field(ref->struct_value, "packageVersion")->string_value.data, "1.2.3");
  const Google__Protobuf__Value *arr = field(s, "arr");
  CHECK_STR((const char *)arr->list_value->values[1]->string_value.data, MP_UNKNOWN_SENTINEL);
  const Google__Protobuf__Value *outu = field(s, "outu");
  CHECK(field(outu->struct_value, "value") == NULL); /* absent = unknown */
  const Google__Protobuf__Value *out = field(s, "out");
  CHECK(field(out->struct_value, "secret")->bool_value == 1);
  CHECK(field(out->struct_value, "dependencies")->list_value->n_values == 1);
  mp_value_pb_struct_free(s);
  mp_value_free(v);
}

static void test_value_pb_lowering_for_plain_receivers(void) {
  mp_value *v = every_kind();
  mp_value_object_set(
      v, "unk_ref", mp_value_new_ref("urn:pulumi:dev::p::t:m:R::u", "", NULL));
  Google__Protobuf__Struct *s = NULL;
  CHECK(mp_value_to_pb_struct(v, 0, &s, NULL) == 0);
  CHECK(struct_kinds_set(s));
  CHECK_STR((const char *)field(s, "secret")->string_value.data, "shh");
  CHECK_STR((const char *)field(s, "ref")->string_value.data, "id-1");
  CHECK_STR((const char *)field(s, "comp")->string_value.data, "urn:pulumi:dev::p::t:m:C::c");
  CHECK_STR((const char *)field(s, "unk_ref")->string_value.data, MP_UNKNOWN_SENTINEL);
  CHECK(field(s, "out")->number_value == 3);
  CHECK_STR((const char *)field(s, "outu")->string_value.data, MP_UNKNOWN_SENTINEL);
  /* Assets keep their signature object. */
  const Google__Protobuf__Value *asset = field(s, "asset");
  CHECK_STR((const char *)field(asset->struct_value, MP_SIG_KEY)->string_value.data, MP_SIG_ASSET);
  mp_value_pb_struct_free(s);

  /* Secrets kept but not output values: a secret output stays secret. */
  CHECK(mp_value_to_pb_struct(v, MP_PB_KEEP_SECRETS, &s, NULL) == 0);
  const Google__Protobuf__Value *out = field(s, "out");
  CHECK(out->kind_case == GOOGLE__PROTOBUF__VALUE__KIND_STRUCT_VALUE);
  CHECK_STR((const char *)field(out->struct_value, MP_SIG_KEY)->string_value.data, MP_SIG_SECRET);
  CHECK(field(out->struct_value, "value")->number_value == 3);
  mp_value_pb_struct_free(s);

  /* Dropping unknowns and nulls. */
  CHECK(mp_value_to_pb_struct(v, MP_PB_DROP_UNKNOWNS | MP_PB_SKIP_NULLS, &s,
                              NULL) == 0);
  CHECK(field(s, "outu") == NULL);
  CHECK(field(s, "unk_ref") == NULL);
  CHECK(field(s, "null") == NULL);
  CHECK(field(s, "arr")->list_value->n_values == 2);
  CHECK(field(s, "f") != NULL && field(s, "f")->bool_value == 0);
  mp_value_pb_struct_free(s);
  mp_value_free(v);
}

static void test_value_pb_single_values(void) {
  mp_value *vals[] = {
      mp_value_new_null(),      mp_value_new_bool(0),
      mp_value_new_number(NAN), mp_value_new_cstring("x"),
      mp_value_new_unknown(),   mp_value_new_secret(mp_value_new_unknown())};
  for (size_t i = 0; i < MP_ARRAY_LEN(vals); i++) {
    Google__Protobuf__Value *pb = mp_value_to_pb(vals[i], ALL_KEEP);
    CHECK(all_kinds_set(pb));
    mp_value *back = NULL;
    CHECK(mp_value_from_pb(pb, &back, NULL) == 0);
    CHECK(back && mp_value_equal(back, vals[i], 0));
    mp_value_free(back);
    mp_value_pb_value_free(pb);
    mp_value_free(vals[i]);
  }
  /* A dropped top-level unknown is still a Value with a kind. */
  mp_value *u = mp_value_new_unknown();
  Google__Protobuf__Value *pb = mp_value_to_pb(u, MP_PB_DROP_UNKNOWNS);
  CHECK(pb->kind_case == GOOGLE__PROTOBUF__VALUE__KIND_NULL_VALUE);
  mp_value_pb_value_free(pb);
  mp_value_free(u);
  /* NULL and kind-less Values decode as null. */
  mp_value *n = NULL;
  CHECK(mp_value_from_pb(NULL, &n, NULL) == 0 && n->kind == MP_VALUE_NULL);
  mp_value_free(n);
  Google__Protobuf__Value empty = GOOGLE__PROTOBUF__VALUE__INIT;
  CHECK(mp_value_from_pb(&empty, &n, NULL) == 0 && n->kind == MP_VALUE_NULL);
  mp_value_free(n);
  CHECK(mp_value_from_pb_struct(NULL, &n, NULL) == 0 &&
        n->kind == MP_VALUE_OBJECT && n->u.obj.len == 0);
  mp_value_free(n);
}

/* Builds wire input: decodes checkpoint JSON (signature objects included)
 * and encodes it as a Struct with every capability flag set. */
static Google__Protobuf__Struct *wire(const char *json) {
  mp_value *v = NULL;
  mp_err err;
  CHECK(mp_value_from_json(json, strlen(json), NULL, &v, &err) == 0);
  Google__Protobuf__Struct *s = NULL;
  CHECK(mp_value_to_pb_struct(v, ALL_KEEP, &s, &err) == 0);
  mp_value_free(v);
  return s;
}

static void test_value_pb_decodes_sdk_shapes(void) {
  /* An asset as the Node SDK sends it: extra marker key, no hash. */
  Google__Protobuf__Struct *s = NULL;
  mp_value *v = mp_value_new_object();
  mp_value *marker = mp_value_new_object();
  mp_value_object_set(marker, "__pulumiAsset", mp_value_new_bool(1));
  mp_value_object_set(marker, "text", mp_value_new_cstring("hello"));
  mp_value_object_set(v, "a", marker);
  CHECK(mp_value_to_pb_struct(v, 0, &s, NULL) == 0);
  /* Add the signature key by hand to the inner struct. */
  Google__Protobuf__Struct *inner =
      (Google__Protobuf__Struct *)field(s, "a")->struct_value;
  mp_value *sigv = mp_value_new_cstring(MP_SIG_ASSET);
  Google__Protobuf__Value *sig = mp_value_to_pb(sigv, 0);
  mp_value_free(sigv);
  Google__Protobuf__Struct__FieldsEntry *e = malloc(sizeof(*e));
  google__protobuf__struct__fields_entry__init(e);
  e->key = bytes_of(MP_SIG_KEY);
  e->value = sig;
  inner->fields = realloc(inner->fields, (inner->n_fields + 1) * sizeof(e));
  inner->fields[inner->n_fields++] = e;
  mp_value *back = NULL;
  mp_err err;
  CHECK(mp_value_from_pb_struct(s, &back, &err) == 0);
  const mp_value *a = mp_value_object_get(back, "a");
  CHECK(a && a->kind == MP_VALUE_ASSET);
  CHECK(a && a->u.asset.hash == NULL);
  CHECK_STR(a ? a->u.asset.text : NULL, "hello");
  mp_value_free(back);
  mp_value_pb_struct_free(s);
  mp_value_free(v);

  /* Output value with dependencies and the unknown sentinel as value. */
  s = wire("{\"o\":{\"" MP_SIG_KEY "\":\"" MP_SIG_OUTPUT
           "\",\"value\":\"" MP_UNKNOWN_SENTINEL
           "\",\"secret\":true,\"dependencies\":[\"urn:x\"]}}");
  CHECK(mp_value_from_pb_struct(s, &back, &err) == 0);
  const mp_value *o = mp_value_object_get(back, "o");
  CHECK(o && o->kind == MP_VALUE_OUTPUT && o->u.output.value == NULL &&
        o->u.output.secret == 1 && o->u.output.deps.len == 1);
  CHECK(mp_value_contains_unknowns(back) && mp_value_contains_secrets(back));
  mp_value_free(back);
  mp_value_pb_struct_free(s);
}

static void check_pb_error(const char *json, const char *want) {
  Google__Protobuf__Struct *s = wire(json);
  /* Flip the marker "SIG" key to the real signature key. */
  for (size_t i = 0; i < s->n_fields; i++) {
    Google__Protobuf__Value *v = s->fields[i]->value;
    if (v->kind_case != GOOGLE__PROTOBUF__VALUE__KIND_STRUCT_VALUE)
      continue;
    for (size_t k = 0; k < v->struct_value->n_fields; k++)
      if (bytes_are(v->struct_value->fields[k]->key, "SIG")) {
        free(v->struct_value->fields[k]->key.data);
        v->struct_value->fields[k]->key = bytes_of(MP_SIG_KEY);
      }
  }
  mp_value *out = (mp_value *)1;
  mp_err err;
  mp_err_clear(&err);
  CHECK(mp_value_from_pb_struct(s, &out, &err) == MP_EPROTO);
  CHECK(out == NULL);
  CHECK_CONTAINS(err.msg, want);
  mp_value_pb_struct_free(s);
}

static void test_value_pb_errors(void) {
  check_pb_error("{\"x\":{\"SIG\":\"bogus\"}}",
                 "invalid property value at 'x': unrecognized signature "
                 "'bogus'");
  check_pb_error("{\"x\":{\"SIG\":3}}",
                 "signature key's value must be a string");
  check_pb_error("{\"r\":{\"SIG\":\"" MP_SIG_RESOURCE_REF "\",\"id\":\"i\"}}",
                 "at 'r': resource reference has no 'urn'");
  check_pb_error("{\"o\":{\"SIG\":\"" MP_SIG_OUTPUT "\",\"secret\":\"yes\"}}",
                 "output field 'secret' must be a boolean");
  check_pb_error("{\"o\":{\"SIG\":\"" MP_SIG_OUTPUT "\",\"dependencies\":[1]}}",
                 "'dependencies' must be a list of URNs");
  check_pb_error("{\"a\":{\"SIG\":\"" MP_SIG_ASSET "\",\"text\":{}}}",
                 "field 'text' must be a string");

  /* A struct nested deeper than the limit is refused, not recursed. */
  Google__Protobuf__Value *top = NULL;
  mp_value *deep = mp_value_new_array();
  mp_value *cur = deep;
  for (int i = 0; i < 600; i++) {
    mp_value *next = mp_value_new_array();
    mp_value_array_push(cur, next);
    cur = next;
  }
  top = mp_value_to_pb(deep, 0);
  mp_value *out = NULL;
  mp_err err;
  CHECK(mp_value_from_pb(top, &out, &err) == MP_EPROTO);
  CHECK_CONTAINS(err.msg, "nested more than 512 levels deep");
  mp_value_pb_value_free(top);
  mp_value_free(deep);

  mp_value *str = mp_value_new_cstring("x");
  Google__Protobuf__Struct *s = (Google__Protobuf__Struct *)1;
  CHECK(mp_value_to_pb_struct(str, 0, &s, &err) == MP_EINVAL);
  CHECK(s == NULL);
  CHECK_CONTAINS(err.msg, "cannot encode a string as a protobuf Struct");
  mp_value_free(str);
}

/* The JSON and protobuf codecs share one signature-decoding pass; what
 * differs is the format's own: a checkpoint-only signature is refused on
 * the wire, and a Struct's own keys are never a signature. */
static void test_value_pb_shares_the_signature_pass(void) {
  const char *nonfinite = "{\"n\":{\"SIG\":\"8ad145fe-0d11-4827-bfd7-"
                          "1abcbf086f5c\",\"value\":\"7ff0000000000000\"}}";
  check_pb_error(nonfinite, "unrecognized signature '8ad145fe");
  mp_value *v = NULL;
  mp_err err;
  char json[256];
  snprintf(json, sizeof(json),
           "{\"n\":{\"" MP_SIG_KEY "\":\"8ad145fe-0d11-4827-bfd7-"
           "1abcbf086f5c\",\"value\":\"7ff0000000000000\"}}");
  CHECK(mp_value_from_json(json, strlen(json), NULL, &v, &err) == 0);
  const mp_value *n = v ? mp_value_object_get(v, "n") : NULL;
  CHECK(n && n->kind == MP_VALUE_NUMBER && n->u.number > 1e308);
  mp_value_free(v);

  /* A Struct whose own keys hold the signature key stays a map. */
  Google__Protobuf__Struct *s = wire("{\"plain\":1}");
  free(s->fields[0]->key.data);
  s->fields[0]->key = bytes_of(MP_SIG_KEY);
  mp_value_pb_value_free(s->fields[0]->value);
  s->fields[0]->value = mp_value_to_pb(NULL, 0);
  google__protobuf__value__init(s->fields[0]->value);
  s->fields[0]->value->kind_case = GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE;
  s->fields[0]->value->string_value = bytes_of(MP_SIG_SECRET);
  mp_value *back = NULL;
  CHECK(mp_value_from_pb_struct(s, &back, &err) == 0);
  CHECK(back && back->kind == MP_VALUE_OBJECT &&
        mp_value_object_get(back, MP_SIG_KEY) != NULL);
  mp_value_free(back);
  mp_value_pb_struct_free(s);
}

/* A NUL character in a string or a key survives the wire (protobuf-c
 * strings would end at it; struct.proto declares them bytes). */
static void test_value_pb_embedded_nul(void) {
  mp_value *o = mp_value_new_object();
  mp_value_object_setn(o, "k\0x", 3, mp_value_new_string("v\0w", 3));
  Google__Protobuf__Struct *s = NULL;
  mp_err err;
  CHECK(mp_value_to_pb_struct(o, 0, &s, &err) == 0);
  size_t n = google__protobuf__struct__get_packed_size(s);
  uint8_t *buf = malloc(n);
  google__protobuf__struct__pack(s, buf);
  Google__Protobuf__Struct *got =
      google__protobuf__struct__unpack(NULL, n, buf);
  mp_value *back = NULL;
  CHECK(got && mp_value_from_pb_struct(got, &back, &err) == 0);
  CHECK(back && mp_value_equal(o, back, 0));
  const mp_value *v = back ? mp_value_object_getn(back, "k\0x", 3) : NULL;
  CHECK(v && v->kind == MP_VALUE_STRING && v->u.str.len == 3);
  mp_value_free(back);
  google__protobuf__struct__free_unpacked(got, NULL);
  free(buf);
  mp_value_pb_struct_free(s);
  mp_value_free(o);
}

/* Bytes that are not UTF-8 cannot be a protobuf string: they travel as a
 * byte string (the ByteString signature and their base64), both ways, as
 * Pulumi marshals them (l2-raw-string-bytes). */
static void test_value_pb_byte_string(void) {
  static const char raw[] = "\0hello \x80\xfe\xff world\xf0(";
  mp_value *o = mp_value_new_object();
  mp_value_object_set(o, "b", mp_value_new_string(raw, sizeof(raw) - 1));
  mp_value_object_set(o, "t", mp_value_new_string("plain", 5));
  Google__Protobuf__Struct *s = NULL;
  mp_err err;
  CHECK(mp_value_to_pb_struct(o, 0, &s, &err) == 0);
  const Google__Protobuf__Value *b = NULL, *t = NULL;
  for (size_t i = 0; s && i < s->n_fields; i++) {
    if (bytes_are(s->fields[i]->key, "b")) b = s->fields[i]->value;
    if (bytes_are(s->fields[i]->key, "t")) t = s->fields[i]->value;
  }
  CHECK(t && t->kind_case == GOOGLE__PROTOBUF__VALUE__KIND_STRING_VALUE);
  CHECK(b && b->kind_case == GOOGLE__PROTOBUF__VALUE__KIND_STRUCT_VALUE);
  int sig = 0, value = 0;
  for (size_t i = 0; b && b->struct_value && i < b->struct_value->n_fields;
       i++) {
    const Google__Protobuf__Struct__FieldsEntry *e =
        b->struct_value->fields[i];
    if (bytes_are(e->key, MP_SIG_KEY))
      sig = bytes_are(e->value->string_value, MP_SIG_BYTE_STRING);
    if (bytes_are(e->key, "value"))
      value = bytes_are(e->value->string_value, "AGhlbGxvIID+/yB3b3JsZPAo");
  }
  CHECK(sig && value);
  mp_value *back = NULL;
  CHECK(s && mp_value_from_pb_struct(s, &back, &err) == 0);
  CHECK(back && mp_value_equal(o, back, 0));
  mp_value_free(back);
  mp_value_pb_struct_free(s);
  mp_value_free(o);
}

int main(void) {
  RUN(test_value_pb_round_trip_every_kind);
  RUN(test_value_pb_byte_string);
  RUN(test_value_pb_embedded_nul);
  RUN(test_value_pb_wire_bytes_match_sdk);
  RUN(test_value_pb_signature_encodings);
  RUN(test_value_pb_lowering_for_plain_receivers);
  RUN(test_value_pb_single_values);
  RUN(test_value_pb_decodes_sdk_shapes);
  RUN(test_value_pb_errors);
  RUN(test_value_pb_shares_the_signature_pass);
  return mp_test_summary();
}
