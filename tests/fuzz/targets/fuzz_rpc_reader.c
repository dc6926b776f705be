/* The gRPC message reader (rpc/frame.h), which reassembles a request or a
 * reply from the DATA chunks of a stream. The first input byte sets the
 * receive limit and the chunk sizes; the rest is the stream. Fed in
 * chunks or whole, the reader must come to the same end: the same message
 * or the same refusal. */
#include <string.h>

#include "fuzz_util.h"
#include "rpc/frame.h"

typedef struct outcome {
  int rc, status, complete, partial;
  mp_buf msg;
} outcome;

static void feed(const uint8_t *p, size_t n, size_t max, size_t chunk,
                 outcome *o) {
  mp_rpc_reader r;
  mp_err err;
  mp_rpc_reader_init(&r, max);
  o->rc = 0;
  for (size_t off = 0; off < n && o->rc == 0; off += chunk) {
    size_t k = n - off < chunk ? n - off : chunk;
    o->rc = mp_rpc_reader_feed(&r, p + off, k, &err);
  }
  o->status = r.status;
  o->complete = r.complete;
  o->partial = mp_rpc_reader_partial(&r);
  mp_buf_init(&o->msg);
  if (r.complete) mp_rpc_reader_take(&r, &o->msg);
  mp_rpc_reader_destroy(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  size_t max = (size_t)(data[0] & 0x3f) * 16; /* 0..1008 bytes */
  size_t chunk = (size_t)(data[0] >> 6) * 3 + 1; /* 1, 4, 7 or 10 */
  outcome whole, parts;
  feed(data + 1, size - 1, max, size, &whole);
  feed(data + 1, size - 1, max, chunk, &parts);
  FUZZ_CHECK(whole.rc == parts.rc && whole.status == parts.status &&
                 whole.complete == parts.complete &&
                 whole.partial == parts.partial,
             "the reader ends differently fed in chunks");
  FUZZ_CHECK(whole.msg.len == parts.msg.len &&
                 (whole.msg.len == 0 ||
                  !memcmp(whole.msg.data, parts.msg.data, whole.msg.len)),
             "the reader reads a different message in chunks");
  if (whole.complete) {
    FUZZ_CHECK(whole.msg.len <= max && size - 1 >= MP_RPC_PREFIX_LEN &&
                   !memcmp(whole.msg.data ? whole.msg.data : "",
                           data + 1 + MP_RPC_PREFIX_LEN, whole.msg.len),
               "the message is not the bytes after the prefix");
  }
  mp_buf_destroy(&whole.msg);
  mp_buf_destroy(&parts.msg);
  return 0;
}
