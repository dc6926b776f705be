/* The packages a Pulumi YAML program declares, as Pulumi YAML finds them
 * (pulumi-yaml pkg/pulumiyaml/packages/file.go, SearchPackageDecls): every
 * `.yaml` file under the program folder whose `packageDeclarationVersion`
 * is 1 (`sdks/<pkg>.yaml` by convention), plus the entries of Pulumi.yaml's
 * `packages:` section. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/crypto.h"
#include "engine/urn.h"
#include "lang/lang_int.h"

/* Deeper than any program folder; a guard against loops of bind mounts. */
#define MAX_WALK_DEPTH 32

static char *scalar_dup(const mp_ynode *map, const char *key) {
  const mp_ynode *v = map ? mp_ynode_get(map, key) : NULL;
  return v && v->kind == MP_YNODE_SCALAR && v->len ? mp_xstrdup(v->text)
                                                     : NULL;
}

static void package_clear(mp_project_package *k) {
  free((char *)k->name);
  free((char *)k->version);
  free((char *)k->download_url);
  free((char *)k->param_name);
  free((char *)k->param_version);
  free((char *)k->param_value);
}

static void push(mp_project *p, const mp_project_package *k) {
  p->packages = mp_xreallocarray(p->packages, p->npackages + 1,
                                 sizeof(*p->packages));
  p->packages[p->npackages++] = *k;
}

static int bad(mp_err *err, const char *path, const char *what) {
  return mp_err_set(err, MP_EINVAL, "validating %s: %s", path, what);
}

/* A version as Pulumi YAML parses it (semver, no leading v). */
static int check_version(const char *path, const char *v, const char *name,
                         mp_err *err) {
  if (v == NULL) return 0;
  mp_err e = {0};
  char *dp = mp_default_provider_name(v, NULL, &e); /* NULL: not semver */
  int ok = dp != NULL;
  free(dp);
  if (ok) return 0;
  return mp_err_set(err, MP_EINVAL, "%s: parsing version %s for package %s",
                    path, v, name);
}

/* `parameterization:` or `extension:` {name, version, value (base64)}. */
static int load_param(const mp_ynode *m, const char *path, const char *what,
                      mp_project_package *k, mp_err *err) {
  k->param_name = scalar_dup(m, "name");
  k->param_version = scalar_dup(m, "version");
  k->param_value = scalar_dup(m, "value");
  char msg[64];
  if (k->param_name == NULL) {
    snprintf(msg, sizeof msg, "%s name is required", what);
    return bad(err, path, msg);
  }
  if (k->param_version == NULL) {
    snprintf(msg, sizeof msg, "%s version is required", what);
    return bad(err, path, msg);
  }
  int rc = check_version(path, k->param_version, k->param_name, err);
  if (rc == 0 && k->param_value) {
    mp_buf b;
    mp_buf_init(&b);
    rc = mp_base64_decode(k->param_value, strlen(k->param_value), &b, err);
    mp_buf_destroy(&b);
    if (rc < 0)
      rc = mp_err_set(err, MP_EINVAL,
                      "%s: decoding parameterization value for package %s",
                      path, k->param_name);
  }
  return rc;
}

/* One document: skipped unless it is a package declaration, as Pulumi
 * YAML skips files that are not YAML or declare another version. */
