/* What a plugin cache folder holds, which plugin serves a version, and
 * removing one (plugin/cache.h). */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/mem.h"
#include "plugin/cache.h"

static const char *const kinds[] = {"analyzer", "language", "resource",
                                    "converter", "tool"};

static int known_kind(const char *s, size_t n) {
  for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
    if (strlen(kinds[i]) == n && strncmp(kinds[i], s, n) == 0)
      return 1;
  return 0;
}

int mp_plugin_kind_known(const char *kind) {
  return known_kind(kind, strlen(kind));
}

/* Pulumi's PluginNameRegexp, `^[a-zA-Z0-9-][a-zA-Z0-9-_.]*[a-zA-Z0-9]$`,
 * on the |n| bytes at |s|: no '/', no name that is "." or "..". One
 * letter or digit is a name too, as minipulumi always took it (Pulumi's
 * pattern wants two, but its loader finds `pulumi-resource-x` on PATH). */
static int name_ok(const char *s, size_t n) {
  if (n == 0)
    return 0;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    int alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                (c >= '0' && c <= '9');
    int ok = i == n - 1   ? alnum
             : i == 0     ? alnum || c == '-'
                          : alnum || c == '-' || c == '_' || c == '.';
    if (!ok)
      return 0;
  }
  return 1;
}

int mp_plugin_name_valid(const char *name) {
  return name != NULL && name_ok(name, strlen(name));
}

int mp_plugin_check_spec(const char *kind, const char *name, mp_err *err) {
  if (kind == NULL || !mp_plugin_kind_known(kind))
    return mp_err_set(err, MP_EINVAL, "unrecognized plugin kind: %s",
                      kind ? kind : "");
  if (!mp_plugin_name_valid(name))
    return mp_err_set(err, MP_EINVAL,
                      "invalid plugin name '%s': a plugin name is letters, "
                      "digits, '-', '_' and '.', starts with a letter, a "
                      "digit or '-' and ends with a letter or a digit",
                      name ? name : "");
  return 0;
}

/* `<kind>-<name>-v<version>`, the name as long as it can be (Pulumi's
 * pattern is greedy): it ends at the last "-v". */
static int parse_dir_name(const char *d, mp_plugin_info *out) {
  const char *dash = strchr(d, '-');
  if (dash == NULL || !known_kind(d, (size_t)(dash - d)))
    return 0;
  const char *name = dash + 1;
  const char *v = NULL;
  for (const char *p = name; (p = strstr(p, "-v")) != NULL; p++)
    v = p;
  if (v == NULL || v == name)
    return 0;
  size_t n = (size_t)(v - name);
  if (!name_ok(name, n))
    return 0;
  mp_err e;
  if (mp_semver_parse(v + 2, &out->version, &e) < 0)
    return 0;
  out->kind = mp_xstrndup(d, (size_t)(dash - d));
  out->name = mp_xstrndup(name, n);
  return 1;
}

/* Folders of earlier Pulumi installs in progress end in ".tmp<digits>". */
static int temp_dir_name(const char *d) {
  const char *t = strstr(d, ".tmp");
  if (t == NULL)
    return 0;
  t += 4;
  if (*t == '\0')
    return 0;
  while (*t >= '0' && *t <= '9')
    t++;
  return *t == '\0';
}

static uint64_t tree_size(const char *path) {
  struct stat st;
  if (lstat(path, &st) < 0)
    return 0;
  if (!S_ISDIR(st.st_mode))
    return st.st_size > 0 ? (uint64_t)st.st_size : 0;
  uint64_t total = 0;
  DIR *d = opendir(path);
  if (d == NULL)
    return 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    char *sub = mp_xasprintf("%s/%s", path, e->d_name);
    total += tree_size(sub);
    free(sub);
  }
  closedir(d);
  return total;
}

static void add_metadata(mp_plugin_info *p) {
  struct stat st;
  if (stat(p->path, &st) < 0)
    return;
  p->size = tree_size(p->path);
  p->install_time = (int64_t)st.st_ctime;
  p->last_used = (int64_t)st.st_atime;
}

