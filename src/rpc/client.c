/* The gRPC client on the loop: connections, calls as streams, outcomes.
 * Every outcome is fixed by mp__rpc_call_end or call_end_from_stream and
 * delivered later by mp__rpc_client_dispatch, outside nghttp2's callbacks,
 * so that a callback may start or cancel calls freely. */
#include "rpc/client_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static const char user_agent[] = "minipulumi/" MP_VERSION " grpc-c-nghttp2";

void mp_rpc_reply_init(mp_rpc_reply *r) {
  mp_buf_init(&r->body);
  mp_rpc_status_init(&r->status);
}

void mp_rpc_reply_destroy(mp_rpc_reply *r) {
  mp_buf_destroy(&r->body);
  mp_rpc_status_destroy(&r->status);
}

const char *mp_rpc_client_peer(const mp_rpc_client *c) { return c->peer; }

static void client_on_closed(uv_handle_t *h) {
  mp_rpc_client *c = mp_container_of((uv_async_t *)h, mp_rpc_client, wake);
  void (*cb)(void *) = c->close_cb;
  void *arg = c->close_arg;
  uv_mutex_destroy(&c->inbox_mu);
  free(c->peer);
  free(c);
  if (cb) cb(arg);
}

/* The last step of mp_rpc_client_close: all connections are gone. */
static void client_free_async(mp_rpc_client *c) {
  uv_close((uv_handle_t *)&c->wake, client_on_closed);
}

/* ---- call lifetime ---------------------------------------------------- */

static void call_free(mp_rpc_call *call) {
  mp__rpc_out_destroy(&call->out);
  mp_rpc_reader_destroy(&call->reader);
  mp_rpc_reply_destroy(&call->reply);
  free(call->method);
  free(call->content_type);
  free(call->grpc_message);
  free(call->details_b64);
  free(call);
}

static void call_on_timer_closed(uv_handle_t *h) {
  call_free(mp_container_of((uv_timer_t *)h, mp_rpc_call, timer));
}

/* Frees |call| once its callback has run and nghttp2 has forgotten it. */
static void call_maybe_free(mp_rpc_call *call) {
  if (!call->cb_done || call->stream_open) return;
  if (call->has_timer)
    uv_close((uv_handle_t *)&call->timer, call_on_timer_closed);
  else
    call_free(call);
}

static void call_unlink_conn(mp_rpc_call *call) {
  mp__rpc_list_remove(&call->link);
  call->conn = NULL;
}

void mp__rpc_call_end(mp_rpc_call *call, int rc, int code, const char *fmt,
                      ...) {
  if (call->ended) return;
  char what[sizeof(call->err.msg)];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof(what), fmt, ap);
  va_end(ap);
  call->ended = 1;
  call->rc = rc;
  mp_err_set(&call->err, rc, "'%s' on %s: %s", call->method, call->client->peer,
             what);
  if (rc < 0 && call->reply.status.code == MP_RPC_OK)
    mp_rpc_status_set(&call->reply.status, code, what);
  call->out.stopped = 1;
  if (call->has_timer) uv_timer_stop(&call->timer);
  mp__rpc_list_remove(&call->cancel_link);
  call->cancel = NULL;
  /* This may run inside an nghttp2 callback, where sending is not
   * allowed: the wake-up below flushes the reset. */
  if (call->stream_open && call->conn && !call->conn->base.closing)
    nghttp2_submit_rst_stream(call->conn->base.h2, NGHTTP2_FLAG_NONE,
                              call->stream_id, NGHTTP2_CANCEL);
  if (!call->stream_open) call_unlink_conn(call);
  mp__rpc_list_push(&call->client->done, &call->done_link);
  uv_async_send(&call->client->wake);
}

static void call_end_ok(mp_rpc_call *call) {
  call->ended = 1;
  call->rc = 0;
  mp_err_clear(&call->err);
  mp_rpc_reader_take(&call->reader, &call->reply.body);
  if (call->has_timer) uv_timer_stop(&call->timer);
  mp__rpc_list_remove(&call->cancel_link);
  call->cancel = NULL;
  mp__rpc_list_push(&call->client->done, &call->done_link);
}

