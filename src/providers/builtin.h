/* The built-in providers: the packages compiled into the binary ("random",
 * "command", "local", "test"), so that the common packages need no plugin
 * process. The CLI hands their factory to the deployment. */
#ifndef MP_PROVIDERS_BUILTIN_H
#define MP_PROVIDERS_BUILTIN_H

#include "engine/provider.h"

/* The factory of the built-in packages. Its |make| reports MP_ENOENT
 * ("no resource plugin 'pulumi-resource-<pkg>' found ...") for any other
 * package. Thread-safe. */
mp_provider_factory mp_builtin_providers(void);

#endif
