/* The transport against a real gRPC peer, both ways: minipulumi's client
 * against a grpc-js server, grpc-js's client against minipulumi's server,
 * and the client against peers that are not gRPC at all
 * (tests/rpc/peer.js; node_modules installed by scripts/npm-deps.sh). */
#include <stdlib.h>
#include <string.h>

#include "rpc/engine_service.h"
#include "rpc_harness.h"
#include "testutil.h"

#define MiB ((size_t)1 << 20)

/* Size of the one very large message of the suite (both ways through
 * grpc-js); MP_RPC_BIG_MIB overrides it. */
static size_t big_size(void) {
  const char *env = getenv("MP_RPC_BIG_MIB");
  return (env ? (size_t)atoi(env) : 200) * MiB;
}

/* Starts `node peer.js <args>` and returns the port it printed. Without
 * a peer no test here can run: the program fails at once, saying why
 * (carrying on would use a client that was never made). */
static int start_peer(uv_loop_t *loop, rh_node *n, const char *const *args) {
  int port = -1;
  if (rh_node_spawn(loop, n, args) == 0) {
    port = rh_node_port(loop, n);
    if (port <= 0) rh_node_kill(loop, n);
  }
  if (port <= 0) {
    fprintf(stderr,
            "FAIL: peer.js %s printed no port; did `npm ci` run in "
            "tests/rpc? (scripts/npm-deps.sh)\n",
            args[0]);
    exit(1);
  }
  return port;
}

/* ---- minipulumi's client, grpc-js's server ---------------------------- */

static void test_rpc_node_client_calls(void) {
  uv_loop_t loop;
  rh_node node;
  mp_rpc_client *cli;
  mp_err err;
  rh_result r;
  const char *args[] = {"serve", NULL};
  uv_loop_init(&loop);
  int port = start_peer(&loop, &node, args);
  CHECK(port > 0);
  CHECK(mp_rpc_client_new(&loop, "grpc-js", port, 0, &cli, &err) == 0);

  CHECK(rh_call(&loop, cli, "/mptest.Test/Echo", "ping", 4, NULL, &r) == 0);
  CHECK(r.reply.body.len == 4 && memcmp(r.reply.body.data, "ping", 4) == 0);
  rh_result_destroy(&r);
  CHECK(rh_call(&loop, cli, "/mptest.Test/Echo", "", 0, NULL, &r) == 0);
  CHECK(r.reply.body.len == 0);
  rh_result_destroy(&r);

  const char *fail = "2:node says no: 50% of\nthe time";
  CHECK(rh_call(&loop, cli, "/mptest.Test/Fail", fail, strlen(fail), NULL,
                &r) == MP_EPLUGIN);
  CHECK(r.reply.status.code == MP_RPC_UNKNOWN);
  CHECK_STR(r.reply.status.message, "node says no: 50% of\nthe time");
  CHECK_CONTAINS(r.err.msg, "'/mptest.Test/Fail' on 'grpc-js' (127.0.0.1:");
  CHECK(
      rh_has_init_failed(&r.reply.status, "i-node-7", "half created by node"));
  rh_result_destroy(&r);

  CHECK(rh_call(&loop, cli, "/mptest.Test/Nope", "", 0, NULL, &r) ==
        MP_EPLUGIN);
  CHECK(r.reply.status.code == MP_RPC_UNIMPLEMENTED);
  CHECK_CONTAINS(r.err.msg, "UNIMPLEMENTED");
  rh_result_destroy(&r);

  mp_rpc_call_opts opts = {.timeout_ms = 200};
  CHECK(rh_call(&loop, cli, "/mptest.Test/Hang", "", 0, &opts, &r) == MP_EIO);
  CHECK(r.reply.status.code == MP_RPC_DEADLINE_EXCEEDED);
  CHECK_CONTAINS(r.err.msg, "'/mptest.Test/Hang' on 'grpc-js'");
  CHECK_CONTAINS(r.err.msg, "deadline exceeded");
  rh_result_destroy(&r);

  /* Many at once: asynchronous calls on the loop and blocking calls from
   * 32 threads, all on one connection. */
  enum { ASYNC = 300 };
  rh_result *res = calloc(ASYNC, sizeof(*res));
  char(*msgs)[16] = calloc(ASYNC, sizeof(*msgs));
  for (int i = 0; i < ASYNC; i++) {
    rh_result_init(&res[i]);
    snprintf(msgs[i], sizeof(msgs[i]), "a%d", i);
    CHECK(mp_rpc_call_start(cli, "/mptest.Test/Echo", msgs[i], strlen(msgs[i]),
                            NULL, rh_collect, &res[i], NULL, &err) == 0);
  }
  rh_worker w[32];
  rh_run_workers(&loop, cli, "/mptest.Test/Echo", NULL, 10, w, 32, NULL, NULL);
  int ok = 0;
  for (int i = 0; i < ASYNC; i++) {
    rh_run_until(&loop, &res[i].done);
    ok += res[i].rc == 0 && res[i].reply.body.len == strlen(msgs[i]) &&
          memcmp(res[i].reply.body.data, msgs[i], strlen(msgs[i])) == 0;
    rh_result_destroy(&res[i]);
  }
  CHECK(ok == ASYNC);
  ok = 0;
  for (int i = 0; i < 32; i++) ok += w[i].ok;
  CHECK(ok == 32 * 10);
  free(res);
  free(msgs);

  /* One very large message out and back, through flow control both ways. */
  size_t len = big_size();
  uint8_t *big = malloc(len);
  for (size_t i = 0; i < len; i += 4096) big[i] = (uint8_t)(i >> 12);
  for (size_t i = 0; i < len; i++)
    if (i % 4096) big[i] = (uint8_t)i;
  CHECK(rh_call(&loop, cli, "/mptest.Test/Echo", big, len, NULL, &r) == 0);
  CHECK(r.reply.body.len == len && memcmp(r.reply.body.data, big, len) == 0);
  rh_result_destroy(&r);
  free(big);

  /* The peer exits while answering: the call fails, nothing crashes. */
  CHECK(rh_call(&loop, cli, "/mptest.Test/Exit", "", 0, NULL, &r) == MP_EIO);
  CHECK(r.reply.status.code == MP_RPC_UNAVAILABLE);
  CHECK_CONTAINS(r.err.msg, "'/mptest.Test/Exit' on 'grpc-js'");
  CHECK_CONTAINS(r.err.msg, "connection lost mid-call");
  rh_result_destroy(&r);
  rh_node_wait(&loop, &node);
  CHECK(node.exit_status == 3);
  /* And a call after that finds nobody. */
  CHECK(rh_call(&loop, cli, "/mptest.Test/Echo", "", 0, NULL, &r) == MP_EIO);
  CHECK_CONTAINS(r.err.msg, "connection refused");
  rh_result_destroy(&r);

  rh_client_close(&loop, cli);
  rh_node_destroy(&node);
  CHECK(rh_loop_close(&loop) == 0);
}

