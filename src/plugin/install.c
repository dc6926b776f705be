/* Installing a plugin into the cache from a tarball or an executable
 * (plugin/cache.h, mp_plugin_install_file), as Pulumi's InstallWithContext
 * does: a lock file against a second install of the same plugin, a
 * `.partial` marker while the folder is written, and no entry outside the
 * folder. */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/mem.h"
#include "plugin/cache.h"

/* How many folders deep |path| (relative, '/'-separated) goes from |depth|,
 * or -1 when it climbs above where it started (a `..` too many). */
static int walk(const char *path, int depth) {
  for (const char *p = path; *p;) {
    size_t n = strcspn(p, "/");
    if (n == 2 && p[0] == '.' && p[1] == '.')
      depth--;
    else if (n > 0 && !(n == 1 && p[0] == '.'))
      depth++;
    if (depth < 0)
      return -1;
    p += n;
    if (*p == '/')
      p++;
  }
  return depth;
}

/* The folder depth of |path|'s parent, or -1 when |path| escapes. */
static int parent_depth(const char *path) {
  if (path[0] == '/')
    return -1;
  char *dir = mp_xstrdup(path);
  size_t n = strlen(dir);
  while (n && dir[n - 1] == '/')
    dir[--n] = '\0';
  char *slash = strrchr(dir, '/');
  int d = slash ? (*slash = '\0', walk(dir, 0)) : 0;
  int self = walk(path, 0);
  free(dir);
  return self < 0 ? -1 : d;
}

/* Why |e| would land outside the plugin's folder, or NULL. */
static const char *escapes(struct archive_entry *e) {
  const char *path = archive_entry_pathname(e);
  if (path == NULL || path[0] == '/')
    return "an absolute path";
  int depth = parent_depth(path);
  if (depth < 0)
    return "a path that climbs out with '..'";
  const char *hard = archive_entry_hardlink(e);
  if (hard && (hard[0] == '/' || walk(hard, 0) < 0))
    return "a hard link to outside";
  const char *sym = archive_entry_symlink(e);
  if (sym && archive_entry_filetype(e) == AE_IFLNK &&
      (sym[0] == '/' || walk(sym, depth) < 0))
    return "a symbolic link to outside";
  return NULL;
}

/* Rewrites |e|'s paths (and hard link target) to lie under |dir|. */
static void rebase(struct archive_entry *e, const char *dir) {
  char *p = mp_xasprintf("%s/%s", dir, archive_entry_pathname(e));
  archive_entry_set_pathname(e, p);
  free(p);
  const char *hard = archive_entry_hardlink(e);
  if (hard) {
    char *h = mp_xasprintf("%s/%s", dir, hard);
    archive_entry_set_hardlink(e, h);
    free(h);
  }
}

static int extract(const char *file, const char *dir, mp_err *err) {
  struct archive *in = archive_read_new();
  archive_read_support_filter_all(in);
  archive_read_support_format_all(in);
  struct archive *out = archive_write_disk_new();
  archive_write_disk_set_options(out, ARCHIVE_EXTRACT_TIME |
                                          ARCHIVE_EXTRACT_PERM |
                                          ARCHIVE_EXTRACT_SECURE_NODOTDOT |
                                          ARCHIVE_EXTRACT_SECURE_SYMLINKS);
  archive_write_disk_set_standard_lookup(out);
  int rc = 0;
  if (archive_read_open_filename(in, file, 64 * 1024) != ARCHIVE_OK)
    rc = mp_err_set(err, MP_EINVAL, "cannot read the tarball '%s': %s", file,
                    archive_error_string(in));
  struct archive_entry *e;
  while (rc == 0) {
    int r = archive_read_next_header(in, &e);
    if (r == ARCHIVE_EOF)
      break;
    if (r < ARCHIVE_WARN) {
      rc = mp_err_set(err, MP_EINVAL, "cannot read the tarball '%s': %s", file,
                      archive_error_string(in));
      break;
    }
    const char *why = escapes(e);
    if (why) {
      rc = mp_err_set(err, MP_EINVAL,
                      "refusing the tarball '%s': its entry '%s' is %s, "
                      "outside the plugin's folder",
                      file, archive_entry_pathname(e), why);
      break;
    }
    rebase(e, dir);
    if (archive_write_header(out, e) < ARCHIVE_WARN) {
      rc = mp_err_set(err, MP_EIO, "cannot write '%s': %s",
                      archive_entry_pathname(e), archive_error_string(out));
      break;
    }
    const void *buf;
    size_t size;
    la_int64_t off;
    while ((r = archive_read_data_block(in, &buf, &size, &off)) == ARCHIVE_OK)
      if (archive_write_data_block(out, buf, size, off) < ARCHIVE_WARN)
        break;
    if (r < ARCHIVE_WARN) {
      rc = mp_err_set(err, MP_EINVAL, "cannot read the tarball '%s': %s", file,
                      archive_error_string(in));
    } else if (archive_write_finish_entry(out) < ARCHIVE_WARN) {
      rc = mp_err_set(err, MP_EIO, "cannot write into '%s': %s", dir,
                      archive_error_string(out));
    }
  }
  archive_read_free(in);
  archive_write_free(out);
  return rc;
}

