/* The built-in providers: the packages compiled into the binary ("random",
 * "command", "local", "test"), so that the common packages need no plugin
 * process. The CLI hands their factory to the deployment. */
#ifndef MP_PROVIDERS_BUILTIN_H
#define MP_PROVIDERS_BUILTIN_H

#include "engine/provider.h"

/* What the built-in providers take from their host. Zeroed: nothing. */
typedef struct mp_builtin_opts {
  /* The test provider's world directory when neither its Configure nor
   * the request's config names one (the CLI passes
   * $MINIPULUMI_TEST_WORLD). NULL: none. */
  const char *test_world;
} mp_builtin_opts;

/* The factory of the built-in packages, with |o| (borrowed: it must
 * outlive the factory's use; NULL: zeroed options). Its |make| reports
 * MP_ENOENT ("no resource plugin 'pulumi-resource-<pkg>' found ...") for
 * any other package, and for a version of a built-in package that the
 * built-in does not stand in for (mp_builtin_unclaimed). Thread-safe. */
mp_provider_factory mp_builtin_providers(const mp_builtin_opts *o);

/* When |pkg| is built in but |version| is not one it stands in for (random
 * stands in for 4.x, command for 0.x and 1.x, local and test for every
 * version): the versions it does serve, in words ("4.x"); a plugin must
 * serve that version. Otherwise NULL. */
const char *mp_builtin_unclaimed(const char *pkg, const char *version);
/* 1 when the built-in |pkg| implements the resource type (or, with
 * |function|, the function) |tok|: a built-in stands in for its package's
 * version, but a type it lacks is served by the package's plugin
 * (plugin/fallback.c). The test package implements every type. */
int mp_builtin_implements(const char *pkg, const char *tok, int function);
/* 1 when |pkg| is built in and stands in for |version| (NULL or "": any
 * version), so that no plugin is needed for it; else 0. */
int mp_builtin_serves(const char *pkg, const char *version);

#endif
