/* A plugin's archive installed into a scratch plugin cache
 * (plugin/install.c, archive_guard.c), as `plugin install --file` does:
 * a tar, zip or 7-Zip archive, compressed or not, or a program. Whatever
 * the archive holds, nothing lands outside the plugin's folder (the
 * scratch folder keeps only the input and the cache, the cache only the
 * plugin's folder and its lock), a refused archive leaves no folder, and
 * an installed one holds only folders, regular files without setuid,
 * setgid or sticky bits, and links that resolve inside it or nowhere. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "plugin/cache.h"

static char *final_real; /* the installed folder's real path */

static int inside(const char *real) {
  size_t n = strlen(final_real);
  return !strncmp(real, final_real, n) && (real[n] == '/' || real[n] == '\0');
}

static int judge(const char *path, const struct stat *st, int flag,
                 struct FTW *ftw) {
  (void)flag, (void)ftw;
  if (S_ISLNK(st->st_mode)) {
    char target[PATH_MAX], real[PATH_MAX];
    ssize_t n = readlink(path, target, sizeof(target) - 1);
    FUZZ_CHECK(n >= 0, "a link cannot be read");
    target[n] = '\0';
    FUZZ_CHECK(target[0] != '/', "a link to an absolute path was installed");
    if (realpath(path, real) != NULL) {
      if (!inside(real)) fprintf(stderr, "%s -> %s\n", path, real);
      FUZZ_CHECK(inside(real), "a link resolves outside the plugin's folder");
    }
  } else {
    FUZZ_CHECK(S_ISDIR(st->st_mode) || S_ISREG(st->st_mode),
               "an installed entry is neither folder, file nor link");
    FUZZ_CHECK((st->st_mode & (S_ISUID | S_ISGID | S_ISVTX)) == 0,
               "an installed entry keeps setuid, setgid or sticky");
  }
  return 0;
}

/* The names in |dir|, each checked against |allowed| (NULL-ended). */
static void only(const char *dir, const char *const *allowed) {
  DIR *d = opendir(dir);
  FUZZ_CHECK(d != NULL, "a scratch folder is gone");
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    int ok = 0;
    for (const char *const *a = allowed; *a; a++) ok |= !strcmp(e->d_name, *a);
    if (!ok) fprintf(stderr, "unexpected %s/%s\n", dir, e->d_name);
    FUZZ_CHECK(ok, "the archive wrote outside the plugin's folder");
  }
  closedir(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *file = fuzz_write_file("archive", data, size);
  char *cache = mp_xasprintf("%s/plugins", fuzz_dir());
  static mp_semver version;
  mp_err err;
  if (version.major == 0)
    FUZZ_CHECK(mp_semver_parse("1.2.3", &version, &err) == 0, "semver");
  int rc = mp_plugin_install_file(cache, "resource", "fuzz", &version, file, 1,
                                  NULL, &err);
  char *dir = mp_plugin_dir_name("resource", "fuzz", &version);
  char *final = mp_xasprintf("%s/%s", cache, dir);
  const char *top[] = {"archive", "plugins", NULL};
  only(fuzz_dir(), top);
  char *lock = mp_xasprintf("%s.lock", dir);
  const char *in_cache[] = {dir, lock, NULL};
  only(cache, in_cache);
  struct stat st;
  if (rc != 0) {
    FUZZ_CHECK(lstat(final, &st) != 0, "a refused archive left a folder");
  } else {
    char real[PATH_MAX];
    FUZZ_CHECK(realpath(final, real) != NULL, "an installed folder is gone");
    final_real = real;
    FUZZ_CHECK(nftw(final, judge, 16, FTW_PHYS) == 0, "cannot walk the folder");
  }
  free(lock);
  free(final);
  free(dir);
  free(cache);
  free(file);
  return 0;
}
