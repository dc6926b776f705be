/* Files of the DIY store: reading (gzip or not, as Pulumi's
 * encoding.DetectCompression tells them apart), writing atomically with
 * the previous version kept as .bak, and folders. */
#include "state/diy_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <zlib.h>

int64_t mp__diy_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int mp__diy_json_int64(const cJSON *v, int64_t *out) {
  *out = 0;
  if (!cJSON_IsNumber(v))
    return 0;
  double d = v->valuedouble;
  /* Only -2^63 <= d < 2^63 may be cast (NaN fails the test too); a whole
   * d then comes back from the cast unchanged. */
  if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
    return -1;
  int64_t i = (int64_t)d;
  if ((double)i != d)
    return -1;
  *out = i;
  return 1;
}

int mp__diy_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

/* ==== gzip ==== */

static int gunzip(const char *path, const char *in, size_t n, mp_buf *out,
                  mp_err *err) {
  z_stream z;
  memset(&z, 0, sizeof(z));
  if (inflateInit2(&z, 15 + 16) != Z_OK)
    return mp_err_set(err, MP_EIO, "cannot read '%s': zlib failed", path);
  z.next_in = (Bytef *)in;
  z.avail_in = (uInt)n;
  int rc;
  char chunk[65536];
  do {
    z.next_out = (Bytef *)chunk;
    z.avail_out = sizeof(chunk);
    rc = inflate(&z, Z_NO_FLUSH);
    mp_buf_append(out, chunk, sizeof(chunk) - z.avail_out);
  } while (rc == Z_OK);
  inflateEnd(&z);
  if (rc != Z_STREAM_END)
    return mp_err_set(err, MP_ESTATE,
                      "'%s' is not a complete gzip file; restore it from "
                      "its .bak",
                      path);
  return 0;
}

static void gzip_into(const char *in, size_t n, mp_buf *out) {
  z_stream z;
  memset(&z, 0, sizeof(z));
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
                   Z_DEFAULT_STRATEGY) != Z_OK)
    MP_BUG("deflateInit2 failed");
  z.next_in = (Bytef *)in;
  z.avail_in = (uInt)n;
  char chunk[65536];
  int rc;
  do {
    z.next_out = (Bytef *)chunk;
    z.avail_out = sizeof(chunk);
    rc = deflate(&z, Z_FINISH);
    mp_buf_append(out, chunk, sizeof(chunk) - z.avail_out);
  } while (rc == Z_OK);
  deflateEnd(&z);
}

/* ==== read ==== */

/* The bytes of |path| as they are into |b|. */
static int read_raw(const char *path, mp_buf *b, mp_err *err) {
  FILE *f = fopen(path, "rb");
  if (f == NULL)
    return mp_err_set(err, errno == ENOENT ? MP_ENOENT : MP_EIO,
                      "cannot read '%s': %s", path, strerror(errno));
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
    mp_buf_append(b, chunk, n);
  int bad = ferror(f);
  fclose(f);
  return bad ? mp_err_set(err, MP_EIO, "cannot read '%s'", path) : 0;
}

int mp__diy_read(const char *path, char **out, size_t *len, mp_err *err) {
  *out = NULL;
  *len = 0;
  mp_buf b;
  mp_buf_init(&b);
  int rc0 = read_raw(path, &b, err);
  if (rc0 < 0) {
    mp_buf_destroy(&b);
    return rc0;
  }
  if (b.len >= 2 && (unsigned char)b.data[0] == 0x1f &&
      (unsigned char)b.data[1] == 0x8b) {
    mp_buf plain;
    mp_buf_init(&plain);
    int rc = gunzip(path, b.data, b.len, &plain, err);
    mp_buf_destroy(&b);
    if (rc < 0) {
      mp_buf_destroy(&plain);
      return rc;
    }
    b = plain;
  }
  *out = mp_buf_detach(&b, len);
  return 0;
}

/* ==== write ==== */

static int fsync_dir(const char *path) {
  char *dir = mp_xstrdup(path);
  char *slash = strrchr(dir, '/');
  if (slash)
    *(slash == dir ? slash + 1 : slash) = '\0';
  int fd = open(dir, O_RDONLY | O_DIRECTORY);
  free(dir);
  if (fd < 0)
    return -1;
  int rc = fsync(fd);
  close(fd);
  return rc;
}

