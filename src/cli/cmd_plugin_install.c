/* minipulumi plugin install [KIND NAME [VERSION]] [--file F] [--server URL]
 * [--checksum SHA256] [--reinstall]: puts a plugin into the cache
 * ($PULUMI_HOME/plugins), from a file or downloaded, with Pulumi's
 * messages; without a version, the newest its source has; without
 * arguments, the plugins the current project needs. The @pulumi/<pkg> npm
 * packages run `pulumi plugin install resource <pkg> v<ver> --server
 * <url>` when they are installed. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/plugins.h"
#include "lang/required.h"
#include "plugin/cache.h"
#include "plugin/plugin.h"

static const mp_cmd_help help = {
    "minipulumi plugin install [KIND NAME [VERSION]] [flags]",
    "Install one or more plugins into the plugin cache.\n\nWith --file, from "
    "a tarball or an executable; otherwise downloaded from --server, or\n"
    "from the plugin's default location. VERSION must be a specific version, "
    "not a range;\nwithout it, the newest version the plugin's source has "
    "(GitHub or GitLab releases).\nWithout arguments, the plugins the current "
    "project needs."};

typedef struct install_args {
  const char *kind, *name, *file, *server, *checksum;
  mp_semver version;
  int reinstall;
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
      mp_cli_fetch f = {.msgs = ctx->err, .cache = cache, .kind = a->kind,
                        .name = a->name, .version = &a->version,
                        .server = a->server, .checksum = a->checksum,
                        .reinstall = a->reinstall,
                        .cancel = &ctx->interrupt, .http = &ctx->http};
      if (mp_cli_download_install(&f, &err) < 0)
        status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
    }
  }
  free(cache);
  free(label);
  free(v);
  return status;
}

/* No version given: the newest at the plugin's source, as Pulumi's
 * GetLatestVersion; an http(s) server has no way to tell. */
static int latest(mp_ctx *ctx, install_args *a) {
  mp_err err;
  mp_err_clear(&err);
  if (mp_cli_latest_version(a->kind, a->name, a->server, &ctx->http,
                            &a->version, &err) == 0)
    return 0;
  if (err.code == MP_EINVAL && a->server)
    return mp_cli_error(ctx, MP_EXIT_ERROR,
                        "%s: a plugin served over http(s) needs its version: "
                        "`plugin install %s %s VERSION --server %s`",
                        err.msg, a->kind, a->name, a->server);
  return mp_cli_error(ctx, MP_EXIT_ERROR,
                      "could not get latest version for plugin %s: %s",
                      a->name, err.msg);
}

/* Without arguments: the project's plugins (lang/required.h). */
static int install_project(mp_ctx *ctx, install_args *a) {
  mp_required_plugins l = {0};
  int status = mp_cli_project_plugins(ctx, &l);
  mp_err err;
  mp_err_clear(&err);
  mp_plugin_host *host = NULL;
  for (size_t i = 0; i < l.len && status == 0; i++) {
    const mp_required_plugin *p = &l.items[i];
    if (!mp_cli_plugin_wanted(p)) continue;
    a->kind = p->kind;
    a->name = p->name;
    a->server = p->server;
    if (p->version) {
      if (mp_semver_parse(p->version, &a->version, &err) < 0)
        status = mp_cli_error(ctx, MP_EXIT_ERROR,
                              "invalid plugin semver: %s", err.msg);
    } else {
      /* Served already (Pulumi.yaml, PATH, the cache): nothing to do. */
      char *path = NULL;
      if (host == NULL &&
          mp_cli_plugin_host_quiet(ctx, NULL, &host, &err) < 0) {
        status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
        break;
      }
      if (mp_plugin_find(host, p->name, NULL, &path, &err) == 0) {
        free(path);
        continue;
      }
      status = latest(ctx, a);
    }
    if (status == 0) status = install(ctx, a);
  }
  mp_plugin_host_shutdown(host);
  mp_required_plugins_destroy(&l);
  return status;
}

/* Go's hex.DecodeString's complaints. */
static const char *hex_problem(const char *s, char *buf, size_t n) {
  for (const char *p = s; *p; p++)
    if (!isxdigit((unsigned char)*p)) {
      snprintf(buf, n, "encoding/hex: invalid byte: U+%04X '%c'",
               (unsigned char)*p, *p);
      return buf;
    }
  return strlen(s) % 2 ? "encoding/hex: odd length hex string" : NULL;
}

int mp_cmd_plugin_install(int argc, const char **argv, mp_ctx *ctx) {
  install_args a = {0};
  int exact = 0;
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
      MP_OPT_STR_(0, "checksum", &a.checksum, "sha256",
                  "The expected SHA256 checksum for the plugin archive"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 0, 3, &pos);
  if (rc)
    return mp_args_exit_status(rc);
  mp_err err;
  mp_err_clear(&err);
  char why[64];
  const char *bad_sum = a.checksum ? hex_problem(a.checksum, why, sizeof(why))
                                   : NULL;
  int status = 0;
  if (pos.len == 0 && a.file)
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "--file (-f) is only valid if a specific package is "
                          "being installed");
  else if (pos.len == 0 && a.checksum)
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "--checksum is only valid if a specific package is "
                          "being installed");
  else if (pos.len == 0)
    status = install_project(ctx, &a);
  else if (!mp_plugin_kind_known(pos.items[0]))
    status = mp_cli_error(ctx, MP_EXIT_CONFIG, "unrecognized plugin kind: %s",
                          pos.items[0]);
  else if (pos.len < 2)
    status = mp_cli_error(ctx, MP_EXIT_CONFIG, "missing plugin name argument");
  else if (mp_plugin_check_spec(pos.items[0], pos.items[1], &err) < 0)
    status = mp_cli_error(ctx, MP_EXIT_CONFIG, "%s", err.msg);
  else if (pos.len == 3 && mp_semver_parse(pos.items[2], &a.version, &err) < 0)
    status =
        mp_cli_error(ctx, MP_EXIT_CONFIG, "invalid plugin semver: %s", err.msg);
  else if (pos.len < 3 && a.file)
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "missing plugin version argument, this is required "
                          "if installing from a file");
  else if (bad_sum)
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "--checksum was not a valid hex string: %s", bad_sum);
  else {
    a.kind = pos.items[0];
    a.name = pos.items[1];
    if (pos.len < 3) status = latest(ctx, &a);
    if (status == 0) status = install(ctx, &a);
  }
  mp_strv_destroy(&pos);
  return status;
}
