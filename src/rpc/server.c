/* The gRPC server on the loop: accept, route each request stream to its
 * handler once the whole message is in, send the answer. Handlers run from
 * sconn_after_io, outside nghttp2's callbacks, so they may answer at once. */
#include "rpc/server.h"

#include <stdio.h>
#include <stdlib.h>

#include "rpc/rpc_int.h"

typedef struct method_entry {
  char *path;
  mp_rpc_handler handler;
  void *arg;
} method_entry;

struct mp_rpc_server { /* Owner: loop thread. */
  uv_loop_t *loop;
  uv_tcp_t listener;
  int port;
  size_t max_recv;
  method_entry *methods;
  size_t nmethods;
  mp__rpc_link conns;
  mp__rpc_link held; /* calls their handlers have not answered yet */
  int closing;
  void (*close_cb)(void *arg);
  void *close_arg;
};

typedef struct sconn {
  mp__rpc_conn base; /* first: nghttp2 user data and TCP data */
  mp_rpc_server *srv;
  mp__rpc_link calls; /* requests whose stream is open */
  mp__rpc_link ready; /* complete requests whose handler is due */
  mp__rpc_link link;  /* in srv->conns */
} sconn;

struct mp_rpc_srv_call {
  sconn *conn;       /* NULL once the stream or connection is gone */
  mp__rpc_link link; /* in conn->calls */
  mp__rpc_link ready_link;
  int32_t stream_id;
  char *path;
  char *content_type; /* when it is not application/grpc* */
  const method_entry *method;
  mp_rpc_reader reader;
  int answered;    /* a response has been submitted */
  int in_handler;  /* the handler owns the call */
  mp__rpc_link held_link; /* in srv->held while in_handler */
  mp__rpc_out out; /* the reply message */
};

/* ---- calls ------------------------------------------------------------ */

static void call_free(mp_rpc_srv_call *call) {
  mp__rpc_list_remove(&call->held_link);
  mp_rpc_reader_destroy(&call->reader);
  mp__rpc_out_destroy(&call->out);
  free(call->path);
  free(call->content_type);
  free(call);
}

/* Forgets the stream (closed, or its connection gone). */
static void call_detach(mp_rpc_srv_call *call) {
  mp__rpc_list_remove(&call->link);
  mp__rpc_list_remove(&call->ready_link);
  call->conn = NULL;
  call->out.stopped = 1;
  if (!call->in_handler) call_free(call);
}

const char *mp_rpc_srv_call_method(const mp_rpc_srv_call *call) {
  return call->path ? call->path : "";
}

/* Submits a trailers-only error answer; no flush (may run inside nghttp2's
 * callbacks). */
static void call_answer_error(mp_rpc_srv_call *call, int code, const char *msg,
                              const mp_rpc_detail *details, size_t n) {
  if (call->conn == NULL || call->answered) return;
  char status[16];
  snprintf(status, sizeof(status), "%d", code);
  char *pct = mp_rpc_pct_encode(msg ? msg : "");
  mp_buf bin, b64;
  mp_buf_init(&bin);
  mp_buf_init(&b64);
  nghttp2_nv nva[5] = {
      mp__rpc_nv(":status", "200"),
      mp__rpc_nv("content-type", "application/grpc"),
      mp__rpc_nv("grpc-status", status),
      mp__rpc_nv("grpc-message", pct),
  };
  size_t nv = 4;
  if (n > 0) {
    mp_rpc_status_encode_details(code, msg, details, n, &bin);
    mp_rpc_b64_encode((const uint8_t *)bin.data, bin.len, &b64);
    nva[nv++] = mp__rpc_nv("grpc-status-details-bin", b64.data);
  }
  nghttp2_submit_response(call->conn->base.h2, call->stream_id, nva, nv, NULL);
  call->answered = 1;
  free(pct);
  mp_buf_destroy(&bin);
  mp_buf_destroy(&b64);
}

/* An HTTP error for a request that is not gRPC at all. */
static void call_answer_http(mp_rpc_srv_call *call, const char *status) {
  nghttp2_nv nva[] = {mp__rpc_nv(":status", status)};
  nghttp2_submit_response(call->conn->base.h2, call->stream_id, nva, 1, NULL);
  call->answered = 1;
}