static int load_decl_doc(mp_project *p, const char *path, const mp_ynode *doc,
                         mp_err *err) {
  const mp_ynode *ver = mp_ynode_get(doc, "packageDeclarationVersion");
  if (doc->kind != MP_YNODE_MAP || ver == NULL ||
      ver->kind != MP_YNODE_SCALAR || strcmp(ver->text, "1") != 0)
    return 0;
  mp_project_package k = {0};
  k.name = scalar_dup(doc, "name");
  k.version = scalar_dup(doc, "version");
  k.download_url = scalar_dup(doc, "downloadUrl");
  const mp_ynode *param = mp_ynode_get(doc, "parameterization");
  const mp_ynode *ext = mp_ynode_get(doc, "extension");
  int rc = 0;
  if (k.name == NULL)
    rc = bad(err, path, "package name is required");
  else if (param && ext)
    rc = bad(err, path,
             "package cannot declare both parameterization and extension");
  else if (param)
    rc = load_param(param, path, "parameterization", &k, err);
  else if (ext) {
    k.extension = 1;
    rc = load_param(ext, path, "extension", &k, err);
  }
  if (rc == 0) rc = check_version(path, k.version, k.name, err);
  if (rc < 0) {
    package_clear(&k);
    return rc;
  }
  push(p, &k);
  return 0;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int load_decl(mp_project *p, const char *path, mp_err *err) {
  mp_ynode *doc = NULL;
  mp_err ignored = {0};
  if (mp_ynode_load(path, path, &doc, &ignored) < 0) return 0;
  int rc = load_decl_doc(p, path, doc, err);
  mp_ynode_free(doc);
  return rc;
}

/* The project file as the walk meets it (same device and inode), whose
 * document the project already holds: parsing it again doubled the
 * parse of a Pulumi.yaml program and its peak memory. */
typedef struct walk_ctx {
  mp_project *p;
  int have_project_file;
  struct stat project_file;
} walk_ctx;

static int load_file(walk_ctx *w, const char *path, const struct stat *st,
                     mp_err *err) {
  if (w->have_project_file && w->p->doc &&
      st->st_dev == w->project_file.st_dev &&
      st->st_ino == w->project_file.st_ino)
    return load_decl_doc(w->p, path, w->p->doc, err);
  return load_decl(w->p, path, err);
}

/* Walks |dir| in name order (Go's WalkDir order), not following links. */
static int walk(walk_ctx *w, const char *dir, int depth, mp_err *err) {
  if (depth > MAX_WALK_DEPTH) return 0;
  DIR *d = opendir(dir);
  if (d == NULL) return 0;
  mp_strv names;
  mp_strv_init(&names);
  for (struct dirent *e; (e = readdir(d)) != NULL;)
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
      mp_strv_push(&names, e->d_name);
  closedir(d);
  if (names.len) /* an empty list may have no array at all */
    qsort(names.items, names.len, sizeof(char *), by_name);
  int rc = 0;
  for (size_t i = 0; rc == 0 && i < names.len; i++) {
    char *path = mp_xasprintf("%s/%s", dir, names.items[i]);
    struct stat st;
    size_t n = strlen(names.items[i]);
    int have_st = lstat(path, &st) == 0;
    if (have_st && S_ISDIR(st.st_mode))
      rc = walk(w, path, depth + 1, err);
    else if (n > 5 && strcmp(names.items[i] + n - 5, ".yaml") == 0)
      rc = have_st ? load_file(w, path, &st, err) : load_decl(w->p, path, err);
    free(path);
  }
  mp_strv_destroy(&names);
  return rc;
}

/* Pulumi.yaml `packages: {<name>: "<source>[@<version>]" | {source,
 * version, parameters}}`: a package whose source is another plugin is a
 * parameterization of it. */
static void load_project_packages(mp_project *p, const mp_ynode *doc) {
  const mp_ynode *m = mp_ynode_get(doc, "packages");
  if (m == NULL || m->kind != MP_YNODE_MAP) return;
  for (size_t i = 0; i < m->n; i++) {
    const mp_ynode *v = m->vals[i];
    char *source = NULL, *version = NULL;
    if (v->kind == MP_YNODE_SCALAR && v->len) {
      const char *at = strrchr(v->text, '@');
      source = at ? mp_xstrndup(v->text, (size_t)(at - v->text))
                  : mp_xstrdup(v->text);
      version = at && at[1] ? mp_xstrdup(at + 1) : NULL;
    } else if (v->kind == MP_YNODE_MAP) {
      source = scalar_dup(v, "source");
      version = scalar_dup(v, "version");
    }
    if (source == NULL || mp_project_is_local_source(source)) {
      free(source);
      free(version);
      continue;
    }
    mp_project_package k = {0};
    if (version && version[0] == 'v') memmove(version, version + 1, strlen(version));
    k.name = source;
    k.version = version;
    if (strcmp(source, m->keys[i]->text) != 0)
      k.param_name = mp_xstrdup(m->keys[i]->text);
    push(p, &k);
  }
}

int mp__pkgdecls_load(mp_project *p, mp_err *err) {
  load_project_packages(p, p->doc);
  walk_ctx w = {.p = p};
  char *file = mp_xasprintf("%s/%s", p->dir, p->file_name);
  w.have_project_file = stat(file, &w.project_file) == 0;
  free(file);
  return walk(&w, p->program_dir, 0, err);
}

void mp__pkgdecls_free(mp_project *p) {
  for (size_t i = 0; i < p->npackages; i++) package_clear(&p->packages[i]);
  free(p->packages);
  p->packages = NULL;
  p->npackages = 0;
}

const char *mp_project_package_namespace(const mp_project_package *k) {
  return k->param_name && !k->extension ? k->param_name : k->name;
}

const mp_project_package *mp_project_package_for(const mp_project *p,
                                                 const char *pkg) {
  for (size_t i = 0; pkg && i < p->npackages; i++) {
    const mp_project_package *k = &p->packages[i];
    if (k->param_name == NULL && strcmp(k->name, pkg) == 0) return k;
  }
  return NULL;
}

size_t mp_project_package_count(const mp_project *p) { return p->npackages; }

const mp_project_package *mp_project_package_at(const mp_project *p,
                                                size_t i) {
  return i < p->npackages ? &p->packages[i] : NULL;
}

void mp__pkgdecls_apply(const mp_project *p, const char *pkg, char **version,
                        char **url) {
  const mp_project_package *k = mp_project_package_for(p, pkg);
  if (k == NULL) return;
  /* Each is filled on its own when the request leaves it out, as the
   * engine normalizes a default provider request from the program's
   * packages (source_eval.go normalizeProviderRequest): a resource with
   * only a pluginDownloadURL still gets the declared version. Protobuf's
   * unset strings are its static empty string. */
  if (!(*version && **version) && k->version)
    *version = mp_xstrdup(k->version);
  if (!(*url && **url) && k->download_url) *url = mp_xstrdup(k->download_url);
}
