/* The table of built-in packages (provider.h): providers compiled into
 * the binary so that the common packages need no plugin process. Each
 * reports the version it was asked for (it stands in for that version),
 * or "0.1.0" when none was asked. */
#include "providers/providers_int.h"

#include <string.h>

typedef struct builtin {
  const char *pkg;
  mp_provider_factory factory;
} builtin;

static const builtin builtins[] = {
    {"random", mp__prov_random_new},
    {"command", mp__prov_command_new},
    {"local", mp__prov_local_new},
    {"test", mp__prov_test_new},
};

mp_provider_factory mp_builtin_provider_factory(const char *pkg) {
  size_t i;
  for (i = 0; pkg != NULL && i < MP_ARRAY_LEN(builtins); i++)
    if (strcmp(builtins[i].pkg, pkg) == 0)
      return builtins[i].factory;
  return NULL;
}
