/* Starting and ending a plugin process: fork/exec in its own process
 * group, the port line, its stdout/stderr as diagnostics, and the group
 * signalled at the end (plugin/plugin.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "plugin/plugin_int.h"

extern char **environ;

/* Most of a plugin's stderr kept for a startup failure's message. */
#define STARTUP_STDERR_MAX 16384
/* The longest output line kept before it is shown as it is. */
#define MAX_LINE 65536
/* Between SIGINT and SIGKILL at shutdown, as Pulumi waits. */
#define STOP_GRACE_MS 5000

static uint64_t now_ms(void) { return uv_hrtime() / 1000000; }

/* ---- the Engine server of one plugin (loop thread) ---- */

/* Warnings as they are; information marked so; errors say so (they do
 * not fail the step by themselves, as in Pulumi); debug is dropped. */
static void on_log(const mp_rpc_log_entry *e, void *arg) {
  mp__plugin *p = arg;
  if (e->severity == MP_RPC_LOG_DEBUG || e->ephemeral) return;
  char *line = e->severity == MP_RPC_LOG_WARNING
                   ? mp_xstrdup(e->message)
                   : e->severity == MP_RPC_LOG_ERROR
                         ? mp_xasprintf("error: %s", e->message)
                         : mp_xasprintf(MP_PROV_INFO_PREFIX "%s", e->message);
  mp__plugin_diag(p, e->urn, line);
  free(line);
}

typedef struct serve_job {
  mp__plugin *p;
  int rc;
  mp_err err;
} serve_job;

static void serve(void *arg) {
  serve_job *j = arg;
  mp__plugin *p = j->p;
  mp_rpc_engine_service_init(&p->svc, on_log, p);
  j->rc = mp_rpc_server_new(&p->h->loop, 0, &p->srv, &j->err);
  if (j->rc == 0) j->rc = mp_rpc_engine_service_register(&p->svc, p->srv,
                                                          &j->err);
  int port = 0;
  if (j->rc == 0) j->rc = mp_rpc_server_listen(p->srv, &port, &j->err);
  if (j->rc < 0 && p->srv) {
    mp_rpc_server_close(p->srv, NULL, NULL);
    p->srv = NULL;
  }
}

/* ---- the process ---- */

typedef struct fork_job {
  const char *bin;
  char *const *argv;
  char *const *envp;
  const char *cwd;
  int out_w, err_w;
  pid_t pid;
  int errnum;
} fork_job;

/* In the child: only async-signal-safe calls until exec. */
static void child(const fork_job *j, pid_t parent) {
  setpgid(0, 0);
  /* Dies with the host's loop thread, which forked it. */
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  signal(SIGINT, SIG_DFL);
  signal(SIGPIPE, SIG_DFL);
  int devnull = open("/dev/null", O_RDONLY);
  if (devnull >= 0) dup2(devnull, 0);
  dup2(j->out_w, 1);
  dup2(j->err_w, 2);
  if (chdir(j->cwd) != 0) {
    static const char m[] = "cannot enter the program folder\n";
    ssize_t w = write(2, m, sizeof(m) - 1);
    (void)w;
    _exit(126);
  }
  execve(j->bin, j->argv, j->envp);
  static const char m[] = "cannot execute the plugin: ";
  ssize_t w = write(2, m, sizeof(m) - 1);
  const char *why = strerror(errno);
  w = write(2, why, strlen(why));
  w = write(2, "\n", 1);
  (void)w;
  _exit(127);
}

/* Forks on the loop thread, so that PR_SET_PDEATHSIG follows that
 * thread, which lives until the host shuts down. */
static void do_fork(void *arg) {
  fork_job *j = arg;
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0) child(j, parent);
  if (pid < 0) {
    j->errnum = errno;
    return;
  }
  setpgid(pid, pid); /* also here: no race with the first kill */
  j->pid = pid;
}

static char *env_pair(const char *k, const char *v) {
  return mp_xasprintf("%s=%s", k, v ? v : "");
}

/* The value of |name| in environ, or NULL. */
static const char *environ_value(const char *name) {
  size_t len = strlen(name);
  for (size_t i = 0; environ[i]; i++)
    if (strncmp(environ[i], name, len) == 0 && environ[i][len] == '=')
      return environ[i] + len + 1;
  return NULL;
}

