/* The table of built-in packages (providers/builtin.h). Each reports the
 * version it was asked for (it stands in for that version), or "0.1.0"
 * when none was asked. */
#include "providers/builtin.h"

#include <string.h>

#include "providers/providers_int.h"

typedef struct builtin {
  const char *pkg;
  int (*make)(const char *pkg, const char *version, mp_provider **out,
              mp_err *err);
} builtin;

static const builtin builtins[] = {
    {"random", mp__prov_random_new},
    {"command", mp__prov_command_new},
    {"local", mp__prov_local_new},
};

static int make(void *ud, const char *pkg, const char *version,
                mp_provider **out, mp_err *err) {
  const mp_builtin_opts *o = ud;
  *out = NULL;
  /* The one package that takes something from the host. */
  if (pkg != NULL && strcmp(pkg, "test") == 0)
    return mp__prov_test_new(o ? o->test_world : NULL, pkg, version, out, err);
  for (size_t i = 0; pkg != NULL && i < MP_ARRAY_LEN(builtins); i++)
    if (strcmp(builtins[i].pkg, pkg) == 0)
      return builtins[i].make(pkg, version, out, err);
  return mp_err_set(err, MP_ENOENT,
                    "no resource plugin 'pulumi-resource-%s' found in the "
                    "workspace or on your $PATH",
                    pkg ? pkg : "");
}

mp_provider_factory mp_builtin_providers(const mp_builtin_opts *o) {
  mp_provider_factory f = {make, (void *)o};
  return f;
}