/* A client stream (mp_rpc_call_opts.open): each message goes when it is
 * sent, not at the end; the end of the requests brings the answer. */
static void test_rpc_node_client_streams(void) {
  uv_loop_t loop;
  rh_node node;
  mp_rpc_client *cli;
  mp_err err;
  const char *args[] = {"serve", NULL};
  uv_loop_init(&loop);
  int port = start_peer(&loop, &node, args);
  CHECK(mp_rpc_client_new(&loop, "grpc-js", port, 0, &cli, &err) == 0);
  mp_rpc_call_opts open = {.open = 1};
  const char *method = "/mptest.Test/Gather";

  /* Ended by us: every message, in order. */
  rh_result r;
  rh_result_init(&r);
  mp_rpc_call *call;
  CHECK(mp_rpc_call_start(cli, method, NULL, 0, &open, rh_collect, &r, &call,
                          &err) == 0);
  mp_rpc_call_send(call, "x", 1);
  uv_run(&loop, UV_RUN_NOWAIT);
  mp_rpc_call_send(call, "", 0);
  mp_rpc_call_send(call, "yz", 2);
  mp_rpc_call_close_send(call);
  rh_run_until(&loop, &r.done);
  CHECK(r.rc == 0);
  CHECK(r.reply.body.len == 5 && memcmp(r.reply.body.data, "x,,yz", 5) == 0);
  rh_result_destroy(&r);

  /* No message at all. */
  rh_result_init(&r);
  CHECK(mp_rpc_call_start(cli, method, NULL, 0, &open, rh_collect, &r, &call,
                          &err) == 0);
  mp_rpc_call_close_send(call);
  rh_run_until(&loop, &r.done);
  CHECK(r.rc == 0 && r.reply.body.len == 0);
  rh_result_destroy(&r);

  /* Still open when the peer answers: what it got was sent live. */
  rh_result_init(&r);
  CHECK(mp_rpc_call_start(cli, method, NULL, 0, &open, rh_collect, &r, &call,
                          &err) == 0);
  mp_rpc_call_send(call, "early", 5);
  mp_rpc_call_send(call, "stop", 4);
  rh_run_until(&loop, &r.done);
  CHECK(r.rc == 0);
  CHECK(r.reply.body.len == 10 &&
        memcmp(r.reply.body.data, "early,stop", 10) == 0);
  rh_result_destroy(&r);

  rh_client_close(&loop, cli);
  rh_node_kill(&loop, &node);
  rh_node_destroy(&node);
  CHECK(rh_loop_close(&loop) == 0);
}

