/* The gRPC client against the gRPC server, both minipulumi's, over
 * loopback: outcomes, errors, concurrency, blocking calls from threads,
 * deadlines, cancellation and broken peers. */
#include <stdlib.h>
#include <string.h>

#include "pulumi/engine.pb-c.h"
#include "rpc/engine_service.h"
#include "rpc_harness.h"
#include "testutil.h"

typedef struct fixture {
  uv_loop_t loop;
  mp_rpc_server *srv;
  rh_service svc;
  mp_rpc_engine_service eng;
  mp_rpc_client *cli;
  int port;
  mp_buf logs; /* "<severity>|<urn>|<message>|<stream>|<ephemeral>\n" */
} fixture;

static void fx_log(const mp_rpc_log_entry *e, void *arg) {
  fixture *f = arg;
  mp_buf_printf(&f->logs, "%d|%s|%s|%d|%d\n", e->severity, e->urn, e->message,
                (int)e->stream_id, e->ephemeral);
}

static void fx_open(fixture *f, size_t srv_max, size_t cli_max) {
  mp_err err;
  memset(f, 0, sizeof(*f));
  uv_loop_init(&f->loop);
  mp_buf_init(&f->logs);
  CHECK(mp_rpc_server_new(&f->loop, srv_max, &f->srv, &err) == 0);
  rh_service_init(&f->svc, &f->loop);
  CHECK(rh_service_add(&f->svc, f->srv, &err) == 0);
  mp_rpc_engine_service_init(&f->eng, fx_log, f);
  CHECK(mp_rpc_engine_service_register(&f->eng, f->srv, &err) == 0);
  CHECK(mp_rpc_server_listen(f->srv, &f->port, &err) == 0);
  CHECK(f->port > 0 && mp_rpc_server_port(f->srv) == f->port);
  CHECK(mp_rpc_client_new(&f->loop, "c-server", f->port, cli_max, &f->cli,
                          &err) == 0);
}

static void fx_close(fixture *f) {
  rh_service_release(&f->svc);
  rh_client_close(&f->loop, f->cli);
  rh_server_close(&f->loop, f->srv);
  rh_service_destroy(&f->svc);
  mp_rpc_engine_service_destroy(&f->eng);
  mp_buf_destroy(&f->logs);
  CHECK(rh_loop_close(&f->loop) == 0);
}

static void test_rpc_loop_unary_echo(void) {
  fixture f;
  rh_result r;
  fx_open(&f, 0, 0);
  CHECK(rh_call(&f.loop, f.cli, "/mptest.Test/Echo", "hello", 5, NULL, &r) ==
        0);
  CHECK(r.reply.body.len == 5 && memcmp(r.reply.body.data, "hello", 5) == 0);
  CHECK(r.reply.status.code == MP_RPC_OK);
  rh_result_destroy(&r);
  /* An empty message both ways is still a message. */
  CHECK(rh_call(&f.loop, f.cli, "/mptest.Test/Echo", "", 0, NULL, &r) == 0);
  CHECK(r.reply.body.len == 0);
  rh_result_destroy(&r);
  /* Answered later, from a timer on the loop. */
  CHECK(rh_call(&f.loop, f.cli, "/mptest.Test/Echo", "Later", 5, NULL, &r) ==
        0);
  CHECK(r.reply.body.len == 5 && memcmp(r.reply.body.data, "later", 5) == 0);
  rh_result_destroy(&r);
  fx_close(&f);
}