int mp_plugin_cache_scan(const char *dir, int metadata, mp_plugin_list *l,
                         mp_err *err) {
  DIR *d = opendir(dir);
  if (d == NULL) {
    if (errno == ENOENT || errno == ENOTDIR)
      return 0;
    return mp_err_set(err, MP_EIO, "loading plugins: cannot read '%s': %s", dir,
                      strerror(errno));
  }
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.' || temp_dir_name(e->d_name))
      continue;
    char *path = mp_xasprintf("%s/%s", dir, e->d_name);
    char *partial = mp_xasprintf("%s.partial", path);
    struct stat st;
    mp_plugin_info info = {0};
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode) &&
        access(partial, F_OK) != 0 && parse_dir_name(e->d_name, &info)) {
      info.path = path;
      path = NULL;
      if (metadata)
        add_metadata(&info);
      l->items = mp_xrealloc(l->items, (l->len + 1) * sizeof(*l->items));
      l->items[l->len++] = info;
    }
    free(partial);
    free(path);
  }
  closedir(d);
  return 0;
}

void mp_plugin_list_destroy(mp_plugin_list *l) {
  for (size_t i = 0; i < l->len; i++) {
    free(l->items[i].kind);
    free(l->items[i].name);
    free(l->items[i].path);
  }
  free(l->items);
  l->items = NULL;
  l->len = 0;
}

static int by_name_newest_first(const void *x, const void *y) {
  const mp_plugin_info *a = x, *b = y;
  int c = strcmp(a->name, b->name);
  if (c == 0)
    c = strcmp(a->kind, b->kind);
  if (c == 0)
    c = -mp_semver_cmp(&a->version, &b->version);
  return c;
}

void mp_plugin_list_sort(mp_plugin_list *l) {
  if (l->len > 1)
    qsort(l->items, l->len, sizeof(*l->items), by_name_newest_first);
}

/* Without a version asked: a release beats any pre-release, then newer
 * beats older. */
static int better(const mp_plugin_info *cand, const mp_plugin_info *best) {
  int cand_pre = cand->version.pre[0] != '\0';
  int best_pre = best->version.pre[0] != '\0';
  if (cand_pre != best_pre)
    return best_pre;
  return mp_semver_cmp(&cand->version, &best->version) > 0;
}

const mp_plugin_info *mp_plugin_select(const mp_plugin_list *l,
                                       const char *kind, const char *name,
                                       const mp_semver *want) {
  const mp_plugin_info *best = NULL;
  for (size_t i = 0; i < l->len; i++) {
    const mp_plugin_info *p = &l->items[i];
    if (strcmp(p->kind, kind) != 0 || strcmp(p->name, name) != 0)
      continue;
    if (want) {
      if (mp_semver_cmp(&p->version, want) == 0)
        return p;
    } else if (best == NULL || better(p, best)) {
      best = p;
    }
  }
  return best;
}

char *mp_plugin_dir_name(const char *kind, const char *name,
                         const mp_semver *version) {
  char *v = mp_semver_format(version);
  char *d = mp_xasprintf("%s-%s-v%s", kind, name, v);
  free(v);
  return d;
}

static int rm_one(const char *path, const struct stat *st, int flag,
                  struct FTW *ftw) {
  (void)st;
  (void)ftw;
  int rc = flag == FTW_DP ? rmdir(path) : unlink(path);
  return rc < 0 && errno != ENOENT ? -1 : 0;
}

int mp_plugin_rm_tree(const char *path, mp_err *err) {
  struct stat st;
  if (lstat(path, &st) < 0 && errno == ENOENT)
    return 0;
  if (nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS) < 0)
    return mp_err_set(err, MP_EIO, "cannot remove '%s': %s", path,
                      strerror(errno));
  return 0;
}

int mp_plugin_cache_remove(const mp_plugin_info *p, mp_err *err) {
  int rc = mp_plugin_rm_tree(p->path, err);
  if (rc < 0)
    return rc;
  /* The markers may be absent; their removal never fails the command. */
  char *m = mp_xasprintf("%s.partial", p->path);
  unlink(m);
  free(m);
  m = mp_xasprintf("%s.lock", p->path);
  unlink(m);
  free(m);
  return 0;
}
