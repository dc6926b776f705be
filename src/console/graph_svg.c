/* Renders a DOT text as SVG with Graphviz's `dot` command (as `stack
 * graph --format svg` does): a child process, so that Graphviz's layout
 * runs outside the console's process, cannot take it down, and is killed
 * when it takes too long. The DOT goes in on a pipe and the SVG comes back
 * on another, both pumped with poll() on the console's one thread. */
#include "console/graph.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define ERR_KEEP 2000 /* bytes of Graphviz's messages kept for the error */

static long long now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* The inherited environment with SERVER_NAME added: Graphviz then runs in
 * its safe mode, which reads no file a graph names (images, shapes). The
 * DOT it is given names none, this is a second fence. */
static char **child_env(void) {
  size_t n = 0;
  while (environ && environ[n])
    n++;
  char **e = mp_xcalloc(n + 2, sizeof(char *));
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (strncmp(environ[i], "SERVER_NAME=", 12))
      e[k++] = environ[i];
  e[k] = "SERVER_NAME=minipulumi-console";
  return e;
}

static int spawn_dot(int in, int out, int errfd, pid_t *pid) {
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t attr;
  sigset_t none, defs;
  /* Fewer rounds of crossing reduction and network simplex than dot's
   * defaults: a little less tidy, but a deep 200-node stack is laid out
   * in seconds rather than minutes (bench/bench_console.py). */
  char *argv[] = {"dot", "-Gmclimit=0.1", "-Gnslimit=1", "-Gnslimit1=1",
                  "-Tsvg", NULL};
  char **envp = child_env();
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in, 0);
  posix_spawn_file_actions_adddup2(&fa, out, 1);
  posix_spawn_file_actions_adddup2(&fa, errfd, 2);
  posix_spawnattr_init(&attr);
  sigemptyset(&none);
  sigemptyset(&defs);
  sigaddset(&defs, SIGPIPE);
  sigaddset(&defs, SIGINT);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defs);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK |
                                      POSIX_SPAWN_SETSIGDEF);
  int rc = posix_spawnp(pid, "dot", &fa, &attr, argv, envp);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&fa);
  free(envp);
  return rc;
}

/* Feeds |dot| to fds[2] and reads fds[0] (stdout) into |out| and fds[1]
 * (stderr) into |errs| until both close or |deadline| passes (-1). */
static int pump(int fds_in[3], const char *dot, size_t len, mp_buf *out,
                mp_buf *errs, long long deadline) {
  size_t sent = 0;
  int open_out = 1, open_err = 1, in = fds_in[2];
  if (len == 0) {
    close(in);
    in = -1;
  }
  while (open_out || open_err) {
    struct pollfd p[3] = {{fds_in[0], POLLIN, 0}, {fds_in[1], POLLIN, 0},
                          {in, POLLOUT, 0}};
    if (!open_out)
      p[0].fd = -1;
    if (!open_err)
      p[1].fd = -1;
    long long left = deadline - now_ms();
    if (left <= 0)
      break;
    int r = poll(p, 3, (int)(left > 1000 ? 1000 : left));
    if (r < 0 && errno != EINTR)
      break;
    if (r <= 0)
      continue;
    char buf[16384];
    for (int i = 0; i < 2; i++) {
      if (p[i].fd < 0 || !p[i].revents)
        continue;
      ssize_t k = read(p[i].fd, buf, sizeof(buf));
      if (k > 0 && i == 0)
        mp_buf_append(out, buf, (size_t)k);
      else if (k > 0 && errs->len < ERR_KEEP)
        mp_buf_append(errs, buf, (size_t)k);
      else if (k == 0 || (errno != EAGAIN && errno != EINTR))
        *(i == 0 ? &open_out : &open_err) = 0;
    }
    if (in >= 0 && p[2].revents) {
      ssize_t k = write(in, dot + sent, len - sent);
      if (k > 0)
        sent += (size_t)k;
      if ((k < 0 && errno != EAGAIN && errno != EINTR) || sent == len) {
        close(in); /* EOF for dot (or it stopped reading: EPIPE) */
        in = -1;
      }
    }
  }
  if (in >= 0)
    close(in);
  return open_out || open_err ? -1 : 0;
}

