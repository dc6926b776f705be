/* The plugins the current project needs (lang/required.h), and their
 * installation before a deployment starts, as Pulumi's engine does in
 * EnsurePluginsAreInstalled (cli/plugins.h; docs/plugins.md,
 * "Acquisition"). */
#include <stdlib.h>
#include <string.h>

#include "cli/backend.h"
#include "cli/operation.h"
#include "cli/plugins.h"
#include "cli/workspace.h"
#include "lang/required.h"
#include "plugin/cache.h"
#include "providers/builtin.h"

int mp_cli_plugin_wanted(const mp_required_plugin *p) {
  return strcmp(p->kind, "resource") == 0 && strcmp(p->name, "pulumi") != 0 &&
         !mp_builtin_serves(p->name, p->version);
}

int mp_cli_project_plugins(mp_ctx *ctx, mp_required_plugins *out) {
  int status = mp_cli_load_project(ctx);
  mp_err e;
  mp_err_clear(&e);
  if (status == 0) mp_project_required_plugins(ctx->project->lang, out, &e);
  return status;
}

int mp_cli_plugin_host_quiet(mp_ctx *ctx, const char *stack,
                             mp_plugin_host **host, mp_err *err) {
  mp_builtin_opts none = {0};
  return mp_cli_plugin_host_new(ctx, stack, NULL, &none, host, err);
}

/* Whether Pulumi.yaml's plugins.providers names |name|: its path serves
 * it, and a bad path is reported when the provider loads, not fetched. */
static int named_by_project(const mp_ctx *ctx, const char *name) {
  size_t n = mp_project_plugin_count(ctx->project->lang);
  for (size_t i = 0; i < n; i++)
    if (strcmp(mp_project_plugin_at(ctx->project->lang, i)->name, name) == 0)
      return 1;
  return 0;
}

void mp_cli_plugins_preinstall(mp_ctx *ctx, const char *stack, FILE *msgs) {
  if (mp_cli_env_true("PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION")) return;
  mp_required_plugins l = {0};
  mp_err e;
  mp_err_clear(&e);
  mp_project_required_plugins(ctx->project->lang, &l, &e);
  mp_plugin_host *host = NULL;
  char *cache = mp_cli_plugin_cache_dir();
  for (size_t i = 0; i < l.len && !ctx->interrupt; i++) {
    const mp_required_plugin *p = &l.items[i];
    /* Only a version asked is fetched: looking up the newest one would
     * reach the network for every program that names none. */
    mp_semver v;
    if (p->version == NULL || !mp_cli_plugin_wanted(p) ||
        named_by_project(ctx, p->name) ||
        mp_semver_parse(p->version, &v, &e) < 0)
      continue;
    if (host == NULL && mp_cli_plugin_host_quiet(ctx, stack, &host, &e) < 0)
      break;
    char *path = NULL;
    if (mp_plugin_find(host, p->name, p->version, &path, &e) == 0) {
      free(path);
      continue;
    }
    /* Best effort, as Pulumi's: a failure is left to the provider's load,
     * which tries again and reports it in Pulumi's words. */
    mp_cli_fetch f = {.msgs = msgs, .cache = cache, .kind = p->kind,
                      .name = p->name, .version = &v, .server = p->server,
                      .engine_lines = 1, .cancel = &ctx->interrupt,
                      .http = &ctx->http};
    mp_cli_download_install(&f, &e);
  }
  free(cache);
  mp_plugin_host_shutdown(host);
  mp_required_plugins_destroy(&l);
}
