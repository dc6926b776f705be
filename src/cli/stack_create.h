/* Creating a stack (stack_create.c): the top of the workspace helpers. */
#ifndef MP_CLI_STACK_CREATE_H
#define MP_CLI_STACK_CREATE_H

#include "cli/ctx.h"

/* Creates stack |name| (validated: letters, digits, `-`, `_`, `.`), sets
 * up its passphrase salt when PULUMI_CONFIG_PASSPHRASE(_FILE) is set (or
 * adopts the `encryptionsalt` already in its file), copies the config of
 * |copy_from| (may be NULL) and selects it unless |no_select|. Prints
 * `Created stack '<name>'`. Returns an exit status. */
int mp_cli_stack_create(mp_ctx *ctx, const char *name, const char *copy_from,
                        int no_select);

/* No stack selected, on a terminal: asks which of the project's stacks to
 * use (with |offer_new|, or a new one, whose name is then asked) as
 * Pulumi's chooseStack does, and selects it (stack_choose.c). *out: the
 * name, owned. Returns an exit status. */
int mp_cli_stack_choose(mp_ctx *ctx, int offer_new, char **out);

#endif