void mp_rpc_srv_reply(mp_rpc_srv_call *call, const void *msg, size_t len) {
  call->in_handler = 0;
  mp__rpc_list_remove(&call->held_link);
  if (call->conn == NULL || call->answered) {
    if (call->conn == NULL) call_free(call);
    return;
  }
  uint8_t *copy = mp_xmalloc(len);
  if (len) memcpy(copy, msg, len);
  mp__rpc_out_init(&call->out, copy, len);
  call->out.owned = copy;
  call->out.ok_trailers = 1;
  nghttp2_nv nva[] = {
      mp__rpc_nv(":status", "200"),
      mp__rpc_nv("content-type", "application/grpc"),
  };
  nghttp2_data_provider prd;
  mp__rpc_out_provider(&call->out, &prd);
  int rv = nghttp2_submit_response(call->conn->base.h2, call->stream_id, nva,
                                   MP_ARRAY_LEN(nva), &prd);
  if (rv != 0)
    nghttp2_submit_rst_stream(call->conn->base.h2, NGHTTP2_FLAG_NONE,
                              call->stream_id, NGHTTP2_INTERNAL_ERROR);
  call->answered = 1;
  mp__rpc_conn_flush(&call->conn->base);
}

void mp_rpc_srv_fail(mp_rpc_srv_call *call, int code, const char *msg,
                     const mp_rpc_detail *details, size_t n) {
  call->in_handler = 0;
  mp__rpc_list_remove(&call->held_link);
  if (call->conn == NULL) {
    call_free(call);
    return;
  }
  call_answer_error(call, code == MP_RPC_OK ? MP_RPC_UNKNOWN : code, msg,
                    details, n);
  mp__rpc_conn_flush(&call->conn->base);
}

/* ---- nghttp2 callbacks ------------------------------------------------ */

static mp_rpc_srv_call *stream_call(nghttp2_session *s, int32_t stream_id) {
  return nghttp2_session_get_stream_user_data(s, stream_id);
}

static int on_begin_headers(nghttp2_session *s, const nghttp2_frame *frame,
                            void *user_data) {
  sconn *sc = user_data;
  if (frame->hd.type != NGHTTP2_HEADERS ||
      frame->headers.cat != NGHTTP2_HCAT_REQUEST)
    return 0;
  mp_rpc_srv_call *call = mp_xcalloc(1, sizeof(*call));
  call->conn = sc;
  call->stream_id = frame->hd.stream_id;
  mp__rpc_list_init(&call->ready_link);
  mp__rpc_list_push(&sc->calls, &call->link);
  mp_rpc_reader_init(&call->reader, sc->srv->max_recv);
  nghttp2_session_set_stream_user_data(s, frame->hd.stream_id, call);
  return 0;
}

static int on_header(nghttp2_session *s, const nghttp2_frame *frame,
                     const uint8_t *name, size_t namelen, const uint8_t *value,
                     size_t valuelen, uint8_t flags, void *user_data) {
  (void)flags;
  (void)user_data;
  mp_rpc_srv_call *call = stream_call(s, frame->hd.stream_id);
  if (call == NULL || frame->hd.type != NGHTTP2_HEADERS ||
      frame->headers.cat != NGHTTP2_HCAT_REQUEST)
    return 0;
  if (mp__rpc_header_is(name, namelen, ":path")) {
    free(call->path);
    call->path = mp_xstrndup((const char *)value, valuelen);
  } else if (mp__rpc_header_is(name, namelen, "content-type") &&
             !mp__rpc_is_grpc_content_type(value, valuelen)) {
    free(call->content_type);
    call->content_type = mp_xstrndup((const char *)value, valuelen);
  }
  return 0;
}

static const method_entry *find_method(const mp_rpc_server *srv,
                                       const char *path) {
  for (size_t i = 0; path && i < srv->nmethods; i++)
    if (strcmp(srv->methods[i].path, path) == 0) return &srv->methods[i];
  return NULL;
}

/* The request headers are in: refuse what cannot be served before any
 * body arrives. */
static void call_route(mp_rpc_srv_call *call) {
  if (call->content_type) {
    call_answer_http(call, "415");
    return;
  }
  call->method = find_method(call->conn->srv, call->path);
  if (call->method == NULL) {
    char msg[300];
    snprintf(msg, sizeof(msg), "method '%.200s' is not served here",
             call->path ? call->path : "");
    call_answer_error(call, MP_RPC_UNIMPLEMENTED, msg, NULL, 0);
  }
}

/* The client has sent everything: queue the handler, or say what is
 * missing. */
static void call_request_done(mp_rpc_srv_call *call) {
  if (call->answered) return;
  if (mp_rpc_reader_partial(&call->reader))
    call_answer_error(call, MP_RPC_INTERNAL,
                      "request ended in the middle of a message", NULL, 0);
  else if (!call->reader.complete)
    call_answer_error(call, MP_RPC_INTERNAL, "request has no message", NULL, 0);
  else
    mp__rpc_list_push(&call->conn->ready, &call->ready_link);
}

