/* minipulumi package get-schema <plugin>[@version] | <path>: launches the
 * provider plugin through the plugin host and prints the schema its
 * GetSchema answers, as Pulumi's `package get-schema` does. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/backend.h"
#include "cli/cli.h"
#include "cli/command_table.h"
#include "cli/json_out.h"
#include "cli/messages.h"
#include "cli/plugins.h"
#include "lang/yaml_plugin.h"
#include "plugin/plugin.h"
#include "providers/builtin.h"

#define PREFIX "pulumi-resource-"

static const mp_cmd_help get_help = {
    "minipulumi package get-schema <schema_source> [flags]",
    "Get the schema of a package.\n\n<schema_source> is a plugin name with "
    "an optional version (random, aws@6.0.0), found as a provider plugin "
    "is found\nfor an update, or the path of a plugin binary, of a "
    "folder holding pulumi-resource-<name>, or of a\nplugin folder run "
    "from source (PulumiPlugin.yaml: Node.js, or a Pulumi YAML component "
    "provider),\nits package the folder's name."};

/* The plugin binary a path names (a folder: its one pulumi-resource-*
 * file), owned; NULL when there is none. */
static char *binary_at(const char *path) {
  struct stat st;
  if (stat(path, &st) < 0) return NULL;
  if (!S_ISDIR(st.st_mode)) return mp_xstrdup(path);
  DIR *d = opendir(path);
  if (d == NULL) return NULL;
  char *found = NULL;
  struct dirent *e;
  while ((e = readdir(d)) != NULL && found == NULL)
    if (strncmp(e->d_name, PREFIX, strlen(PREFIX)) == 0)
      found = mp_xasprintf("%s/%s", path, e->d_name);
  closedir(d);
  return found;
}

/* The package a plugin binary serves, from its file name. */
static char *package_of(const char *bin) {
  const char *base = strrchr(bin, '/');
  base = base ? base + 1 : bin;
  if (strncmp(base, PREFIX, strlen(PREFIX)) == 0) base += strlen(PREFIX);
  return mp_xstrdup(base);
}

/* A plugin folder run from source (PulumiPlugin.yaml: a Node.js or a
 * Pulumi YAML component provider): its package is the folder's name. */
static char *source_package(const char *path) {
  static const char *const manifests[] = {"PulumiPlugin.yaml",
                                          "PulumiPlugin.yml"};
  for (size_t i = 0; i < MP_ARRAY_LEN(manifests); i++) {
    char *m = mp_xasprintf("%s/%s", path, manifests[i]);
    int found = access(m, R_OK) == 0;
    free(m);
    if (found) {
      size_t n = strlen(path);
      while (n > 1 && path[n - 1] == '/') n--;
      const char *base = path + n;
      while (base > path && base[-1] != '/') base--;
      return mp_xstrndup(base, (size_t)(path + n - base));
    }
  }
  return NULL;
}

/* |source|, when it is a plugin folder run from source, is the one plugin
 * |spec| names (as Pulumi.yaml's `packages` would). */
static int host_new(mp_ctx *ctx, const mp_plugin_spec *spec,
                    mp_plugin_host **h, mp_err *err) {
  char *plugin_dir = mp_cli_home_path(".minipulumi/plugins");
  char *cache_dir = mp_cli_plugin_cache_dir();
  const char *dir = ctx->cwd ? ctx->cwd : ".";
  mp_plugin_host_opts o = {0};
  o.project_dir = dir;
  o.program_dir = dir;
  o.project = "";
  o.stack = "";
  o.builtins = mp_builtin_providers(NULL);
  o.yaml_plugin = mp_yaml_plugin_new;
  o.specs = spec;
  o.nspecs = spec ? 1 : 0;
  o.search_path =
      mp_cli_env_true("PULUMI_IGNORE_AMBIENT_PLUGINS") ? NULL : getenv("PATH");
  o.cache_dir = cache_dir;
  o.plugin_dir = plugin_dir;
  o.log = &ctx->log;
  int rc = mp_plugin_host_new(&o, h, err);
  free(plugin_dir);
  free(cache_dir);
  return rc;
}

/* The provider |source| names: a path is launched as it is, a name is
 * served as an update would serve it (built-ins first). */
static int provider_of(mp_plugin_host *h, const char *source,
                       mp_provider **prov, mp_err *err) {
  if (strchr(source, '/')) {
    char *bin = binary_at(source);
    if (bin == NULL)
      return mp_err_set(err, MP_ENOENT,
                        "%s is neither a plugin binary nor a folder holding "
                        PREFIX "<name>",
                        source);
    char *pkg = package_of(bin);
    const char *argv[] = {bin, NULL};
    int rc = mp_plugin_launch(h, pkg, argv, prov, err);
    free(pkg);
    free(bin);
    return rc;
  }
  char *name = mp_xstrdup(source);
  char *at = strchr(name, '@');
  if (at) *at++ = '\0';
  mp_provider_factory f = mp_plugin_host_factory(h);
  int rc = f.make(f.ud, name, at && *at ? at : NULL, prov, err);
  free(name);
  return rc;
}

static void print_schema(mp_ctx *ctx, const char *text) {
  cJSON *j = cJSON_Parse(text);
  if (j) {
    mp_cli_cjson_emit(ctx->out, j, 2); /* pretty, whatever came */
  } else {
    fprintf(ctx->out, "%s\n", text);
  }
}

/* The schema of any provider that has one: a plugin's, an in-process
 * Pulumi YAML component provider's; a built-in one has none. */
static int schema_of(mp_provider *prov, char **json, mp_err *err) {
  if (prov->vt->get_schema == NULL)
    return mp_err_set(err, MP_EINVAL,
                      "package '%s' is served by a built-in provider, "
                      "which has no schema",
                      prov->pkg ? prov->pkg : "?");
  return prov->vt->get_schema(prov, 0, NULL, NULL, json, err);
}

static int get_schema(int argc, const char **argv, mp_ctx *ctx) {
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &get_help, opts, argc, argv, 1, 1, &pos);
  if (rc) return mp_args_exit_status(rc);
  mp_err err;
  mp_err_clear(&err);
  mp_plugin_host *h = NULL;
  mp_provider *prov = NULL;
  char *json = NULL;
  int status = 0;
  char *src_pkg = source_package(pos.items[0]);
  mp_plugin_spec spec = {src_pkg, pos.items[0], NULL};
  if (host_new(ctx, src_pkg ? &spec : NULL, &h, &err) < 0 ||
      provider_of(h, src_pkg ? src_pkg : pos.items[0], &prov, &err) < 0 ||
      schema_of(prov, &json, &err) < 0)
    status = mp_cli_error(ctx, MP_EXIT_ERROR, "%s", err.msg);
  else
    print_schema(ctx, json);
  free(json);
  mp_provider_free(prov);
  mp_plugin_host_shutdown(h);
  mp_strv_destroy(&pos);
  free(src_pkg);
  return status;
}

static const mp_command subs[] = {
    {"get-schema", get_schema, "Get the schema of a package", {NULL}},
};

static const mp_cmd_group group = {
    "package",
    {"minipulumi package <subcommand> [flags]",
     "Work with Pulumi packages."},
    subs,
    MP_ARRAY_LEN(subs),
    NULL};

int mp_cmd_package(int argc, const char **argv, mp_ctx *ctx) {
  return mp_cmd_group_run(ctx, &group, argc, argv);
}
