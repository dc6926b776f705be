/* Downloading a plugin into the cache (cli/cli.h,
 * mp_cli_install_download). */
#include "cli/cli.h"
#include "plugin/cache.h"

int mp_cli_install_download(mp_ctx *ctx, const char *cache, const char *kind,
                            const char *name, const mp_semver *version,
                            const char *server, int reinstall,
                            const char *label) {
  (void)cache;
  (void)kind;
  (void)name;
  (void)version;
  (void)server;
  (void)reinstall;
  return mp_cli_error(ctx, MP_EXIT_ERROR,
                      "%s downloading: not supported yet; pass --file", label);
}
