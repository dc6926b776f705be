/* Downloading a plugin into the cache (cli/plugins.h,
 * mp_cli_download_install): the settings Pulumi reads from the
 * environment, a progress line on a terminal, then the install. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/plugins.h"
#include "cli/render.h"
#include "plugin/cache.h"
#include "plugin/download.h"

typedef struct progress {
  FILE *f;
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
  fprintf(p->f, "\rDownloading plugin: %s%s%s", a, total >= 0 ? " / " : "",
          total >= 0 ? b : "");
  fflush(p->f);
}

void mp_cli_download_opts(mp_plugin_download_opts *o, const char *server) {
  memset(o, 0, sizeof(*o));
  o->server = server && *server ? server : NULL;
  o->overrides = getenv("PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES");
  o->github_token = getenv("GITHUB_TOKEN");
  o->gitlab_token = getenv("GITLAB_TOKEN");
}

int mp_cli_download_install(FILE *msgs, const char *cache, const char *kind,
                            const char *name, const mp_semver *version,
                            const char *server, int reinstall,
                            const char *label, mp_err *err) {
  mp_plugin_download_opts o;
  mp_cli_download_opts(&o, server);
  progress pr = {msgs, 0};
  int tty = isatty(fileno(msgs));
  if (tty) {
    o.progress = on_progress;
    o.progress_ud = &pr;
  }
  char *from = NULL;
  if (mp_plugin_download_source(kind, name, version, &o, &from, err) < 0)
    return err->code;
  fprintf(msgs, "%s downloading from %s\n", label, from);
  char *tmp = mp_xasprintf("%s/.download-XXXXXX", cache);
  int rc = mp_plugin_mkdir_p(cache, err);
  int fd = rc < 0 ? -1 : mkstemp(tmp);
  if (rc == 0 && fd < 0)
    rc =
        mp_err_set(err, MP_EIO, "cannot create '%s': %s", tmp, strerror(errno));
  if (fd >= 0) {
    close(fd);
    rc = mp_plugin_download(kind, name, version, &o, tmp, err);
    if (tty && pr.shown)
      fprintf(msgs, "\n");
    if (rc < 0)
      mp_err_prefix(err, "%s downloading from %s", label,
                    o.server ? o.server : from);
    else if ((rc = mp_plugin_install_file(cache, kind, name, version, tmp,
                                          reinstall, NULL, err)) < 0)
      mp_err_prefix(err, "installing %s from %s", label, from);
    unlink(tmp);
  }
  free(tmp);
  free(from);
  return rc;
}