/* The <svg> element of Graphviz's document, with its comments left out
 * (they name Graphviz's nodes only, and an HTML parser would end one at
 * "--!>" where XML would not), if it passes mp_console_svg_check. */
static char *svg_element(const mp_buf *b, mp_err *err) {
  const char *s = b->data ? b->data : "";
  const char *start = strstr(s, "<svg");
  const char *end = start ? strstr(start, "</svg>") : NULL;
  if (end == NULL) {
    mp_err_set(err, MP_EIO, "Graphviz's `dot` wrote no SVG picture");
    return NULL;
  }
  end += strlen("</svg>");
  mp_buf o;
  mp_buf_init(&o);
  for (const char *p = start; p < end;) {
    const char *c = strstr(p, "<!--");
    const char *c_end = c && c < end ? strstr(c + 4, "-->") : NULL;
    if (c_end == NULL || c_end >= end) {
      mp_buf_append(&o, p, (size_t)(end - p));
      break;
    }
    mp_buf_append(&o, p, (size_t)(c - p));
    p = c_end + 3;
  }
  size_t n;
  char *svg = mp_buf_detach(&o, &n);
  if (mp_console_svg_check(svg ? svg : "", n, err)) {
    free(svg);
    return NULL;
  }
  return svg;
}

char *mp_console_dot_svg(const char *dot, size_t len, int timeout_ms,
                         mp_err *err) {
  int in[2], out[2], er[2];
  if (pipe2(in, O_CLOEXEC)) {
    mp_err_set(err, MP_EIO, "cannot make a pipe: %s", strerror(errno));
    return NULL;
  }
  if (pipe2(out, O_CLOEXEC)) {
    close(in[0]), close(in[1]);
    mp_err_set(err, MP_EIO, "cannot make a pipe: %s", strerror(errno));
    return NULL;
  }
  if (pipe2(er, O_CLOEXEC)) {
    close(in[0]), close(in[1]), close(out[0]), close(out[1]);
    mp_err_set(err, MP_EIO, "cannot make a pipe: %s", strerror(errno));
    return NULL;
  }
  pid_t pid;
  int rc = spawn_dot(in[0], out[1], er[1], &pid);
  close(in[0]), close(out[1]), close(er[1]);
  if (rc) {
    close(in[1]), close(out[0]), close(er[0]);
    if (rc == ENOENT)
      mp_err_set(err, MP_ENOENT,
                 "drawing the graph needs Graphviz's `dot` command, which is "
                 "not on PATH; install Graphviz (Debian: apt-get install "
                 "graphviz) and restart the console");
    else
      mp_err_set(err, MP_EIO, "cannot start Graphviz's `dot`: %s",
                 strerror(rc));
    return NULL;
  }
  fcntl(in[1], F_SETFL, O_NONBLOCK);
  fcntl(out[0], F_SETFL, O_NONBLOCK);
  fcntl(er[0], F_SETFL, O_NONBLOCK);
  mp_buf svg, msgs;
  mp_buf_init(&svg);
  mp_buf_init(&msgs);
  int fds[3] = {out[0], er[0], in[1]};
  int timed_out =
      pump(fds, dot, len, &svg, &msgs, now_ms() + timeout_ms) != 0;
  close(out[0]), close(er[0]);
  if (timed_out)
    kill(pid, SIGKILL);
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  char *result = NULL;
  if (timed_out)
    mp_err_set(err, MP_EIO,
               "Graphviz's `dot` took more than %d seconds to lay the graph "
               "out; ask for fewer nodes (?limit=N)",
               timeout_ms / 1000);
  else if (!WIFEXITED(st) || WEXITSTATUS(st))
    mp_err_set(err, MP_EIO, "Graphviz's `dot` failed: %.*s",
               (int)msgs.len, msgs.data ? msgs.data : "");
  else
    result = svg_element(&svg, err);
  mp_buf_destroy(&svg);
  mp_buf_destroy(&msgs);
  return result;
}