/* The peer answered a non-OK status: hand over its code, message and
 * details exactly as sent. Details that do not decode are dropped: the
 * status itself is what the caller acts on. */
static void call_end_status(mp_rpc_call *call) {
  mp_rpc_status *st = &call->reply.status;
  mp_rpc_status_set(st, call->grpc_status, call->grpc_message);
  if (call->details_b64) {
    mp_buf bin;
    mp_err derr;
    mp_buf_init(&bin);
    if (mp_rpc_b64_decode(call->details_b64, strlen(call->details_b64), &bin,
                          &derr) == 0)
      mp_rpc_status_decode_details(st, (const uint8_t *)bin.data, bin.len,
                                   &derr);
    mp_buf_destroy(&bin);
  }
  mp__rpc_call_end(call, MP_EPLUGIN, call->grpc_status, "%s: %s",
                   mp_rpc_code_name(call->grpc_status),
                   call->grpc_message ? call->grpc_message : "");
}

/* HTTP/2 stream error codes as the gRPC code a client reports. */
static int code_from_h2(uint32_t h2code) {
  switch (h2code) {
  case NGHTTP2_REFUSED_STREAM: return MP_RPC_UNAVAILABLE;
  case NGHTTP2_CANCEL: return MP_RPC_CANCELLED;
  case NGHTTP2_ENHANCE_YOUR_CALM: return MP_RPC_RESOURCE_EXHAUSTED;
  default: return MP_RPC_INTERNAL;
  }
}

/* The stream closed before the call ended: read the outcome from what the
 * peer sent, in the order a gRPC client checks it. */
static void call_end_from_stream(mp_rpc_call *call, uint32_t h2code) {
  if (call->http_status == 0) {
    mp__rpc_call_end(call, MP_EIO, code_from_h2(h2code),
                     "stream reset by peer before any reply (HTTP/2 %s)",
                     nghttp2_http2_strerror(h2code));
  } else if (call->http_status != 200) {
    mp__rpc_call_end(call, MP_EPROTO, mp_rpc_code_from_http(call->http_status),
                     "not a gRPC reply: HTTP status %d", call->http_status);
  } else if (call->content_type) {
    mp__rpc_call_end(call, MP_EPROTO, MP_RPC_UNKNOWN,
                     "not a gRPC reply: content-type '%s'", call->content_type);
  } else if (call->grpc_status == -1 && h2code != NGHTTP2_NO_ERROR) {
    mp__rpc_call_end(call, MP_EIO, code_from_h2(h2code),
                     "stream reset by peer mid-reply (HTTP/2 %s)",
                     nghttp2_http2_strerror(h2code));
  } else if (call->grpc_status < 0) {
    mp__rpc_call_end(call, MP_EPROTO, MP_RPC_UNKNOWN,
                     call->grpc_status == -1
                         ? "reply has no grpc-status"
                         : "reply has a grpc-status that is not a number");
  } else if (call->grpc_status != MP_RPC_OK) {
    call_end_status(call);
  } else if (mp_rpc_reader_partial(&call->reader)) {
    mp__rpc_call_end(call, MP_EPROTO, MP_RPC_INTERNAL,
                     "reply ended in the middle of a message");
  } else if (!call->reader.complete) {
    mp__rpc_call_end(call, MP_EPROTO, MP_RPC_UNIMPLEMENTED,
                     "no message received in an OK reply");
  } else {
    call_end_ok(call);
  }
}

/* ---- nghttp2 callbacks ------------------------------------------------ */

static mp_rpc_call *stream_call(nghttp2_session *s, int32_t stream_id) {
  return nghttp2_session_get_stream_user_data(s, stream_id);
}

static int parse_grpc_status(const uint8_t *v, size_t len) {
  if (len == 0 || len > 9) return -2;
  int n = 0;
  for (size_t i = 0; i < len; i++) {
    if (v[i] < '0' || v[i] > '9') return -2;
    n = n * 10 + (v[i] - '0');
  }
  return n;
}

