/* The plugins on this machine: the cache, what is installed
 * (plugin_dirs.c), and downloads (plugin_download.c). */
#ifndef MP_CLI_PLUGINS_H
#define MP_CLI_PLUGINS_H

#include <signal.h>
#include <stdio.h>

#include "engine/err.h"

/* The plugin cache: $PULUMI_HOME/plugins, by default ~/.pulumi/plugins
 * (owned; cli/plugin_dirs.c). */
char *mp_cli_plugin_cache_dir(void);
/* Appends the plugins installed in the cache, then in ~/.minipulumi/plugins,
 * to |l| (plugin/cache.h; with |metadata|, sizes and times). Returns 0 or
 * MP_EIO. */
struct mp_plugin_list;
int mp_cli_plugins_installed(int metadata, struct mp_plugin_list *l,
                             mp_err *err);
/* One download and install (cli/plugin_download.c). */
struct mp_semver;
typedef struct mp_cli_fetch {
  FILE *msgs;        /* the messages: the URL, a progress line on a tty */
  const char *cache; /* the plugin cache it installs into */
  const char *kind, *name;
  const struct mp_semver *version;
  const char *server;   /* --server or pluginDownloadURL; NULL: default */
  const char *checksum; /* --checksum (hex SHA-256); NULL: not checked */
  int reinstall;
  /* The engine's lines, before a deployment: "Downloading plugin
   * aws-6.1.0 from <url>", "Installing plugin aws-6.1.0"; else those of
   * `plugin install`: "[resource plugin aws-6.1.0] downloading from
   * <url>". */
  int engine_lines;
  /* The command's interrupt flag (mp_ctx.interrupt): the first Ctrl-C
   * ends the download. May be NULL. */
  const volatile sig_atomic_t *cancel;
  const struct mp_cli_http *http; /* the command's (mp_ctx.http) */
} mp_cli_fetch;
/* Downloads |f|'s plugin and installs it into |f->cache|. Returns 0 or an
 * MP_E code with Pulumi's words in |err| ("[resource plugin aws-6.1.0]
 * downloading from <server>: ..."). Any thread. */
int mp_cli_download_install(const mp_cli_fetch *f, mp_err *err);
/* The newest version of |name| at |server| (NULL: the default place), as
 * `plugin install` without a version looks it up. Returns 0 or an MP_E
 * code. */
struct mp_cli_http;
int mp_cli_latest_version(const char *kind, const char *name,
                          const char *server, const struct mp_cli_http *http,
                          struct mp_semver *out, mp_err *err);
/* Download settings from the environment (cli/plugin_download.c):
 * PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES, GITHUB_TOKEN, GITLAB_TOKEN, and
 * |server| (--server or pluginDownloadURL; NULL or "": the default), with
 * |http|'s options. */
struct mp_plugin_download_opts;
void mp_cli_download_opts(struct mp_plugin_download_opts *o,
                          const char *server, const struct mp_cli_http *http);
/* Fills |h| with the certificates and proxies Pulumi's Go runtime takes
 * from the environment (SSL_CERT_FILE, SSL_CERT_DIR; HTTPS_PROXY or
 * https_proxy, HTTP_PROXY or http_proxy unless REQUEST_METHOD is set,
 * NO_PROXY or no_proxy) and MINIPULUMI_DOWNLOAD_STALL_SECONDS; for plugin
 * downloads and the assets a program sends. mp_ctx_init calls it once. */
void mp_cli_http_read(struct mp_cli_http *h);

/* ---- the project's plugins (cli/plugin_project.c) ---- */

struct mp_required_plugin;
struct mp_plugin_host;
struct mp_ctx;
/* Whether |p| needs a plugin at all: a resource plugin other than the
 * engine's own package, that no built-in package stands in for. */
int mp_cli_plugin_wanted(const struct mp_required_plugin *p);
/* Loads the project and appends the plugins it needs to |out|
 * (lang/required.h). Returns an exit status. */
struct mp_required_plugins;
int mp_cli_project_plugins(struct mp_ctx *ctx,
                           struct mp_required_plugins *out);
/* A plugin host for finding plugins only (no config; loaded project).
 * Returns 0 or an MP_E code. */
int mp_cli_plugin_host_quiet(struct mp_ctx *ctx, const char *stack,
                             struct mp_plugin_host **host, mp_err *err);
/* Before a deployment of the loaded project: downloads and installs each
 * plugin the project asks for at a version that nothing serves (no
 * Pulumi.yaml plugin, PATH entry or cache folder), with the engine's
 * lines on |msgs|; nothing when PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION
 * is set. Best effort: a failure is left to the provider's load. */
void mp_cli_plugins_preinstall(struct mp_ctx *ctx, const char *stack,
                               FILE *msgs);

#endif
