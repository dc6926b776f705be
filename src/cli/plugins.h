/* The plugins on this machine: the cache, what is installed
 * (plugin_dirs.c), and downloads (plugin_download.c). */
#ifndef MP_CLI_PLUGINS_H
#define MP_CLI_PLUGINS_H

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
/* Downloads the plugin |kind| |name| |version| (from |server| when not
 * NULL) and installs it into |cache| (cli/plugin_download.c); |label| is
 * Pulumi's "[resource plugin aws-6.1.0]", and the messages (the URL, a
 * progress line on a terminal) go to |msgs|. Returns 0 or an MP_E code
 * with Pulumi's words in |err|. Any thread. */
struct mp_semver;
int mp_cli_download_install(FILE *msgs, const char *cache, const char *kind,
                            const char *name, const struct mp_semver *version,
                            const char *server, int reinstall,
                            const char *label, mp_err *err);
/* Download settings from the environment (cli/plugin_download.c):
 * PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES, GITHUB_TOKEN, GITLAB_TOKEN, and
 * |server| (--server or pluginDownloadURL; NULL or "": the default). */
struct mp_plugin_download_opts;
void mp_cli_download_opts(struct mp_plugin_download_opts *o,
                          const char *server);

#endif