static int on_header(nghttp2_session *s, const nghttp2_frame *frame,
                     const uint8_t *name, size_t namelen, const uint8_t *value,
                     size_t valuelen, uint8_t flags, void *user_data) {
  (void)flags;
  (void)user_data;
  mp_rpc_call *call = stream_call(s, frame->hd.stream_id);
  if (call == NULL || call->ended || frame->hd.type != NGHTTP2_HEADERS)
    return 0;
  if (mp__rpc_header_is(name, namelen, ":status")) {
    call->http_status = 0;
    for (size_t i = 0; i < valuelen && i < 3; i++)
      call->http_status = call->http_status * 10 + (value[i] - '0');
  } else if (mp__rpc_header_is(name, namelen, "content-type") &&
             !mp__rpc_is_grpc_content_type(value, valuelen)) {
    free(call->content_type);
    call->content_type = mp_xstrndup((const char *)value, valuelen);
  } else if (mp__rpc_header_is(name, namelen, "grpc-status")) {
    call->grpc_status = parse_grpc_status(value, valuelen);
  } else if (mp__rpc_header_is(name, namelen, "grpc-message")) {
    free(call->grpc_message);
    call->grpc_message = mp_rpc_pct_decode((const char *)value, valuelen);
  } else if (mp__rpc_header_is(name, namelen, "grpc-status-details-bin")) {
    free(call->details_b64);
    call->details_b64 = mp_xstrndup((const char *)value, valuelen);
  }
  return 0;
}

static int on_data_chunk(nghttp2_session *s, uint8_t flags, int32_t stream_id,
                         const uint8_t *data, size_t len, void *user_data) {
  (void)flags;
  (void)user_data;
  /* The window is given back as soon as the bytes are in the message. */
  nghttp2_session_consume(s, stream_id, len);
  mp_rpc_call *call = stream_call(s, stream_id);
  if (call == NULL || call->ended) return 0;
  if (call->http_status != 200 || call->content_type) return 0;
  mp_err e;
  if (mp_rpc_reader_feed(&call->reader, data, len, &e) < 0)
    mp__rpc_call_end(call, MP_EPROTO, call->reader.status, "%s", e.msg);
  return 0;
}

static int on_stream_close(nghttp2_session *s, int32_t stream_id,
                           uint32_t error_code, void *user_data) {
  (void)user_data;
  mp_rpc_call *call = stream_call(s, stream_id);
  if (call == NULL) return 0;
  call->stream_open = 0;
  if (!call->ended) call_end_from_stream(call, error_code);
  call_unlink_conn(call);
  call_maybe_free(call);
  return 0;
}

static int on_frame_recv(nghttp2_session *s, const nghttp2_frame *frame,
                         void *user_data) {
  mp__rpc_cconn *cc = user_data;
  if (frame->hd.type == NGHTTP2_GOAWAY) {
    cc->usable = 0;
    if (cc->client->current == cc) cc->client->current = NULL;
  }
  /* The peer answered an open call before its requests ended: end them,
   * so that the stream closes and the call with it. */
  int ends = (frame->hd.type == NGHTTP2_HEADERS ||
              frame->hd.type == NGHTTP2_DATA) &&
             (frame->hd.flags & NGHTTP2_FLAG_END_STREAM);
  mp_rpc_call *call = ends ? stream_call(s, frame->hd.stream_id) : NULL;
  if (call && call->out.open && !call->out.send_closed) {
    call->out.send_closed = 1;
    nghttp2_session_resume_data(s, frame->hd.stream_id);
  }
  return 0;
}

/* ---- connections ------------------------------------------------------ */

static void cconn_after_io(mp__rpc_conn *base) {
  mp__rpc_cconn *cc = (mp__rpc_cconn *)base;
  /* A connection that takes no new calls goes once its calls have ended. */
  if (!cc->usable && cc->connected && mp__rpc_list_empty(&cc->calls))
    mp__rpc_conn_close(base);
  mp__rpc_client_dispatch(cc->client);
}