/* Whether |entry| ("K=V") is a variable that an envVarMappings pair of
 * |p| with a set source gives a new value. */
static int remapped(const mp__plugin *p, const char *entry) {
  for (size_t i = 0; i + 1 < p->env_map.len; i += 2) {
    const char *to = p->env_map.items[i + 1];
    size_t len = strlen(to);
    if (strncmp(entry, to, len) == 0 && entry[len] == '=' &&
        environ_value(p->env_map.items[i]))
      return 1;
  }
  return 0;
}

/* environ without the PULUMI_* keys we set, then ours; then each
 * envVarMappings variable that is set under its new name (Pulumi's
 * provider environment: the plugin sees the value of the first name as
 * the second, the first name's own entry kept). */
static char **make_env(const mp__plugin *p) {
  const mp_plugin_host *h = p->h;
  static const char *const ours[] = {"PULUMI_CONFIG=", "PULUMI_PROJECT=",
                                     "PULUMI_STACK=", "PULUMI_ORGANIZATION=",
                                     "PULUMI_NODEJS_PROJECT=",
                                     "PULUMI_NODEJS_STACK="};
  size_t n = 0;
  while (environ[n]) n++;
  char **env = mp_xcalloc(n + MP_ARRAY_LEN(ours) + p->env_map.len / 2 + 1,
                          sizeof(*env));
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    int skip = remapped(p, environ[i]);
    for (size_t o = 0; o < MP_ARRAY_LEN(ours) && !skip; o++)
      skip = strncmp(environ[i], ours[o], strlen(ours[o])) == 0;
    if (!skip) env[k++] = mp_xstrdup(environ[i]);
  }
  for (size_t i = 0; i + 1 < p->env_map.len; i += 2) {
    const char *v = environ_value(p->env_map.items[i]);
    if (v) env[k++] = env_pair(p->env_map.items[i + 1], v);
  }
  env[k++] = env_pair("PULUMI_CONFIG", h->config_json);
  env[k++] = env_pair("PULUMI_PROJECT", h->project);
  env[k++] = env_pair("PULUMI_STACK", h->stack);
  env[k++] = env_pair("PULUMI_NODEJS_PROJECT", h->project);
  env[k++] = env_pair("PULUMI_NODEJS_STACK", h->stack);
  if (h->organization) env[k++] = env_pair("PULUMI_ORGANIZATION",
                                           h->organization);
  env[k] = NULL;
  return env;
}

static void free_strs(char **v) {
  for (size_t i = 0; v && v[i]; i++) free(v[i]);
  free(v);
}

/* Reaps |p| if it has ended; returns 1 once reaped. Several workers may
 * ask at once: |mu| makes one of them reap and the others see it. */
static int try_reap(mp__plugin *p) {
  pthread_mutex_lock(&p->mu);
  if (!p->reaped && p->pid > 0) {
    int st = 0;
    pid_t r = waitpid(p->pid, &st, WNOHANG);
    if (r == p->pid || (r < 0 && errno == ECHILD)) {
      p->reaped = 1;
      p->status = st;
    }
  }
  int done = p->reaped || p->pid <= 0;
  pthread_mutex_unlock(&p->mu);
  return done;
}

const char *mp__plugin_exit_note(mp__plugin *p, uint64_t wait_ms, char *buf,
                                 size_t n) {
  buf[0] = '\0';
  uint64_t until = now_ms() + wait_ms;
  while (!try_reap(p) && now_ms() < until) {
    struct timespec ts = {0, 10 * 1000000};
    nanosleep(&ts, NULL);
  }
  if (!try_reap(p)) return buf;
  if (WIFSIGNALED(p->status))
    snprintf(buf, n, "; the plugin was killed by signal %d",
             WTERMSIG(p->status));
  else
    snprintf(buf, n, "; the plugin exited with status %d",
             WEXITSTATUS(p->status));
  return buf;
}

/* Ends the group: SIGINT, then SIGKILL once |grace_ms| passed. */
static void end_group(mp__plugin *p, uint64_t grace_ms) {
  if (p->pid <= 0) return;
  kill(-p->pid, grace_ms ? SIGINT : SIGKILL);
  uint64_t until = now_ms() + grace_ms;
  while (grace_ms && now_ms() < until) {
    if (try_reap(p) && kill(-p->pid, 0) < 0) return;
    struct timespec ts = {0, 10 * 1000000};
    nanosleep(&ts, NULL);
  }
  kill(-p->pid, SIGKILL);
  while (!try_reap(p)) {
    struct timespec ts = {0, 5 * 1000000};
    nanosleep(&ts, NULL);
  }
}

