/* The plugins a Node.js program's packages declare (lang/required.h), found
 * as Pulumi's Node.js host finds them (its GetRequiredPackages): every
 * folder below the program folder is walked, links followed and each real
 * folder seen once, folders holding a policy pack (PulumiPolicy.yaml)
 * skipped; a package.json inside a node_modules tree whose `pulumi`
 * section says `resource: true` names a resource plugin: `pulumi.name`
 * (else the package's name without its `@pulumi/` scope), `pulumi.version`
 * (else the package's version) and `pulumi.server`. */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/mem.h"
#include "engine/value.h"
#include "lang/required.h"

#define MAX_PACKAGE_JSON (4 << 20)

static const char *str_at(const mp_value *o, const char *key) {
  const mp_value *v = o ? mp_value_object_get(o, key) : NULL;
  return v && v->kind == MP_VALUE_STRING && v->u.str.len ? v->u.str.ptr : NULL;
}

static char *read_small(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (f == NULL) return NULL;
  mp_buf b;
  mp_buf_init(&b);
  char chunk[8192];
  size_t n;
  while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0 &&
         b.len < MAX_PACKAGE_JSON)
    mp_buf_printf(&b, "%.*s", (int)n, chunk);
  fclose(f);
  if (b.data == NULL) mp_buf_puts(&b, "");
  return mp_buf_detach(&b, len);
}

static void read_package(const char *path, mp_required_plugins *out) {
  size_t len = 0;
  char *text = read_small(path, &len);
  mp_value *doc = NULL;
  mp_err e;
  /* Most packages have no `pulumi` section: skip the parse. */
  if (text && strstr(text, "\"pulumi\"") &&
      mp_value_from_json(text, len, NULL, &doc, &e) == 0 &&
      doc->kind == MP_VALUE_OBJECT) {
    const mp_value *pu = mp_value_object_get(doc, "pulumi");
    const mp_value *res = pu && pu->kind == MP_VALUE_OBJECT
                              ? mp_value_object_get(pu, "resource")
                              : NULL;
    if (res && res->kind == MP_VALUE_BOOL && res->u.boolean) {
      const char *name = str_at(pu, "name");
      const char *pkg = str_at(doc, "name");
      if (name == NULL && pkg && strncmp(pkg, "@pulumi/", 8) == 0)
        name = pkg + 8;
      const char *version = str_at(pu, "version");
      if (version == NULL) version = str_at(doc, "version");
      if (name && version)
        mp_required_plugins_add(out, "resource", name, version,
                                str_at(pu, "server"));
    }
  }
  mp_value_free(doc);
  free(text);
}

static int is_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Walks |dir|; |in_modules|: |dir| is inside a node_modules tree. */
static void walk(const char *dir, int in_modules, mp_strv *seen,
                 mp_required_plugins *out) {
  char real[PATH_MAX];
  if (realpath(dir, real) == NULL) return;
  for (size_t i = 0; i < seen->len; i++)
    if (strcmp(seen->items[i], real) == 0) return;
  mp_strv_push(seen, real);
  DIR *d = opendir(dir);
  if (d == NULL) return;
  const char *base = strrchr(dir, '/');
  int child_in_modules =
      in_modules || strcmp(base ? base + 1 : dir, "node_modules") == 0;
  struct dirent *ent;
  while ((ent = readdir(d)) != NULL) {
    if (!strcmp(ent->d_name, ".") || !strcmp(ent->d_name, "..")) continue;
    char *path = mp_xasprintf("%s/%s", dir, ent->d_name);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
      char *policy = mp_xasprintf("%s/PulumiPolicy.yaml", path);
      if (!is_file(policy)) walk(path, child_in_modules, seen, out);
      free(policy);
    } else if (in_modules && strcmp(ent->d_name, "package.json") == 0) {
      read_package(path, out);
    }
    free(path);
  }
  closedir(d);
}

void mp__required_nodejs(const char *program_dir, mp_required_plugins *out) {
  mp_strv seen;
  mp_strv_init(&seen);
  walk(program_dir, 0, &seen, out);
  mp_strv_destroy(&seen);
}