static int on_frame_recv(nghttp2_session *s, const nghttp2_frame *frame,
                         void *user_data) {
  (void)user_data;
  if (frame->hd.type != NGHTTP2_HEADERS && frame->hd.type != NGHTTP2_DATA)
    return 0;
  mp_rpc_srv_call *call = stream_call(s, frame->hd.stream_id);
  if (call == NULL) return 0;
  if (frame->hd.type == NGHTTP2_HEADERS &&
      frame->headers.cat == NGHTTP2_HCAT_REQUEST)
    call_route(call);
  if (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) call_request_done(call);
  return 0;
}

static int on_data_chunk(nghttp2_session *s, uint8_t flags, int32_t stream_id,
                         const uint8_t *data, size_t len, void *user_data) {
  (void)flags;
  (void)user_data;
  nghttp2_session_consume(s, stream_id, len);
  mp_rpc_srv_call *call = stream_call(s, stream_id);
  if (call == NULL || call->answered) return 0;
  mp_err e;
  if (mp_rpc_reader_feed(&call->reader, data, len, &e) < 0)
    call_answer_error(call, call->reader.status, e.msg, NULL, 0);
  return 0;
}

/* Once an answer has ended the stream while the client is still sending
 * (an early error), stop the rest of the upload: RST_STREAM(NO_ERROR)
 * after the answer, as HTTP/2 allows. Submitted only after the answer went
 * out, so that it cannot overtake it. */
static void sconn_on_frame_sent(mp__rpc_conn *base,
                                const nghttp2_frame *frame) {
  if (frame->hd.type != NGHTTP2_HEADERS ||
      !(frame->hd.flags & NGHTTP2_FLAG_END_STREAM))
    return;
  if (nghttp2_session_get_stream_remote_close(base->h2, frame->hd.stream_id) ==
      0)
    nghttp2_submit_rst_stream(base->h2, NGHTTP2_FLAG_NONE, frame->hd.stream_id,
                              NGHTTP2_NO_ERROR);
}

static int on_stream_close(nghttp2_session *s, int32_t stream_id,
                           uint32_t error_code, void *user_data) {
  (void)error_code;
  (void)user_data;
  mp_rpc_srv_call *call = stream_call(s, stream_id);
  if (call != NULL) call_detach(call);
  return 0;
}

/* ---- connections ------------------------------------------------------ */

static void sconn_after_io(mp__rpc_conn *base) {
  sconn *sc = (sconn *)base;
  while (!mp__rpc_list_empty(&sc->ready) && !base->closing) {
    mp_rpc_srv_call *call =
        mp_container_of(sc->ready.next, mp_rpc_srv_call, ready_link);
    mp__rpc_list_remove(&call->ready_link);
    mp_buf req;
    mp_buf_init(&req);
    mp_rpc_reader_take(&call->reader, &req);
    call->in_handler = 1;
    mp__rpc_list_push(&sc->srv->held, &call->held_link);
    call->method->handler(call, (const uint8_t *)req.data, req.len,
                          call->method->arg);
    mp_buf_destroy(&req);
  }
}

static void sconn_on_fail(mp__rpc_conn *base) {
  sconn *sc = (sconn *)base;
  while (!mp__rpc_list_empty(&sc->calls))
    call_detach(mp_container_of(sc->calls.next, mp_rpc_srv_call, link));
}

static void server_free(mp_rpc_server *srv);

static void sconn_on_closed(mp__rpc_conn *base) {
  sconn *sc = (sconn *)base;
  mp_rpc_server *srv = sc->srv;
  mp__rpc_list_remove(&sc->link);
  free(sc);
  if (srv->closing) server_free(srv);
}

static void server_on_connection(uv_stream_t *listener, int status) {
  mp_rpc_server *srv = listener->data;
  if (status < 0 || srv->closing) return;
  nghttp2_session_callbacks *cbs;
  if (nghttp2_session_callbacks_new(&cbs) != 0) return;
  mp__rpc_conn_common_callbacks(cbs);
  nghttp2_session_callbacks_set_on_begin_headers_callback(cbs,
                                                          on_begin_headers);
  nghttp2_session_callbacks_set_on_header_callback(cbs, on_header);
  nghttp2_session_callbacks_set_on_frame_recv_callback(cbs, on_frame_recv);
  nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cbs, on_data_chunk);
  nghttp2_session_callbacks_set_on_stream_close_callback(cbs, on_stream_close);
  sconn *sc = mp_xcalloc(1, sizeof(*sc));
  mp_err err;
  int rc = mp__rpc_conn_init(&sc->base, srv->loop, 1, cbs, &err);
  nghttp2_session_callbacks_del(cbs);
  if (rc < 0) {
    free(sc);
    return;
  }
  sc->srv = srv;
  sc->base.after_io = sconn_after_io;
  sc->base.on_fail = sconn_on_fail;
  sc->base.on_closed = sconn_on_closed;
  sc->base.on_frame_sent = sconn_on_frame_sent;
  mp__rpc_list_init(&sc->calls);
  mp__rpc_list_init(&sc->ready);
  mp__rpc_list_push(&srv->conns, &sc->link);
  rc = uv_accept(listener, (uv_stream_t *)&sc->base.tcp);
  if (rc < 0)
    mp__rpc_conn_fail(&sc->base, MP_EIO, "cannot accept: %s", uv_strerror(rc));
  else
    mp__rpc_conn_start(&sc->base);
}