/* ---- the port line ---- */

/* Why there is no port when the plugin closed its stdout first: it is
 * most likely exiting, so its status is worth waiting for a moment. */
static const char OUTPUT_ENDED[] = "its output ended before the port line";
#define EXIT_WAIT_MS 2000

/* Reads stdout byte by byte up to the first newline, keeping stderr.
 * Returns the port, or 0 with |why| set. */
static int read_port(int out, int errfd, uint64_t timeout_ms, mp_buf *line,
                     mp_buf *errtext, const char **why) {
  uint64_t until = now_ms() + timeout_ms;
  int out_open = 1, err_open = 1;
  while (out_open) {
    struct pollfd fds[2] = {{out, POLLIN, 0}, {errfd, POLLIN, 0}};
    uint64_t now = now_ms();
    if (now >= until) {
      *why = "no port line within the startup deadline";
      return 0;
    }
    int rc = poll(fds, err_open ? 2 : 1, (int)(until - now));
    if (rc < 0 && errno == EINTR) continue;
    if (rc < 0) {
      *why = "cannot wait for the plugin's output";
      return 0;
    }
    if (err_open && fds[1].revents) {
      char buf[4096];
      ssize_t n = read(errfd, buf, sizeof(buf));
      if (n <= 0 && !(n < 0 && errno == EINTR)) err_open = 0;
      else if (n > 0 && errtext->len < STARTUP_STDERR_MAX)
        mp_buf_append(errtext, buf, (size_t)n);
    }
    if (fds[0].revents) {
      char c;
      ssize_t n = read(out, &c, 1);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        out_open = 0;
        break;
      }
      if (c == '\n') break;
      if (line->len < 64) mp_buf_putc(line, c);
    }
  }
  if (!out_open) {
    *why = OUTPUT_ENDED;
    return 0;
  }
  mp_buf_putc(line, '\0');
  char *end;
  const char *s = line->data;
  while (*s == ' ' || *s == '\t' || *s == '\r') s++;
  long port = strtol(s, &end, 10);
  while (*end == ' ' || *end == '\t' || *end == '\r') end++;
  if (end == s || *end || port <= 0 || port > 65535) {
    *why = "it wrote an invalid port to stdout";
    return 0;
  }
  return (int)port;
}

/* ---- output after the port line (loop thread) ---- */

static void on_alloc(uv_handle_t *hd, size_t sz, uv_buf_t *b) {
  (void)hd;
  b->base = malloc(sz);
  b->len = b->base ? sz : 0;
}

static void on_handle_closed(uv_handle_t *hd) {
  mp__plugin *p = hd->data;
  p->closing_handles--;
}

/* Whole lines of |acc| (all of it at EOF) as information, as Pulumi
 * shows a plugin's output. */
static void flush_lines(mp__plugin *p, mp_buf *acc, int all) {
  size_t start = 0;
  for (size_t i = 0; i <= acc->len; i++) {
    int at_end = i == acc->len;
    if (!at_end && acc->data[i] != '\n') continue;
    if (at_end && !all) break;
    size_t n = i - start;
    while (n && (acc->data[start + n - 1] == '\r')) n--;
    if (n) {
      char *line = mp_xasprintf(MP_PROV_INFO_PREFIX "%.*s", (int)n,
                                acc->data + start);
      mp__plugin_diag(p, NULL, line);
      free(line);
    }
    start = i + 1;
  }
  if (start > acc->len) start = acc->len;
  if (start == 0) return; /* also when nothing was ever read */
  memmove(acc->data, acc->data + start, acc->len - start);
  acc->len -= start;
}

static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b) {
  mp__plugin *p = s->data;
  int is_err = s == (uv_stream_t *)&p->err;
  mp_buf *acc = is_err ? &p->err_line : &p->out_line;
  if (n > 0) {
    mp_buf_append(acc, b->base, (size_t)n);
    /* A "line" that never ends is shown in pieces, not kept whole. */
    flush_lines(p, acc, acc->len > MAX_LINE);
  }
  free(b->base);
  if (n < 0) {
    flush_lines(p, acc, 1);
    uv_read_stop(s);
  }
}

