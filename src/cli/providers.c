/* What serves each package of a deployment (cli/providers.h): the
 * engine's package `pulumi`, Node.js dynamic providers (`pulumi-nodejs`),
 * and the plugin host for everything else. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/backend.h"
#include "cli/plugins.h"
#include "cli/providers.h"
#include "deploy/builtins.h"
#include "lang/nodejs.h"
#include "providers/builtin.h"

#define DYNAMIC_PKG "pulumi-nodejs"
#define DYNAMIC_SCRIPT "@pulumi/pulumi/cmd/dynamic-provider/index.js"

/* The `node` executable on PATH, or NULL. */
static char *find_node(void) {
  const char *path = getenv("PATH");
  while (path && *path) {
    size_t n = strcspn(path, ":");
    char *cand = mp_xasprintf("%.*s/node", (int)n, path);
    if (n && access(cand, X_OK) == 0) return cand;
    free(cand);
    path += n;
    if (*path == ':') path++;
  }
  return NULL;
}

/* A dynamic provider: the program's own SDK started as a plugin (the
 * direct form of the SDK's pulumi-resource-pulumi-nodejs wrapper, one
 * node start less), in the program folder. */
static int make_dynamic(const mp_cli_providers *set, mp_provider **out,
                        mp_err *err) {
  if (set->host == NULL)
    return mp_err_set(err, MP_ENOENT,
                      "no resource plugin 'pulumi-resource-pulumi-nodejs' "
                      "found in the workspace or on your $PATH");
  char *script = mp_nodejs_find_module_file(set->program_dir, DYNAMIC_SCRIPT);
  if (script == NULL)
    return mp_err_set(err, MP_ENOENT,
                      "dynamic providers need @pulumi/pulumi installed in "
                      "'%s': run `npm install` there",
                      set->program_dir);
  char *node = find_node();
  if (node == NULL) {
    free(script);
    return mp_err_set(err, MP_ENOENT,
                      "dynamic providers need `node` on PATH; install "
                      "Node.js");
  }
  const char *argv[] = {node, script, NULL};
  int rc = mp_plugin_launch(set->host, DYNAMIC_PKG, argv, out, err);
  free(script);
  free(node);
  return rc;
}

/* |next|'s make, or its make_env when |env_map| (may be NULL) maps
 * variables. */
static int make_next(mp_provider_factory next, const char *pkg,
                     const char *version, const mp_strv *env_map,
                     mp_provider **out, mp_err *err) {
  if (env_map == NULL) return next.make(next.ud, pkg, version, out, err);
  if (next.make_env == NULL)
    return mp_err_set(err, MP_EINVAL,
                      "provider of package '%s': envVarMappings cannot be "
                      "applied: the built-in provider runs inside "
                      "minipulumi, with no environment of its own; set the "
                      "variables themselves",
                      pkg ? pkg : "");
  return next.make_env(next.ud, pkg, version, env_map, out, err);
}

static int make_with(mp_cli_providers *set, const char *pkg,
                     const char *version, const mp_strv *env_map,
                     mp_provider **out, mp_err *err) {
  *out = NULL;
  if (pkg && strcmp(pkg, "pulumi") == 0 && env_map == NULL)
    return mp_deploy_builtins_new(mp_cli_read_stack_outputs, set, out);
  if (pkg && strcmp(pkg, DYNAMIC_PKG) == 0 && env_map == NULL)
    return make_dynamic(set, out, err);
  mp_provider_factory next = set->host ? mp_plugin_host_factory(set->host)
                                       : set->builtins;
  int rc = make_next(next, pkg, version, env_map, out, err);
  /* A version that is not installed is acquired, as Pulumi's registry
   * does when it loads a provider, then looked up again. */
  if (rc == MP_ENOENT && set->host && set->acquire && version && *version &&
      mp_cli_plugin_acquire(set, pkg, version, err) == 0)
    rc = make_next(next, pkg, version, env_map, out, err);
  return rc;
}

static int make(void *ud, const char *pkg, const char *version,
                mp_provider **out, mp_err *err) {
  return make_with(ud, pkg, version, NULL, out, err);
}

static int make_env(void *ud, const char *pkg, const char *version,
                    const mp_strv *env_map, mp_provider **out, mp_err *err) {
  return make_with(ud, pkg, version, env_map, out, err);
}

void mp_cli_providers_init(mp_cli_providers *set, const mp_ctx *ctx,
                           mp_plugin_host *host,
                           const mp_builtin_opts *builtin) {
  set->url = mp_xstrdup(ctx->backend_url);
  set->project = mp_xstrdup(ctx->project ? ctx->project->name : "");
  set->program_dir =
      mp_xstrdup(ctx->project ? ctx->project->program_dir : ".");
  set->host = host;
  set->builtins = mp_builtin_providers(builtin);
  set->acquire =
      !mp_cli_env_true("PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION");
  set->cache = mp_cli_plugin_cache_dir();
  set->err = ctx->err;
  set->interrupt = &ctx->interrupt;
  set->http = &ctx->http;
  pthread_mutex_init(&set->mu, NULL);
  mp_strv_init(&set->urls);
}

mp_provider_factory mp_cli_providers_factory(mp_cli_providers *set) {
  mp_provider_factory f = {make, set, mp_cli_plugin_note_url, make_env};
  return f;
}

void mp_cli_providers_destroy(mp_cli_providers *set) {
  free(set->url);
  free(set->project);
  free(set->program_dir);
  free(set->cache);
  pthread_mutex_destroy(&set->mu);
  mp_strv_destroy(&set->urls);
}
