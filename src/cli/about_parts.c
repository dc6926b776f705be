/* The parts of `about` that read the program: its plugins, with the
 * version each would run at, and its dependencies (cmd_about.c), in the
 * shape of Pulumi's about --json (pkg/cmd/pulumi/about/about.go:
 * pluginAbout, programDependencyAbout). */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli/about.h"
#include "cli/backend.h"
#include "cli/cli.h"
#include "cli/plugins.h"
#include "lang/required.h"
#include "plugin/cache.h"
#include "providers/builtin.h"

/* The version |p| runs at: the program's own, else the newest installed,
 * else the built-in provider's (it reports 0.1.0 when not asked for one).
 * Owned; NULL: unknown. */
static char *plugin_version(const mp_required_plugin *p,
                            const mp_plugin_list *installed) {
  if (p->version && *p->version)
    return mp_xstrdup(p->version);
  const mp_plugin_info *i = mp_plugin_select(installed, p->kind, p->name, NULL);
  if (i)
    return mp_semver_format(&i->version);
  if (mp_builtin_serves(p->name, NULL))
    return mp_xstrdup("0.1.0");
  return NULL;
}

static void add_plugin(cJSON *arr, const char *name, const char *version,
                       const char *kind) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "name", name);
  if (version)
    cJSON_AddStringToObject(o, "version", version);
  else
    cJSON_AddNullToObject(o, "version");
  cJSON_AddStringToObject(o, "kind", kind);
  cJSON_AddItemToArray(arr, o);
}

cJSON *mp_cli_about_plugins(mp_ctx *ctx) {
  cJSON *arr = cJSON_CreateArray();
  mp_required_plugins req = {0};
  mp_plugin_list installed = {0};
  mp_err err;
  mp_err_clear(&err);
  mp_cli_plugins_installed(0, &installed, &err); /* none readable: none */
  mp_cli_project_plugins(ctx, &req);
  /* the language host first, as Pulumi's required plugins list it; the
   * runtimes are minipulumi's own, so their version is its version */
  if (ctx->project->runtime) {
    char version[96];
    mp_cli_version_text(version, sizeof(version));
    add_plugin(arr, ctx->project->runtime, version, "language");
  }
  for (size_t i = 0; i < req.len; i++) {
    char *v = plugin_version(&req.items[i], &installed);
    add_plugin(arr, req.items[i].name, v, req.items[i].kind);
    free(v);
  }
  mp_required_plugins_destroy(&req);
  mp_plugin_list_destroy(&installed);
  return arr;
}

/* The version of node_modules/<name> installed below |dir|, else NULL. */
static char *installed_version(const char *dir, const char *name) {
  char *path = mp_xasprintf("%s/node_modules/%s/package.json", dir, name);
  size_t len = 0;
  char *text = mp_cli_read_file(path, &len);
  free(path);
  cJSON *j = text ? cJSON_ParseWithLength(text, len) : NULL;
  free(text);
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, "version");
  char *out = cJSON_IsString(v) ? mp_xstrdup(v->valuestring) : NULL;
  cJSON_Delete(j);
  return out;
}

cJSON *mp_cli_about_dependencies(mp_ctx *ctx, cJSON *errors) {
  cJSON *arr = cJSON_CreateArray();
  const char *rt = ctx->project->runtime;
  if (!rt || strcmp(rt, "nodejs") != 0)
    return arr; /* Pulumi YAML's host reports none */
  const char *dir = ctx->project->program_dir;
  char *path = mp_xasprintf("%s/package.json", dir);
  size_t len = 0;
  char *text = mp_cli_read_file(path, &len);
  cJSON *j = text ? cJSON_ParseWithLength(text, len) : NULL;
  free(text);
  if (!cJSON_IsObject(j)) {
    char *m = mp_xasprintf("Failed to get information about the Pulumi "
                           "program's dependencies: cannot read '%s'",
                           path);
    cJSON_AddItemToArray(errors, cJSON_CreateString(m));
    free(m);
  }
  free(path);
  /* as Pulumi's Node.js host: package.json's dependencies, each at the
   * version installed in node_modules (else as package.json asks) */
  const cJSON *deps = cJSON_GetObjectItemCaseSensitive(j, "dependencies");
  const cJSON *d;
  cJSON_ArrayForEach(d, deps) {
    char *v = installed_version(dir, d->string);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", d->string);
    cJSON_AddStringToObject(o, "version",
                            v ? v : cJSON_IsString(d) ? d->valuestring : "");
    cJSON_AddItemToArray(arr, o);
    free(v);
  }
  cJSON_Delete(j);
  return arr;
}
