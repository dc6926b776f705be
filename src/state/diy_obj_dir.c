/* The objects of a DIY store in a folder: a file per object, written
 * atomically (a temporary file beside it, fsync, rename, fsync of the
 * folder), a copy being a hard link. put_unsynced leaves out both fsyncs
 * (the rename alone keeps a reader from a torn file) and sync does them
 * later, as SQLite's WAL with synchronous=NORMAL does its commits. */
#include "state/diy_obj.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int dir_get(mp_diy_objs *o, const char *path, mp_buf *b, mp_err *err) {
  (void)o;
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

static int put_file(const char *path, const char *data, size_t len,
                    int synced, mp_err *err) {
  char *tmp = mp_xasprintf("%s.%lld.tmp", path, (long long)getpid());
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int ok = fd >= 0 && write_all(fd, data, len) == 0 &&
           (!synced || fsync(fd) == 0);
  int e = errno;
  if (fd >= 0 && close(fd) != 0 && ok) {
    ok = 0;
    e = errno;
  }
  if (ok && rename(tmp, path) != 0) {
    ok = 0;
    e = errno;
  }
  if (ok && synced)
    (void)fsync_dir(path);
  else if (!ok)
    unlink(tmp);
  free(tmp);
  if (!ok)
    return mp_err_set(err, MP_EIO, "cannot write '%s': %s", path, strerror(e));
  return 0;
}

static int dir_put(mp_diy_objs *o, const char *path, const char *data,
                   size_t len, mp_err *err) {
  (void)o;
  return put_file(path, data, len, 1, err);
}

static int dir_put_unsynced(mp_diy_objs *o, const char *path,
                            const char *data, size_t len, mp_err *err) {
  (void)o;
  return put_file(path, data, len, 0, err);
}

static int dir_sync(mp_diy_objs *o, const char *path, mp_err *err) {
  (void)o;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  int ok = fd >= 0 && fsync(fd) == 0;
  int e = errno;
  if (fd >= 0)
    close(fd);
  if (ok && fsync_dir(path) != 0) {
    ok = 0;
    e = errno;
  }
  if (!ok)
    return mp_err_set(err, MP_EIO, "cannot write '%s' to disk: %s", path,
                      strerror(e));
  return 0;
}

static int dir_del(mp_diy_objs *o, const char *path, mp_err *err) {
  (void)o;
  if (unlink(path) != 0 && errno != ENOENT)
    return mp_err_set(err, MP_EIO, "cannot remove '%s': %s", path,
                      strerror(errno));
  return 0;
}

static int dir_list(mp_diy_objs *o, const char *dir, mp_strv *out,
                    mp_err *err) {
  (void)o;
  (void)err;
  DIR *d = opendir(dir);
  if (d == NULL)
    return 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL)
    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
      mp_strv_push(out, e->d_name);
  closedir(d);
  return 0;
}

/* A hard link made beside |to| and renamed over it (a copy where links
 * are not supported). */
static int dir_copy(mp_diy_objs *o, const char *from, const char *to,
                    mp_err *err) {
  char *tmp = mp_xasprintf("%s.%lld.tmp", to, (long long)getpid());
  unlink(tmp);
  int rc = 0;
  if (link(from, tmp) == 0) {
    if (rename(tmp, to) != 0) {
      rc = mp_err_set(err, MP_EIO, "cannot write '%s': %s", to,
                      strerror(errno));
      unlink(tmp);
    }
  } else if (errno == ENOENT) {
    rc = mp_err_set(err, MP_ENOENT, "cannot read '%s': %s", from,
                    strerror(errno));
  } else {
    mp_buf b;
    mp_buf_init(&b);
    rc = dir_get(o, from, &b, err);
    if (rc == 0)
      rc = dir_put(o, to, b.data ? b.data : "", b.len, err);
    mp_buf_destroy(&b);
  }
  free(tmp);
  return rc;
}

static int dir_head(mp_diy_objs *o, const char *path, mp_diy_obj_info *info,
                    mp_err *err) {
  (void)o;
  struct stat st;
  if (stat(path, &st) != 0)
    return mp_err_set(err, errno == ENOENT ? MP_ENOENT : MP_EIO,
                      "cannot read '%s': %s", path, strerror(errno));
  info->mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
  snprintf(info->ident, sizeof(info->ident), "%llu:%llu:%lld.%09ld:%lld",
           (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
           (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
           (long long)st.st_size);
  return 0;
}

static int dir_del_tree(mp_diy_objs *o, const char *path, mp_err *err) {
  struct stat st;
  if (lstat(path, &st) != 0)
    return 0;
  if (!S_ISDIR(st.st_mode))
    return dir_del(o, path, err);
  mp_strv names;
  mp_strv_init(&names);
  dir_list(o, path, &names, err);
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < names.len; i++) {
    char *child = mp_xasprintf("%s/%s", path, names.items[i]);
    rc = dir_del_tree(o, child, err);
    free(child);
  }
  mp_strv_destroy(&names);
  if (rc == 0 && rmdir(path) != 0)
    rc = mp_err_set(err, MP_EIO, "cannot remove '%s': %s", path,
                    strerror(errno));
  return rc;
}

static int dir_move(mp_diy_objs *o, const char *from, const char *to,
                    mp_err *err) {
  (void)o;
  if (rename(from, to) != 0)
    return mp_err_set(err, errno == ENOENT ? MP_ENOENT : MP_EIO,
                      "cannot move '%s' to '%s': %s", from, to,
                      strerror(errno));
  return 0;
}

static int dir_mkdirs(mp_diy_objs *o, const char *dir, mp_err *err) {
  (void)o;
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

static int dir_writable(mp_diy_objs *o, mp_err *err) {
  (void)o;
  (void)err;
  return 0; /* the store checks its root folder with access() */
}

static void dir_free(mp_diy_objs *o) { (void)o; }

static const mp_diy_objs_ops dir_ops = {
    .get = dir_get,
    .put = dir_put,
    .del = dir_del,
    .list = dir_list,
    .copy = dir_copy,
    .head = dir_head,
    .del_tree = dir_del_tree,
    .move = dir_move,
    .put_unsynced = dir_put_unsynced,
    .sync = dir_sync,
    .mkdirs = dir_mkdirs,
    .writable = dir_writable,
    .free = dir_free,
};

mp_diy_objs *mp__diy_objs_dir(void) {
  static mp_diy_objs dir = {&dir_ops};
  return &dir;
}