static void cconn_on_fail(mp__rpc_conn *base) {
  mp__rpc_cconn *cc = (mp__rpc_cconn *)base;
  int lost = base->fail.code == MP_EIO;
  cc->usable = 0;
  if (cc->client->current == cc) cc->client->current = NULL;
  while (!mp__rpc_list_empty(&cc->calls)) {
    mp_rpc_call *call = mp_container_of(cc->calls.next, mp_rpc_call, link);
    int mid_call = call->stream_open;
    call->stream_open = 0; /* the session goes without further callbacks */
    call_unlink_conn(call);
    mp__rpc_call_end(call, base->fail.code,
                     base->fail.code == MP_ECANCELED ? MP_RPC_CANCELLED
                     : lost                          ? MP_RPC_UNAVAILABLE
                                                     : MP_RPC_INTERNAL,
                     "%s%s", mid_call ? "connection lost mid-call: " : "",
                     base->fail.msg);
    call_maybe_free(call);
  }
}

static void cconn_on_closed(mp__rpc_conn *base) {
  mp__rpc_cconn *cc = (mp__rpc_cconn *)base;
  mp_rpc_client *c = cc->client;
  mp__rpc_list_remove(&cc->link);
  free(cc);
  mp__rpc_client_dispatch(c);
  if (c->closing && mp__rpc_list_empty(&c->conns)) client_free_async(c);
}

static void call_submit(mp_rpc_call *call) {
  mp_rpc_client *c = call->client;
  nghttp2_nv nva[] = {
      mp__rpc_nv(":method", "POST"),
      mp__rpc_nv(":scheme", "http"),
      mp__rpc_nv(":path", call->method),
      mp__rpc_nv(":authority", c->authority),
      mp__rpc_nv("content-type", "application/grpc"),
      mp__rpc_nv("te", "trailers"),
      mp__rpc_nv("user-agent", user_agent),
  };
  nghttp2_data_provider prd;
  mp__rpc_out_provider(&call->out, &prd);
  int32_t id = nghttp2_submit_request(call->conn->base.h2, NULL, nva,
                                      MP_ARRAY_LEN(nva), &prd, call);
  if (id < 0) {
    /* Typically the stream ids of this connection are used up. */
    call->conn->usable = 0;
    if (c->current == call->conn) c->current = NULL;
    mp__rpc_call_end(call, MP_EIO, MP_RPC_UNAVAILABLE,
                     "cannot start an HTTP/2 stream: %s; retry the call",
                     nghttp2_strerror(id));
    return;
  }
  call->stream_id = id;
  call->stream_open = 1;
}

static void cconn_on_connect(uv_connect_t *req, int status) {
  mp__rpc_cconn *cc = mp_container_of(req, mp__rpc_cconn, connect_req);
  if (cc->base.closing) return;
  if (status < 0) {
    mp__rpc_conn_fail(&cc->base, MP_EIO,
                      "cannot connect: %s; check that the peer is running and "
                      "listening on that port",
                      uv_strerror(status));
  } else {
    cc->connected = 1;
    for (mp__rpc_link *l = cc->calls.next, *next; l != &cc->calls; l = next) {
      next = l->next;
      mp_rpc_call *call = mp_container_of(l, mp_rpc_call, link);
      if (!call->ended) call_submit(call);
    }
    mp__rpc_conn_start(&cc->base);
  }
  cconn_after_io(&cc->base);
}

static mp__rpc_cconn *cconn_new(mp_rpc_client *c, mp_err *err) {
  nghttp2_session_callbacks *cbs;
  if (nghttp2_session_callbacks_new(&cbs) != 0) {
    mp_err_set(err, MP_EIO, "cannot allocate HTTP/2 callbacks");
    return NULL;
  }
  mp__rpc_conn_common_callbacks(cbs);
  nghttp2_session_callbacks_set_on_header_callback(cbs, on_header);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cbs, on_data_chunk);
  nghttp2_session_callbacks_set_on_stream_close_callback(cbs, on_stream_close);
  nghttp2_session_callbacks_set_on_frame_recv_callback(cbs, on_frame_recv);
  mp__rpc_cconn *cc = mp_xcalloc(1, sizeof(*cc));
  int rc = mp__rpc_conn_init(&cc->base, c->loop, 0, cbs, err);
  nghttp2_session_callbacks_del(cbs);
  if (rc < 0) {
    free(cc);
    return NULL;
  }
  cc->client = c;
  cc->usable = 1;
  cc->base.after_io = cconn_after_io;
  cc->base.on_fail = cconn_on_fail;
  cc->base.on_closed = cconn_on_closed;
  mp__rpc_list_init(&cc->calls);
  mp__rpc_list_push(&c->conns, &cc->link);
  c->current = cc;
  rc = uv_tcp_connect(&cc->connect_req, &cc->base.tcp,
                      (const struct sockaddr *)&c->addr, cconn_on_connect);
  if (rc < 0)
    mp__rpc_conn_fail(&cc->base, MP_EIO, "cannot connect: %s", uv_strerror(rc));
  return cc;
}