typedef struct attach_job {
  mp__plugin *p;
  int out_fd, err_fd;
  int rc;
  mp_err err;
} attach_job;

static int open_pipe(mp__plugin *p, uv_pipe_t *pp, int fd, int *open_flag) {
  int rc = uv_pipe_init(&p->h->loop, pp, 0);
  if (rc < 0) {
    close(fd);
    return rc;
  }
  pp->data = p;
  *open_flag = 1;
  rc = uv_pipe_open(pp, fd);
  if (rc < 0) close(fd);
  else rc = uv_read_start((uv_stream_t *)pp, on_alloc, on_read);
  return rc;
}

/* The client and the output pipes (loop thread). */
static void attach(void *arg) {
  attach_job *j = arg;
  mp__plugin *p = j->p;
  j->rc = mp_rpc_client_new(&p->h->loop, p->name, p->port, 0, &p->client,
                            &j->err);
  int rc1 = open_pipe(p, &p->out, j->out_fd, &p->out_open);
  int rc2 = open_pipe(p, &p->err, j->err_fd, &p->err_open);
  if (j->rc == 0 && (rc1 < 0 || rc2 < 0))
    j->rc = mp_err_from_uv(&j->err, rc1 < 0 ? rc1 : rc2,
                           "cannot read the output of plugin '%s'", p->name);
}

static void start_closing(void *arg) {
  mp__plugin *p = arg;
  if (p->client) {
    mp_rpc_client_close(p->client, NULL, NULL);
    p->client = NULL;
  }
  if (p->srv) {
    mp_rpc_server_close(p->srv, NULL, NULL);
    p->srv = NULL;
  }
  if (p->out_open) {
    p->out_open = 0;
    p->closing_handles++;
    uv_close((uv_handle_t *)&p->out, on_handle_closed);
  }
  if (p->err_open) {
    p->err_open = 0;
    p->closing_handles++;
    uv_close((uv_handle_t *)&p->err, on_handle_closed);
  }
}

typedef struct closed_job {
  mp__plugin *p;
  int closed;
} closed_job;

static void check_closed(void *arg) {
  closed_job *j = arg;
  j->closed = j->p->closing_handles == 0;
}

static void close_loop_side(mp__plugin *p) {
  mp__host_run(p->h, start_closing, p);
  closed_job j = {p, 0};
  while (!j.closed) mp__host_run(p->h, check_closed, &j);
}

/* ---- start and stop ---- */

static int fail_start(mp__plugin *p, int fds[4], mp_buf *errtext,
                      const char *why, mp_err *err) {
  for (int i = 0; i < 4; i++)
    if (fds[i] >= 0) close(fds[i]);
  /* How the plugin ended, if it did, before we end its group: our own
   * kill is not the plugin's doing. */
  char note[96];
  mp__plugin_exit_note(p, why == OUTPUT_ENDED ? EXIT_WAIT_MS : 0, note,
                       sizeof(note));
  if (!note[0]) snprintf(note, sizeof(note), "; minipulumi stopped it");
  end_group(p, 0);
  while (errtext->len && (errtext->data[errtext->len - 1] == '\n' ||
                          errtext->data[errtext->len - 1] == '\r'))
    errtext->len--;
  mp_buf_putc(errtext, '\0');
  mp_err_set(err, MP_EIO, "could not read plugin [%s]: %s%s%s%s", p->bin,
             why, note, errtext->len > 1 ? "; its stderr:\n" : "",
             errtext->data);
  close_loop_side(p);
  return MP_EIO;
}

/* --logflow: the plugin logs as the engine does (Pulumi passes
 * --logtostderr and -v=N ahead of the plugin's own arguments). Returns
 * how many flags were put in |av|. */
static size_t flow_flags(const mp_log *l, char **av) {
  size_t n = 0;
  if (!l || !l->flow) return 0;
  if (l->to_stderr) av[n++] = mp_xstrdup("--logtostderr");
  if (l->verbose > 0) av[n++] = mp_xasprintf("-v=%d", l->verbose);
  return n;
}