/* A reply over the client's limit is refused by the client. */
static void test_rpc_node_client_refuses_oversized(void) {
  uv_loop_t loop;
  rh_node node;
  mp_rpc_client *cli;
  mp_err err;
  rh_result r;
  const char *args[] = {"serve", NULL};
  uv_loop_init(&loop);
  int port = start_peer(&loop, &node, args);
  CHECK(mp_rpc_client_new(&loop, "grpc-js", port, MiB, &cli, &err) == 0);
  CHECK(rh_call(&loop, cli, "/mptest.Test/Big", "2097152", 7, NULL, &r) ==
        MP_EPROTO);
  CHECK(r.reply.status.code == MP_RPC_RESOURCE_EXHAUSTED);
  CHECK_CONTAINS(r.err.msg, "'/mptest.Test/Big' on 'grpc-js'");
  CHECK_CONTAINS(r.err.msg, "larger than max (2097152 vs. 1048576 bytes)");
  rh_result_destroy(&r);
  CHECK(rh_call(&loop, cli, "/mptest.Test/Big", "1048576", 7, NULL, &r) == 0);
  CHECK(r.reply.body.len == MiB);
  rh_result_destroy(&r);
  rh_client_close(&loop, cli);
  rh_node_kill(&loop, &node);
  rh_node_destroy(&node);
  CHECK(rh_loop_close(&loop) == 0);
}

/* ---- peers that are not gRPC ------------------------------------------ */

typedef struct bad_peer {
  const char *args[5];
  int rc;
  int code;
  const char *text;
} bad_peer;

static void test_rpc_node_client_against_non_grpc_peers(void) {
  const bad_peer cases[] = {
      {{"junk", NULL},
       MP_EPROTO,
       MP_RPC_INTERNAL,
       "malformed HTTP/2 from peer"},
      {{"http2", "404", "text/plain", "", NULL},
       MP_EPROTO,
       MP_RPC_UNIMPLEMENTED,
       "not a gRPC reply: HTTP status 404"},
      {{"http2", "503", "text/plain", "", NULL},
       MP_EPROTO,
       MP_RPC_UNAVAILABLE,
       "not a gRPC reply: HTTP status 503"},
      {{"http2", "200", "text/html", "3c68746d6c3e", NULL},
       MP_EPROTO,
       MP_RPC_UNKNOWN,
       "not a gRPC reply: content-type 'text/html'"},
      {{"http2", "200", "application/grpc", "07000000016100", NULL},
       MP_EPROTO,
       MP_RPC_INTERNAL,
       "bad gRPC message prefix: flag byte 0x07"},
      {{"http2", "200", "application/grpc", "000000000161", NULL},
       MP_EPROTO,
       MP_RPC_UNKNOWN,
       "reply has no grpc-status"},
  };
  for (size_t i = 0; i < MP_ARRAY_LEN(cases); i++) {
    uv_loop_t loop;
    rh_node node;
    mp_rpc_client *cli;
    mp_err err;
    rh_result r;
    uv_loop_init(&loop);
    int port = start_peer(&loop, &node, cases[i].args);
    CHECK(mp_rpc_client_new(&loop, "not-grpc", port, 0, &cli, &err) == 0);
    CHECK(rh_call(&loop, cli, "/mptest.Test/Echo", "x", 1, NULL, &r) ==
          cases[i].rc);
    CHECK(r.reply.status.code == cases[i].code);
    CHECK_CONTAINS(r.err.msg, "'/mptest.Test/Echo' on 'not-grpc'");
    CHECK_CONTAINS(r.err.msg, cases[i].text);
    rh_result_destroy(&r);
    rh_client_close(&loop, cli);
    rh_node_kill(&loop, &node);
    rh_node_destroy(&node);
    CHECK(rh_loop_close(&loop) == 0);
  }
}

/* ---- grpc-js's client, minipulumi's server ---------------------------- */

static void on_log(const mp_rpc_log_entry *e, void *arg) {
  mp_buf_printf(arg, "%d|%s|%s|%d|%d\n", e->severity, e->urn, e->message,
                (int)e->stream_id, e->ephemeral);
}

