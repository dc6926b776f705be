/* import --parent and --provider: Pulumi's `name=urn` specs, checked
 * against the stack's state and made into what the registration of the
 * imported resource carries (a parent URN, a provider reference). */
#ifndef MP_CLI_IMPORT_REFS_H
#define MP_CLI_IMPORT_REFS_H

#include "cli/ctx.h"
#include "engine/snapshot.h"

/* Resolves |parent_spec| and |provider_spec| (each NULL: not given) of
 * stack |stack|: *parent gets the parent's URN, *provider the reference
 * `<urn>::<id>` of the provider resource. Both must be in the stack's
 * state, which *snap then holds (the caller frees it; NULL when neither
 * spec is given). Returns 0, or an exit status after printing why. */
int mp_cli_import_refs(mp_ctx *ctx, const char *stack, const char *parent_spec,
                       const char *provider_spec, char **parent,
                       char **provider, mp_snapshot **snap);

#endif
