#include "rpc_harness.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pulumi/provider.pb-c.h"

void rh_result_init(rh_result *r) {
  memset(r, 0, sizeof(*r));
  mp_rpc_reply_init(&r->reply);
}

void rh_result_destroy(rh_result *r) { mp_rpc_reply_destroy(&r->reply); }

void rh_collect(int rc, mp_rpc_reply *reply, const mp_err *err, void *arg) {
  rh_result *r = arg;
  r->done = 1;
  r->rc = rc;
  if (rc < 0) r->err = *err;
  mp_buf tmp = r->reply.body;
  r->reply.body = reply->body;
  reply->body = tmp;
  mp_rpc_status_move(&r->reply.status, &reply->status);
}

void rh_run_until(uv_loop_t *loop, const int *flag) {
  while (!*flag) uv_run(loop, UV_RUN_ONCE);
}

int rh_call(uv_loop_t *loop, mp_rpc_client *c, const char *method,
            const void *msg, size_t len, const mp_rpc_call_opts *opts,
            rh_result *res) {
  rh_result_init(res);
  int rc = mp_rpc_call_start(c, method, msg, len, opts, rh_collect, res, NULL,
                             &res->err);
  if (rc < 0) {
    res->rc = rc;
    return rc;
  }
  rh_run_until(loop, &res->done);
  return res->rc;
}

void rh_set_flag(void *arg) { *(int *)arg = 1; }

void rh_client_close(uv_loop_t *loop, mp_rpc_client *c) {
  int closed = 0;
  mp_rpc_client_close(c, rh_set_flag, &closed);
  rh_run_until(loop, &closed);
}

void rh_server_close(uv_loop_t *loop, mp_rpc_server *s) {
  int closed = 0;
  mp_rpc_server_close(s, rh_set_flag, &closed);
  rh_run_until(loop, &closed);
}

static void walk_print(uv_handle_t *h, void *arg) {
  (void)arg;
  fprintf(stderr, "handle left open: %s\n", uv_handle_type_name(h->type));
}

int rh_loop_close(uv_loop_t *loop) {
  uv_run(loop, UV_RUN_DEFAULT);
  int rc = uv_loop_close(loop);
  if (rc != 0) uv_walk(loop, walk_print, NULL);
  return rc;
}

/* ---- blocking callers ------------------------------------------------ */

static void worker_main(void *arg) {
  rh_worker *w = arg;
  for (int i = 0; i < w->calls; i++) {
    char msg[32];
    int len = snprintf(msg, sizeof(msg), "t%d-%d", w->index, i);
    mp_rpc_reply reply;
    mp_rpc_reply_init(&reply);
    w->rc_last = mp_rpc_call_sync(w->cli, w->method, msg, (size_t)len, w->opts,
                                  &reply, &w->err_last);
    w->code_last = reply.status.code;
    if (w->rc_last == 0 && reply.body.len == (size_t)len &&
        memcmp(reply.body.data, msg, (size_t)len) == 0)
      w->ok++;
    mp_rpc_reply_destroy(&reply);
    if (w->rc_last != 0 && w->rc_last != MP_EPLUGIN) break;
  }
  atomic_fetch_add((atomic_int *)w->finished, 1);
  uv_async_send(w->wake);
}

static void on_worker_ended(uv_async_t *h) { (void)h; }

static void on_async_closed(uv_handle_t *h) { *(int *)h->data = 1; }

void rh_run_workers(uv_loop_t *loop, mp_rpc_client *cli, const char *method,
                    const mp_rpc_call_opts *opts, int calls, rh_worker *w,
                    int n, void (*tick)(void *), void *arg) {
  uv_async_t wake;
  atomic_int finished;
  uv_thread_t tids[64];
  int closed = 0;
  atomic_init(&finished, 0);
  uv_async_init(loop, &wake, on_worker_ended);
  for (int i = 0; i < n; i++) {
    w[i] = (rh_worker){.cli = cli,
                       .method = method,
                       .opts = opts,
                       .calls = calls,
                       .index = i,
                       .wake = &wake,
                       .finished = &finished};
    uv_thread_create(&tids[i], worker_main, &w[i]);
  }
  while (atomic_load(&finished) < n) {
    uv_run(loop, UV_RUN_ONCE);
    if (tick) tick(arg);
  }
  for (int i = 0; i < n; i++) uv_thread_join(&tids[i]);
  wake.data = &closed;
  uv_close((uv_handle_t *)&wake, on_async_closed);
  rh_run_until(loop, &closed);
}

