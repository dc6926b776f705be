/* minipulumi plugin install KIND NAME [VERSION] [--file F] [--server URL]
 * [--reinstall]: puts a plugin into the cache ($PULUMI_HOME/plugins), from
 * a file or downloaded, with Pulumi's messages. The @pulumi/<pkg> npm
 * packages run `pulumi plugin install resource <pkg> v<ver> --server
 * <url>` when they are installed. */
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/plugins.h"
#include "plugin/cache.h"

static const mp_cmd_help help = {
    "minipulumi plugin install KIND NAME [VERSION] [flags]",
    "Install a plugin into the plugin cache.\n\nWith --file, from a tarball "
    "or an executable; otherwise downloaded from --server, or\nfrom the "
    "plugin's default location. VERSION must be a specific version, not a "
    "range."};

typedef struct install_args {
  const char *kind, *name, *file, *server;
  mp_semver version;
  int has_version, reinstall;
} install_args;

static int install(mp_ctx *ctx, const install_args *a) {
  char *v = mp_semver_format(&a->version);
  char *label = mp_xasprintf("[%s plugin %s-%s]", a->kind, a->name, v);
  char *cache = mp_cli_plugin_cache_dir();
  mp_err err;
  mp_err_clear(&err);
  int status = 0;
  mp_plugin_list l = {0};
  mp_plugin_cache_scan(cache, 0, &l, &err);
  int have = mp_plugin_select(&l, a->kind, a->name, &a->version) != NULL;
  mp_plugin_list_destroy(&l);
  if (!have || a->reinstall) {
    fprintf(ctx->err, "%s installing\n", label);
    if (a->file) {
      if (mp_plugin_install_file(cache, a->kind, a->name, &a->version, a->file,
                                 a->reinstall, NULL, &err) < 0)
        status = mp_cli_error(ctx, MP_EXIT_ERROR, "installing %s from %s: %s",
                              label, a->file, err.msg);
    } else {
      int rc = mp_cli_download_install(ctx->err, cache, a->kind, a->name,
                                       &a->version, a->server, a->reinstall,
                                       label, &err);
      if (rc < 0)
        status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
    }
  }
  free(cache);
  free(label);
  free(v);
  return status;
}

int mp_cmd_plugin_install(int argc, const char **argv, mp_ctx *ctx) {
  install_args a = {0};
  int exact = 0;
  const char *checksum = NULL;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_STR_('f', "file", &a.file, "file",
                  "Install a plugin from a tarball or an executable, "
                  "instead of downloading it"),
      MP_OPT_STR_(0, "server", &a.server, "url",
                  "A URL to download plugins from"),
      MP_OPT_BOOL_(0, "reinstall", &a.reinstall,
                   "Reinstall a plugin even if it already exists"),
      MP_OPT_BOOL_(0, "exact", &exact,
                   "Force installation of an exact version match (always "
                   "so in minipulumi)"),
      MP_OPT_STR_(0, "checksum", &checksum, "sha256",
                  "The expected SHA256 checksum for the plugin archive"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 0, 3, &pos);
  if (rc)
    return mp_args_exit_status(rc);
  mp_err err;
  mp_err_clear(&err);
  int status = 0;
  if (pos.len == 0)
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "minipulumi cannot compute the plugins a project "
                          "needs; name one: plugin install KIND NAME VERSION");
  else if (!mp_plugin_kind_known(pos.items[0]))
    status = mp_cli_error(ctx, MP_EXIT_CONFIG, "unrecognized plugin kind: %s",
                          pos.items[0]);
  else if (pos.len < 2)
    status = mp_cli_error(ctx, MP_EXIT_CONFIG, "missing plugin name argument");
  else if (pos.len == 3 && mp_semver_parse(pos.items[2], &a.version, &err) < 0)
    status =
        mp_cli_error(ctx, MP_EXIT_CONFIG, "invalid plugin semver: %s", err.msg);
  else if (pos.len < 3 && a.file)
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "missing plugin version argument, this is required "
                          "if installing from a file");
  else if (pos.len < 3)
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "missing plugin version argument: minipulumi does "
                          "not look up the latest version of a plugin");
  else if (checksum)
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "--checksum is not supported by minipulumi");
  if (status == 0) {
    a.kind = pos.items[0];
    a.name = pos.items[1];
    status = install(ctx, &a);
  }
  mp_strv_destroy(&pos);
  return status;
}
