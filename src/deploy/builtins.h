/* The provider of the engine's own package `pulumi` (builtins.c, stash.c):
 * pulumi:pulumi:StackReference and pulumi:index:Stash. */
#ifndef MP_DEPLOY_BUILTINS_H
#define MP_DEPLOY_BUILTINS_H

#include "engine/err.h"
#include "engine/provider.h"
#include "engine/value.h"

/* Reads the outputs of stack |name| (as a program names it) into *out, a
 * new OBJECT, secrets decrypted and still marked. Returns 0 or an MP_E code
 * with why in |err|. Called on the worker pool, at once from several
 * threads. */
typedef int (*mp_read_stack_fn)(void *ud, const char *name, mp_value **out,
                                mp_err *err);

/* The provider of package `pulumi`; StackReference reads through
 * |read_stack| with |ud| (borrowed: it must outlive the provider).
 * Returns 0. */
int mp_deploy_builtins_new(mp_read_stack_fn read_stack, void *ud,
                           mp_provider **out);

#endif
