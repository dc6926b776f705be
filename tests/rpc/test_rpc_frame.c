/* Unit tests of src/rpc/frame.c: message prefixes and reassembly. */
#include "rpc/frame.h"

#include <stdlib.h>
#include <string.h>

#include "rpc/status.h"
#include "testutil.h"

/* Frames |msg| with its prefix into |out| (5 + len bytes). */
static void frame(const void *msg, size_t len, uint8_t *out) {
  mp_rpc_frame_prefix(out, len);
  memcpy(out + MP_RPC_PREFIX_LEN, msg, len);
}

static void test_frame_prefix_is_big_endian(void) {
  uint8_t p[MP_RPC_PREFIX_LEN];
  mp_rpc_frame_prefix(p, 0x01020304);
  CHECK(p[0] == 0 && p[1] == 1 && p[2] == 2 && p[3] == 3 && p[4] == 4);
}

/* Every split of a framed message, down to one byte at a time, gives back
 * the same message. */
static void test_frame_reader_reassembles_any_split(void) {
  const char *msg = "hello, reassembled world";
  size_t len = strlen(msg);
  uint8_t buf[64];
  frame(msg, len, buf);
  for (size_t chunk = 1; chunk <= len + MP_RPC_PREFIX_LEN; chunk++) {
    mp_rpc_reader r;
    mp_err err;
    mp_rpc_reader_init(&r, 1024);
    for (size_t off = 0; off < len + MP_RPC_PREFIX_LEN; off += chunk) {
      size_t n = len + MP_RPC_PREFIX_LEN - off;
      if (n > chunk) n = chunk;
      CHECK(mp_rpc_reader_feed(&r, buf + off, n, &err) == 0);
    }
    CHECK(r.complete);
    CHECK(!mp_rpc_reader_partial(&r));
    mp_buf out;
    mp_buf_init(&out);
    mp_rpc_reader_take(&r, &out);
    CHECK(out.len == len && memcmp(out.data, msg, len) == 0);
    mp_buf_destroy(&out);
    mp_rpc_reader_destroy(&r);
  }
}

static void test_frame_reader_empty_message(void) {
  uint8_t p[MP_RPC_PREFIX_LEN];
  mp_rpc_frame_prefix(p, 0);
  mp_rpc_reader r;
  mp_err err;
  mp_rpc_reader_init(&r, 16);
  CHECK(!r.complete);
  CHECK(mp_rpc_reader_feed(&r, p, sizeof(p), &err) == 0);
  CHECK(r.complete);
  mp_buf out;
  mp_buf_init(&out);
  mp_rpc_reader_take(&r, &out);
  CHECK(out.len == 0);
  mp_buf_destroy(&out);
  mp_rpc_reader_destroy(&r);
}

/* A large message fed in DATA-sized chunks arrives intact; the buffer
 * never grows past the announced length (plus the NUL). */
static void test_frame_reader_large_message(void) {
  size_t len = (size_t)3 << 20;
  uint8_t *buf = malloc(len + MP_RPC_PREFIX_LEN);
  for (size_t i = 0; i < len; i++) buf[MP_RPC_PREFIX_LEN + i] = (uint8_t)i;
  mp_rpc_frame_prefix(buf, len);
  mp_rpc_reader r;
  mp_err err;
  mp_rpc_reader_init(&r, len);
  for (size_t off = 0; off < len + MP_RPC_PREFIX_LEN; off += 16384) {
    size_t n = len + MP_RPC_PREFIX_LEN - off;
    CHECK(mp_rpc_reader_feed(&r, buf + off, n > 16384 ? 16384 : n, &err) == 0);
  }
  CHECK(r.complete);
  CHECK(r.msg.cap == len + 1);
  CHECK(memcmp(r.msg.data, buf + MP_RPC_PREFIX_LEN, len) == 0);
  mp_rpc_reader_destroy(&r);
  free(buf);
}

static void test_frame_reader_refuses_oversized(void) {
  uint8_t p[MP_RPC_PREFIX_LEN];
  mp_rpc_frame_prefix(p, 101);
  mp_rpc_reader r;
  mp_err err;
  mp_rpc_reader_init(&r, 100);
  CHECK(mp_rpc_reader_feed(&r, p, sizeof(p), &err) == MP_EPROTO);
  CHECK(r.status == MP_RPC_RESOURCE_EXHAUSTED);
  CHECK_CONTAINS(err.msg, "larger than max (101 vs. 100 bytes)");
  /* Nothing is accepted after a failure. */
  CHECK(mp_rpc_reader_feed(&r, p, 1, &err) == MP_EPROTO);
  mp_rpc_reader_destroy(&r);
}

static void test_frame_reader_refuses_bad_prefix(void) {
  uint8_t compressed[] = {1, 0, 0, 0, 1, 'x'};
  uint8_t junk[] = {'H', 'T', 'T', 'P', '/'};
  mp_rpc_reader r;
  mp_err err;
  mp_rpc_reader_init(&r, 100);
  CHECK(mp_rpc_reader_feed(&r, compressed, sizeof(compressed), &err) ==
        MP_EPROTO);
  CHECK(r.status == MP_RPC_INTERNAL);
  CHECK_CONTAINS(err.msg, "compressed gRPC message");
  mp_rpc_reader_destroy(&r);
  mp_rpc_reader_init(&r, 1 << 30);
  CHECK(mp_rpc_reader_feed(&r, junk, sizeof(junk), &err) == MP_EPROTO);
  CHECK(r.status == MP_RPC_INTERNAL);
  CHECK_CONTAINS(err.msg, "bad gRPC message prefix: flag byte 0x48");
  mp_rpc_reader_destroy(&r);
}

static void test_frame_reader_refuses_second_message(void) {
  uint8_t two[12];
  frame("a", 1, two);
  frame("b", 1, two + 6);
  mp_rpc_reader r;
  mp_err err;
  mp_rpc_reader_init(&r, 100);
  CHECK(mp_rpc_reader_feed(&r, two, sizeof(two), &err) == MP_EPROTO);
  CHECK(r.status == MP_RPC_INTERNAL);
  CHECK_CONTAINS(err.msg, "more than one message");
  mp_rpc_reader_destroy(&r);
}

static void test_frame_reader_reports_partial(void) {
  uint8_t buf[8];
  frame("abc", 3, buf);
  mp_rpc_reader r;
  mp_err err;
  mp_rpc_reader_init(&r, 100);
  CHECK(!mp_rpc_reader_partial(&r));
  CHECK(mp_rpc_reader_feed(&r, buf, 3, &err) == 0);
  CHECK(mp_rpc_reader_partial(&r));
  CHECK(mp_rpc_reader_feed(&r, buf + 3, 4, &err) == 0);
  CHECK(mp_rpc_reader_partial(&r));
  CHECK(mp_rpc_reader_feed(&r, buf + 7, 1, &err) == 0);
  CHECK(!mp_rpc_reader_partial(&r) && r.complete);
  mp_rpc_reader_destroy(&r);
}

int main(void) {
  RUN(test_frame_prefix_is_big_endian);
  RUN(test_frame_reader_reassembles_any_split);
  RUN(test_frame_reader_empty_message);
  RUN(test_frame_reader_large_message);
  RUN(test_frame_reader_refuses_oversized);
  RUN(test_frame_reader_refuses_bad_prefix);
  RUN(test_frame_reader_refuses_second_message);
  RUN(test_frame_reader_reports_partial);
  return mp_test_summary();
}
