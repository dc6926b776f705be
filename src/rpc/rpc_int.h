/* Internals shared by the gRPC client and server: one HTTP/2 connection
 * (a TCP handle plus an nghttp2 session) and the pieces both sides use to
 * send a framed message. Owner of everything here: the loop thread. */
#ifndef MP_RPC_INT_H
#define MP_RPC_INT_H

#include <nghttp2/nghttp2.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <uv.h>

#include "engine/err.h"
#include "engine/mem.h"
#include "rpc/frame.h"

/* Windows we advertise: per stream and for the whole connection. Large
 * enough that loopback transfers are not stalled waiting for updates. */
#define MP__RPC_STREAM_WINDOW ((int32_t)4 << 20)
#define MP__RPC_CONN_WINDOW ((int32_t)32 << 20)
/* What the server advertises as SETTINGS_MAX_CONCURRENT_STREAMS. */
#define MP__RPC_MAX_STREAMS 100000u
/* Bytes gathered from nghttp2 before one uv_write is issued. */
#define MP__RPC_WRITE_CHUNK ((size_t)1 << 20)
/* The largest header block we send (status details can be large). */
#define MP__RPC_MAX_HEADER_BLOCK ((size_t)1 << 20)

/* An intrusive doubly-linked list node; a list is a sentinel node. */
typedef struct mp__rpc_link {
  struct mp__rpc_link *prev, *next;
} mp__rpc_link;

static inline void mp__rpc_list_init(mp__rpc_link *l) { l->prev = l->next = l; }
static inline int mp__rpc_list_empty(const mp__rpc_link *l) {
  return l->next == l;
}
static inline void mp__rpc_list_push(mp__rpc_link *l, mp__rpc_link *n) {
  n->prev = l->prev;
  n->next = l;
  l->prev->next = n;
  l->prev = n;
}
/* Unlinks |n| if it is linked; safe to call twice. */
static inline void mp__rpc_list_remove(mp__rpc_link *n) {
  if (n->next == NULL || n->next == n) return;
  n->prev->next = n->next;
  n->next->prev = n->prev;
  n->prev = n->next = n;
}

/* One framed message being sent on a stream: the prefix, then the bytes.
 * nghttp2 pulls it through mp__rpc_out_read as flow control allows. */
typedef struct mp__rpc_out {
  uint8_t prefix[MP_RPC_PREFIX_LEN];
  const uint8_t *data; /* borrowed or owned (see |owned|) */
  size_t len;
  size_t off;      /* bytes of prefix+data handed to nghttp2 */
  uint8_t *owned;  /* freed by mp__rpc_out_destroy */
  int ok_trailers; /* end with "grpc-status: 0" trailers (server) */
  int stopped;     /* the owner ended: |data| may be gone, read no more */
  /* A client stream (mp_rpc_call_opts.open): framed messages queued by
   * mp_rpc_call_send, read from |queued_off|; the stream ends once
   * |send_closed| and all are read. */
  int open;
  int send_closed;
  mp_buf queued;
  size_t queued_off;
} mp__rpc_out;

/* Points |o| at |data|[0..len) (borrowed). */
void mp__rpc_out_init(mp__rpc_out *o, const void *data, size_t len);
void mp__rpc_out_destroy(mp__rpc_out *o);
/* Fills |prd| so that nghttp2 reads |o| (either kind). */
void mp__rpc_out_provider(mp__rpc_out *o, nghttp2_data_provider *prd);

/* One HTTP/2 connection. Embedded first in the client's and the server's
 * connection structs; its memory is freed by |on_closed|. */
typedef struct mp__rpc_conn mp__rpc_conn;
struct mp__rpc_conn {
  uv_tcp_t tcp; /* tcp.data == this */
  uv_write_t wreq;
  nghttp2_session *h2;
  mp_buf out;      /* bytes of the write in flight */
  int writing;     /* a uv_write is in flight */
  int reading;     /* uv_read_start has been called */
  int closing;     /* uv_close called; no more I/O */
  mp_err fail;     /* why the connection ended; first reason wins */
  char h2err[200]; /* nghttp2's text for the last protocol error */
  /* After every batch of input or output: lets the owner run what the
   * nghttp2 callbacks queued (completions, requests). */
  void (*after_io)(mp__rpc_conn *c);
  /* The connection failed: fail or orphan every stream. Called once,
   * before the TCP handle is closed, with c->fail set. */
  void (*on_fail)(mp__rpc_conn *c);
  /* The TCP handle is closed; free the owner's struct. */
  void (*on_closed)(mp__rpc_conn *c);
  /* Optional: nghttp2 has sent |frame| (inside nghttp2's callbacks). */
  void (*on_frame_sent)(mp__rpc_conn *c, const nghttp2_frame *frame);
  uint8_t rbuf[64 << 10]; /* read buffer (input is handled synchronously) */
};

/* Initialises |c|'s TCP handle on |loop| and an nghttp2 session with
 * |cbs|; sends our SETTINGS. |server| selects the side. Returns 0 or
 * MP_EIO; on failure nothing is left to close. */
int mp__rpc_conn_init(mp__rpc_conn *c, uv_loop_t *loop, int server,
                      const nghttp2_session_callbacks *cbs, mp_err *err);
/* Starts reading and flushes pending output. */
void mp__rpc_conn_start(mp__rpc_conn *c);
/* Hands nghttp2's pending output to a uv_write (one at a time). Closes the
 * connection when the session wants neither to read nor to write. */
void mp__rpc_conn_flush(mp__rpc_conn *c);
/* Records |code| and the message (if no reason is recorded yet), fails the
 * streams through on_fail and closes the connection. Idempotent. */
void mp__rpc_conn_fail(mp__rpc_conn *c, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Closes without a failure reason of our own (an orderly end). */
void mp__rpc_conn_close(mp__rpc_conn *c);

/* The nghttp2 callbacks both sides install the same way (errors from the
 * library's parser, GOAWAY sent). Installs them into |cbs|. */
void mp__rpc_conn_common_callbacks(nghttp2_session_callbacks *cbs);

/* Header-list helper: a name/value pair for nghttp2 (copied on submit). */
static inline nghttp2_nv mp__rpc_nv(const char *name, const char *value) {
  nghttp2_nv nv = {(uint8_t *)name, (uint8_t *)value, strlen(name),
                   strlen(value), NGHTTP2_NV_FLAG_NONE};
  return nv;
}

/* Compares the header |name|[0..len) with the NUL-terminated |lit|. */
static inline int mp__rpc_header_is(const uint8_t *name, size_t len,
                                    const char *lit) {
  return len == strlen(lit) && memcmp(name, lit, len) == 0;
}

/* 1 when a content-type value names gRPC ("application/grpc" and its
 * "+proto" / ";..." variants), else 0. */
static inline int mp__rpc_is_grpc_content_type(const uint8_t *v, size_t len) {
  static const char grpc_ct[] = "application/grpc";
  return len >= sizeof(grpc_ct) - 1 &&
         memcmp(v, grpc_ct, sizeof(grpc_ct) - 1) == 0;
}

#endif