/* ---- the server ------------------------------------------------------- */

int mp_rpc_server_new(uv_loop_t *loop, size_t max_recv, mp_rpc_server **out,
                      mp_err *err) {
  *out = NULL;
  mp_rpc_server *srv = mp_xcalloc(1, sizeof(*srv));
  int rc = uv_tcp_init(loop, &srv->listener);
  if (rc < 0) {
    free(srv);
    return mp_err_from_uv(err, rc, "cannot create the gRPC server's socket");
  }
  srv->listener.data = srv;
  srv->loop = loop;
  srv->max_recv = max_recv ? max_recv : MP_RPC_DEFAULT_MAX_RECV;
  mp__rpc_list_init(&srv->conns);
  mp__rpc_list_init(&srv->held);
  *out = srv;
  return 0;
}

int mp_rpc_server_add(mp_rpc_server *s, const char *path,
                      mp_rpc_handler handler, void *arg, mp_err *err) {
  if (path == NULL || path[0] != '/' || strchr(path + 1, '/') == NULL)
    return mp_err_set(err, MP_EINVAL,
                      "bad gRPC method path '%s'; expected "
                      "/package.Service/Method",
                      path ? path : "");
  if (find_method(s, path))
    return mp_err_set(err, MP_EINVAL, "gRPC method '%s' is served twice", path);
  s->methods =
      mp_xreallocarray(s->methods, s->nmethods + 1, sizeof(*s->methods));
  method_entry *m = &s->methods[s->nmethods++];
  m->path = mp_xstrdup(path);
  m->handler = handler;
  m->arg = arg;
  return 0;
}

int mp_rpc_server_listen(mp_rpc_server *s, int *port, mp_err *err) {
  struct sockaddr_in addr;
  struct sockaddr_storage bound;
  int len = sizeof(bound);
  uv_ip4_addr("127.0.0.1", 0, &addr);
  int rc = uv_tcp_bind(&s->listener, (const struct sockaddr *)&addr, 0);
  if (rc == 0)
    rc = uv_listen((uv_stream_t *)&s->listener, 511, server_on_connection);
  if (rc == 0)
    rc = uv_tcp_getsockname(&s->listener, (struct sockaddr *)&bound, &len);
  if (rc < 0)
    return mp_err_from_uv(err, rc,
                          "cannot listen for gRPC on 127.0.0.1 (any port)");
  s->port = ntohs(((struct sockaddr_in *)&bound)->sin_port);
  *port = s->port;
  return 0;
}

int mp_rpc_server_port(const mp_rpc_server *s) { return s->port; }

static void server_on_listener_closed(uv_handle_t *h) {
  mp_rpc_server *srv = h->data;
  void (*cb)(void *) = srv->close_cb;
  void *arg = srv->close_arg;
  /* Calls their handlers never answered go with the server. */
  while (!mp__rpc_list_empty(&srv->held))
    call_free(mp_container_of(srv->held.next, mp_rpc_srv_call, held_link));
  for (size_t i = 0; i < srv->nmethods; i++) free(srv->methods[i].path);
  free(srv->methods);
  free(srv);
  if (cb) cb(arg);
}

/* The last step of closing: once every connection is gone. */
static void server_free(mp_rpc_server *srv) {
  if (!mp__rpc_list_empty(&srv->conns)) return;
  uv_close((uv_handle_t *)&srv->listener, server_on_listener_closed);
}

void mp_rpc_server_close(mp_rpc_server *s, void (*cb)(void *arg), void *arg) {
  if (s->closing) return;
  s->closing = 1;
  s->close_cb = cb;
  s->close_arg = arg;
  for (mp__rpc_link *l = s->conns.next, *next; l != &s->conns; l = next) {
    next = l->next;
    mp__rpc_conn_close(&mp_container_of(l, sconn, link)->base);
  }
  server_free(s);
}