/* ---- the client ------------------------------------------------------- */

static void client_on_wake(uv_async_t *h) {
  mp_rpc_client *c = mp_container_of(h, mp_rpc_client, wake);
  mp__rpc_client_drain_inbox(c);
  /* Send what ended calls queued (stream resets). */
  for (mp__rpc_link *l = c->conns.next; l != &c->conns; l = l->next)
    mp__rpc_conn_flush(&mp_container_of(l, mp__rpc_cconn, link)->base);
  mp__rpc_client_dispatch(c);
}

int mp_rpc_client_new(uv_loop_t *loop, const char *peer_name, int port,
                      size_t max_recv, mp_rpc_client **out, mp_err *err) {
  *out = NULL;
  if (port <= 0 || port > 65535)
    return mp_err_set(err, MP_EINVAL,
                      "bad port %d for gRPC peer '%s'; expected 1..65535", port,
                      peer_name);
  mp_rpc_client *c = mp_xcalloc(1, sizeof(*c));
  int rc = uv_async_init(loop, &c->wake, client_on_wake);
  if (rc < 0) {
    free(c);
    return mp_err_from_uv(err, rc, "cannot create gRPC client of '%s'",
                          peer_name);
  }
  uv_unref((uv_handle_t *)&c->wake);
  uv_mutex_init(&c->inbox_mu);
  c->loop = loop;
  c->loop_thread = uv_thread_self();
  c->port = port;
  uv_ip4_addr("127.0.0.1", port, &c->addr);
  snprintf(c->authority, sizeof(c->authority), "127.0.0.1:%d", port);
  c->peer = mp_xasprintf("'%s' (%s)", peer_name, c->authority);
  c->max_recv = max_recv ? max_recv : MP_RPC_DEFAULT_MAX_RECV;
  mp__rpc_list_init(&c->conns);
  mp__rpc_list_init(&c->done);
  mp__rpc_list_init(&c->inbox);
  *out = c;
  return 0;
}

void mp__rpc_client_dispatch(mp_rpc_client *c) {
  if (c->dispatching) return;
  c->dispatching = 1;
  while (!mp__rpc_list_empty(&c->done)) {
    mp_rpc_call *call = mp_container_of(c->done.next, mp_rpc_call, done_link);
    mp__rpc_list_remove(&call->done_link);
    call->cb(call->rc, &call->reply, &call->err, call->arg);
    call->cb_done = 1;
    call_maybe_free(call);
  }
  c->dispatching = 0;
}

static int check_method(const char *method) {
  if (method == NULL || method[0] != '/' || strchr(method + 1, '/') == NULL)
    return -1;
  for (const char *p = method; *p; p++)
    if ((unsigned char)*p <= 0x20 || (unsigned char)*p >= 0x7f) return -1;
  return 0;
}

static void call_on_deadline(uv_timer_t *t) {
  mp_rpc_call *call = mp_container_of(t, mp_rpc_call, timer);
  mp__rpc_call_end(call, MP_EIO, MP_RPC_DEADLINE_EXCEEDED,
                   "deadline exceeded: no reply within %llu ms; the peer may "
                   "be hung",
                   (unsigned long long)call->timeout_ms);
}

