/* The Node.js language host: a gRPC server (ResourceMonitor + Engine) on
 * the deployment's loop, the program as a child process, its output as
 * diagnostics of the stack, and its end turned into mp_monitor_program_done.
 *
 * The end, in order: the program calls SignalAndWaitForShutdown (done
 * without errors; the call is held), or it exits first (32: the SDK has
 * reported the error; another code: we report it). When the deployment
 * finishes, the held call is answered, the program exits, and the server
 * and pipes are closed; a program that does not exit within a grace
 * period is killed with its process group.
 *
 * With --client (mp_nodejs_client_source_new), the caller's language
 * runtime runs the program in its own process: the Run call stands for
 * the child, and its answer for the child's exit. */
#include "lang/nodejs.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor/service.h"
#include "rpc/client.h"
#include "rpc/engine_service.h"
#include "rpc/server.h"

/* How long a program may run on after the deployment finished. */
#define NODE_GRACE_MS 10000
/* The SDK's exit code for "error already reported" (cmd/run). */
#define NODE_EXIT_REPORTED 32

typedef struct out_stream {
  uv_pipe_t pipe;
  mp_buf line; /* the partial last line */
  int open;
  struct node_source *s;
} out_stream;

/* Owner: the loop thread. */
typedef struct node_source {
  mp_source base;
  const mp_project *proj;
  mp_monitor *m;
  mp_rpc_server *srv;
  mp_rpc_engine_service engine;
  mp_monitor_service *svc;
  uv_process_t proc;
  uv_timer_t grace;
  out_stream out, err;
  /* --client: the caller's language runtime runs the program; its Run
   * call stands for the child (client_port 0: a child of our own). */
  int client_port;
  mp_rpc_client *rpc;
  mp_rpc_call *run_call;
  mp_buf run_req;
  int rpc_open;     /* 1 open, 2 closing */
  int logged_error; /* the program logged an error diagnostic */
  int started;
  int running;      /* the child is alive, or Run has not answered */
  int proc_open, grace_open, srv_open;
  int reported;     /* mp_monitor_program_done was called */
  int finished;     /* the deployment is over */
} node_source;

static void maybe_close(node_source *s);

/* ---- the program's output ---- */

static const char *stack_urn(node_source *s) {
  return s->engine.root_urn;
}

/* One line of the program's stdout or stderr: shown as the stack's info
 * diagnostics, as Pulumi shows console output. */
static void emit_line(node_source *s, const char *line) {
  if (s->finished) {
    fprintf(stderr, "%s\n", line);
    return;
  }
  mp_monitor_log(s->m, MP_LOG_INFO, stack_urn(s), line);
}

static void flush_lines(out_stream *o, int all) {
  char *start = o->line.data;
  size_t n = o->line.len;
  size_t off = 0;
  for (size_t i = 0; i < n; i++) {
    if (start[i] != '\n') continue;
    start[i] = '\0';
    emit_line(o->s, start + off);
    off = i + 1;
  }
  if (all && off < n) {
    mp_buf_putc(&o->line, '\0');
    emit_line(o->s, o->line.data + off);
    off = n;
  }
  memmove(o->line.data, o->line.data + off, n - off);
  o->line.len = n - off;
}

static void on_alloc(uv_handle_t *h, size_t hint, uv_buf_t *buf) {
  (void)hint;
  out_stream *o = h->data;
  if (o->line.cap - o->line.len < 4096) {
    o->line.cap = o->line.len + 65536;
    o->line.data = mp_xrealloc(o->line.data, o->line.cap);
  }
  buf->base = o->line.data + o->line.len;
  buf->len = o->line.cap - o->line.len;
}

static void on_stream_closed(uv_handle_t *h) {
  out_stream *o = h->data;
  mp_buf_destroy(&o->line);
  maybe_close(o->s);
}