/* Pulumi's line, its arguments joined by commas. */
static void log_launch(mp_log *l, const char *name, char *const *av) {
  if (!mp_log_on(l, 9)) return;
  mp_buf args;
  mp_buf_init(&args);
  for (size_t i = 1; av[i]; i++) {
    if (i > 1) mp_buf_putc(&args, ',');
    mp_buf_append(&args, av[i], strlen(av[i]));
  }
  mp_buf_putc(&args, '\0');
  MP_LOGV(l, 9, "Launching plugin '%s' from '%s' with args: %s", name, av[0],
          args.data);
  mp_buf_destroy(&args);
}

int mp__plugin_start(mp__plugin *p, const char *const *argv, mp_err *err) {
  mp_plugin_host *h = p->h;
  serve_job sj = {p, 0, {0}};
  mp_err_clear(&sj.err);
  mp__host_run(h, serve, &sj);
  if (sj.rc < 0) {
    mp_rpc_engine_service_destroy(&p->svc);
    return mp_err_set(err, sj.rc, "plugin '%s': %s", p->name, sj.err.msg);
  }
  size_t argc = 0;
  while (argv[argc]) argc++;
  size_t ntail = 0;
  while (p->tail && p->tail[ntail]) ntail++;
  char **av = mp_xcalloc(argc + ntail + 4, sizeof(*av));
  size_t n = 0;
  for (size_t i = 0; i < argc; i++) av[n++] = mp_xstrdup(argv[i]);
  n += flow_flags(h->log, av + n);
  av[n++] = mp_xasprintf("127.0.0.1:%d", mp_rpc_server_port(p->srv));
  for (size_t i = 0; i < ntail; i++) av[n++] = mp_xstrdup(p->tail[i]);
  log_launch(h->log, p->name, av);
  uint64_t span = mp_span_begin(h->log, "plugin launch", 0);
  char **env = make_env(p);
  int fds[4] = {-1, -1, -1, -1}; /* out r/w, err r/w */
  mp_buf errtext, line;
  mp_buf_init(&errtext);
  mp_buf_init(&line);
  int rc = 0;
  if (pipe2(fds, O_CLOEXEC) < 0 || pipe2(fds + 2, O_CLOEXEC) < 0) {
    rc = mp_err_set(err, MP_EIO, "plugin '%s': cannot make pipes: %s",
                    p->name, strerror(errno));
  } else {
    fork_job fj = {p->bin, av, env, p->cwd ? p->cwd : h->program_dir, fds[1],
                   fds[3], 0, 0};
    mp__host_run(h, do_fork, &fj);
    p->pid = fj.pid;
    close(fds[1]);
    close(fds[3]);
    fds[1] = fds[3] = -1;
    if (fj.pid <= 0) {
      rc = mp_err_set(err, MP_EIO, "plugin '%s': cannot start: %s", p->name,
                      strerror(fj.errnum));
    } else {
      const char *why = NULL;
      p->port = read_port(fds[0], fds[2], h->setup_timeout_ms, &line,
                          &errtext, &why);
      if (p->port == 0) rc = fail_start(p, fds, &errtext, why, err);
    }
  }
  if (rc < 0) {
    for (int i = 0; i < 4; i++)
      if (fds[i] >= 0) close(fds[i]);
    if (p->srv) close_loop_side(p);
  } else {
    if (errtext.len) {
      mp_buf_append(&p->err_line, errtext.data, errtext.len);
      flush_lines(p, &p->err_line, 0);
    }
    attach_job aj = {p, fds[0], fds[2], 0, {0}};
    mp_err_clear(&aj.err);
    mp__host_run(h, attach, &aj);
    if (aj.rc < 0) {
      rc = mp_err_set(err, aj.rc, "%s", aj.err.msg);
      close_loop_side(p);
      end_group(p, 0);
    }
  }
  if (rc < 0) mp_rpc_engine_service_destroy(&p->svc);
  mp_span_end(h->log, span, "plugin", p->name);
  mp_buf_destroy(&errtext);
  mp_buf_destroy(&line);
  free_strs(av);
  free_strs(env);
  return rc;
}

void mp__plugin_stop(mp__plugin *p) {
  close_loop_side(p);
  end_group(p, STOP_GRACE_MS);
  mp_rpc_engine_service_destroy(&p->svc);
}
