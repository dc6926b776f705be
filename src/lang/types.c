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
    {"random:index:RandomBytes", "random:index/randomBytes:RandomBytes"},
    {"random:index:RandomShuffle", "random:index/randomShuffle:RandomShuffle"},
    {"random:index:RandomUuid4", "random:index/randomUuid4:RandomUuid4"},
    {"random:index:RandomUuid7", "random:index/randomUuid7:RandomUuid7"},
    {"command:local:Command", "command:local:Command"},
    {"local:index:File", "local:index:File"},
    {"test:index:Resource", "test:index:Resource"},
};

/* The types of the published built-in packages (pulumi-command 1.x's
 * schema) that the built-in providers do not implement. */
static const char *const plugin_types[] = {
    "command:remote:Command", "command:remote:CopyFile",
    "command:remote:CopyToRemote"};

static const char *const builtin_packages[] = {"random", "command", "local",
                                               "test"};

static int is_builtin_package(const char *pkg, size_t len) {
  for (size_t i = 0; i < MP_ARRAY_LEN(builtin_packages); i++)
    if (strlen(builtin_packages[i]) == len &&
        memcmp(builtin_packages[i], pkg, len) == 0)
      return 1;
  return 0;
}

int mp__yaml_builtin_package(const char *pkg) {
  return pkg && is_builtin_package(pkg, strlen(pkg));
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
  /* A type of the published package that the built-in provider lacks
   * stays as written: the package's plugin serves it (plugin/fallback.c),
   * or the registration says which plugin to install. */
  for (size_t i = 0; i < MP_ARRAY_LEN(plugin_types); i++)
    if (strcmp(full, plugin_types[i]) == 0) {
      *out = full;
      return 0;
    }
  int rc = mp_err_set(err, MP_EINVAL,
                      "unknown resource type '%s': package '%.*s' has no "
                      "such type",
                      token, (int)(c1 - token), token);
  free(full);
  return rc;
}

/* The properties of the built-in resource types, as their packages'
 * schemas list them (`urn` and, for custom resources, `id` come on top);
 * `test:index:Resource` is free-form and has none listed. */
static const char *const pet_props[] = {"keepers", "length", "prefix",
                                        "separator", NULL};
static const char *const string_props[] = {
    "keepers",    "length", "lower",   "minLower", "minNumeric",
    "minSpecial", "minUpper", "number", "numeric", "overrideSpecial",
    "result",     "special", "upper",  NULL};
static const char *const password_props[] = {
    "bcryptHash", "keepers", "length",  "lower",   "minLower",
    "minNumeric", "minSpecial", "minUpper", "number", "numeric",
    "overrideSpecial", "result", "special", "upper", NULL};
static const char *const integer_props[] = {"keepers", "max", "min", "result",
                                            "seed", NULL};
static const char *const id_props[] = {"b64Std", "b64Url", "byteLength", "dec",
                                       "hex",    "keepers", "prefix", NULL};
static const char *const uuid_props[] = {"keepers", "result", NULL};
static const char *const bytes_props[] = {"base64", "hex", "keepers", "length",
                                          NULL};
static const char *const command_props[] = {
    "addPreviousOutputInEnv", "archive", "archivePaths", "assetPaths",
    "assets", "create", "delete", "dir", "environment", "interpreter",
    "logging", "stderr", "stdin", "stdout", "triggers", "update", NULL};
static const char *const file_props[] = {"content", "mode", "overwrite", "path",
                                         "sha256", NULL};

const char *const *mp_yaml_type_properties(const char *token) {
  static const struct {
    const char *token;
    const char *const *props;
  } known[] = {
      {"random:index/randomPet:RandomPet", pet_props},
      {"random:index/randomString:RandomString", string_props},
      {"random:index/randomPassword:RandomPassword", password_props},
      {"random:index/randomInteger:RandomInteger", integer_props},
      {"random:index/randomId:RandomId", id_props},
      {"random:index/randomUuid:RandomUuid", uuid_props},
      {"random:index/randomBytes:RandomBytes", bytes_props},
      {"command:local:Command", command_props},
      {"local:index:File", file_props},
  };
  for (size_t i = 0; token && i < MP_ARRAY_LEN(known); i++)
    if (strcmp(known[i].token, token) == 0) return known[i].props;
  return NULL;
}
