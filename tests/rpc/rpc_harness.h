/* Helpers for the transport tests: running the loop until something
 * happened, collecting call outcomes, a test service (/mptest.Test/...) the
 * C server offers, and node peers (tests/rpc/peer.js) as child processes. */
#ifndef MP_RPC_HARNESS_H
#define MP_RPC_HARNESS_H

#include <uv.h>

#include "rpc/client.h"
#include "rpc/server.h"

/* The outcome of one asynchronous call. */
typedef struct rh_result {
  int done;
  int rc;
  mp_err err;
  mp_rpc_reply reply;
} rh_result;

void rh_result_init(rh_result *r);
void rh_result_destroy(rh_result *r);
/* An mp_rpc_done_cb that fills the rh_result |arg|. */
void rh_collect(int rc, mp_rpc_reply *reply, const mp_err *err, void *arg);

/* Runs |loop| one iteration at a time until *|flag| is non-zero. */
void rh_run_until(uv_loop_t *loop, const int *flag);
/* Starts |method| with |msg| on |c|, runs the loop until it ends, and
 * leaves the outcome in |res| (initialised here). Returns res->rc. */
int rh_call(uv_loop_t *loop, mp_rpc_client *c, const char *method,
            const void *msg, size_t len, const mp_rpc_call_opts *opts,
            rh_result *res);
/* Closes |c| / |s| and runs the loop until they are freed. */
void rh_client_close(uv_loop_t *loop, mp_rpc_client *c);
void rh_server_close(uv_loop_t *loop, mp_rpc_server *s);
/* A close callback that sets the int its argument points to. */
void rh_set_flag(void *arg);
/* Runs the loop dry and closes it; 0 when no handle was left open. */
int rh_loop_close(uv_loop_t *loop);

/* Packs pulumirpc.ErrorResourceInitFailed{|id|, reasons: [|reason|]};
 * returns an owned buffer of *|len| bytes. */
uint8_t *rh_pack_init_failed(const char *id, const char *reason, size_t *len);
/* 1 when |st| has an ErrorResourceInitFailed detail with |id| and the one
 * reason |reason|; otherwise 0, saying what differs on stderr. */
int rh_has_init_failed(const mp_rpc_status *st, const char *id,
                       const char *reason);

/* The test service: Echo (reply = request), Fail ("<code>:<message>" ->
 * that error with an ErrorResourceInitFailed detail, id "i-c-42"), Big
 * (decimal size -> that many bytes), Hang (held until rh_service_release).
 * A request whose first byte is 'L' to Echo is also answered later, from
 * a timer, to show asynchronous answers. */
typedef struct rh_service {
  uv_loop_t *loop;
  mp_rpc_srv_call **held; /* Hang calls not answered yet */
  size_t nheld;
  int requests; /* requests handled so far */
} rh_service;

void rh_service_init(rh_service *svc, uv_loop_t *loop);
/* Serves /mptest.Test/{Echo,Fail,Big,Hang} on |s|; returns 0 or the
 * error of mp_rpc_server_add. */
int rh_service_add(rh_service *svc, mp_rpc_server *s, mp_err *err);
/* Answers every held call with an empty reply (or frees it if its client
 * has gone). */
void rh_service_release(rh_service *svc);
void rh_service_destroy(rh_service *svc);

/* A thread making blocking calls (mp_rpc_call_sync) of |method|, each
 * with the message "t<index>-<k>", counting the exact echoes. */
typedef struct rh_worker {
  mp_rpc_client *cli;
  const char *method;
  const mp_rpc_call_opts *opts;
  int calls;
  int index;
  int ok;      /* replies equal to the request */
  int rc_last; /* outcome of the last call */
  int code_last;
  mp_err err_last;
  uv_async_t *wake; /* tells the loop thread the worker ended */
  void *finished;   /* atomic_int shared by the workers */
} rh_worker;

/* Runs |n| (at most 64) workers of |calls| calls each while the loop
 * thread keeps running |loop|, calling |tick|(|arg|) (if not NULL) after
 * each loop iteration. Returns once all have ended and are joined. A
 * worker stops at its first transport failure. */
void rh_run_workers(uv_loop_t *loop, mp_rpc_client *cli, const char *method,
                    const mp_rpc_call_opts *opts, int calls, rh_worker *w,
                    int n, void (*tick)(void *), void *arg);

/* A node child process running tests/rpc/peer.js (folder from the
 * MP_RPC_PEER_DIR environment variable). */
typedef struct rh_node {
  uv_process_t proc;
  uv_pipe_t out;
  mp_buf stdout_text;
  int out_closed;
  int exited;
  int64_t exit_status;
  int term_signal;
} rh_node;

/* Spawns `node peer.js <args...>` (|args| NULL-terminated) with stdout
 * captured. Returns 0 or a libuv error. */
int rh_node_spawn(uv_loop_t *loop, rh_node *n, const char *const *args);
/* Runs the loop until the child printed its first line; returns it as a
 * port number, or -1 if it exited first. */
int rh_node_port(uv_loop_t *loop, rh_node *n);
/* Runs the loop until the child exited and its stdout is closed. */
void rh_node_wait(uv_loop_t *loop, rh_node *n);
/* Kills the child (SIGKILL) and waits for it. */
void rh_node_kill(uv_loop_t *loop, rh_node *n);
/* Frees what |n| holds (after rh_node_wait or rh_node_kill). */
void rh_node_destroy(rh_node *n);

#endif
