/* google.protobuf.Value and Struct, as the monitor and the provider
 * client receive them, to engine values: secrets, unknowns, assets,
 * archives, resource references and output values. The input is decoded
 * as both messages. A decoded value must encode and decode again to an
 * equal value, and must write as checkpoint JSON (--show-secrets) that
 * reads back. */
#include <stdio.h>
#include <stdlib.h>

#include "engine/value_pb.h"
#include "fuzz_util.h"

enum {
  KEEP_ALL = MP_PB_KEEP_SECRETS | MP_PB_KEEP_RESOURCES |
             MP_PB_KEEP_OUTPUT_VALUES
};

/* |v| encoded again, keeping everything, and decoded as it came: a
 * Struct's top-level keys are fields, never a signature object, so an
 * object read from one goes back as one. */
static void wire_again(const mp_value *v, int as_struct) {
  mp_err err;
  mp_value *again = NULL;
  int rc;
  if (as_struct) {
    Google__Protobuf__Struct *pb = NULL;
    FUZZ_CHECK(mp_value_to_pb_struct(v, KEEP_ALL, &pb, &err) == 0,
               "an object does not encode as a Struct");
    rc = mp_value_from_pb_struct(pb, &again, &err);
    mp_value_pb_struct_free(pb);
  } else {
    Google__Protobuf__Value *pb = mp_value_to_pb(v, KEEP_ALL);
    rc = mp_value_from_pb(pb, &again, &err);
    mp_value_pb_value_free(pb);
  }
  if (rc != 0) fprintf(stderr, "decoding again: %s\n", err.msg);
  FUZZ_CHECK(rc == 0, "an encoded value does not decode");
  FUZZ_CHECK(mp_value_equal(v, again, 0), "a value changed on the wire");
  mp_value_free(again);
}

static void check_value(const mp_value *v, int as_struct) {
  mp_err err;
  wire_again(v, as_struct);
  /* The lowered forms a provider without the features gets. */
  mp_value_pb_value_free(mp_value_to_pb(v, 0));
  mp_value_pb_value_free(
      mp_value_to_pb(v, MP_PB_DROP_UNKNOWNS | MP_PB_SKIP_NULLS));
  /* Checkpoint JSON, read back as a value (which a Struct's top level is
   * not: its keys may look like a signature). */
  mp_buf json;
  mp_buf_init(&json);
  if (mp_value_to_json(v, NULL, MP_JSON_SHOW_SECRETS, &json, &err) == 0 &&
      !as_struct) {
    mp_value *again = NULL;
    FUZZ_CHECK(mp_value_from_json(json.data, json.len, NULL, &again, &err) == 0,
               "a value's checkpoint JSON does not read back");
    mp_value_free(again);
  }
  mp_buf_destroy(&json);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mp_err err;
  mp_value *v = NULL;
  Google__Protobuf__Value *pv = google__protobuf__value__unpack(NULL, size, data);
  if (pv != NULL) {
    if (mp_value_from_pb(pv, &v, &err) == 0) check_value(v, 0);
    mp_value_free(v);
    google__protobuf__value__free_unpacked(pv, NULL);
  }
  v = NULL;
  Google__Protobuf__Struct *ps =
      google__protobuf__struct__unpack(NULL, size, data);
  if (ps != NULL) {
    if (mp_value_from_pb_struct(ps, &v, &err) == 0) {
      FUZZ_CHECK(v->kind == MP_VALUE_OBJECT, "a Struct is not an object");
      check_value(v, 1);
    }
    mp_value_free(v);
    google__protobuf__struct__free_unpacked(ps, NULL);
  }
  return 0;
}
