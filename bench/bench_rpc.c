/* Cost of one no-op unary gRPC call over loopback, client and server both
 * minipulumi's (src/rpc), on one loop:
 *   async     mp_rpc_call_start on the loop thread, the next call started
 *             from the previous one's callback;
 *   blocking  mp_rpc_call_sync from one worker thread (the crossing to the
 *             loop and back included);
 *   parallel  32 worker threads making blocking calls at once (throughput).
 * Prints the median and 99th percentile per call in microseconds.
 * Usage: bench_rpc [CALLS]   (default 20000 per measurement) */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "rpc/client.h"
#include "rpc/server.h"

static const char noop[] = "/bench.Bench/Noop";

static void on_noop(mp_rpc_srv_call *call, const uint8_t *req, size_t len,
                    void *arg) {
  (void)req;
  (void)len;
  (void)arg;
  mp_rpc_srv_reply(call, NULL, 0);
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static void report(const char *name, uint64_t *ns, int n) {
  qsort(ns, (size_t)n, sizeof(*ns), cmp_u64);
  printf("%-9s median %7.1f us   p99 %7.1f us   (%d calls)\n", name,
         ns[n / 2] / 1000.0, ns[n * 99 / 100] / 1000.0, n);
}

/* ---- async chain on the loop ---- */

typedef struct chain {
  mp_rpc_client *cli;
  uint64_t *ns;
  int n, i;
  uint64_t t0;
  int failed;
} chain;

static void chain_next(chain *c);

static void chain_done(int rc, mp_rpc_reply *reply, const mp_err *err,
                       void *arg) {
  (void)reply;
  chain *c = arg;
  c->ns[c->i++] = uv_hrtime() - c->t0;
  if (rc < 0) {
    fprintf(stderr, "bench_rpc: %s\n", err->msg);
    c->failed = 1;
    return;
  }
  if (c->i < c->n) chain_next(c);
}

static void chain_next(chain *c) {
  mp_err err;
  c->t0 = uv_hrtime();
  if (mp_rpc_call_start(c->cli, noop, NULL, 0, NULL, chain_done, c, NULL,
                        &err) < 0) {
    fprintf(stderr, "bench_rpc: %s\n", err.msg);
    c->failed = 1;
  }
}

/* ---- blocking calls from threads ---- */

typedef struct worker {
  mp_rpc_client *cli;
  uint64_t *ns;
  int n;
  int failed;
  uv_async_t *wake;
  atomic_int *finished;
} worker;

static void worker_main(void *arg) {
  worker *w = arg;
  for (int i = 0; i < w->n && !w->failed; i++) {
    mp_rpc_reply reply;
    mp_err err;
    mp_rpc_reply_init(&reply);
    uint64_t t0 = uv_hrtime();
    if (mp_rpc_call_sync(w->cli, noop, NULL, 0, NULL, &reply, &err) < 0) {
      fprintf(stderr, "bench_rpc: %s\n", err.msg);
      w->failed = 1;
    }
    w->ns[i] = uv_hrtime() - t0;
    mp_rpc_reply_destroy(&reply);
  }
  atomic_fetch_add(w->finished, 1);
  uv_async_send(w->wake);
}

static void on_wake(uv_async_t *h) { (void)h; }

/* Runs |nthreads| workers of |per| blocking calls each; returns the wall
 * time in ns and fills |ns| with every call's duration. */
static uint64_t run_workers(uv_loop_t *loop, mp_rpc_client *cli, int nthreads,
                            int per, uint64_t *ns, int *failed) {
  uv_async_t wake;
  atomic_int finished;
  worker *w = calloc((size_t)nthreads, sizeof(*w));
  uv_thread_t *tids = calloc((size_t)nthreads, sizeof(*tids));
  atomic_init(&finished, 0);
  uv_async_init(loop, &wake, on_wake);
  uint64_t t0 = uv_hrtime();
  for (int i = 0; i < nthreads; i++) {
    w[i] = (worker){.cli = cli,
                    .ns = ns + (size_t)i * per,
                    .n = per,
                    .wake = &wake,
                    .finished = &finished};
    uv_thread_create(&tids[i], worker_main, &w[i]);
  }
  /* The loop thread only runs the loop: the workers need it. */
  while (atomic_load(&finished) < nthreads) uv_run(loop, UV_RUN_ONCE);
  uint64_t wall = uv_hrtime() - t0;
  for (int i = 0; i < nthreads; i++) uv_thread_join(&tids[i]);
  for (int i = 0; i < nthreads; i++) *failed |= w[i].failed;
  uv_close((uv_handle_t *)&wake, NULL);
  uv_run(loop, UV_RUN_NOWAIT);
  free(w);
  free(tids);
  return wall;
}

static void set_flag(void *arg) { *(int *)arg = 1; }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 20000;
  uv_loop_t loop;
  mp_rpc_server *srv;
  mp_rpc_client *cli;
  mp_err err;
  int port, failed = 0;
  if (n < 100) n = 100;
  uv_loop_init(&loop);
  if (mp_rpc_server_new(&loop, 0, &srv, &err) < 0 ||
      mp_rpc_server_add(srv, noop, on_noop, NULL, &err) < 0 ||
      mp_rpc_server_listen(srv, &port, &err) < 0 ||
      mp_rpc_client_new(&loop, "bench", port, 0, &cli, &err) < 0) {
    fprintf(stderr, "bench_rpc: %s\n", err.msg);
    return 1;
  }
  uint64_t *ns = calloc((size_t)n * 32, sizeof(*ns));

  chain c = {.cli = cli, .ns = ns, .n = n};
  chain_next(&c); /* also warms the connection up */
  while (c.i < c.n && !c.failed) uv_run(&loop, UV_RUN_ONCE);
  report("async", ns, n);
  failed |= c.failed;

  run_workers(&loop, cli, 1, n, ns, &failed);
  report("blocking", ns, n);

  int per = n / 32 > 0 ? n / 32 : 1;
  uint64_t wall = run_workers(&loop, cli, 32, per, ns, &failed);
  report("parallel", ns, per * 32);
  printf("parallel  32 threads: %.0f calls/s\n", per * 32 / (wall / 1e9));

  int closed = 0;
  mp_rpc_client_close(cli, set_flag, &closed);
  while (!closed) uv_run(&loop, UV_RUN_ONCE);
  closed = 0;
  mp_rpc_server_close(srv, set_flag, &closed);
  while (!closed) uv_run(&loop, UV_RUN_ONCE);
  uv_run(&loop, UV_RUN_DEFAULT);
  uv_loop_close(&loop);
  free(ns);
  return failed;
}
