/* The table of built-in packages (providers/builtin.h). Each reports the
 * version it was asked for (it stands in for that version), or "0.1.0"
 * when none was asked. */
#include "providers/builtin.h"

#include <stdlib.h>
#include <string.h>

#include "providers/providers_int.h"

typedef struct builtin {
  const char *pkg;
  int (*implements)(const char *tok, int function); /* NULL: every type */
  int (*make)(const char *pkg, const char *version, mp_provider **out,
              mp_err *err);
  /* The major versions it stands in for (those of the published provider
   * whose resources it implements), lowest and highest; -1: every one. */
  long major_lo, major_hi;
  const char *claims; /* the same, in words */
} builtin;

static const builtin builtins[] = {
    {"random", mp__prov_random_implements, mp__prov_random_new, 4, 4, "4.x"},
    {"command", mp__prov_command_implements, mp__prov_command_new, 0, 1,
     "0.x and 1.x"},
    {"local", mp__prov_local_implements, mp__prov_local_new, -1, -1,
     "every version"},
    {"test", NULL, NULL, -1, -1, "every version"},
};

static const builtin *builtin_of(const char *pkg) {
  for (size_t i = 0; pkg != NULL && i < MP_ARRAY_LEN(builtins); i++)
    if (strcmp(builtins[i].pkg, pkg) == 0) return &builtins[i];
  return NULL;
}

/* Whether |b| stands in for |version| (NULL or "": any); a version whose
 * major number cannot be read is not claimed. */
static int claims(const builtin *b, const char *version) {
  if (b->major_lo < 0 || version == NULL || *version == '\0') return 1;
  const char *v = version + (*version == 'v' || *version == 'V');
  char *end = NULL;
  long major = strtol(v, &end, 10);
  if (end == v) return 0;
  return major >= b->major_lo && major <= b->major_hi;
}

int mp_builtin_implements(const char *pkg, const char *tok, int function) {
  const builtin *b = builtin_of(pkg);
  return b && (b->implements == NULL || b->implements(tok, function));
}

int mp_builtin_serves(const char *pkg, const char *version) {
  const builtin *b = builtin_of(pkg);
  return b && claims(b, version);
}

const char *mp_builtin_unclaimed(const char *pkg, const char *version) {
  const builtin *b = builtin_of(pkg);
  return b && !claims(b, version) ? b->claims : NULL;
}

static int make(void *ud, const char *pkg, const char *version,
                mp_provider **out, mp_err *err) {
  const mp_builtin_opts *o = ud;
  *out = NULL;
  const builtin *b = builtin_of(pkg);
  if (b && !claims(b, version))
    return mp_err_set(err, MP_ENOENT,
                      "no resource plugin 'pulumi-resource-%s' found in the "
                      "workspace at version v%s or on your $PATH (the "
                      "built-in '%s' serves %s)",
                      pkg, version, pkg, b->claims);
  /* The one package that takes something from the host. */
  if (b && b->make == NULL)
    return mp__prov_test_new(o ? o->test_world : NULL, pkg, version, out, err);
  if (b) return b->make(pkg, version, out, err);
  return mp_err_set(err, MP_ENOENT,
                    "no resource plugin 'pulumi-resource-%s' found in the "
                    "workspace or on your $PATH",
                    pkg ? pkg : "");
}

mp_provider_factory mp_builtin_providers(const mp_builtin_opts *o) {
  mp_provider_factory f = {make, (void *)o, NULL, NULL};
  return f;
}
