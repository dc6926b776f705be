/* Downloading a plugin's tarball as Pulumi does (its PluginSource kinds):
 * from an http(s) server with `${NAME}`, `${VERSION}`, `${OS}` and
 * `${ARCH}` in its URL, from a `github://<host>/<org>[/<repo>]` or
 * `gitlab://<host>/<project>` release, or, with no URL, from Pulumi's
 * default locations (the pulumi organisation's GitHub releases, then
 * Pulumi's download server). Overrides (`regexp=URL,...`, the value of
 * PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES) replace a source whose URL
 * matches. The file is `pulumi-<kind>-<name>-v<version>-<os>-<arch>.tar.gz`.
 * The engine reads no environment: the CLI passes every setting. */
#ifndef MP_PLUGIN_DOWNLOAD_H
#define MP_PLUGIN_DOWNLOAD_H

#include <signal.h>
#include <stdint.h>

#include "engine/err.h"
#include "plugin/cache.h"
#include "plugin/http_get.h"

typedef struct mp_plugin_download_opts {
  const char *server;       /* --server or pluginDownloadURL; NULL: default */
  const char *overrides;    /* "regexp=URL,..."; NULL: none */
  const char *github_token; /* sent to GitHub when set */
  const char *gitlab_token; /* sent to GitLab when set */
  /* Certificates and proxies (SSL_CERT_FILE, SSL_CERT_DIR, HTTPS_PROXY,
   * HTTP_PROXY, NO_PROXY, which Pulumi's Go runtime reads). */
  mp_http_opts http;
  /* The tarball's expected SHA-256, in hex; NULL: not checked. A mismatch
   * fails the download with Pulumi's "invalid checksum, expected <hex>,
   * actual <hex>". */
  const char *checksum;
  /* Called as bytes arrive (|total| < 0: unknown); may be NULL. */
  void (*progress)(void *ud, uint64_t got, int64_t total);
  void *progress_ud;
  /* Non-zero once the command is cancelled (the first Ctrl-C): the
   * transfer under way ends within a second and nothing is tried again;
   * the download fails with "the download of <url> was cancelled". May be
   * NULL. */
  const volatile sig_atomic_t *cancel;
} mp_plugin_download_opts;

/* "linux-amd64": the platform part of the file name, for this machine. */
const char *mp_plugin_platform_os(void);
const char *mp_plugin_platform_arch(void);

/* The URL a download of |name| would start from, after overrides, with
 * the templates filled in (owned); for a github:// or gitlab:// source
 * the source URL itself. MP_EINVAL for a bad override list or URL. */
int mp_plugin_download_source(const char *kind, const char *name,
                              const mp_semver *version,
                              const mp_plugin_download_opts *o, char **url,
                              mp_err *err);

/* Downloads the tarball of |kind| |name| |version| into |dest| (a file
 * path, created or truncated). Transport failures are tried again (five
 * attempts, 80 ms doubling between them); an HTTP error is not, and
 * reads "<code> HTTP error fetching plugin from <url>", nor too many
 * redirects, nor an answer that stalls (no byte for the options' stall
 * limit), nor a cancellation (MP_ECANCELED). Returns 0, MP_EINVAL, MP_EIO or
 * MP_ECANCELED. Any thread. */
int mp_plugin_download(const char *kind, const char *name,
                       const mp_semver *version,
                       const mp_plugin_download_opts *o, const char *dest,
                       mp_err *err);

/* The newest version |name| has at its source (Pulumi's GetLatestVersion):
 * the tag of the latest release of a github:// source (the default's is
 * github://api.github.com/pulumi/pulumi-<name>, after overrides) or of a
 * gitlab:// one. An http(s) source has none: MP_EINVAL with Pulumi's
 * "GetLatestVersion is not supported for plugins from http sources".
 * Returns 0, MP_EINVAL or MP_EIO. Any thread. */
int mp_plugin_latest_version(const char *kind, const char *name,
                             const mp_plugin_download_opts *o, mp_semver *out,
                             mp_err *err);

#endif
