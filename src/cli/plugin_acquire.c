/* Acquiring a plugin version a deployment needs and nobody installed, as
 * Pulumi's provider registry does when a provider's plugin is missing
 * (cli/providers.h, mp_cli_plugin_acquire): downloaded from the provider's
 * pluginDownloadURL (or Pulumi's default locations, after overrides) and
 * installed into the cache, unless
 * PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION is set. */
#include <stdlib.h>
#include <string.h>

#include "cli/plugins.h"
#include "cli/providers.h"
#include "plugin/cache.h"

void mp_cli_plugin_note_url(void *ud, const char *pkg, const char *version,
                            const char *url) {
  mp_cli_providers *set = ud;
  char *key = mp_xasprintf("%s@%s", pkg, version);
  pthread_mutex_lock(&set->mu);
  int known = 0;
  for (size_t i = 0; i + 1 < set->urls.len && !known; i += 2)
    known = strcmp(set->urls.items[i], key) == 0;
  if (!known) {
    mp_strv_push(&set->urls, key);
    mp_strv_push(&set->urls, url);
  }
  pthread_mutex_unlock(&set->mu);
  free(key);
}

/* The download URL noted for |pkg| at |version| (owned), or NULL. */
static char *url_for(mp_cli_providers *set, const char *pkg,
                     const char *version) {
  char *key = mp_xasprintf("%s@%s", pkg, version);
  char *url = NULL;
  pthread_mutex_lock(&set->mu);
  for (size_t i = 0; i + 1 < set->urls.len && !url; i += 2)
    if (strcmp(set->urls.items[i], key) == 0)
      url = mp_xstrdup(set->urls.items[i + 1]);
  pthread_mutex_unlock(&set->mu);
  free(key);
  return url;
}

int mp_cli_plugin_acquire(mp_cli_providers *set, const char *pkg,
                          const char *version, mp_err *err) {
  mp_semver v;
  mp_err e;
  mp_err_clear(&e);
  if (mp_semver_parse(version, &v, &e) < 0)
    return err->code;
  char *vs = mp_semver_format(&v);
  char *url = url_for(set, pkg, version);
  char *label = mp_xasprintf("[resource plugin %s-%s]", pkg, vs);
  fprintf(set->err, "%s installing\n", label);
  mp_cli_fetch f = {.msgs = set->err, .cache = set->cache, .kind = "resource",
                    .name = pkg, .version = &v, .server = url,
                    .cancel = set->interrupt, .http = set->http};
  int rc = mp_cli_download_install(&f, &e);
  if (rc < 0) {
    char *server = url ? mp_xasprintf(" --server %s", url) : mp_xstrdup("");
    mp_err_set(err, MP_ENOENT,
               "Could not automatically download and install resource "
               "plugin 'pulumi-resource-%s' at version v%s, install the "
               "plugin using `pulumi plugin install resource %s v%s%s`: %s",
               pkg, vs, pkg, vs, server, e.msg);
    free(server);
  }
  free(label);
  free(url);
  free(vs);
  return rc < 0 ? MP_ENOENT : 0;
}
