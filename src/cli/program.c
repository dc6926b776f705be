/* The program of an update: the project's language host, and the plugin
 * host that serves its packages. */
#include <stdlib.h>
#include <string.h>

#include "cli/backend.h"
#include "cli/operation.h"
#include "cli/plugins.h"
#include "lang/nodejs.h"
#include "lang/yaml_host.h"
#include "lang/yaml_plugin.h"
#include "providers/builtin.h"

int mp_cli_source_new(mp_ctx *ctx, const char *stack, const char *client,
                      mp_source **out, mp_err *err) {
  mp_cli_project *p = ctx->project;
  (void)stack;
  *out = NULL;
  if (client) return mp_nodejs_client_source_new(p->lang, client, out, err);
  const char *rt = p->runtime ? p->runtime : "";
  if (!*rt)
    return mp_err_set(err, MP_EINVAL,
                      "project '%s' has no runtime; add `runtime: yaml` to "
                      "its Pulumi.yaml",
                      p->name);
  if (strcmp(rt, "nodejs") == 0) return mp_nodejs_source_new(p->lang, out, err);
  if (strcmp(rt, "yaml") != 0)
    return mp_err_set(err, MP_EINVAL,
                      "the '%s' runtime of project '%s' is not supported; "
                      "minipulumi runs `runtime: yaml` and `runtime: nodejs` "
                      "programs",
                      rt, p->name);
  return mp_yaml_source_new(p->lang, out, err);
}

/* PULUMI_CONFIG for plugins: the stack's config, secrets in plain text
 * (as Pulumi hands them to its plugins). */
static char *config_json(const mp_value *config) {
  mp_value *plain = config ? mp_value_strip_secrets(config)
                           : mp_value_new_object();
  mp_buf b;
  mp_buf_init(&b);
  if (mp_value_to_json(plain, NULL, 0, &b, NULL) < 0) {
    mp_buf_reset(&b);
    mp_buf_puts(&b, "{}");
  }
  mp_value_free(plain);
  return mp_buf_detach(&b, NULL);
}

int mp_cli_plugin_host_new(mp_ctx *ctx, const char *stack,
                           const mp_value *config,
                           const mp_builtin_opts *builtin,
                           mp_plugin_host **out, mp_err *err) {
  mp_cli_project *p = ctx->project;
  size_t n = mp_project_plugin_count(p->lang);
  mp_plugin_spec *specs = mp_xcalloc(n ? n : 1, sizeof(*specs));
  for (size_t i = 0; i < n; i++) {
    const mp_project_plugin *pp = mp_project_plugin_at(p->lang, i);
    specs[i].name = pp->name;
    specs[i].path = pp->path;
    specs[i].version = pp->version;
  }
  char *cfg = config_json(config);
  mp_plugin_host_opts o = {0};
  o.project_dir = p->dir;
  o.program_dir = p->program_dir;
  o.project = p->name;
  o.stack = stack;
  o.organization = "organization";
  o.config_json = cfg;
  o.specs = specs;
  o.nspecs = n;
  o.builtins = mp_builtin_providers(builtin);
  o.yaml_plugin = mp_yaml_plugin_new;
  /* Process settings the host takes as options (the engine reads no
   * environment variable). */
  char *plugin_dir = mp_cli_home_path(".minipulumi/plugins");
  char *cache_dir = mp_cli_plugin_cache_dir();
  o.search_path =
      mp_cli_env_true("PULUMI_IGNORE_AMBIENT_PLUGINS") ? NULL : getenv("PATH");
  o.cache_dir = cache_dir;
  o.plugin_dir = plugin_dir;
  const char *timeout = getenv("MINIPULUMI_PLUGIN_TIMEOUT");
  double secs = timeout ? atof(timeout) : 0;
  o.call_timeout_ms = secs > 0 ? (uint64_t)(secs * 1000) : 0;
  o.log = &ctx->log;
  int rc = mp_plugin_host_new(&o, out, err);
  free(plugin_dir);
  free(cache_dir);
  free(cfg);
  free(specs);
  return rc;
}
