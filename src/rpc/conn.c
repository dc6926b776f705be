/* One HTTP/2 connection on the libuv loop: bytes in from the socket go to
 * nghttp2, bytes out from nghttp2 go to the socket, one write at a time. */
#include "rpc/rpc_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void mp__rpc_out_init(mp__rpc_out *o, const void *data, size_t len) {
  memset(o, 0, sizeof(*o));
  mp_rpc_frame_prefix(o->prefix, len);
  o->data = data;
  o->len = len;
}

void mp__rpc_out_destroy(mp__rpc_out *o) {
  free(o->owned);
  mp_buf_destroy(&o->queued);
  memset(o, 0, sizeof(*o));
}

/* nghttp2 pulls at most |length| bytes of prefix+message; at the end the
 * server variant queues the OK trailers instead of ending the stream. */
static ssize_t out_read(nghttp2_session *s, int32_t stream_id, uint8_t *buf,
                        size_t length, uint32_t *flags,
                        nghttp2_data_source *src, void *user_data) {
  (void)user_data;
  mp__rpc_out *o = src->ptr;
  if (o->stopped) return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
  size_t total = MP_RPC_PREFIX_LEN + o->len;
  size_t n = 0;
  while (n < length && o->off < total) {
    size_t k;
    if (o->off < MP_RPC_PREFIX_LEN) {
      k = MP_RPC_PREFIX_LEN - o->off;
      if (k > length - n) k = length - n;
      memcpy(buf + n, o->prefix + o->off, k);
    } else {
      k = total - o->off;
      if (k > length - n) k = length - n;
      memcpy(buf + n, o->data + (o->off - MP_RPC_PREFIX_LEN), k);
    }
    n += k;
    o->off += k;
  }
  if (o->off == total) {
    *flags |= NGHTTP2_DATA_FLAG_EOF;
    if (o->ok_trailers) {
      nghttp2_nv trailers[] = {mp__rpc_nv("grpc-status", "0")};
      if (nghttp2_submit_trailer(s, stream_id, trailers, 1) == 0)
        *flags |= NGHTTP2_DATA_FLAG_NO_END_STREAM;
    }
  }
  return (ssize_t)n;
}

/* A client stream hands over what is queued; with nothing queued it
 * waits (DEFERRED) until mp_rpc_call_send or the end resumes it. */
static ssize_t open_read(nghttp2_session *s, int32_t stream_id, uint8_t *buf,
                         size_t length, uint32_t *flags,
                         nghttp2_data_source *src, void *user_data) {
  (void)s;
  (void)stream_id;
  (void)user_data;
  mp__rpc_out *o = src->ptr;
  if (o->stopped) return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
  size_t n = o->queued.len - o->queued_off;
  if (n > length) n = length;
  if (n) memcpy(buf, o->queued.data + o->queued_off, n);
  o->queued_off += n;
  if (o->queued_off == o->queued.len) {
    mp_buf_reset(&o->queued);
    o->queued_off = 0;
    if (o->send_closed)
      *flags |= NGHTTP2_DATA_FLAG_EOF;
    else if (n == 0)
      return NGHTTP2_ERR_DEFERRED;
  }
  return (ssize_t)n;
}

void mp__rpc_out_provider(mp__rpc_out *o, nghttp2_data_provider *prd) {
  prd->source.ptr = o;
  prd->read_callback = o->open ? open_read : out_read;
}

/* Keeps the library's own explanation of the last protocol error, so that
 * a failure it causes can say what the peer did wrong. */
static int on_h2_error(nghttp2_session *s, int lib_error_code, const char *msg,
                       size_t len, void *user_data) {
  (void)s;
  (void)lib_error_code;
  mp__rpc_conn *c = user_data;
  snprintf(c->h2err, sizeof(c->h2err), "%.*s", (int)len, msg);
  return 0;
}

/* A GOAWAY with an error code means we gave up on the peer's bytes. */
static int on_frame_send(nghttp2_session *s, const nghttp2_frame *frame,
                         void *user_data) {
  (void)s;
  mp__rpc_conn *c = user_data;
  if (frame->hd.type == NGHTTP2_GOAWAY &&
      frame->goaway.error_code != NGHTTP2_NO_ERROR && c->fail.code == 0)
    mp_err_set(&c->fail, MP_EPROTO, "malformed HTTP/2 from peer (%s): %s",
               nghttp2_http2_strerror(frame->goaway.error_code),
               c->h2err[0] ? c->h2err : "no detail");
  if (c->on_frame_sent) c->on_frame_sent(c, frame);
  return 0;
}

void mp__rpc_conn_common_callbacks(nghttp2_session_callbacks *cbs) {
  nghttp2_session_callbacks_set_error_callback2(cbs, on_h2_error);
  nghttp2_session_callbacks_set_on_frame_send_callback(cbs, on_frame_send);
}