/* ---- status details ------------------------------------------------- */

uint8_t *rh_pack_init_failed(const char *id, const char *reason, size_t *len) {
  Pulumirpc__ErrorResourceInitFailed f =
      PULUMIRPC__ERROR_RESOURCE_INIT_FAILED__INIT;
  char *reasons[] = {(char *)reason};
  f.id = (char *)id;
  f.n_reasons = 1;
  f.reasons = reasons;
  *len = pulumirpc__error_resource_init_failed__get_packed_size(&f);
  uint8_t *bytes = mp_xmalloc(*len);
  pulumirpc__error_resource_init_failed__pack(&f, bytes);
  return bytes;
}

int rh_has_init_failed(const mp_rpc_status *st, const char *id,
                       const char *reason) {
  const mp_rpc_detail *d =
      mp_rpc_status_find_detail(st, MP_RPC_TYPE_INIT_FAILED);
  if (d == NULL) {
    fprintf(stderr, "no %s detail in the status\n", MP_RPC_TYPE_INIT_FAILED);
    return 0;
  }
  Pulumirpc__ErrorResourceInitFailed *f =
      pulumirpc__error_resource_init_failed__unpack(NULL, d->len, d->value);
  if (f == NULL) {
    fprintf(stderr, "the %s detail does not decode\n", MP_RPC_TYPE_INIT_FAILED);
    return 0;
  }
  int ok = strcmp(f->id, id) == 0 && f->n_reasons == 1 &&
           strcmp(f->reasons[0], reason) == 0;
  if (!ok)
    fprintf(stderr, "init-failed detail: id '%s', %zu reasons, first '%s'\n",
            f->id, f->n_reasons, f->n_reasons ? f->reasons[0] : "");
  pulumirpc__error_resource_init_failed__free_unpacked(f, NULL);
  return ok;
}

/* ---- the test service ------------------------------------------------- */

static void svc_echo_later(uv_timer_t *t) {
  mp_rpc_srv_call *call = t->data;
  mp_rpc_srv_reply(call, "later", 5);
  uv_close((uv_handle_t *)t, (uv_close_cb)free);
}

static void svc_echo(mp_rpc_srv_call *call, const uint8_t *req, size_t len,
                     void *arg) {
  rh_service *svc = arg;
  svc->requests++;
  if (len > 0 && req[0] == 'L') {
    uv_timer_t *t = malloc(sizeof(*t));
    uv_timer_init(svc->loop, t);
    t->data = call;
    uv_timer_start(t, svc_echo_later, 1, 0);
    return;
  }
  mp_rpc_srv_reply(call, req, len);
}

static void svc_fail(mp_rpc_srv_call *call, const uint8_t *req, size_t len,
                     void *arg) {
  rh_service *svc = arg;
  svc->requests++;
  char *text = mp_xstrndup((const char *)req, len);
  char *colon = strchr(text, ':');
  int code = atoi(text);
  size_t flen;
  uint8_t *fbytes = rh_pack_init_failed("i-c-42", "half created by C", &flen);
  mp_rpc_detail d = {"type.googleapis.com/" MP_RPC_TYPE_INIT_FAILED, fbytes,
                     flen};
  mp_rpc_srv_fail(call, code, colon ? colon + 1 : "", &d, 1);
  free(fbytes);
  free(text);
}

static void svc_big(mp_rpc_srv_call *call, const uint8_t *req, size_t len,
                    void *arg) {
  rh_service *svc = arg;
  svc->requests++;
  char *text = mp_xstrndup((const char *)req, len);
  size_t n = strtoull(text, NULL, 10);
  uint8_t *b = mp_xcalloc(1, n);
  mp_rpc_srv_reply(call, b, n);
  free(b);
  free(text);
}

static void svc_hang(mp_rpc_srv_call *call, const uint8_t *req, size_t len,
                     void *arg) {
  (void)req;
  (void)len;
  rh_service *svc = arg;
  svc->requests++;
  svc->held = mp_xreallocarray(svc->held, svc->nheld + 1, sizeof(*svc->held));
  svc->held[svc->nheld++] = call;
}

void rh_service_init(rh_service *svc, uv_loop_t *loop) {
  memset(svc, 0, sizeof(*svc));
  svc->loop = loop;
}

