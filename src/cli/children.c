/* Ending the process groups this process started, from the signal handler
 * on a second ^C (or passing a hangup on to them). The command provider runs each command as the leader of
 * its own group (so a terminal's ^C does not reach it and a timeout can
 * end everything it started); when minipulumi stops at once, those groups
 * must not be left running. They are found in /proc: a child of ours
 * that leads its own group. Everything here is a plain system call on
 * stack buffers, so it is safe in a signal handler. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cli/children.h"
#include "engine/mem.h"

/* The decimal number at *p (advanced past it and one separator), or -1. */
static long parse_num(const char **p, const char *end) {
  long v = -1;
  while (*p < end && **p >= '0' && **p <= '9') {
    v = (v < 0 ? 0 : v * 10) + (**p - '0');
    (*p)++;
  }
  if (*p < end)
    (*p)++;
  return v;
}

/* Reads ppid and pgrp from /proc/<name>/stat: "pid (comm) S ppid pgrp",
 * where comm may hold spaces and parentheses, so the fields follow the
 * last ')'. Returns 0 or -1. */
static int read_stat(int procfd, const char *name, long *ppid, long *pgrp) {
  char path[64], buf[512];
  size_t n = strlen(name);
  if (n > sizeof(path) - 6)
    return -1;
  memcpy(path, name, n);
  memcpy(path + n, "/stat", 6);
  int fd = openat(procfd, path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  ssize_t got = read(fd, buf, sizeof(buf));
  close(fd);
  if (got <= 0)
    return -1;
  const char *end = buf + got, *p = NULL;
  for (const char *q = buf; q < end; q++)
    if (*q == ')')
      p = q;
  if (p == NULL || end - p < 4)
    return -1;
  p += 4; /* ") S " */
  *ppid = parse_num(&p, end);
  *pgrp = parse_num(&p, end);
  return *ppid < 0 || *pgrp < 0 ? -1 : 0;
}

static int is_number(const char *s) {
  if (*s == '\0')
    return 0;
  for (; *s; s++)
    if (*s < '0' || *s > '9')
      return 0;
  return 1;
}

size_t mp_cli_child_groups(pid_t *out, size_t max) {
  long self = (long)getpid();
  size_t n = 0;
  int procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (procfd < 0)
    return 0;
  char buf[4096] __attribute__((aligned(8)));
  ssize_t got;
  while (n < max && (got = getdents64(procfd, buf, sizeof(buf))) > 0) {
    for (ssize_t off = 0; off < got && n < max;) {
      struct dirent64 *d = (struct dirent64 *)(void *)(buf + off);
      off += d->d_reclen;
      long ppid, pgrp;
      if (!is_number(d->d_name) ||
          read_stat(procfd, d->d_name, &ppid, &pgrp) < 0)
        continue;
      long pid = 0;
      const char *p = d->d_name;
      pid = parse_num(&p, p + strlen(p));
      if (ppid == self && pgrp == pid && pid != self)
        out[n++] = (pid_t)pid;
    }
  }
  close(procfd);
  return n;
}

void mp_cli_signal_child_groups(int sig) {
  pid_t groups[256];
  size_t n = mp_cli_child_groups(groups, MP_ARRAY_LEN(groups));
  for (size_t i = 0; i < n; i++)
    kill(-groups[i], sig);
}

void mp_cli_end_child_groups(int grace_ms) {
  pid_t groups[256];
  size_t n = mp_cli_child_groups(groups, MP_ARRAY_LEN(groups));
  if (n == 0)
    return;
  for (size_t i = 0; i < n; i++)
    kill(-groups[i], SIGTERM);
  /* A helper outlives us by the grace period to kill what ignored
   * SIGTERM; it holds none of our output open. The raw clone skips
   * fork()'s atfork handlers and sanitizer hooks, which may take locks
   * the interrupted thread holds. */
  if (syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0) != 0)
    return;
  for (int fd = 0; fd < 3; fd++)
    close(fd);
  struct timespec ts = {grace_ms / 1000, (long)(grace_ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {
  }
  for (size_t i = 0; i < n; i++)
    kill(-groups[i], SIGKILL);
  _exit(0);
}