static int write_all(int fd, const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return -1;
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* |path|.bak becomes what |path| holds now: a hard link made beside it and
 * renamed over the old backup (a copy where links are not supported). */
static void keep_backup(const char *path) {
  char *bak = mp_xasprintf("%s.bak", path);
  char *tmp = mp_xasprintf("%s.bak.%lld.tmp", path, (long long)getpid());
  unlink(tmp);
  if (link(path, tmp) == 0) {
    if (rename(tmp, bak) != 0)
      unlink(tmp);
  } else if (errno != ENOENT) {
    mp_buf b;
    mp_buf_init(&b);
    mp_err ignored;
    if (read_raw(path, &b, &ignored) == 0)
      (void)mp__diy_write(bak, b.data, b.len, 0, 0, &ignored);
    mp_buf_destroy(&b);
  }
  free(tmp);
  free(bak);
}

int mp__diy_write(const char *path, const char *data, size_t len, int gz,
                  int bak, mp_err *err) {
  mp_buf zipped;
  mp_buf_init(&zipped);
  if (gz) {
    gzip_into(data, len, &zipped);
    data = zipped.data;
    len = zipped.len;
  }
  char *tmp = mp_xasprintf("%s.%lld.tmp", path, (long long)getpid());
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int ok = fd >= 0 && write_all(fd, data, len) == 0 && fsync(fd) == 0;
  int e = errno;
  if (fd >= 0 && close(fd) != 0 && ok) {
    ok = 0;
    e = errno;
  }
  if (ok && bak)
    keep_backup(path);
  if (ok && rename(tmp, path) != 0) {
    ok = 0;
    e = errno;
  }
  if (ok)
    (void)fsync_dir(path);
  else
    unlink(tmp);
  free(tmp);
  mp_buf_destroy(&zipped);
  if (!ok)
    return mp_err_set(err, MP_EIO, "cannot write '%s': %s", path, strerror(e));
  return 0;
}

/* ==== folders ==== */

int mp__diy_mkdirs(const char *dir, mp_err *err) {
  char *p = mp_xstrdup(dir);
  int rc = 0;
  for (char *q = p + 1;; q++) {
    if (*q != '/' && *q != '\0')
      continue;
    char c = *q;
    *q = '\0';
    if (mkdir(p, 0755) != 0 && errno != EEXIST) {
      rc = mp_err_set(err, MP_EIO, "cannot create folder '%s': %s", p,
                      strerror(errno));
      break;
    }
    *q = c;
    if (c == '\0')
      break;
  }
  free(p);
  return rc;
}

int mp__diy_mkdirs_for(const char *path, mp_err *err) {
  char *dir = mp_xstrdup(path);
  char *slash = strrchr(dir, '/');
  int rc = 0;
  if (slash && slash != dir) {
    *slash = '\0';
    rc = mp__diy_mkdirs(dir, err);
  }
  free(dir);
  return rc;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

void mp__diy_list(const char *dir, mp_strv *out) {
  DIR *d = opendir(dir);
  if (d == NULL)
    return;
  size_t first = out->len;
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
      mp_strv_push(out, e->d_name);
  closedir(d);
  if (out->len > first) /* an empty list may have no array at all */
    qsort(out->items + first, out->len - first, sizeof(char *), by_name);
}

int mp__diy_remove_tree(const char *path, mp_err *err) {
  struct stat st;
  if (lstat(path, &st) != 0)
    return 0;
  if (S_ISDIR(st.st_mode)) {
    mp_strv names;
    mp_strv_init(&names);
    mp__diy_list(path, &names);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < names.len; i++) {
      char *child = mp_xasprintf("%s/%s", path, names.items[i]);
      rc = mp__diy_remove_tree(child, err);
      free(child);
    }
    mp_strv_destroy(&names);
    if (rc == 0 && rmdir(path) != 0)
      rc = mp_err_set(err, MP_EIO, "cannot remove '%s': %s", path,
                      strerror(errno));
    return rc;
  }
  if (unlink(path) != 0 && errno != ENOENT)
    return mp_err_set(err, MP_EIO, "cannot remove '%s': %s", path,
                      strerror(errno));
  return 0;
}

char *mp__diy_find_checkpoint(const char *plain) {
  char *gz = mp_xasprintf("%s.gz", plain);
  struct stat a, b;
  int has_plain = stat(plain, &a) == 0, has_gz = stat(gz, &b) == 0;
  if (has_plain && has_gz) {
    /* the most recently written, as Pulumi's stackPath picks */
    int gz_newer = b.st_mtim.tv_sec > a.st_mtim.tv_sec ||
                   (b.st_mtim.tv_sec == a.st_mtim.tv_sec &&
                    b.st_mtim.tv_nsec >= a.st_mtim.tv_nsec);
    has_plain = !gz_newer;
    has_gz = gz_newer;
  }
  if (has_gz)
    return gz;
  free(gz);
  return has_plain ? mp_xstrdup(plain) : NULL;
}
