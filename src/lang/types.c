/* Type tokens of the built-in packages, resolved as Pulumi YAML resolves
 * them from the packages' schemas. */
#include "lang/yaml_host.h"

#include <stdlib.h>
#include <string.h>

#include "engine/mem.h"

/* "<pkg>:<module>:<Type>" as written (after `pkg:Type` → `pkg:index:Type`)
 * → the schema's token. */
static const char *const builtin_types[][2] = {
    {"random:index:RandomString", "random:index/randomString:RandomString"},
    {"random:index:RandomPassword",
     "random:index/randomPassword:RandomPassword"},
    {"random:index:RandomInteger", "random:index/randomInteger:RandomInteger"},
    {"random:index:RandomPet", "random:index/randomPet:RandomPet"},
    {"random:index:RandomId", "random:index/randomId:RandomId"},
    {"random:index:RandomUuid", "random:index/randomUuid:RandomUuid"},
    {"command:local:Command", "command:local:Command"},
    {"local:index:File", "local:index:File"},
    {"test:index:Resource", "test:index:Resource"},
};

static const char *const builtin_packages[] = {"random", "command", "local",
                                               "test"};

static int is_builtin_package(const char *pkg, size_t len) {
  for (size_t i = 0; i < MP_ARRAY_LEN(builtin_packages); i++)
    if (strlen(builtin_packages[i]) == len &&
        memcmp(builtin_packages[i], pkg, len) == 0)
      return 1;
  return 0;
}

int mp_yaml_resolve_type(const char *token, char **out, mp_err *err) {
  *out = NULL;
  const char *c1 = strchr(token, ':');
  if (c1 == NULL || c1 == token || c1[1] == '\0')
    return mp_err_set(err, MP_EINVAL,
                      "'%s' is not a type token; write '<package>:<Type>' "
                      "or '<package>:<module>:<Type>'",
                      token);
  const char *c2 = strchr(c1 + 1, ':');
  if (c2 != NULL && (c2 == c1 + 1 || c2[1] == '\0' || strchr(c2 + 1, ':')))
    return mp_err_set(err, MP_EINVAL, "'%s' is not a type token", token);
  char *full = c2 ? mp_xstrdup(token)
                  : mp_xasprintf("%.*s:index:%s", (int)(c1 - token), token,
                                 c1 + 1);
  if (strncmp(token, "pulumi:", 7) == 0 ||
      !is_builtin_package(token, (size_t)(c1 - token))) {
    *out = full;
    return 0;
  }
  for (size_t i = 0; i < MP_ARRAY_LEN(builtin_types); i++) {
    if (strcmp(full, builtin_types[i][0]) == 0 ||
        strcmp(full, builtin_types[i][1]) == 0) {
      free(full);
      *out = mp_xstrdup(builtin_types[i][1]);
      return 0;
    }
  }
  int rc = mp_err_set(err, MP_EINVAL,
                      "unknown resource type '%s': package '%.*s' has no "
                      "such type",
                      token, (int)(c1 - token), token);
  free(full);
  return rc;
}
