/* Plugins from source: a folder holding PulumiPlugin.yaml with `runtime:
 * nodejs` (named by Pulumi.yaml's plugins.providers or packages, or a
 * plugin cache folder without an executable) is run as
 * Pulumi's Node.js language host runs a plugin (RunPlugin,
 * sdk/nodejs/cmd/pulumi-language-nodejs): node with the SDK's run-plugin
 * entry point, the folder, then the engine's address. The SDK is the one
 * the folder resolves (its node_modules, or a parent's). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plugin/plugin_int.h"

#define RUN_PLUGIN "node_modules/@pulumi/pulumi/cmd/run-plugin"

static char *manifest_of(const char *dir) {
  static const char *const names[] = {"PulumiPlugin.yaml", "PulumiPlugin.yml"};
  for (size_t i = 0; i < MP_ARRAY_LEN(names); i++) {
    char *p = mp_xasprintf("%s/%s", dir, names[i]);
    if (access(p, R_OK) == 0) return p;
    free(p);
  }
  return NULL;
}

int mp__plugin_is_source(const char *path) {
  struct stat st;
  if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode)) return 0;
  char *m = manifest_of(path);
  int found = m != NULL;
  free(m);
  return found;
}

/* The value after "<key>:" on |line| (leading blanks skipped), unquoted,
 * or NULL when |line| is not that key. */
static char *value_of(const char *line, const char *key) {
  while (*line == ' ') line++;
  size_t n = strlen(key);
  if (strncmp(line, key, n) != 0 || line[n] != ':') return NULL;
  const char *v = line + n + 1;
  while (*v == ' ' || *v == '\t') v++;
  size_t len = strcspn(v, "#\r\n");
  while (len && (v[len - 1] == ' ' || v[len - 1] == '\t')) len--;
  if (len >= 2 && (v[0] == '"' || v[0] == '\'') && v[len - 1] == v[0]) {
    v++;
    len -= 2;
  }
  return mp_xstrndup(v, len);
}

/* The runtime PulumiPlugin.yaml names: `runtime: <name>` or `runtime:`
 * with `name: <name>` under it. NULL when it names none. */
static char *runtime_of(const char *manifest) {
  FILE *f = fopen(manifest, "r");
  if (f == NULL) return NULL;
  char line[1024];
  char *rt = NULL;
  int in_runtime = 0;
  while (rt == NULL && fgets(line, sizeof(line), f)) {
    if (line[0] == ' ') {
      if (in_runtime) rt = value_of(line, "name");
      continue;
    }
    char *v = value_of(line, "runtime");
    in_runtime = v && v[0] == '\0';
    if (v && v[0]) rt = v;
    else free(v);
  }
  fclose(f);
  return rt;
}

/* The SDK's run-plugin folder as |dir| resolves it: its node_modules or
 * the nearest parent's. */
static char *find_run_plugin(const char *dir) {
  char *d = realpath(dir, NULL);
  while (d) {
    char *cand = mp_xasprintf("%s/" RUN_PLUGIN "/index.js", d);
    int found = access(cand, R_OK) == 0;
    free(cand);
    if (found) {
      char *r = mp_xasprintf("%s/" RUN_PLUGIN, d);
      free(d);
      return r;
    }
    char *slash = strrchr(d, '/');
    if (slash == NULL || slash == d) break;
    *slash = '\0';
  }
  free(d);
  return NULL;
}

char *mp__plugin_source_runtime(const char *dir) {
  char *manifest = manifest_of(dir);
  char *rt = manifest ? runtime_of(manifest) : NULL;
  free(manifest);
  return rt;
}

int mp__plugin_source_argv(const mp_plugin_host *h, const char *pkg,
                           const char *dir, mp_strv *argv, mp_err *err) {
  char *manifest = manifest_of(dir);
  char *rt = manifest ? runtime_of(manifest) : NULL;
  int rc = 0;
  char *node = NULL, *run = NULL;
  if (rt == NULL || strcmp(rt, "nodejs") != 0) {
    rc = mp_err_set(err, MP_EINVAL,
                    "plugin '%s' from source '%s': %s runtime '%s' is not "
                    "supported (minipulumi runs nodejs plugin folders, and "
                    "yaml ones in-process)",
                    pkg, dir, manifest ? manifest : "PulumiPlugin.yaml",
                    rt ? rt : "(none)");
  } else if ((node = mp__plugin_on_path(h->search_path, "node")) == NULL) {
    rc = mp_err_set(err, MP_ENOENT,
                    "plugin '%s' from source '%s' needs `node` on PATH; "
                    "install Node.js",
                    pkg, dir);
  } else if ((run = find_run_plugin(dir)) == NULL) {
    rc = mp_err_set(err, MP_ENOENT,
                    "plugin '%s' from source '%s' needs @pulumi/pulumi "
                    "installed there: run `npm install` in '%s'",
                    pkg, dir, dir);
  } else {
    mp_strv_push(argv, node);
    mp_strv_push(argv, run);
    mp_strv_push(argv, dir);
  }
  free(node);
  free(run);
  free(rt);
  free(manifest);
  return rc;
}
