/* The file system side of the `local` provider: one spelling per file,
 * what is at a path, and reads and writes that never follow a final
 * symbolic link, never block on a FIFO and never clobber by surprise. */
#include "providers/local_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "providers/providers_int.h"

char *mp__local_clean(const char *path) {
  int rooted = path[0] == '/';
  size_t n = strlen(path), depth = 0; /* parts kept that are not ".." */
  mp_buf b;
  mp_buf_init(&b);
  if (rooted)
    mp_buf_putc(&b, '/');
  size_t base = b.len; /* where the parts start */
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && path[j] != '/')
      j++;
    size_t len = j - i;
    const char *part = path + i;
    i = j + 1;
    if (len == 0 || (len == 1 && part[0] == '.'))
      continue;
    if (len == 2 && part[0] == '.' && part[1] == '.') {
      if (depth > 0) { /* drop the last part */
        while (b.len > base && b.data[b.len - 1] != '/')
          b.len--;
        if (b.len > base)
          b.len--; /* its separator */
        b.data[b.len] = '\0';
        depth--;
        continue;
      }
      if (rooted)
        continue; /* "/.." is "/" */
    } else {
      depth++;
    }
    if (b.len > base)
      mp_buf_putc(&b, '/');
    mp_buf_append(&b, part, len);
  }
  if (b.len == 0)
    mp_buf_putc(&b, '.');
  return mp_buf_detach(&b, NULL);
}

/* |path| made absolute against the current directory, cleaned. */
static char *absolute(const char *path) {
  if (path[0] == '/')
    return mp__local_clean(path);
  char *cwd = getcwd(NULL, 0);
  if (cwd == NULL)
    return mp__local_clean(path);
  char *joined = mp_xasprintf("%s/%s", cwd, path);
  free(cwd);
  char *out = mp__local_clean(joined);
  free(joined);
  return out;
}

char *mp__local_canonical(const char *path) {
  char *abs = absolute(path);
  char *slash = strrchr(abs, '/');
  char *dir =
      slash == abs ? mp_xstrdup("/") : mp_xstrndup(abs, (size_t)(slash - abs));
  char *real = realpath(dir, NULL);
  free(dir);
  if (real == NULL)
    return abs; /* the folder is not there (yet) */
  char *out = mp_xasprintf("%s/%s", strcmp(real, "/") ? real : "", slash + 1);
  free(real);
  free(abs);
  return out;
}

int mp__local_same_file(const char *a, const char *b) {
  char *ca = mp__local_canonical(a), *cb = mp__local_canonical(b);
  int same = strcmp(ca, cb) == 0;
  free(ca);
  free(cb);
  return same;
}

int mp__local_via_symlink(const char *path, char **resolved) {
  char *abs = absolute(path), *canon = mp__local_canonical(path);
  int via = strcmp(abs, canon) != 0;
  free(abs);
  *resolved = via ? canon : NULL;
  if (!via)
    free(canon);
  return via;
}

static const char *kind_of(mode_t m) {
  if (S_ISDIR(m))
    return "a directory";
  if (S_ISLNK(m))
    return "a symbolic link";
  if (S_ISFIFO(m))
    return "a FIFO";
  if (S_ISCHR(m) || S_ISBLK(m))
    return "a device";
  if (S_ISSOCK(m))
    return "a socket";
  return "a special file";
}

int mp__local_inspect(const char *path, const char *why, mp_err *err) {
  struct stat st;
  if (lstat(path, &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR)
      return 0;
    return mp_err_set(err, MP_EPLUGIN, "cannot look at '%s': %s", path,
                      strerror(errno));
  }
  if (S_ISREG(st.st_mode))
    return 1;
  return mp_err_set(err, MP_EPLUGIN, "'%s' is %s, not a regular file; %s", path,
                    kind_of(st.st_mode), why);
}

int mp__local_read(const char *path, mp_buf *b, mode_t *mode, mp_err *err) {
  char chunk[65536];
  struct stat st;
  ssize_t n;
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0 && (errno == ENOENT || errno == ENOTDIR))
    return 1;
  if (fd < 0 && errno == ELOOP)
    return mp_err_set(err, MP_EPLUGIN,
                      "'%s' is a symbolic link, not a regular file", path);
  if (fd < 0 || fstat(fd, &st) < 0) {
    int saved = errno;
    if (fd >= 0)
      close(fd);
    return mp_err_set(err, MP_EPLUGIN, "cannot read '%s': %s", path,
                      strerror(saved));
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    return mp_err_set(err, MP_EPLUGIN, "'%s' is %s, not a regular file", path,
                      kind_of(st.st_mode));
  }
  *mode = st.st_mode & 07777;
  while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0 || b->len + (size_t)n > MP_LOCAL_MAX_FILE_BYTES) {
      int saved = errno;
      close(fd);
      return mp_err_set(err, MP_EPLUGIN, "cannot read '%s': %s", path,
                        n < 0 ? strerror(saved) : "larger than 1 GiB");
    }
    mp_buf_append(b, chunk, (size_t)n);
  }
  close(fd);
  return 0;
}

static int write_all(int fd, const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w < 0)
      return -1;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* Creates the directories above |path| that do not exist yet, as a user
 * writing a file into a new folder expects. Errors surface at the write. */
static void make_parents(const char *path) {
  char *dir = mp_xstrdup(path);
  for (char *p = dir + 1; *p; p++) {
    if (*p != '/')
      continue;
    *p = '\0';
    mkdir(dir, 0755);
    *p = '/';
  }
  free(dir);
}

/* Moves |tmp| to |path|; without |replace| only if nothing is there
 * (atomically: RENAME_NOREPLACE, or a hard link where the file system
 * lacks it). */
static int install(const char *tmp, const char *path, int replace) {
  if (replace)
    return rename(tmp, path);
  if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
    return 0;
  if (errno != EINVAL && errno != ENOSYS)
    return -1;
  if (link(tmp, path) != 0)
    return -1;
  unlink(tmp);
  return 0;
}

int mp__local_write(const char *path, const char *content, size_t len,
                    mode_t mode, int replace, mp_err *err) {
  char *tmp = mp__prov_tmp_beside(path);
  int fd, saved;
  make_parents(path);
  fd = mkostemp(tmp, O_CLOEXEC);
  if (fd < 0) {
    saved = errno;
    free(tmp);
    return mp_err_set(err, MP_EPLUGIN,
                      "cannot write '%s': %s; check that its directory "
                      "exists and is writable",
                      path, strerror(saved));
  }
  int bad = write_all(fd, content, len) < 0 || fchmod(fd, mode) < 0;
  saved = errno;
  if (close(fd) < 0 && !bad)
    bad = 1, saved = errno;
  if (!bad && install(tmp, path, replace) < 0)
    bad = 1, saved = errno;
  if (bad) {
    unlink(tmp);
    free(tmp);
    if (saved == EEXIST)
      return mp_err_set(err, MP_EPLUGIN,
                        "'%s' appeared while it was being written; it was "
                        "left alone",
                        path);
    return mp_err_set(err, MP_EPLUGIN, "cannot write '%s': %s", path,
                      strerror(saved));
  }
  free(tmp);
  return 0;
}
