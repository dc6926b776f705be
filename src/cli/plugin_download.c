/* Downloading a plugin into the cache (cli/plugins.h,
 * mp_cli_download_install): the settings Pulumi reads from the
 * environment, a progress line on a terminal, then the install. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/ctx.h"
#include "cli/plugins.h"
#include "cli/render.h"
#include "plugin/cache.h"
#include "plugin/download.h"
#include "plugin/http_get.h"

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

void mp_cli_download_opts(mp_plugin_download_opts *o, const char *server,
                          const mp_cli_http *http) {
  memset(o, 0, sizeof(*o));
  o->server = server && *server ? server : NULL;
  o->overrides = getenv("PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES");
  o->github_token = getenv("GITHUB_TOKEN");
  o->gitlab_token = getenv("GITLAB_TOKEN");
  o->http = http->opts;
}

/* Go's getEnvAny: the first of the names set to something. */
static const char *env_any(const char *a, const char *b) {
  const char *v = getenv(a);
  if (v && *v) return v;
  v = getenv(b);
  return v && *v ? v : NULL;
}

static void read_stall(mp_cli_http *h) {
  const char *v = getenv("MINIPULUMI_DOWNLOAD_STALL_SECONDS");
  if (v == NULL || *v == '\0') return;
  char *end = NULL;
  errno = 0;
  long n = strtol(v, &end, 10);
  if (errno || *end || n <= 0)
    h->bad_stall = v;
  else
    h->opts.stall_seconds = n;
}

void mp_cli_http_read(mp_cli_http *h) {
  memset(h, 0, sizeof(*h));
  h->opts.ca_file = getenv("SSL_CERT_FILE");
  h->opts.ca_dir = getenv("SSL_CERT_DIR");
  h->opts.https_proxy = env_any("HTTPS_PROXY", "https_proxy");
  /* Go refuses HTTP_PROXY in a CGI environment (httpoxy). */
  const char *cgi = getenv("REQUEST_METHOD");
  h->opts.http_proxy =
      cgi && *cgi ? NULL : env_any("HTTP_PROXY", "http_proxy");
  h->opts.no_proxy = env_any("NO_PROXY", "no_proxy");
  read_stall(h);
}

int mp_cli_latest_version(const char *kind, const char *name,
                          const char *server, const mp_cli_http *http,
                          mp_semver *out, mp_err *err) {
  mp_plugin_download_opts o;
  mp_cli_download_opts(&o, server, http);
  return mp_plugin_latest_version(kind, name, &o, out, err);
}

int mp_cli_download_install(const mp_cli_fetch *f, mp_err *err) {
  /* A name from a program (a type token, a package) names files: checked
   * before anything is fetched or made. */
  if (mp_plugin_check_spec(f->kind, f->name, err) < 0)
    return MP_EINVAL;
  mp_plugin_download_opts o;
  mp_cli_download_opts(&o, f->server, f->http);
  if (f->http->bad_stall)
    return mp_err_set(err, MP_EINVAL,
                      "MINIPULUMI_DOWNLOAD_STALL_SECONDS must be a positive "
                      "whole number of seconds, not '%s'",
                      f->http->bad_stall);
  o.checksum = f->checksum;
  o.cancel = f->cancel;
  progress pr = {f->msgs, 0};
  int tty = isatty(fileno(f->msgs));
  if (tty) {
    o.progress = on_progress;
    o.progress_ud = &pr;
  }
  char *v = mp_semver_format(f->version);
  char *label = mp_xasprintf("[%s plugin %s-%s]", f->kind, f->name, v);
  char *from = NULL;
  int rc = mp_plugin_download_source(f->kind, f->name, f->version, &o, &from,
                                     err);
  if (rc == 0 && f->engine_lines)
    fprintf(f->msgs, "Downloading plugin %s-%s from %s\n", f->name, v, from);
  else if (rc == 0)
    fprintf(f->msgs, "%s downloading from %s\n", label, from);
  fflush(f->msgs);
  char *tmp = mp_xasprintf("%s/.download-XXXXXX", f->cache);
  if (rc == 0)
    rc = mp_plugin_mkdir_p(f->cache, err);
  int fd = rc < 0 ? -1 : mkstemp(tmp);
  if (rc == 0 && fd < 0)
    rc =
        mp_err_set(err, MP_EIO, "cannot create '%s': %s", tmp, strerror(errno));
  if (fd >= 0) {
    close(fd);
    rc = mp_plugin_download(f->kind, f->name, f->version, &o, tmp, err);
    if (tty && pr.shown)
      fprintf(f->msgs, "\n");
    if (rc < 0)
      mp_err_prefix(err, "%s downloading from %s", label,
                    o.server ? o.server : from);
    if (rc == 0 && f->engine_lines)
      fprintf(f->msgs, "Installing plugin %s-%s\n", f->name, v);
    fflush(f->msgs);
    if (rc == 0 &&
        (rc = mp_plugin_install_file(f->cache, f->kind, f->name, f->version,
                                     tmp, f->reinstall, NULL, err)) < 0)
      mp_err_prefix(err, "installing %s from %s", label, from);
    unlink(tmp);
  }
  free(tmp);
  free(from);
  free(label);
  free(v);
  return rc;
}
