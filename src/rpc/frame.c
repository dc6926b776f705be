#include "rpc/frame.h"

#include <stdlib.h>
#include <string.h>

#include "rpc/status.h"

/* First allocation for a message; later ones double, capped at the
 * announced length. */
#define READER_FIRST_CAP ((size_t)64 << 10)

void mp_rpc_frame_prefix(uint8_t out[MP_RPC_PREFIX_LEN], size_t len) {
  out[0] = 0;
  out[1] = (uint8_t)(len >> 24);
  out[2] = (uint8_t)(len >> 16);
  out[3] = (uint8_t)(len >> 8);
  out[4] = (uint8_t)len;
}

void mp_rpc_reader_init(mp_rpc_reader *r, size_t max) {
  memset(r, 0, sizeof(*r));
  r->max = max;
  mp_buf_init(&r->msg);
}

void mp_rpc_reader_destroy(mp_rpc_reader *r) {
  mp_buf_destroy(&r->msg);
  memset(r, 0, sizeof(*r));
}

static int reader_fail(mp_rpc_reader *r, int status, mp_err *err,
                       const char *what) {
  r->status = status;
  mp_buf_destroy(&r->msg);
  return mp_err_set(err, MP_EPROTO, "%s", what);
}

/* Checks the completed prefix and sizes the buffer for the message. */
static int reader_start_message(mp_rpc_reader *r, mp_err *err) {
  const uint8_t *h = r->prefix;
  r->want = (size_t)h[1] << 24 | (size_t)h[2] << 16 | (size_t)h[3] << 8 | h[4];
  if (h[0] == 1)
    return reader_fail(r, MP_RPC_INTERNAL, err,
                       "compressed gRPC message received, but no compression "
                       "was negotiated");
  if (h[0] != 0) {
    r->status = MP_RPC_INTERNAL;
    return mp_err_set(err, MP_EPROTO,
                      "bad gRPC message prefix: flag byte 0x%02x is neither 0 "
                      "nor 1",
                      h[0]);
  }
  if (r->want > r->max) {
    r->status = MP_RPC_RESOURCE_EXHAUSTED;
    return mp_err_set(err, MP_EPROTO,
                      "received message larger than max (%zu vs. %zu bytes)",
                      r->want, r->max);
  }
  size_t cap = r->want < READER_FIRST_CAP ? r->want : READER_FIRST_CAP;
  r->msg.data = mp_xmalloc(cap + 1);
  r->msg.cap = cap + 1;
  r->msg.data[0] = '\0';
  return 0;
}

/* Appends to the message, growing by doubling but never past |want|. */
static void reader_append(mp_rpc_reader *r, const uint8_t *p, size_t n) {
  if (r->msg.len + n + 1 > r->msg.cap) {
    size_t cap = r->msg.cap - 1;
    while (cap < r->msg.len + n) cap = cap * 2 > r->want ? r->want : cap * 2;
    r->msg.data = mp_xrealloc(r->msg.data, cap + 1);
    r->msg.cap = cap + 1;
  }
  memcpy(r->msg.data + r->msg.len, p, n);
  r->msg.len += n;
  r->msg.data[r->msg.len] = '\0';
}

int mp_rpc_reader_feed(mp_rpc_reader *r, const uint8_t *p, size_t n,
                       mp_err *err) {
  if (r->status)
    return mp_err_set(err, MP_EPROTO, "gRPC message stream already failed");
  while (n > 0) {
    if (r->complete)
      return reader_fail(r, MP_RPC_INTERNAL, err,
                         "more than one message on a unary call");
    if (r->prefix_got < MP_RPC_PREFIX_LEN) {
      size_t k = MP_RPC_PREFIX_LEN - r->prefix_got;
      if (k > n) k = n;
      memcpy(r->prefix + r->prefix_got, p, k);
      r->prefix_got += k;
      p += k;
      n -= k;
      if (r->prefix_got < MP_RPC_PREFIX_LEN) return 0;
      int rc = reader_start_message(r, err);
      if (rc < 0) return rc;
    }
    size_t k = r->want - r->msg.len;
    if (k > n) k = n;
    if (k) reader_append(r, p, k);
    p += k;
    n -= k;
    if (r->msg.len == r->want) r->complete = 1;
  }
  return 0;
}

int mp_rpc_reader_partial(const mp_rpc_reader *r) {
  return !r->complete && r->prefix_got > 0;
}

void mp_rpc_reader_take(mp_rpc_reader *r, mp_buf *out) {
  mp_buf_destroy(out);
  *out = r->msg;
  mp_buf_init(&r->msg);
}