static void on_read(uv_stream_t *st, ssize_t n, const uv_buf_t *buf) {
  (void)buf;
  out_stream *o = st->data;
  if (n > 0) {
    o->line.len += (size_t)n;
    flush_lines(o, 0);
    return;
  }
  if (n < 0) {
    flush_lines(o, 1);
    o->open = 0;
    uv_close((uv_handle_t *)&o->pipe, on_stream_closed);
  }
}

/* ---- the program's end ---- */

static void report(node_source *s, int failed, const char *msg) {
  if (s->reported || s->finished) return;
  s->reported = 1;
  mp_monitor_program_done(s->m, failed, msg);
}

static void on_program_finished(void *ud) {
  /* SignalAndWaitForShutdown: every registration was made. A runtime of
   * the caller's fails its Run once it has logged an error (the SDK's
   * log.hasErrors; an unhandled rejection is logged so), but only after
   * this call is answered, at the deployment's end: the failure is
   * decided here, and the error was already shown. */
  node_source *s = ud;
  int failed = s->client_port && s->logged_error;
  report(s, failed, failed ? "" : NULL);
}

static void on_proc_closed(uv_handle_t *h) {
  node_source *s = h->data;
  s->proc_open = 0;
  maybe_close(s);
}

static void on_child_exit(uv_process_t *p, int64_t status, int sig) {
  node_source *s = p->data;
  s->running = 0;
  if (sig) {
    char *msg = mp_xasprintf("Program exited unexpectedly: killed by signal %d",
                             sig);
    report(s, 1, msg);
    free(msg);
  } else if (status == NODE_EXIT_REPORTED) {
    report(s, 1, "");
  } else if (status != 0) {
    char *msg =
        mp_xasprintf("Program exited with non-zero exit code: %lld",
                     (long long)status);
    report(s, 1, msg);
    free(msg);
  } else {
    /* Exited on its own without SignalAndWaitForShutdown: the SDK does so
     * when the engine stopped it; it registered all it could. */
    report(s, 0, NULL);
  }
  uv_close((uv_handle_t *)&s->proc, on_proc_closed);
  maybe_close(s);
}

static void on_grace(uv_timer_t *t) {
  node_source *s = t->data;
  if (s->running && s->run_call) mp_rpc_call_cancel(s->run_call);
  else if (s->running) uv_kill(-s->proc.pid, SIGKILL);
  maybe_close(s);
}

static void on_grace_closed(uv_handle_t *h) {
  node_source *s = h->data;
  s->grace_open = 0;
  maybe_close(s);
}

static void on_srv_closed(void *arg) {
  node_source *s = arg;
  s->srv_open = 0;
  mp_monitor_service_free(s->svc);
  s->svc = NULL;
  maybe_close(s);
}

/* Once the deployment is over and the child and its pipes are gone, the
 * server and the timer go too; then the loop can end. */
static void on_rpc_closed(void *arg) {
  node_source *s = arg;
  s->rpc_open = 0;
  s->rpc = NULL;
  maybe_close(s);
}

static void maybe_close(node_source *s) {
  if (s->rpc_open == 1 && !s->running) {
    s->rpc_open = 2;
    mp_rpc_client_close(s->rpc, on_rpc_closed, s);
  }
  if (!s->finished || s->running || s->out.open || s->err.open) return;
  if (s->grace_open && !uv_is_closing((uv_handle_t *)&s->grace))
    uv_close((uv_handle_t *)&s->grace, on_grace_closed);
  if (s->srv && s->srv_open == 1) {
    s->srv_open = 2; /* closing */
    mp_rpc_server_close(s->srv, on_srv_closed, s);
  }
}

/* ---- the caller's language runtime (--client) ---- */

/* Run answered: the program is over. Its error, unless the SDK already
 * reported it (bail), is the program's failure. The client is closed on a
 * later turn (the grace timer, at once), outside its own callback. */
