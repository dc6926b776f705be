/* Unit tests of src/rpc/status.c: codes, grpc-message percent-encoding,
 * base64 and the google.rpc.Status details. */
#include "rpc/status.h"

#include <stdlib.h>
#include <string.h>

#include "rpc_harness.h"
#include "testutil.h"

static void test_status_code_names(void) {
  CHECK_STR(mp_rpc_code_name(MP_RPC_OK), "OK");
  CHECK_STR(mp_rpc_code_name(MP_RPC_UNIMPLEMENTED), "UNIMPLEMENTED");
  CHECK_STR(mp_rpc_code_name(MP_RPC_UNAUTHENTICATED), "UNAUTHENTICATED");
  CHECK_STR(mp_rpc_code_name(17), "UNKNOWN_CODE");
  CHECK_STR(mp_rpc_code_name(-1), "UNKNOWN_CODE");
}

static void test_status_http_mapping(void) {
  CHECK(mp_rpc_code_from_http(404) == MP_RPC_UNIMPLEMENTED);
  CHECK(mp_rpc_code_from_http(400) == MP_RPC_INTERNAL);
  CHECK(mp_rpc_code_from_http(401) == MP_RPC_UNAUTHENTICATED);
  CHECK(mp_rpc_code_from_http(403) == MP_RPC_PERMISSION_DENIED);
  CHECK(mp_rpc_code_from_http(503) == MP_RPC_UNAVAILABLE);
  CHECK(mp_rpc_code_from_http(500) == MP_RPC_UNKNOWN);
}

static void test_status_pct_encode(void) {
  char *e = mp_rpc_pct_encode("50% done\nnext: caf\xc3\xa9");
  CHECK_STR(e, "50%25 done%0Anext: caf%C3%A9");
  char *d = mp_rpc_pct_decode(e, strlen(e));
  CHECK_STR(d, "50% done\nnext: caf\xc3\xa9");
  free(e);
  free(d);
}

/* Peers' messages are shown, never rejected: stray '%' stays as it is. */
static void test_status_pct_decode_lenient(void) {
  const char *in[] = {"100%", "%zz", "a%2", "%20%2g", "%7e"};
  const char *want[] = {"100%", "%zz", "a%2", " %2g", "~"};
  for (size_t i = 0; i < MP_ARRAY_LEN(in); i++) {
    char *d = mp_rpc_pct_decode(in[i], strlen(in[i]));
    CHECK_STR(d, want[i]);
    free(d);
  }
}

static void test_status_b64_round_trip(void) {
  const char *in[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
  const char *want[] = {"",         "Zg==",     "Zm8=",    "Zm9v",
                        "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
  for (size_t i = 0; i < MP_ARRAY_LEN(in); i++) {
    mp_buf enc, dec, unpadded;
    mp_err err;
    mp_buf_init(&enc);
    mp_buf_init(&dec);
    mp_buf_init(&unpadded);
    mp_rpc_b64_encode((const uint8_t *)in[i], strlen(in[i]), &enc);
    CHECK_STR(enc.data ? enc.data : "", want[i]);
    CHECK(mp_rpc_b64_decode(enc.data, enc.len, &dec, &err) == 0);
    CHECK(dec.len == strlen(in[i]) &&
          (dec.len == 0 || memcmp(dec.data, in[i], dec.len) == 0));
    /* Without padding, as some gRPC peers send it. */
    size_t n = enc.len;
    while (n > 0 && enc.data[n - 1] == '=') n--;
    CHECK(mp_rpc_b64_decode(enc.data, n, &unpadded, &err) == 0);
    CHECK(unpadded.len == strlen(in[i]));
    mp_buf_destroy(&enc);
    mp_buf_destroy(&dec);
    mp_buf_destroy(&unpadded);
  }
}

static void test_status_b64_rejects_junk(void) {
  mp_buf out;
  mp_err err;
  mp_buf_init(&out);
  CHECK(mp_rpc_b64_decode("Zm9v*mFy", 8, &out, &err) == MP_EPROTO);
  CHECK_CONTAINS(err.msg, "bad character at offset 4");
  CHECK(mp_rpc_b64_decode("Zm9vY", 5, &out, &err) == MP_EPROTO);
  CHECK_CONTAINS(err.msg, "bad length");
  mp_buf_destroy(&out);
}

/* A status with an ErrorResourceInitFailed detail survives encoding and
 * decoding, and the detail is found by its type name. */
static void test_status_details_round_trip(void) {
  size_t flen;
  uint8_t *fbytes = rh_pack_init_failed(
      "i-1234", "timed out waiting for the instance", &flen);
  mp_rpc_detail d[2] = {
      {"type.googleapis.com/example.Other", (uint8_t *)"\x08\x01", 2},
      {"type.googleapis.com/" MP_RPC_TYPE_INIT_FAILED, fbytes, flen},
  };
  mp_buf packed;
  mp_buf_init(&packed);
  mp_rpc_status_encode_details(MP_RPC_UNKNOWN, "partial failure", d, 2,
                               &packed);

  mp_rpc_status st;
  mp_err err;
  mp_rpc_status_init(&st);
  CHECK(mp_rpc_status_decode_details(&st, (const uint8_t *)packed.data,
                                     packed.len, &err) == 0);
  CHECK(st.ndetails == 2);
  const mp_rpc_detail *got =
      mp_rpc_status_find_detail(&st, MP_RPC_TYPE_INIT_FAILED);
  CHECK(got == &st.details[1]);
  CHECK(
      rh_has_init_failed(&st, "i-1234", "timed out waiting for the instance"));
  CHECK(mp_rpc_status_find_detail(&st, "pulumirpc.Missing") == NULL);
  mp_rpc_status_destroy(&st);
  mp_buf_destroy(&packed);
  free(fbytes);
}

static void test_status_details_rejects_junk(void) {
  mp_rpc_status st;
  mp_err err;
  mp_rpc_status_init(&st);
  /* Field 3 (details) announcing 100 bytes that are not there. */
  const uint8_t junk[] = {0x1a, 100, 1, 2};
  CHECK(mp_rpc_status_decode_details(&st, junk, sizeof(junk), &err) ==
        MP_EPROTO);
  CHECK_CONTAINS(err.msg, "not a google.rpc.Status");
  CHECK(st.ndetails == 0);
  mp_rpc_status_destroy(&st);
}

int main(void) {
  RUN(test_status_code_names);
  RUN(test_status_http_mapping);
  RUN(test_status_pct_encode);
  RUN(test_status_pct_decode_lenient);
  RUN(test_status_b64_round_trip);
  RUN(test_status_b64_rejects_junk);
  RUN(test_status_details_round_trip);
  RUN(test_status_details_rejects_junk);
  return mp_test_summary();
}