/* Copies the executable |file| to |dst| (mode 0700). */
static int copy_exec(const char *file, const char *dst, mp_err *err) {
  FILE *in = fopen(file, "rb");
  int fd = open(dst, O_WRONLY | O_CREAT | O_TRUNC, 0700);
  FILE *out = fd >= 0 ? fdopen(fd, "wb") : NULL;
  int rc = 0;
  if (in == NULL || out == NULL) {
    rc = mp_err_set(err, MP_EIO, "cannot copy '%s' to '%s': %s", file, dst,
                    strerror(errno));
  } else {
    char buf[64 * 1024];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
      if (fwrite(buf, 1, n, out) != n)
        break;
    if (ferror(in) || ferror(out))
      rc = mp_err_set(err, MP_EIO, "cannot copy '%s' to '%s'", file, dst);
  }
  if (in)
    fclose(in);
  if (out) {
    if (fclose(out) != 0 && rc == 0)
      rc = mp_err_set(err, MP_EIO, "cannot write '%s': %s", dst,
                      strerror(errno));
  } else if (fd >= 0) {
    close(fd);
  }
  return rc;
}

/* A tarball (gzip's magic, or tar's at 257) rather than an executable. */
static int looks_like_archive(const char *file) {
  unsigned char head[262] = {0};
  FILE *f = fopen(file, "rb");
  if (f == NULL)
    return 0;
  size_t n = fread(head, 1, sizeof(head), f);
  fclose(f);
  if (n >= 2 && head[0] == 0x1f && head[1] == 0x8b)
    return 1;
  return n >= 262 && memcmp(head + 257, "ustar", 5) == 0;
}

static int write_content(const char *file, const char *dir, const char *kind,
                         const char *name, mp_err *err) {
  struct stat st;
  if (stat(file, &st) < 0)
    return mp_err_set(err, MP_EINVAL, "stat on file %s: %s", file,
                      strerror(errno));
  if (S_ISDIR(st.st_mode))
    return mp_err_set(err, MP_EINVAL,
                      "%s is a folder; pass a tarball or an executable", file);
  if (looks_like_archive(file))
    return extract(file, dir, err);
  if ((st.st_mode & S_IXUSR) == 0)
    return mp_err_set(err, MP_EINVAL, "%s is not executable", file);
  char *dst = mp_xasprintf("%s/pulumi-%s-%s", dir, kind, name);
  int rc = copy_exec(file, dst, err);
  free(dst);
  return rc;
}

int mp_plugin_mkdir_p(const char *path, mp_err *err) {
  char *p = mp_xstrdup(path);
  for (char *s = p + 1; *s; s++) {
    if (*s != '/')
      continue;
    *s = '\0';
    mkdir(p, 0700);
    *s = '/';
  }
  int rc = mkdir(p, 0700) == 0 || errno == EEXIST
               ? 0
               : mp_err_set(err, MP_EIO, "creating plugin root '%s': %s", p,
                            strerror(errno));
  free(p);
  return rc;
}

/* Under the lock: replaces or keeps |final|, writing it with |partial|
 * present. */
static int install_locked(const char *final, const char *partial,
                          const char *file, const char *kind, const char *name,
                          int reinstall, int *already, mp_err *err) {
  struct stat st;
  if (stat(final, &st) == 0) {
    if (access(partial, F_OK) != 0 && !reinstall) {
      if (already)
        *already = 1;
      return 0;
    }
    /* A failed install (its marker left) or a reinstall: start afresh. */
    if (mp_plugin_rm_tree(final, err) < 0)
      return MP_EIO;
  }
  int fd = open(partial, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  if (fd < 0)
    return mp_err_set(err, MP_EIO, "cannot create '%s': %s", partial,
                      strerror(errno));
  close(fd);
  if (mkdir(final, 0700) < 0)
    return mp_err_set(err, MP_EIO, "cannot create '%s': %s", final,
                      strerror(errno));
  int rc = write_content(file, final, kind, name, err);
  if (rc < 0) {
    /* Nothing of a refused or broken file stays installed. */
    mp_err e;
    mp_plugin_rm_tree(final, &e);
    unlink(partial);
    return rc;
  }
  if (unlink(partial) < 0)
    return mp_err_set(err, MP_EIO, "cannot remove '%s': %s", partial,
                      strerror(errno));
  return 0;
}

int mp_plugin_install_file(const char *cache_dir, const char *kind,
                           const char *name, const mp_semver *version,
                           const char *file, int reinstall, int *already,
                           mp_err *err) {
  if (already)
    *already = 0;
  if (mp_plugin_mkdir_p(cache_dir, err) < 0)
    return MP_EIO;
  char *dir = mp_plugin_dir_name(kind, name, version);
  char *final = mp_xasprintf("%s/%s", cache_dir, dir);
  char *lock = mp_xasprintf("%s.lock", final);
  char *partial = mp_xasprintf("%s.partial", final);
  int rc = 0;
  int fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0)
    rc = mp_err_set(err, MP_EIO, "cannot open the lock '%s': %s", lock,
                    strerror(errno));
  while (rc == 0 && flock(fd, LOCK_EX) < 0)
    if (errno != EINTR)
      rc = mp_err_set(err, MP_EIO, "cannot lock '%s': %s", lock,
                      strerror(errno));
  if (rc == 0)
    rc = install_locked(final, partial, file, kind, name, reinstall, already,
                        err);
  if (fd >= 0)
    close(fd); /* releases the lock; the file stays, as Pulumi's */
  free(partial);
  free(lock);
  free(final);
  free(dir);
  return rc;
}
