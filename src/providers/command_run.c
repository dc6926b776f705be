/* Runs one local command for the `command` provider: posix_spawnp (safe
 * to call from several threads at once), stdout/stderr captured through
 * pipes and stdin fed through a socket (so that a child that exits early
 * gives EPIPE instead of SIGPIPE), all multiplexed with poll. Each command
 * leads its own process group, so that ending it on a timeout ends what
 * it started too (a shell's `sleep`): SIGTERM to the group, then SIGKILL
 * after MP_CMD_GRACE_MS. A watchdog process does the same should the
 * engine die without doing it (SIGKILL), as plugins die with it. */
#include "providers/command_int.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* How long a command's process group gets between SIGTERM and SIGKILL. */
#define MP_CMD_GRACE_MS 3000

void mp__cmd_result_init(mp__cmd_result *res) {
  mp_buf_init(&res->out);
  mp_buf_init(&res->err);
  res->status = 0;
  res->signal = 0;
}

void mp__cmd_result_destroy(mp__cmd_result *res) {
  mp_buf_destroy(&res->out);
  mp_buf_destroy(&res->err);
}

static int overridden(const mp_strv *env, const char *entry) {
  size_t i, n = strcspn(entry, "=");
  for (i = 0; i < env->len; i++)
    if (strncmp(env->items[i], entry, n) == 0 && env->items[i][n] == '=')
      return 1;
  return 0;
}

/* The child's environment: ours, minus the names |env| sets, plus |env|.
 * The strings are borrowed; free only the array. */
static char **build_env(const mp_strv *env) {
  size_t n = 0, at = 0, i;
  char **out;
  while (environ != NULL && environ[n] != NULL)
    n++;
  out = mp_xcalloc(n + env->len + 1, sizeof(*out));
  for (i = 0; i < n; i++)
    if (!overridden(env, environ[i]))
      out[at++] = environ[i];
  for (i = 0; i < env->len; i++)
    out[at++] = env->items[i];
  out[at] = NULL;
  return out;
}

static void close_fd(int *fd) {
  if (*fd >= 0)
    close(*fd);
  *fd = -1;
}

typedef struct io {
  int out, err, in; /* parent ends; -1 once closed */
  const char *data; /* stdin bytes */
  size_t len, off;
} io;

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Drains |fd| into |b|; closes it on EOF or error. */
static void pump_read(int *fd, mp_buf *b) {
  char chunk[8192];
  ssize_t n = read(*fd, chunk, sizeof(chunk));
  if (n > 0)
    mp_buf_append(b, chunk, (size_t)n);
  else if (n == 0 || (errno != EINTR && errno != EAGAIN))
    close_fd(fd);
}

static void pump_write(io *x) {
  ssize_t n;
  if (x->off < x->len) {
    n = send(x->in, x->data + x->off, x->len - x->off,
             MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0)
      x->off += (size_t)n;
    if (n < 0 && errno != EINTR && errno != EAGAIN)
      x->off = x->len;
  }
  if (x->off >= x->len)
    close_fd(&x->in);
}

/* Moves bytes until both output pipes reach EOF. Returns 0, or 1 when
 * |deadline| (ms, 0 = none) passed first. */
static int pump(io *x, mp__cmd_result *res, int64_t deadline) {
  while (x->out >= 0 || x->err >= 0) {
    struct pollfd fds[3];
    nfds_t n = 0;
    int wait = -1, rc;
    fds[n].fd = x->out, fds[n++].events = POLLIN;
    fds[n].fd = x->err, fds[n++].events = POLLIN;
    fds[n].fd = x->in, fds[n++].events = POLLOUT;
    if (deadline > 0) {
      int64_t left = deadline - now_ms();
      if (left <= 0)
        return 1;
      wait = (int)(left > 1000 ? 1000 : left);
    }
    rc = poll(fds, n, wait);
    if (rc < 0 && errno != EINTR)
      return 0;
    if (rc <= 0)
      continue;
    if (fds[0].revents)
      pump_read(&x->out, &res->out);
    if (fds[1].revents)
      pump_read(&x->err, &res->err);
    if (fds[2].revents)
      pump_write(x);
  }
  return 0;
}

static int spawn_child(const mp__cmd_spec *s, int in, int out, int errfd,
                       pid_t *pid, mp_err *err) {
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  sigset_t none, defs;
  char **envp = build_env(&s->env);
  int rc;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in, 0);
  posix_spawn_file_actions_adddup2(&fa, out, 1);
  posix_spawn_file_actions_adddup2(&fa, errfd, 2);
  if (s->dir != NULL && *s->dir != '\0')
    posix_spawn_file_actions_addchdir_np(&fa, s->dir);
  /* The child starts with no blocked signals and default SIGPIPE and
   * SIGINT handling, whatever the engine's threads did. */
  posix_spawnattr_init(&attr);
  sigemptyset(&none);
  sigemptyset(&defs);
  sigaddset(&defs, SIGPIPE);
  sigaddset(&defs, SIGINT);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defs);
  posix_spawnattr_setpgroup(&attr, 0); /* its own group, led by the child */
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK |
                                      POSIX_SPAWN_SETSIGDEF |
                                      POSIX_SPAWN_SETPGROUP);
  rc = posix_spawnp(pid, s->argv[0], &fa, &attr, s->argv, envp);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&fa);
  free(envp);
  if (rc != 0)
    return mp_err_set(err, MP_EPLUGIN, "cannot run '%s'%s%s: %s", s->argv[0],
                      s->dir ? " in " : "", s->dir ? s->dir : "", strerror(rc));
  return 0;
}