static void on_run_done(int rc, mp_rpc_reply *reply, const mp_err *err,
                        void *arg) {
  node_source *s = arg;
  s->run_call = NULL;
  s->running = 0;
  char *msg = NULL;
  int bail = 0;
  if (rc == 0 && mp_nodejs_run_response(&reply->body, &msg, &bail) < 0)
    report(s, 1, "the language runtime's answer to Run cannot be read");
  else if (rc == 0)
    report(s, msg != NULL || bail, bail ? "" : msg);
  else if (rc == MP_EPLUGIN && reply->status.message)
    report(s, 1, reply->status.message);
  else
    report(s, 1, err->msg);
  free(msg);
  if (s->grace_open) uv_timer_start(&s->grace, on_grace, 0, 0);
}

static int start_run(node_source *s, const mp_source_info *info,
                     const char *addr, mp_err *err) {
  int rc = mp_nodejs_run_request(info, mp_project_dir(s->proj), addr,
                                 &s->run_req, err);
  if (rc == 0)
    rc = mp_rpc_client_new(info->loop, "language runtime (--client)",
                           s->client_port, 0, &s->rpc, err);
  if (rc < 0) return rc;
  s->rpc_open = 1;
  rc = mp_rpc_call_start(s->rpc, "/pulumirpc.LanguageRuntime/Run",
                         s->run_req.data, s->run_req.len, NULL, on_run_done, s,
                         &s->run_call, err);
  if (rc < 0) {
    maybe_close(s);
    return rc;
  }
  s->running = 1;
  return 0;
}

/* ---- the Engine service ---- */

static void on_log(const mp_rpc_log_entry *e, void *arg) {
  node_source *s = arg;
  if (s->finished) return;
  mp_log_severity sev = e->severity >= 0 && e->severity <= 3
                            ? (mp_log_severity)e->severity
                            : MP_LOG_INFO;
  if (sev == MP_LOG_ERROR) s->logged_error = 1;
  mp_monitor_log(s->m, sev, e->urn && e->urn[0] ? e->urn : NULL, e->message);
}

/* ---- the source ---- */

static int spawn(node_source *s, uv_loop_t *loop, const mp_nodejs_launch *l,
                 mp_err *err) {
  uv_pipe_init(loop, &s->out.pipe, 0);
  uv_pipe_init(loop, &s->err.pipe, 0);
  s->out.pipe.data = &s->out;
  s->err.pipe.data = &s->err;
  s->out.s = s->err.s = s;
  s->out.open = s->err.open = 1;
  uv_stdio_container_t stdio[3];
  stdio[0].flags = UV_IGNORE;
  stdio[1].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
  stdio[1].data.stream = (uv_stream_t *)&s->out.pipe;
  stdio[2].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
  stdio[2].data.stream = (uv_stream_t *)&s->err.pipe;
  char **argv = mp_xcalloc(l->argv.len + 1, sizeof(*argv));
  char **env = mp_xcalloc(l->env.len + 1, sizeof(*env));
  memcpy(argv, l->argv.items, l->argv.len * sizeof(*argv));
  memcpy(env, l->env.items, l->env.len * sizeof(*env));
  uv_process_options_t po = {0};
  po.exit_cb = on_child_exit;
  po.file = argv[0];
  po.args = argv;
  po.env = env;
  po.cwd = l->pwd;
  po.stdio = stdio;
  po.stdio_count = 3;
  /* Its own process group: killed whole, and a terminal's Ctrl-C reaches
   * the engine, which stops the program through the monitor. */
  po.flags = UV_PROCESS_DETACHED;
  s->proc.data = s;
  int rc = uv_spawn(loop, &s->proc, &po);
  free(argv);
  free(env);
  if (rc < 0) {
    s->out.open = s->err.open = 0;
    uv_close((uv_handle_t *)&s->out.pipe, NULL);
    uv_close((uv_handle_t *)&s->err.pipe, NULL);
    uv_close((uv_handle_t *)&s->proc, NULL);
    return mp_err_from_uv(err, rc,
                          "cannot start the Node.js program with `node`%s",
                          rc == UV_ENOENT ? ": node is not on PATH; install "
                                            "Node.js"
                                          : "");
  }
  s->running = 1;
  s->proc_open = 1;
  uv_read_start((uv_stream_t *)&s->out.pipe, on_alloc, on_read);
  uv_read_start((uv_stream_t *)&s->err.pipe, on_alloc, on_read);
  return 0;
}