int mp__rpc_conn_init(mp__rpc_conn *c, uv_loop_t *loop, int server,
                      const nghttp2_session_callbacks *cbs, mp_err *err) {
  nghttp2_option *opt;
  if (nghttp2_option_new(&opt) != 0)
    return mp_err_set(err, MP_EIO, "cannot allocate HTTP/2 options");
  /* We give window back as the message reader takes the bytes. */
  nghttp2_option_set_no_auto_window_update(opt, 1);
  nghttp2_option_set_max_send_header_block_length(opt,
                                                  MP__RPC_MAX_HEADER_BLOCK);
  int rv = server ? nghttp2_session_server_new2(&c->h2, cbs, c, opt)
                  : nghttp2_session_client_new2(&c->h2, cbs, c, opt);
  nghttp2_option_del(opt);
  if (rv != 0)
    return mp_err_set(err, MP_EIO, "cannot create HTTP/2 session: %s",
                      nghttp2_strerror(rv));
  nghttp2_settings_entry iv[] = {
      {server ? NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS
              : NGHTTP2_SETTINGS_ENABLE_PUSH,
       server ? MP__RPC_MAX_STREAMS : 0},
      {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, (uint32_t)MP__RPC_STREAM_WINDOW},
  };
  rv = nghttp2_submit_settings(c->h2, NGHTTP2_FLAG_NONE, iv, MP_ARRAY_LEN(iv));
  if (rv == 0)
    rv = nghttp2_session_set_local_window_size(c->h2, NGHTTP2_FLAG_NONE, 0,
                                               MP__RPC_CONN_WINDOW);
  int uvrc = rv == 0 ? uv_tcp_init(loop, &c->tcp) : 0;
  if (rv != 0 || uvrc < 0) {
    nghttp2_session_del(c->h2);
    c->h2 = NULL;
    if (rv != 0)
      return mp_err_set(err, MP_EIO, "cannot set up HTTP/2 session: %s",
                        nghttp2_strerror(rv));
    return mp_err_from_uv(err, uvrc, "cannot create TCP handle");
  }
  c->tcp.data = c;
  mp_buf_init(&c->out);
  mp_err_clear(&c->fail);
  return 0;
}

static void conn_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
  (void)suggested;
  mp__rpc_conn *c = h->data;
  buf->base = (char *)c->rbuf;
  buf->len = sizeof(c->rbuf);
}

static void conn_on_read(uv_stream_t *stream, ssize_t nread,
                         const uv_buf_t *buf) {
  mp__rpc_conn *c = stream->data;
  if (nread == 0 || c->closing) return;
  if (nread == UV_EOF) {
    mp__rpc_conn_fail(c, MP_EIO, "peer closed the connection");
  } else if (nread < 0) {
    mp__rpc_conn_fail(c, MP_EIO, "connection to peer lost: %s",
                      uv_strerror((int)nread));
  } else {
    ssize_t rv = nghttp2_session_mem_recv(c->h2, (const uint8_t *)buf->base,
                                          (size_t)nread);
    if (rv < 0)
      mp__rpc_conn_fail(c, MP_EPROTO, "malformed HTTP/2 from peer: %s",
                        nghttp2_strerror((int)rv));
    else
      mp__rpc_conn_flush(c);
  }
  c->after_io(c);
}

void mp__rpc_conn_start(mp__rpc_conn *c) {
  uv_tcp_nodelay(&c->tcp, 1);
  int rc = uv_read_start((uv_stream_t *)&c->tcp, conn_alloc, conn_on_read);
  if (rc < 0) {
    mp__rpc_conn_fail(c, MP_EIO, "cannot read from peer: %s", uv_strerror(rc));
    return;
  }
  c->reading = 1;
  mp__rpc_conn_flush(c);
}

static void conn_on_write(uv_write_t *req, int status) {
  mp__rpc_conn *c = mp_container_of(req, mp__rpc_conn, wreq);
  c->writing = 0;
  if (c->closing) return;
  if (status < 0)
    mp__rpc_conn_fail(c, MP_EIO, "cannot write to peer: %s",
                      uv_strerror(status));
  else
    mp__rpc_conn_flush(c);
  c->after_io(c);
}

void mp__rpc_conn_flush(mp__rpc_conn *c) {
  if (c->closing || c->writing || !c->reading) return;
  mp_buf_reset(&c->out);
  while (c->out.len < MP__RPC_WRITE_CHUNK) {
    const uint8_t *data;
    ssize_t n = nghttp2_session_mem_send(c->h2, &data);
    if (n < 0) {
      mp__rpc_conn_fail(c, MP_EPROTO, "HTTP/2 session failed: %s",
                        nghttp2_strerror((int)n));
      return;
    }
    if (n == 0) break;
    mp_buf_append(&c->out, data, (size_t)n);
  }
  if (c->out.len == 0) {
    if (!nghttp2_session_want_read(c->h2) && !nghttp2_session_want_write(c->h2))
      mp__rpc_conn_close(c);
    return;
  }
  uv_buf_t b = uv_buf_init(c->out.data, (unsigned)c->out.len);
  int rc = uv_write(&c->wreq, (uv_stream_t *)&c->tcp, &b, 1, conn_on_write);
  if (rc < 0) {
    mp__rpc_conn_fail(c, MP_EIO, "cannot write to peer: %s", uv_strerror(rc));
    return;
  }
  c->writing = 1;
}

static void conn_on_closed(uv_handle_t *h) {
  mp__rpc_conn *c = h->data;
  nghttp2_session_del(c->h2);
  c->h2 = NULL;
  mp_buf_destroy(&c->out);
  c->on_closed(c);
}

void mp__rpc_conn_fail(mp__rpc_conn *c, int code, const char *fmt, ...) {
  if (c->closing) return;
  if (c->fail.code == 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->fail.msg, sizeof(c->fail.msg), fmt, ap);
    va_end(ap);
    c->fail.code = code;
  }
  mp__rpc_conn_close(c);
}

void mp__rpc_conn_close(mp__rpc_conn *c) {
  if (c->closing) return;
  c->closing = 1;
  if (c->fail.code == 0)
    mp_err_set(&c->fail, MP_EIO, "peer ended the HTTP/2 session");
  c->on_fail(c);
  uv_close((uv_handle_t *)&c->tcp, conn_on_closed);
}
