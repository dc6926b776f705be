/* Downloading a plugin into the cache (cli/cli.h,
 * mp_cli_install_download): the settings Pulumi reads from the
 * environment, a progress line on a terminal, then the install. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "plugin/cache.h"
#include "plugin/download.h"

typedef struct progress {
  mp_ctx *ctx;
  uint64_t shown; /* bytes when last drawn */
} progress;

static void on_progress(void *ud, uint64_t got, int64_t total) {
  progress *p = ud;
  if (got - p->shown < 256 * 1024 && (total < 0 || got != (uint64_t)total))
    return;
  p->shown = got;
  char a[32], b[32];
  mp_cli_bytes(got, a, sizeof(a));
  if (total >= 0)
    mp_cli_bytes((uint64_t)total, b, sizeof(b));
  fprintf(p->ctx->err, "\rDownloading plugin: %s%s%s", a,
          total >= 0 ? " / " : "", total >= 0 ? b : "");
  fflush(p->ctx->err);
}

void mp_cli_download_opts(mp_plugin_download_opts *o, const char *server) {
  memset(o, 0, sizeof(*o));
  o->server = server && *server ? server : NULL;
  o->overrides = getenv("PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES");
  o->github_token = getenv("GITHUB_TOKEN");
  o->gitlab_token = getenv("GITLAB_TOKEN");
}

int mp_cli_install_download(mp_ctx *ctx, const char *cache, const char *kind,
                            const char *name, const mp_semver *version,
                            const char *server, int reinstall,
                            const char *label) {
  mp_plugin_download_opts o;
  mp_cli_download_opts(&o, server);
  progress pr = {ctx, 0};
  int tty = isatty(fileno(ctx->err));
  if (tty) {
    o.progress = on_progress;
    o.progress_ud = &pr;
  }
  mp_err err;
  mp_err_clear(&err);
  char *from = NULL;
  if (mp_plugin_download_source(kind, name, version, &o, &from, &err) < 0)
    return mp_cli_fail(ctx, MP_EXIT_CONFIG, &err);
  fprintf(ctx->err, "%s downloading from %s\n", label, from);
  char *dir = mp_xstrdup(cache);
  char *tmp = mp_xasprintf("%s/.download-XXXXXX", cache);
  int status = 0;
  int fd = -1;
  if (mp_plugin_mkdir_p(dir, &err) < 0 || (fd = mkstemp(tmp)) < 0) {
    status = mp_cli_error(ctx, MP_EXIT_ERROR, "%s cannot create '%s': %s",
                          label, tmp, err.code ? err.msg : strerror(errno));
  } else {
    close(fd);
    int rc = mp_plugin_download(kind, name, version, &o, tmp, &err);
    if (tty && pr.shown)
      fprintf(ctx->err, "\n");
    if (rc < 0)
      status = mp_cli_error(ctx, MP_EXIT_ERROR, "%s downloading from %s: %s",
                            label, o.server ? o.server : from, err.msg);
    else if (mp_plugin_install_file(cache, kind, name, version, tmp, reinstall,
                                    NULL, &err) < 0)
      status = mp_cli_error(ctx, MP_EXIT_ERROR, "installing %s from %s: %s",
                            label, from, err.msg);
    unlink(tmp);
  }
  free(tmp);
  free(dir);
  free(from);
  return status;
}