static int src_start(mp_source *base, mp_monitor *m, const mp_source_info *info,
                     mp_err *err) {
  node_source *s = (node_source *)base;
  if (s->started)
    return mp_err_set(err, MP_EINVAL, "the Node.js program was already started");
  s->started = 1;
  s->m = m;
  char *pwd = mp_project_pwd(s->proj);
  mp_monitor_set_program_dir(m, pwd);
  free(pwd);
  uv_timer_init(info->loop, &s->grace);
  s->grace.data = s;
  s->grace_open = 1;
  int rc = mp_rpc_server_new(info->loop, 0, &s->srv, err);
  if (rc < 0) return rc;
  s->srv_open = 1;
  mp_rpc_engine_service_init(&s->engine, on_log, s);
  rc = mp_rpc_engine_service_register(&s->engine, s->srv, err);
  mp_monitor_service_opts so = {.monitor = m,
                                .info = info,
                                .program_finished = on_program_finished,
                                .ud = s};
  if (rc == 0) rc = mp_monitor_service_new(s->srv, &so, &s->svc, err);
  int port = 0;
  if (rc == 0) rc = mp_rpc_server_listen(s->srv, &port, err);
  if (rc < 0) return rc;
  char addr[32];
  snprintf(addr, sizeof(addr), "127.0.0.1:%d", port);
  if (s->client_port) return start_run(s, info, addr, err);
  mp_nodejs_launch l;
  rc = mp_nodejs_launch_init(&l, s->proj, info, addr, err);
  if (rc == 0) rc = spawn(s, info->loop, &l, err);
  mp_nodejs_launch_destroy(&l);
  return rc;
}

static void src_cancel(mp_source *base) {
  /* The monitor answers the program's pending and later registrations
   * UNAVAILABLE; the SDK then ends on its own. */
  (void)base;
}

static void src_finish(mp_source *base) {
  node_source *s = (node_source *)base;
  if (!s->started || s->finished) return;
  s->finished = 1;
  mp_monitor_service_release(s->svc);
  if (s->running && s->grace_open)
    uv_timer_start(&s->grace, on_grace, NODE_GRACE_MS, 0);
  maybe_close(s);
}

static void src_free(mp_source *base) {
  node_source *s = (node_source *)base;
  if (s == NULL) return;
  mp_rpc_engine_service_destroy(&s->engine);
  mp_monitor_service_free(s->svc);
  mp_buf_destroy(&s->run_req);
  free(s);
}

static const mp_source_vtable node_vtable = {src_start, src_cancel, src_free,
                                             src_finish, NULL};

int mp_nodejs_source_new(const mp_project *p, mp_source **out, mp_err *err) {
  *out = NULL;
  const char *rt = mp_project_runtime(p);
  if (rt == NULL || strcmp(rt, "nodejs") != 0)
    return mp_err_set(err, MP_EINVAL,
                      "project '%s' has runtime '%s', not nodejs",
                      mp_project_name(p), rt ? rt : "");
  node_source *s = mp_xcalloc(1, sizeof(*s));
  s->base.vt = &node_vtable;
  s->proj = p;
  *out = &s->base;
  return 0;
}

int mp_nodejs_client_source_new(const mp_project *p, const char *client,
                                mp_source **out, mp_err *err) {
  *out = NULL;
  int port = 0;
  int rc = mp_nodejs_client_port(client, &port, err);
  if (rc < 0) return rc;
  node_source *s = mp_xcalloc(1, sizeof(*s));
  s->base.vt = &node_vtable;
  s->proj = p;
  s->client_port = port;
  *out = &s->base;
  return 0;
}