int rh_service_add(rh_service *svc, mp_rpc_server *s, mp_err *err) {
  static const struct {
    const char *path;
    mp_rpc_handler handler;
  } methods[] = {
      {"/mptest.Test/Echo", svc_echo},
      {"/mptest.Test/Fail", svc_fail},
      {"/mptest.Test/Big", svc_big},
      {"/mptest.Test/Hang", svc_hang},
  };
  for (size_t i = 0; i < MP_ARRAY_LEN(methods); i++) {
    int rc =
        mp_rpc_server_add(s, methods[i].path, methods[i].handler, svc, err);
    if (rc < 0) return rc;
  }
  return 0;
}

void rh_service_release(rh_service *svc) {
  for (size_t i = 0; i < svc->nheld; i++)
    mp_rpc_srv_reply(svc->held[i], NULL, 0);
  svc->nheld = 0;
}

void rh_service_destroy(rh_service *svc) {
  rh_service_release(svc);
  free(svc->held);
  memset(svc, 0, sizeof(*svc));
}

/* ---- node peers ------------------------------------------------------- */

static void node_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
  (void)h;
  buf->base = malloc(suggested);
  buf->len = suggested;
}

static void node_on_close_out(uv_handle_t *h) {
  rh_node *n = mp_container_of((uv_pipe_t *)h, rh_node, out);
  n->out_closed = 1;
}

static void node_on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf) {
  rh_node *n = mp_container_of((uv_pipe_t *)s, rh_node, out);
  if (nread > 0) mp_buf_append(&n->stdout_text, buf->base, (size_t)nread);
  free(buf->base);
  if (nread < 0) uv_close((uv_handle_t *)s, node_on_close_out);
}

static void node_on_exit(uv_process_t *p, int64_t status, int sig) {
  rh_node *n = mp_container_of(p, rh_node, proc);
  n->exit_status = status;
  n->term_signal = sig;
  uv_close((uv_handle_t *)p, NULL);
  n->exited = 1;
}

int rh_node_spawn(uv_loop_t *loop, rh_node *n, const char *const *args) {
  memset(n, 0, sizeof(*n));
  mp_buf_init(&n->stdout_text);
  const char *dir = getenv("MP_RPC_PEER_DIR");
  char *script = mp_xasprintf("%s/peer.js", dir ? dir : "tests/rpc");
  char *argv[16] = {"node", script};
  size_t argc = 2;
  for (size_t i = 0; args[i] && argc < MP_ARRAY_LEN(argv) - 1; i++)
    argv[argc++] = (char *)args[i];
  argv[argc] = NULL;
  uv_pipe_init(loop, &n->out, 0);
  uv_stdio_container_t stdio[3] = {
      {.flags = UV_IGNORE},
      {.flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE,
       .data.stream = (uv_stream_t *)&n->out},
      {.flags = UV_INHERIT_FD, .data.fd = 2},
  };
  uv_process_options_t opts = {.file = "node",
                               .args = argv,
                               .exit_cb = node_on_exit,
                               .stdio_count = 3,
                               .stdio = stdio};
  int rc = uv_spawn(loop, &n->proc, &opts);
  free(script);
  if (rc < 0) {
    fprintf(stderr, "cannot start node: %s\n", uv_strerror(rc));
    uv_close((uv_handle_t *)&n->out, node_on_close_out);
    uv_close((uv_handle_t *)&n->proc, NULL);
    n->exited = 1;
    return rc;
  }
  uv_read_start((uv_stream_t *)&n->out, node_alloc, node_on_read);
  return 0;
}

/* 1 once |n| printed a whole line or can print no more. */
static int node_line_or_end(rh_node *n) {
  return (n->stdout_text.data && strchr(n->stdout_text.data, '\n')) ||
         n->out_closed;
}

int rh_node_port(uv_loop_t *loop, rh_node *n) {
  while (!node_line_or_end(n)) uv_run(loop, UV_RUN_ONCE);
  if (n->stdout_text.data == NULL || !strchr(n->stdout_text.data, '\n'))
    return -1;
  return atoi(n->stdout_text.data);
}

void rh_node_wait(uv_loop_t *loop, rh_node *n) {
  while (!n->exited || !n->out_closed) uv_run(loop, UV_RUN_ONCE);
}

void rh_node_kill(uv_loop_t *loop, rh_node *n) {
  if (!n->exited) uv_process_kill(&n->proc, SIGKILL);
  rh_node_wait(loop, n);
}

void rh_node_destroy(rh_node *n) { mp_buf_destroy(&n->stdout_text); }