static void test_rpc_loop_engine_service(void) {
  fixture f;
  rh_result r;
  fx_open(&f, 0, 0);
  Pulumirpc__LogRequest log = PULUMIRPC__LOG_REQUEST__INIT;
  log.severity = PULUMIRPC__LOG_SEVERITY__WARNING;
  log.message = "low on disk";
  log.urn = "urn:pulumi:dev::p::t:r:R::a";
  log.streamid = 3;
  uint8_t buf[256];
  size_t n = pulumirpc__log_request__pack(&log, buf);
  CHECK(rh_call(&f.loop, f.cli, "/pulumirpc.Engine/Log", buf, n, NULL, &r) ==
        0);
  CHECK(r.reply.body.len == 0);
  CHECK_STR(f.logs.data, "2|urn:pulumi:dev::p::t:r:R::a|low on disk|3|0\n");
  rh_result_destroy(&r);

  Pulumirpc__SetRootResourceRequest set =
      PULUMIRPC__SET_ROOT_RESOURCE_REQUEST__INIT;
  set.urn = "urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev";
  n = pulumirpc__set_root_resource_request__pack(&set, buf);
  CHECK(rh_call(&f.loop, f.cli, "/pulumirpc.Engine/SetRootResource", buf, n,
                NULL, &r) == 0);
  rh_result_destroy(&r);
  CHECK(rh_call(&f.loop, f.cli, "/pulumirpc.Engine/GetRootResource", "", 0,
                NULL, &r) == 0);
  Pulumirpc__GetRootResourceResponse *got =
      pulumirpc__get_root_resource_response__unpack(
          NULL, r.reply.body.len, (const uint8_t *)r.reply.body.data);
  CHECK(got != NULL);
  if (got) {
    CHECK_STR(got->urn, "urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev");
    pulumirpc__get_root_resource_response__free_unpacked(got, NULL);
  }
  rh_result_destroy(&r);

  /* A request that is not a LogRequest is refused, not logged. */
  CHECK(rh_call(&f.loop, f.cli, "/pulumirpc.Engine/Log", "\xff\xff", 2, NULL,
                &r) == MP_EPLUGIN);
  CHECK(r.reply.status.code == MP_RPC_INVALID_ARGUMENT);
  CHECK_CONTAINS(r.reply.status.message, "cannot decode LogRequest");
  rh_result_destroy(&r);
  fx_close(&f);
}

static void test_rpc_loop_unimplemented(void) {
  fixture f;
  rh_result r;
  fx_open(&f, 0, 0);
  CHECK(rh_call(&f.loop, f.cli, "/mptest.Test/Nope", "x", 1, NULL, &r) ==
        MP_EPLUGIN);
  CHECK(r.reply.status.code == MP_RPC_UNIMPLEMENTED);
  CHECK_STR(r.reply.status.message,
            "method '/mptest.Test/Nope' is not served here");
  CHECK_CONTAINS(r.err.msg, "'/mptest.Test/Nope' on 'c-server' (127.0.0.1:");
  CHECK_CONTAINS(r.err.msg, "UNIMPLEMENTED: method");
  rh_result_destroy(&r);
  fx_close(&f);
}

/* Code, percent-encoded message and an ErrorResourceInitFailed detail
 * arrive as the server sent them. */
static void test_rpc_loop_error_with_details(void) {
  fixture f;
  rh_result r;
  fx_open(&f, 0, 0);
  const char *req = "2:create failed: 100% of\nthe time";
  CHECK(rh_call(&f.loop, f.cli, "/mptest.Test/Fail", req, strlen(req), NULL,
                &r) == MP_EPLUGIN);
  CHECK(r.reply.status.code == MP_RPC_UNKNOWN);
  CHECK_STR(r.reply.status.message, "create failed: 100% of\nthe time");
  CHECK_CONTAINS(r.err.msg, "UNKNOWN: create failed: 100% of");
  CHECK(rh_has_init_failed(&r.reply.status, "i-c-42", "half created by C"));
  rh_result_destroy(&r);
  fx_close(&f);
}

#define MANY_CALLS 1000

static void test_rpc_loop_many_concurrent(void) {
  fixture f;
  fx_open(&f, 0, 0);
  rh_result *res = calloc(MANY_CALLS, sizeof(*res));
  char(*msgs)[16] = calloc(MANY_CALLS, sizeof(*msgs));
  mp_err err;
  for (int i = 0; i < MANY_CALLS; i++) {
    rh_result_init(&res[i]);
    snprintf(msgs[i], sizeof(msgs[i]), "m%d", i);
    CHECK(mp_rpc_call_start(f.cli, "/mptest.Test/Echo", msgs[i],
                            strlen(msgs[i]), NULL, rh_collect, &res[i], NULL,
                            &err) == 0);
  }
  int ok = 0;
  for (int i = 0; i < MANY_CALLS; i++) {
    rh_run_until(&f.loop, &res[i].done);
    if (res[i].rc == 0 && res[i].reply.body.len == strlen(msgs[i]) &&
        memcmp(res[i].reply.body.data, msgs[i], strlen(msgs[i])) == 0)
      ok++;
    rh_result_destroy(&res[i]);
  }
  CHECK(ok == MANY_CALLS);
  CHECK(f.svc.requests == MANY_CALLS);
  free(res);
  free(msgs);
  fx_close(&f);
}

/* ---- blocking calls from worker threads ------------------------------- */

#define SYNC_THREADS 32
#define SYNC_CALLS 25

