/* Installing a plugin into the cache from an archive or an executable
 * (plugin/cache.h, mp_plugin_install_file), as Pulumi's InstallWithContext
 * does: a lock file against a second install of the same plugin, a
 * `.partial` marker while the folder is written; the file told by its
 * content (libarchive), each entry judged by plugin/archive_guard.h. */
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
#include "plugin/archive_guard.h"
#include "plugin/cache.h"

/* The formats a plugin archive may have: tar (ustar, pax, GNU and the old
 * v7 layout), zip and 7-Zip, under any of the compressions below. Only
 * these, so that no other reader guesses at an executable. */
static struct archive *reader(int raw) {
  struct archive *in = archive_read_new();
  archive_read_support_filter_gzip(in);
  archive_read_support_filter_bzip2(in);
  archive_read_support_filter_xz(in);
  archive_read_support_filter_lzma(in);
  archive_read_support_filter_lzip(in);
  archive_read_support_filter_zstd(in);
  archive_read_support_filter_compress(in);
  if (raw) {
    archive_read_support_format_raw(in);
  } else {
    archive_read_support_format_tar(in);
    archive_read_support_format_zip(in);
    archive_read_support_format_7zip(in);
  }
  return in;
}

static int refuse(mp_err *err, const char *file, const char *entry,
                  const char *why) {
  return mp_err_set(err, MP_EINVAL,
                    "refusing the tarball '%s': its entry '%s' is %s", file,
                    entry, why);
}

/* Copies the current entry's data from |in| to |out|. */
static int copy_data(struct archive *in, struct archive *out, const char *file,
                     const char *dir, mp_err *err) {
  const void *buf;
  size_t size;
  la_int64_t off;
  int r;
  while ((r = archive_read_data_block(in, &buf, &size, &off)) == ARCHIVE_OK)
    if (archive_write_data_block(out, buf, size, off) < ARCHIVE_WARN)
      return mp_err_set(err, MP_EIO, "cannot write into '%s': %s", dir,
                        archive_error_string(out));
  if (r < ARCHIVE_WARN)
    return mp_err_set(err, MP_EINVAL, "cannot read the tarball '%s': %s", file,
                      archive_error_string(in));
  if (archive_write_finish_entry(out) < ARCHIVE_WARN)
    return mp_err_set(err, MP_EIO, "cannot write into '%s': %s", dir,
                      archive_error_string(out));
  return 0;
}

static int extract(const char *file, const char *dir, mp_err *err) {
  struct archive *in = reader(0);
  struct archive *out = archive_write_disk_new();
  /* No ARCHIVE_EXTRACT_PERM: modes are the guard's, under the umask. */
  archive_write_disk_set_options(out, ARCHIVE_EXTRACT_TIME |
                                          ARCHIVE_EXTRACT_SECURE_NODOTDOT |
                                          ARCHIVE_EXTRACT_SECURE_SYMLINKS);
  archive_write_disk_set_standard_lookup(out);
  mp_archive_guard g;
  mp_archive_guard_init(&g);
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
    const char *why = NULL;
    mp_archive_verdict v = mp_archive_guard_check(&g, e, &why);
    if (v == MP_ARCHIVE_SKIP)
      continue;
    if (v == MP_ARCHIVE_REFUSE) {
      rc = refuse(err, file, archive_entry_pathname(e), why);
      break;
    }
    char *path = mp_xasprintf("%s/%s", dir, archive_entry_pathname(e));
    archive_entry_set_pathname(e, path);
    free(path);
    const char *hard = archive_entry_hardlink(e);
    if (hard) {
      char *h = mp_xasprintf("%s/%s", dir, hard);
      archive_entry_set_hardlink(e, h);
      free(h);
    }
    if (archive_write_header(out, e) < ARCHIVE_WARN)
      rc = mp_err_set(err, MP_EIO, "cannot write '%s': %s",
                      archive_entry_pathname(e), archive_error_string(out));
    else
      rc = copy_data(in, out, file, dir, err);
  }
  if (archive_write_close(out) < ARCHIVE_WARN && rc == 0)
    rc = mp_err_set(err, MP_EIO, "cannot write into '%s': %s", dir,
                    archive_error_string(out));
  const char *why = NULL;
  const char *late = rc == 0 ? mp_archive_guard_final(&g, &why) : NULL;
  if (late)
    rc = refuse(err, file, late, why);
  mp_archive_guard_destroy(&g);
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

typedef enum content { PROGRAM, ARCHIVE, COMPRESSED, OTHER } content;

/* What |file| is: a program (`#!` or ELF, whatever libarchive would make
 * of what follows), an archive libarchive reads, something compressed
 * that holds no archive (its compression's name in |filter|), or
 * another file (an executable of another kind, or nothing usable). */
static content what_is(const char *file, char *filter, size_t n) {
  unsigned char head[4] = {0};
  FILE *f = fopen(file, "rb");
  size_t got = f ? fread(head, 1, sizeof(head), f) : 0;
  if (f)
    fclose(f);
  if ((got >= 2 && head[0] == '#' && head[1] == '!') ||
      (got >= 4 && memcmp(head, "\x7f" "ELF", 4) == 0))
    return PROGRAM;
  struct archive_entry *e;
  struct archive *a = reader(0);
  int is_archive = archive_read_open_filename(a, file, 64 * 1024) ==
                       ARCHIVE_OK &&
                   archive_read_next_header(a, &e) >= ARCHIVE_WARN;
  archive_read_free(a);
  if (is_archive)
    return ARCHIVE;
  a = reader(1);
  content c = OTHER;
  if (archive_read_open_filename(a, file, 64 * 1024) == ARCHIVE_OK &&
      archive_read_next_header(a, &e) >= ARCHIVE_WARN &&
      archive_filter_code(a, 0) != ARCHIVE_FILTER_NONE) {
    snprintf(filter, n, "%s", archive_filter_name(a, 0));
    c = COMPRESSED;
  }
  archive_read_free(a);
  return c;
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
  char filter[32] = "";
  content c = what_is(file, filter, sizeof(filter));
  if (c == ARCHIVE)
    return extract(file, dir, err);
  if (c == COMPRESSED)
    return mp_err_set(err, MP_EINVAL,
                      "%s is %s-compressed but holds no archive (tar, zip or "
                      "7-Zip); pass a tarball or an executable",
                      file, filter);
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
  if (mp_plugin_check_spec(kind, name, err) < 0)
    return MP_EINVAL;
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