int mp_rpc_call_start(mp_rpc_client *c, const char *method, const void *req,
                      size_t len, const mp_rpc_call_opts *opts,
                      mp_rpc_done_cb cb, void *arg, mp_rpc_call **out,
                      mp_err *err) {
  if (out) *out = NULL;
  if (c->closing)
    return mp_err_set(err, MP_ECANCELED, "'%s' on %s: client closed",
                      method ? method : "", c->peer);
  if (check_method(method) < 0)
    return mp_err_set(err, MP_EINVAL,
                      "bad gRPC method '%s'; expected /package.Service/Method",
                      method ? method : "");
  if (len > MP_RPC_MAX_FRAME_LEN)
    return mp_err_set(err, MP_EINVAL,
                      "'%s' on %s: request of %zu bytes exceeds gRPC's 4 GiB "
                      "message limit",
                      method, c->peer, len);
  mp_rpc_call *call = mp_xcalloc(1, sizeof(*call));
  call->client = c;
  call->method = mp_xstrdup(method);
  call->cb = cb;
  call->arg = arg;
  call->grpc_status = -1;
  mp__rpc_list_init(&call->link);
  mp__rpc_list_init(&call->done_link);
  mp__rpc_list_init(&call->cancel_link);
  mp__rpc_out_init(&call->out, req, len);
  if (opts && opts->open) call->out.open = 1;
  mp_rpc_reader_init(&call->reader, c->max_recv);
  mp_rpc_reply_init(&call->reply);
  if (out) *out = call;
  if (opts && opts->timeout_ms) {
    uv_timer_init(c->loop, &call->timer);
    call->has_timer = 1;
    call->timeout_ms = opts->timeout_ms;
    uv_timer_start(&call->timer, call_on_deadline, opts->timeout_ms, 0);
  }
  mp_err cerr;
  mp__rpc_cconn *cc = c->current ? c->current : cconn_new(c, &cerr);
  if (cc == NULL || cc->base.closing) {
    mp__rpc_call_end(call, cc ? cc->base.fail.code : cerr.code,
                     MP_RPC_UNAVAILABLE, "%s",
                     cc ? cc->base.fail.msg : cerr.msg);
    return 0;
  }
  call->conn = cc;
  mp__rpc_list_push(&cc->calls, &call->link);
  if (opts && opts->cancel) mp__rpc_cancel_attach(opts->cancel, call);
  if (cc->connected && !call->ended) {
    call_submit(call);
    mp__rpc_conn_flush(&cc->base);
  }
  return 0;
}

/* Lets nghttp2 read the open call's queue again, and sends. */
static void call_resume(mp_rpc_call *call) {
  if (!call->stream_open || call->conn == NULL) return; /* read at submit */
  nghttp2_session_resume_data(call->conn->base.h2, call->stream_id);
  mp__rpc_conn_flush(&call->conn->base);
}

void mp_rpc_call_send(mp_rpc_call *call, const void *msg, size_t len) {
  if (call->ended || !call->out.open || call->out.send_closed) return;
  uint8_t prefix[MP_RPC_PREFIX_LEN];
  mp_rpc_frame_prefix(prefix, len);
  mp_buf_append(&call->out.queued, prefix, sizeof(prefix));
  mp_buf_append(&call->out.queued, msg, len);
  call_resume(call);
}

void mp_rpc_call_close_send(mp_rpc_call *call) {
  if (call->ended || !call->out.open || call->out.send_closed) return;
  call->out.send_closed = 1;
  call_resume(call);
}

void mp_rpc_call_cancel(mp_rpc_call *call) {
  mp__rpc_call_end(call, MP_ECANCELED, MP_RPC_CANCELLED, "call cancelled");
}

void mp_rpc_client_close(mp_rpc_client *c, void (*cb)(void *arg), void *arg) {
  if (c->closing) return;
  c->closing = 1;
  c->close_cb = cb;
  c->close_arg = arg;
  c->current = NULL;
  mp__rpc_client_close_inbox(c);
  for (mp__rpc_link *l = c->conns.next, *next; l != &c->conns; l = next) {
    next = l->next;
    mp__rpc_cconn *cc = mp_container_of(l, mp__rpc_cconn, link);
    mp__rpc_conn_fail(&cc->base, MP_ECANCELED, "client closed");
  }
  mp__rpc_client_dispatch(c);
  if (mp__rpc_list_empty(&c->conns)) client_free_async(c);
}
