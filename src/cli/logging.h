/* The CLI's side of the engine's logs and traces: -v/--verbose N,
 * --logtostderr, --logflow and --tracing file:PATH made into the ctx's
 * mp_log (engine/log.h), and the trace written at the exit. */
#ifndef MP_CLI_LOGGING_H
#define MP_CLI_LOGGING_H

#include "cli/ctx.h"

/* Settles ctx->log from the flags parsed so far (called after each parse
 * of flags; a later call only adds what is new). Without --logtostderr the
 * lines go to a file in the temp folder, named as glog names its files.
 * Returns MP_ARGS_OK, or MP_ARGS_ERROR with a message for a --tracing
 * that is not file:PATH or a negative level. |cmd| names the command. */
int mp_cli_log_setup(mp_ctx *ctx, const char *cmd);

/* At the exit: writes the trace, closes the log file, frees ctx->log.
 * Returns 0, or an exit status after printing why the trace could not be
 * written. */
int mp_cli_log_finish(mp_ctx *ctx);

#endif
