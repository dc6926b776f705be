/* Where plugins live on this machine, and Pulumi's boolean settings
 * (cli/plugins.h, cli/backend.h). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/backend.h"
#include "cli/plugins.h"
#include "plugin/cache.h"

char *mp_cli_home_path(const char *rel) {
  char *home = mp_cli_home_dir();
  char *p = mp_xasprintf("%s/%s", home ? home : "", rel);
  free(home);
  return p;
}

char *mp_cli_plugin_cache_dir(void) {
  const char *ph = getenv("PULUMI_HOME");
  if (ph && *ph)
    return mp_xasprintf("%s/plugins", ph);
  return mp_cli_home_path(".pulumi/plugins");
}

int mp_cli_env_true(const char *name) {
  const char *v = getenv(name);
  return v && *v && strcmp(v, "0") != 0 && strcasecmp(v, "false") != 0;
}

int mp_cli_plugins_installed(int metadata, mp_plugin_list *l, mp_err *err) {
  char *dirs[] = {mp_cli_plugin_cache_dir(),
                  mp_cli_home_path(".minipulumi/plugins")};
  int rc = 0;
  for (size_t i = 0; i < 2; i++) {
    if (rc == 0)
      rc = mp_plugin_cache_scan(dirs[i], metadata, l, err);
    free(dirs[i]);
  }
  return rc;
}