/* The line of |out| that starts with "<word> ", or NULL. Borrowed. */
static const char *line_of(const char *out, const char *word) {
  size_t n = strlen(word);
  for (const char *p = out; p && *p;
       p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
    if (strncmp(p, word, n) == 0 && p[n] == ' ') return p + n + 1;
  return NULL;
}

/* The |i|th space-separated word of the line |l| (to its end), owned. */
static char *word_of(const char *l, int i) {
  for (; l && i > 0; i--) l = strchr(l, ' ') ? strchr(l, ' ') + 1 : NULL;
  if (l == NULL) return mp_xstrdup("");
  return mp_xstrndup(l, strcspn(l, " \n"));
}

static void check_word(const char *out, const char *line, int i,
                       const char *want) {
  char *w = word_of(line_of(out, line), i);
  CHECK_STR(w, want);
  free(w);
}

static void test_rpc_node_server_serves_grpc_js(void) {
  uv_loop_t loop;
  mp_rpc_server *srv;
  rh_service svc;
  mp_rpc_engine_service eng;
  mp_buf logs;
  rh_node node;
  mp_err err;
  int port;
  char portstr[16];
  uv_loop_init(&loop);
  mp_buf_init(&logs);
  CHECK(mp_rpc_server_new(&loop, 32 * MiB, &srv, &err) == 0);
  rh_service_init(&svc, &loop);
  CHECK(rh_service_add(&svc, srv, &err) == 0);
  mp_rpc_engine_service_init(&eng, on_log, &logs);
  CHECK(mp_rpc_engine_service_register(&eng, srv, &err) == 0);
  CHECK(mp_rpc_server_listen(srv, &port, &err) == 0);
  snprintf(portstr, sizeof(portstr), "%d", port);
  const char *args[] = {"client", portstr, NULL};
  CHECK(rh_node_spawn(&loop, &node, args) == 0);
  rh_node_wait(&loop, &node);
  const char *out = node.stdout_text.data ? node.stdout_text.data : "";
  CHECK(node.exit_status == 0);

  check_word(out, "log", 0, "0");
  CHECK_STR(logs.data, "2|urn:pulumi:s::p::t::n|disk 90% full|7|1\n");
  check_word(out, "root", 0, "0");
  check_word(out, "root", 1, "0");
  check_word(out, "root", 2, "urn:pulumi:s::p::pulumi:pulumi:Stack::p-s");
  check_word(out, "echo", 0, "0");
  check_word(out, "echo", 1, "ping");
  check_word(out, "concurrent", 0, "100");
  check_word(out, "big", 0, "0");
  check_word(out, "big", 1, "16777216");
  check_word(out, "big", 2, "same");

  /* The error as grpc-js saw it: code, decoded message, details. */
  check_word(out, "fail", 0, "2");
  char *pct = word_of(line_of(out, "fail"), 1);
  char *msg = mp_rpc_pct_decode(pct, strlen(pct));
  CHECK_STR(msg, "boom: 100% of\nthe time");
  char *b64 = word_of(line_of(out, "fail"), 2);
  mp_buf bin;
  mp_rpc_status st;
  mp_buf_init(&bin);
  mp_rpc_status_init(&st);
  CHECK(mp_rpc_b64_decode(b64, strlen(b64), &bin, &err) == 0);
  CHECK(mp_rpc_status_decode_details(&st, (const uint8_t *)bin.data, bin.len,
                                     &err) == 0);
  CHECK(rh_has_init_failed(&st, "i-c-42", "half created by C"));
  mp_rpc_status_destroy(&st);
  mp_buf_destroy(&bin);
  free(b64);
  free(msg);
  free(pct);

  check_word(out, "unimplemented", 0, "12");
  check_word(out, "oversized", 0, "8");
  char *over = word_of(line_of(out, "oversized"), 1);
  char *over_msg = mp_rpc_pct_decode(over, strlen(over));
  CHECK_CONTAINS(over_msg, "larger than max (34603008 vs. 33554432 bytes)");
  free(over_msg);
  free(over);

  /* grpc-js left with a Hang call in flight: the server still holds it,
   * answering it now only frees it, and the server serves on. */
  check_word(out, "leaving", 0, "0");
  CHECK(svc.nheld == 1);
  rh_service_release(&svc);
  mp_rpc_client *cli;
  rh_result r;
  CHECK(mp_rpc_client_new(&loop, "self", port, 0, &cli, &err) == 0);
  CHECK(rh_call(&loop, cli, "/mptest.Test/Echo", "still", 5, NULL, &r) == 0);
  rh_result_destroy(&r);
  rh_client_close(&loop, cli);

  rh_node_destroy(&node);
  rh_server_close(&loop, srv);
  rh_service_destroy(&svc);
  mp_rpc_engine_service_destroy(&eng);
  mp_buf_destroy(&logs);
  CHECK(rh_loop_close(&loop) == 0);
}

int main(void) {
  RUN(test_rpc_node_client_calls);
  RUN(test_rpc_node_client_streams);
  RUN(test_rpc_node_client_refuses_oversized);
  RUN(test_rpc_node_client_against_non_grpc_peers);
  RUN(test_rpc_node_server_serves_grpc_js);
  return mp_test_summary();
}
