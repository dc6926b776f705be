/* Finding `pulumi-resource-<pkg>` for a (package, version) pair, in
 * Pulumi's order: the project's plugins, PATH, the plugin cache
 * (plugin/plugin.h, mp_plugin_find; docs/plugins.md). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plugin/cache.h"
#include "plugin/plugin_int.h"

static int is_exec_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* Whether a spec's version (if any) and the one asked (if any) agree. */
static int versions_agree(const char *spec_version, const char *version) {
  if (spec_version == NULL || version == NULL)
    return 1;
  mp_semver a, b;
  mp_err e;
  if (mp_semver_parse(spec_version, &a, &e) < 0 ||
      mp_semver_parse(version, &b, &e) < 0)
    return strcmp(spec_version, version) == 0;
  return mp_semver_cmp(&a, &b) == 0;
}

static const mp_plugin_spec *spec_for(const mp_plugin_host *h, const char *pkg,
                                      const char *version) {
  for (size_t i = 0; i < h->nspecs; i++)
    if (strcmp(h->specs[i].name, pkg) == 0 &&
        versions_agree(h->specs[i].version, version))
      return &h->specs[i];
  return NULL;
}

int mp__plugin_named_by_spec(const mp_plugin_host *h, const char *pkg,
                             const char *version) {
  return spec_for(h, pkg, version) != NULL;
}

static int find_spec(const mp_plugin_host *h, const mp_plugin_spec *s,
                     char **path, mp_err *err) {
  char *base = s->path[0] == '/'
                   ? mp_xstrdup(s->path)
                   : mp_xasprintf("%s/%s", h->project_dir, s->path);
  if (is_exec_file(base) || mp__plugin_is_source(base)) {
    *path = base;
    return 0;
  }
  char *inside = mp_xasprintf("%s/pulumi-resource-%s", base, s->name);
  if (is_exec_file(inside)) {
    free(base);
    *path = inside;
    return 0;
  }
  mp_err_set(err, MP_ENOENT,
             "no resource plugin 'pulumi-resource-%s' found at '%s' (the "
             "path Pulumi.yaml's plugins.providers or packages gives for "
             "'%s'); it must be an executable file, a folder holding one, "
             "or a plugin folder with PulumiPlugin.yaml",
             s->name, base, s->name);
  free(inside);
  free(base);
  return MP_ENOENT;
}

char *mp__plugin_on_path(const char *search_path, const char *file) {
  for (const char *d = search_path; d; d++) {
    const char *end = strchr(d, ':');
    size_t n = end ? (size_t)(end - d) : strlen(d);
    char *cand = mp_xasprintf("%.*s/%s", (int)n, n ? d : ".", file);
    if (is_exec_file(cand))
      return cand;
    free(cand);
    if (end == NULL)
      break;
    d = end;
  }
  return NULL;
}

/* The cache folders' plugins of |pkg| that serve |want|, the cache before
 * minipulumi's folder among equals. */
static char *find_in_caches(const mp_plugin_host *h, const char *pkg,
                            const mp_semver *want) {
  mp_plugin_list l = {0};
  mp_err e;
  const char *dirs[] = {h->cache_dir, h->plugin_dir};
  for (size_t i = 0; i < 2; i++)
    if (dirs[i])
      mp_plugin_cache_scan(dirs[i], 0, &l, &e);
  const mp_plugin_info *p = mp_plugin_select(&l, "resource", pkg, want);
  char *path = p ? mp_xasprintf("%s/pulumi-resource-%s", p->path, pkg) : NULL;
  if (path && !is_exec_file(path)) {
    free(path);
    /* No executable: a plugin from source (PulumiPlugin.yaml), run by its
     * runtime, as Pulumi's plugin loader falls back to it. */
    path = mp__plugin_is_source(p->path) ? mp_xstrdup(p->path) : NULL;
  }
  mp_plugin_list_destroy(&l);
  return path;
}

static int not_found(const mp_plugin_host *h, const char *pkg,
                     const mp_semver *want, mp_err *err) {
  if (want == NULL)
    return mp_err_set(err, MP_ENOENT,
                      "no resource plugin 'pulumi-resource-%s' found in the "
                      "workspace or on your $PATH",
                      pkg);
  char *dir = mp_plugin_dir_name("resource", pkg, want);
  char *v = mp_semver_format(want);
  mp_buf where;
  mp_buf_init(&where);
  const char *dirs[] = {h->cache_dir, h->plugin_dir};
  for (size_t i = 0; i < 2; i++)
    if (dirs[i])
      mp_buf_printf(&where, "%s%s", where.len ? " and " : "", dirs[i]);
  mp_err_set(err, MP_ENOENT,
             "no resource plugin 'pulumi-resource-%s' found in the workspace "
             "at version v%s or on your $PATH (looked for %s in %s)",
             pkg, v, dir, where.len ? where.data : "no plugin folder");
  mp_buf_destroy(&where);
  free(v);
  free(dir);
  return MP_ENOENT;
}

int mp_plugin_find(mp_plugin_host *h, const char *pkg, const char *version,
                   char **path, mp_err *err) {
  *path = NULL;
  mp_semver want;
  if (version && *version && mp_semver_parse(version, &want, err) < 0) {
    mp_err_prefix(err, "the version asked of package '%s'", pkg);
    return MP_EINVAL;
  }
  const mp_semver *w = version && *version ? &want : NULL;
  const mp_plugin_spec *s = spec_for(h, pkg, version);
  if (s)
    return find_spec(h, s, path, err);
  /* The name goes into file names below: one with a '/' or a ".." would
   * look outside the plugin folders. */
  if (mp_plugin_check_spec("resource", pkg, err) < 0)
    return MP_EINVAL;
  char *file = mp_xasprintf("pulumi-resource-%s", pkg);
  *path = mp__plugin_on_path(h->search_path, file);
  free(file);
  if (*path == NULL)
    *path = find_in_caches(h, pkg, w);
  if (*path == NULL && w == NULL && h->plugin_dir) {
    /* minipulumi's folder as it was: the executables themselves */
    char *cand = mp_xasprintf("%s/pulumi-resource-%s", h->plugin_dir, pkg);
    if (is_exec_file(cand))
      *path = cand;
    else
      free(cand);
  }
  return *path ? 0 : not_found(h, pkg, w, err);
}