static void test_rpc_loop_sync_from_many_threads(void) {
  fixture f;
  rh_worker w[SYNC_THREADS];
  fx_open(&f, 0, 0);
  rh_run_workers(&f.loop, f.cli, "/mptest.Test/Echo", NULL, SYNC_CALLS, w,
                 SYNC_THREADS, NULL, NULL);
  int ok = 0;
  for (int i = 0; i < SYNC_THREADS; i++) ok += w[i].ok;
  CHECK(ok == SYNC_THREADS * SYNC_CALLS);
  fx_close(&f);
}

/* Waiting on the loop thread would wait for itself: refused. */
static void test_rpc_loop_sync_on_loop_thread_refused(void) {
  fixture f;
  mp_rpc_reply reply;
  mp_err err;
  fx_open(&f, 0, 0);
  mp_rpc_reply_init(&reply);
  CHECK(mp_rpc_call_sync(f.cli, "/mptest.Test/Echo", "x", 1, NULL, &reply,
                         &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "made on the loop thread");
  mp_rpc_reply_destroy(&reply);
  fx_close(&f);
}

/* Blocking calls with a deadline to a method that never answers all come
 * back DEADLINE_EXCEEDED; the held calls are answered later harmlessly. */
static void test_rpc_loop_sync_deadline(void) {
  fixture f;
  rh_worker w[4];
  mp_rpc_call_opts opts = {.timeout_ms = 50};
  fx_open(&f, 0, 0);
  rh_run_workers(&f.loop, f.cli, "/mptest.Test/Hang", &opts, 1, w, 4, NULL,
                 NULL);
  for (int i = 0; i < 4; i++) {
    CHECK(w[i].rc_last == MP_EIO);
    CHECK(w[i].code_last == MP_RPC_DEADLINE_EXCEEDED);
    CHECK_CONTAINS(w[i].err_last.msg, "'/mptest.Test/Hang' on 'c-server'");
    CHECK_CONTAINS(w[i].err_last.msg, "deadline exceeded: no reply within 50");
  }
  fx_close(&f);
}

static void fire_token(void *arg) { mp_rpc_cancel_fire(arg); }

typedef struct firer {
  fixture *f;
  mp_rpc_cancel *tok;
  int started;
  uv_thread_t tid;
} firer;

/* Fires the token from a thread of its own once the server holds both
 * calls. */
static void firer_tick(void *arg) {
  firer *fi = arg;
  if (fi->started || fi->f->svc.nheld < 2) return;
  fi->started = 1;
  uv_thread_create(&fi->tid, fire_token, fi->tok);
}

/* A token fired from another thread cancels blocking calls in flight. */
static void test_rpc_loop_sync_cancel_token(void) {
  fixture f;
  mp_rpc_cancel *tok;
  mp_err err;
  rh_worker w[2];
  fx_open(&f, 0, 0);
  CHECK(mp_rpc_cancel_new(&f.loop, &tok, &err) == 0);
  mp_rpc_call_opts opts = {.cancel = tok};
  firer fi = {.f = &f, .tok = tok};
  rh_run_workers(&f.loop, f.cli, "/mptest.Test/Hang", &opts, 1, w, 2,
                 firer_tick, &fi);
  CHECK(fi.started);
  if (fi.started) uv_thread_join(&fi.tid);
  for (int i = 0; i < 2; i++) {
    CHECK(w[i].rc_last == MP_ECANCELED);
    CHECK(w[i].code_last == MP_RPC_CANCELLED);
    CHECK_CONTAINS(w[i].err_last.msg, "call cancelled");
  }
  /* A call started with a fired token ends at once. */
  rh_result r;
  CHECK(rh_call(&f.loop, f.cli, "/mptest.Test/Echo", "x", 1, &opts, &r) ==
        MP_ECANCELED);
  rh_result_destroy(&r);
  mp_rpc_cancel_close(tok);
  fx_close(&f);
}

static void test_rpc_loop_async_cancel(void) {
  fixture f;
  rh_result r;
  mp_rpc_call *call;
  mp_err err;
  fx_open(&f, 0, 0);
  rh_result_init(&r);
  CHECK(mp_rpc_call_start(f.cli, "/mptest.Test/Hang", "x", 1, NULL, rh_collect,
                          &r, &call, &err) == 0);
  while (f.svc.nheld == 0) uv_run(&f.loop, UV_RUN_ONCE);
  mp_rpc_call_cancel(call);
  CHECK(!r.done); /* the callback never runs inside cancel */
  rh_run_until(&f.loop, &r.done);
  CHECK(r.rc == MP_ECANCELED && r.reply.status.code == MP_RPC_CANCELLED);
  rh_result_destroy(&r);
  /* The connection still serves calls. */
  CHECK(rh_call(&f.loop, f.cli, "/mptest.Test/Echo", "y", 1, NULL, &r) == 0);
  rh_result_destroy(&r);
  fx_close(&f);
}

/* A reply larger than the client's limit is refused; the connection
 * stays usable. */
static void test_rpc_loop_oversized_reply(void) {
  fixture f;
  rh_result r;
  fx_open(&f, 0, 1024);
  CHECK(rh_call(&f.loop, f.cli, "/mptest.Test/Big", "4096", 4, NULL, &r) ==
        MP_EPROTO);
  CHECK(r.reply.status.code == MP_RPC_RESOURCE_EXHAUSTED);
  CHECK_CONTAINS(r.err.msg, "'/mptest.Test/Big' on 'c-server'");
  CHECK_CONTAINS(r.err.msg, "larger than max (4096 vs. 1024 bytes)");
  rh_result_destroy(&r);
  CHECK(rh_call(&f.loop, f.cli, "/mptest.Test/Big", "1024", 4, NULL, &r) == 0);
  CHECK(r.reply.body.len == 1024);
  rh_result_destroy(&r);
  fx_close(&f);
}

/* A request larger than the server's limit is answered
 * RESOURCE_EXHAUSTED without reading the rest. */
static void test_rpc_loop_oversized_request(void) {
  fixture f;
  rh_result r;
  size_t len = (size_t)8 << 20;
  char *big = calloc(1, len);
  fx_open(&f, (size_t)1 << 20, 0);
  CHECK(rh_call(&f.loop, f.cli, "/mptest.Test/Echo", big, len, NULL, &r) ==
        MP_EPLUGIN);
  CHECK(r.reply.status.code == MP_RPC_RESOURCE_EXHAUSTED);
  CHECK_CONTAINS(r.reply.status.message,
                 "larger than max (8388608 vs. 1048576 bytes)");
  CHECK(f.svc.requests == 0);
  rh_result_destroy(&r);
  CHECK(rh_call(&f.loop, f.cli, "/mptest.Test/Echo", "ok", 2, NULL, &r) == 0);
  rh_result_destroy(&r);
  free(big);
  fx_close(&f);
}

/* A message of several MiB crosses many DATA frames and windows both
 * ways. */
static void test_rpc_loop_large_echo(void) {
  fixture f;
  rh_result r;
  size_t len = (size_t)24 << 20;
  uint8_t *big = malloc(len);
  for (size_t i = 0; i < len; i++) big[i] = (uint8_t)(i * 7 + (i >> 16));
  fx_open(&f, 0, 0);
  CHECK(rh_call(&f.loop, f.cli, "/mptest.Test/Echo", big, len, NULL, &r) == 0);
  CHECK(r.reply.body.len == len && memcmp(r.reply.body.data, big, len) == 0);
  rh_result_destroy(&r);
  free(big);
  fx_close(&f);
}

static void test_rpc_loop_connection_refused(void) {
  uv_loop_t loop;
  mp_rpc_server *srv;
  mp_rpc_client *cli;
  mp_err err;
  int port;
  rh_result r;
  uv_loop_init(&loop);
  /* A port that was just free: listen, then close. */
  CHECK(mp_rpc_server_new(&loop, 0, &srv, &err) == 0);
  CHECK(mp_rpc_server_listen(srv, &port, &err) == 0);
  rh_server_close(&loop, srv);
  CHECK(mp_rpc_client_new(&loop, "gone", port, 0, &cli, &err) == 0);
  CHECK(rh_call(&loop, cli, "/mptest.Test/Echo", "x", 1, NULL, &r) == MP_EIO);
  CHECK(r.reply.status.code == MP_RPC_UNAVAILABLE);
  CHECK_CONTAINS(r.err.msg, "'/mptest.Test/Echo' on 'gone' (127.0.0.1:");
  CHECK_CONTAINS(r.err.msg, "cannot connect: connection refused");
  rh_result_destroy(&r);
  rh_client_close(&loop, cli);
  CHECK(mp_rpc_client_new(&loop, "bad", 0, 0, &cli, &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "bad port 0 for gRPC peer 'bad'");
  CHECK(rh_loop_close(&loop) == 0);
}

/* The server goes away while a call is in flight. */
static void test_rpc_loop_peer_disconnects_mid_call(void) {
  fixture f;
  rh_result r;
  mp_err err;
  fx_open(&f, 0, 0);
  rh_result_init(&r);
  CHECK(mp_rpc_call_start(f.cli, "/mptest.Test/Hang", "x", 1, NULL, rh_collect,
                          &r, NULL, &err) == 0);
  while (f.svc.nheld == 0) uv_run(&f.loop, UV_RUN_ONCE);
  mp_rpc_server *srv = f.srv;
  f.srv = NULL;
  int closed = 0;
  mp_rpc_server_close(srv, rh_set_flag, &closed);
  rh_run_until(&f.loop, &r.done);
  CHECK(r.rc == MP_EIO && r.reply.status.code == MP_RPC_UNAVAILABLE);
  CHECK_CONTAINS(r.err.msg, "connection lost mid-call: peer closed the "
                            "connection");
  rh_result_destroy(&r);
  rh_run_until(&f.loop, &closed);
  /* The handler never answered: the call went with the server (a leak
   * under ASan otherwise), so the service forgets it. */
  CHECK(f.svc.nheld == 1);
  f.svc.nheld = 0;
  rh_client_close(&f.loop, f.cli);
  rh_service_destroy(&f.svc);
  mp_rpc_engine_service_destroy(&f.eng);
  mp_buf_destroy(&f.logs);
  CHECK(rh_loop_close(&f.loop) == 0);
}

/* Closing the client ends its calls with MP_ECANCELED. */
static void test_rpc_loop_client_close_cancels(void) {
  fixture f;
  rh_result r;
  mp_err err;
  fx_open(&f, 0, 0);
  rh_result_init(&r);
  CHECK(mp_rpc_call_start(f.cli, "/mptest.Test/Hang", "x", 1, NULL, rh_collect,
                          &r, NULL, &err) == 0);
  while (f.svc.nheld == 0) uv_run(&f.loop, UV_RUN_ONCE);
  mp_rpc_client_close(f.cli, NULL, NULL);
  rh_run_until(&f.loop, &r.done);
  CHECK(r.rc == MP_ECANCELED);
  CHECK_CONTAINS(r.err.msg, "client closed");
  rh_result_destroy(&r);
  CHECK(mp_rpc_client_new(&f.loop, "c-server", f.port, 0, &f.cli, &err) == 0);
  fx_close(&f);
}

/* ---- raw TCP peers that do not speak HTTP/2 ---------------------------- */

typedef struct raw_peer {
  uv_tcp_t listener;
  uv_tcp_t conn;
  uv_write_t wreq;
  int accepted;
  const char *junk;
} raw_peer;

static void raw_on_written(uv_write_t *req, int status) {
  (void)status;
  raw_peer *p = mp_container_of(req, raw_peer, wreq);
  uv_close((uv_handle_t *)&p->conn, NULL);
}

static void raw_on_connection(uv_stream_t *l, int status) {
  raw_peer *p = mp_container_of((uv_tcp_t *)l, raw_peer, listener);
  if (status < 0 || p->accepted) return;
  p->accepted = 1;
  uv_tcp_init(l->loop, &p->conn);
  uv_accept(l, (uv_stream_t *)&p->conn);
  uv_buf_t b = uv_buf_init((char *)p->junk, (unsigned)strlen(p->junk));
  uv_write(&p->wreq, (uv_stream_t *)&p->conn, &b, 1, raw_on_written);
}

/* A "server" that answers any connection with HTTP/1.1 text. */
static void test_rpc_loop_garbage_server(void) {
  uv_loop_t loop;
  raw_peer p = {.junk =
                    "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"};
  struct sockaddr_in addr;
  struct sockaddr_storage bound;
  int len = sizeof(bound);
  mp_rpc_client *cli;
  mp_err err;
  rh_result r;
  uv_loop_init(&loop);
  uv_tcp_init(&loop, &p.listener);
  uv_ip4_addr("127.0.0.1", 0, &addr);
  uv_tcp_bind(&p.listener, (struct sockaddr *)&addr, 0);
  uv_listen((uv_stream_t *)&p.listener, 4, raw_on_connection);
  uv_tcp_getsockname(&p.listener, (struct sockaddr *)&bound, &len);
  int port = ntohs(((struct sockaddr_in *)&bound)->sin_port);
  CHECK(mp_rpc_client_new(&loop, "junk", port, 0, &cli, &err) == 0);
  CHECK(rh_call(&loop, cli, "/mptest.Test/Echo", "x", 1, NULL, &r) ==
        MP_EPROTO);
  CHECK(r.reply.status.code == MP_RPC_INTERNAL);
  CHECK_CONTAINS(r.err.msg, "'/mptest.Test/Echo' on 'junk'");
  CHECK_CONTAINS(r.err.msg, "malformed HTTP/2 from peer");
  rh_result_destroy(&r);
  rh_client_close(&loop, cli);
  uv_close((uv_handle_t *)&p.listener, NULL);
  CHECK(rh_loop_close(&loop) == 0);
}

typedef struct raw_client {
  uv_tcp_t tcp;
  uv_connect_t creq;
  uv_write_t wreq;
  int closed;
} raw_client;

static void raw_client_closed(uv_handle_t *h) {
  mp_container_of((uv_tcp_t *)h, raw_client, tcp)->closed = 1;
}

static void raw_client_alloc(uv_handle_t *h, size_t n, uv_buf_t *b) {
  (void)h;
  b->base = malloc(n);
  b->len = n;
}

static void raw_client_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b) {
  free(b->base);
  if (n < 0) uv_close((uv_handle_t *)s, raw_client_closed);
}

static void raw_client_connected(uv_connect_t *req, int status) {
  raw_client *c = mp_container_of(req, raw_client, creq);
  static char junk[] = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
  if (status < 0) {
    uv_close((uv_handle_t *)&c->tcp, raw_client_closed);
    return;
  }
  uv_buf_t b = uv_buf_init(junk, sizeof(junk) - 1);
  uv_write(&c->wreq, (uv_stream_t *)&c->tcp, &b, 1, NULL);
  uv_read_start((uv_stream_t *)&c->tcp, raw_client_alloc, raw_client_read);
}

/* A client that sends HTTP/1.1 is dropped; the server goes on serving. */
static void test_rpc_loop_garbage_client(void) {
  fixture f;
  raw_client rc;
  struct sockaddr_in addr;
  rh_result r;
  fx_open(&f, 0, 0);
  memset(&rc, 0, sizeof(rc));
  uv_tcp_init(&f.loop, &rc.tcp);
  uv_ip4_addr("127.0.0.1", f.port, &addr);
  uv_tcp_connect(&rc.creq, &rc.tcp, (struct sockaddr *)&addr,
                 raw_client_connected);
  rh_run_until(&f.loop, &rc.closed); /* the server hung up on it */
  CHECK(rh_call(&f.loop, f.cli, "/mptest.Test/Echo", "fine", 4, NULL, &r) == 0);
  rh_result_destroy(&r);
  fx_close(&f);
}

static void test_rpc_loop_bad_arguments(void) {
  fixture f;
  mp_err err;
  fx_open(&f, 0, 0);
  CHECK(mp_rpc_call_start(f.cli, "Echo", "", 0, NULL, rh_collect, NULL, NULL,
                          &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "bad gRPC method 'Echo'");
  CHECK(mp_rpc_server_add(f.srv, "/mptest.Test/Echo", NULL, NULL, &err) ==
        MP_EINVAL);
  CHECK_CONTAINS(err.msg, "'/mptest.Test/Echo' is served twice");
  fx_close(&f);
}

int main(void) {
  RUN(test_rpc_loop_unary_echo);
  RUN(test_rpc_loop_engine_service);
  RUN(test_rpc_loop_unimplemented);
  RUN(test_rpc_loop_error_with_details);
  RUN(test_rpc_loop_many_concurrent);
  RUN(test_rpc_loop_sync_from_many_threads);
  RUN(test_rpc_loop_sync_on_loop_thread_refused);
  RUN(test_rpc_loop_sync_deadline);
  RUN(test_rpc_loop_sync_cancel_token);
  RUN(test_rpc_loop_async_cancel);
  RUN(test_rpc_loop_oversized_reply);
  RUN(test_rpc_loop_oversized_request);
  RUN(test_rpc_loop_large_echo);
  RUN(test_rpc_loop_connection_refused);
  RUN(test_rpc_loop_peer_disconnects_mid_call);
  RUN(test_rpc_loop_client_close_cancels);
  RUN(test_rpc_loop_garbage_server);
  RUN(test_rpc_loop_garbage_client);
  RUN(test_rpc_loop_bad_arguments);
  return mp_test_summary();
}