static int reap(pid_t pid, mp__cmd_result *res, mp_err *err) {
  int status;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR)
      return mp_err_set(err, MP_EIO, "cannot wait for command: %s",
                        strerror(errno));
  }
  if (WIFEXITED(status))
    res->status = WEXITSTATUS(status);
  if (WIFSIGNALED(status))
    res->signal = WTERMSIG(status);
  return 0;
}

/* Ends the process group |pid| leads: SIGTERM, then SIGKILL to whatever
 * is left once the leader has exited, or after the grace period. The
 * output read meanwhile is kept. The leader is left for the caller to
 * reap: until then its id cannot be reused, so the group id names this
 * group only. */
static void end_group(pid_t pid, io *x, mp__cmd_result *res) {
  int64_t deadline = now_ms() + MP_CMD_GRACE_MS;
  kill(-pid, SIGTERM);
  /* The pipes close once every member holding them is gone. */
  if (pump(x, res, deadline) == 0) {
    while (now_ms() < deadline) {
      siginfo_t si;
      memset(&si, 0, sizeof(si));
      if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
          si.si_pid == pid)
        break;
      struct timespec ts = {0, 20 * 1000 * 1000};
      nanosleep(&ts, NULL);
    }
  }
  kill(-pid, SIGKILL);
}

/* ---- the watchdog ---- */

/* The watchdog's life: it waits for its parent to die, then ends the
 * group |pgid| as end_group does. Only system calls: it is a fork of a
 * threaded process. Every signal is blocked (it shares the engine's
 * group, so a terminal's ^C reaches it too); the parent-death signal is
 * taken with sigtimedwait, and the parent is looked at once a second
 * besides, in case it died before the death signal was set. */
static void watchdog_main(pid_t parent, pid_t pgid) {
  /* raw calls: no sanitizer interceptor runs in this fork */
  sigset_t usr1;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  prctl(PR_SET_PDEATHSIG, SIGUSR1);
  if (syscall(SYS_close_range, 0U, ~0U, 0) < 0)
    for (int fd = 0; fd < 1024; fd++)
      close(fd);
  while (getppid() == parent) {
    struct timespec second = {1, 0};
    syscall(SYS_rt_sigtimedwait, &usr1, NULL, &second, _NSIG / 8);
  }
  /* The leader is no longer ours to keep unreaped: once the group is
   * gone its id may be reused, so it gets no signal after that. */
  if (kill(-pgid, SIGTERM) < 0) _exit(0);
  for (int waited = 0; waited < MP_CMD_GRACE_MS; waited += 20) {
    struct timespec ts = {0, 20 * 1000 * 1000};
    syscall(SYS_nanosleep, &ts, NULL);
    if (kill(-pgid, 0) < 0) _exit(0);
  }
  kill(-pgid, SIGKILL);
  _exit(0);
}

/* Starts the watchdog of the group |pgid| (its leader not yet reaped, so
 * that the id names this group only). Returns its pid, or -1. */
static pid_t watchdog_start(pid_t pgid) {
  pid_t parent = getpid();
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pid_t pid = fork();
  if (pid == 0) watchdog_main(parent, pgid);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return pid;
}

/* Ends the watchdog |pid| (the group it guards needs it no more). */
static void watchdog_stop(pid_t pid) {
  if (pid <= 0) return;
  kill(pid, SIGKILL);
  while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
  }
}

int mp__cmd_run(const mp__cmd_spec *s, mp__cmd_result *res, mp_err *err) {
  int po[2] = {-1, -1}, pe[2] = {-1, -1}, pi[2] = {-1, -1};
  io x = {-1, -1, -1, s->stdin_data, s->stdin_len, 0};
  pid_t pid;
  int rc, timed_out;
  int64_t deadline = s->timeout_ms > 0 ? now_ms() + s->timeout_ms : 0;
  if (pipe2(po, O_CLOEXEC) < 0 || pipe2(pe, O_CLOEXEC) < 0 ||
      socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pi) < 0) {
    rc = mp_err_set(err, MP_EIO, "cannot create pipes for a command: %s",
                    strerror(errno));
    goto done;
  }
  if ((rc = spawn_child(s, pi[1], po[1], pe[1], &pid, err)) < 0)
    goto done;
  close_fd(&po[1]);
  close_fd(&pe[1]);
  close_fd(&pi[1]);
  x.out = po[0], x.err = pe[0], x.in = pi[0];
  po[0] = pe[0] = pi[0] = -1;
  pid_t watchdog = watchdog_start(pid);
  if (x.len == 0)
    close_fd(&x.in);
  timed_out = pump(&x, res, deadline);
  if (timed_out)
    end_group(pid, &x, res);
  close_fd(&x.out);
  close_fd(&x.err);
  close_fd(&x.in);
  /* The leader exits first (the pipes are closed once it and its group
   * are done or ended); the watchdog goes before it is reaped. */
  siginfo_t si;
  while (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) < 0 &&
         errno == EINTR) {
  }
  watchdog_stop(watchdog);
  rc = reap(pid, res, err);
  if (rc == 0 && timed_out)
    rc = mp_err_set(err, MP_EPLUGIN,
                    "command timed out after %lld ms and was killed",
                    (long long)s->timeout_ms);
done:
  close_fd(&po[0]), close_fd(&po[1]);
  close_fd(&pe[0]), close_fd(&pe[1]);
  close_fd(&pi[0]), close_fd(&pi[1]);
  return rc;
}
