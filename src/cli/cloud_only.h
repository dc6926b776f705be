/* What only Pulumi Cloud does: the commands (org, console, deployment,
 * env, logs) and flags (--remote*, --neo, --teams) a Pulumi user may type,
 * answered with one clear error that names Pulumi Cloud instead of
 * "unknown command" or "unknown flag". */
#ifndef MP_CLI_CLOUD_ONLY_H
#define MP_CLI_CLOUD_ONLY_H

#include "cli/ctx.h"

/* The command argv[0] (its --help page, exit 0, or the error, exit 2). */
int mp_cmd_cloud_only(int argc, const char **argv, mp_ctx *ctx);

/* 1 if the long flag |name| (|n| bytes, without dashes) is one of Pulumi
 * Cloud's. */
int mp_cli_cloud_flag(const char *name, size_t n);

/* Prints the error for |what| (a command or a flag) and returns 2. */
int mp_cli_cloud_error(mp_ctx *ctx, const char *what);

#endif
