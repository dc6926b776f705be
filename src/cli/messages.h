/* The exit statuses, and messages and questions to the user (messages.c).
 *
 * Convention inside src/cli: helpers named mp_cli_* that end in an exit
 * status print their own message to ctx->err and return the status the
 * command should exit with (0 = go on). */
#ifndef MP_CLI_MESSAGES_H
#define MP_CLI_MESSAGES_H

#include <stddef.h>

#include "cli/ctx.h"
#include "engine/err.h"

/* Exit statuses (Pulumi >= 3.227; docs/architecture.md, "Exit statuses"). */
enum mp_exit {
  MP_EXIT_OK = 0,
  MP_EXIT_ERROR = 1,
  MP_EXIT_CONFIG = 2,        /* bad flags or configuration */
  MP_EXIT_RESOURCE = 4,      /* a resource operation failed */
  MP_EXIT_NO_STACK = 6,      /* stack not found */
  MP_EXIT_CHANGES = 7,       /* --expect-no-changes found changes */
  MP_EXIT_CANCELLED = 8,
  MP_EXIT_INTERNAL = 255,
  /* Not a process status: a command's --help page was printed, and the
   * command must do nothing else. Every `if (!status)` chain stops on it;
   * main exits 0 for it. */
  MP_EXIT_HELP_SHOWN = 256
};

/* Prints "error: <msg>" to ctx->err and returns |status|. */
int mp_cli_error(mp_ctx *ctx, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Prints "error: <err->msg>" and returns |status|. */
int mp_cli_fail(mp_ctx *ctx, int status, const mp_err *err);
/* Prints "warning: <msg>" to ctx->err. */
void mp_cli_warn(mp_ctx *ctx, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* 1 if prompts may be shown: stdin and stdout are terminals, CI is unset
 * and --non-interactive was not given. */
int mp_cli_interactive(const mp_ctx *ctx);
/* On a terminal (the caller checks mp_cli_interactive), asks |message|
 * as Pulumi's survey Select menus do: |options| under it, the focus on
 * |def|, arrow keys to move, typing to filter, Enter to choose (select.c).
 * *choice: the index chosen. Returns 0, or -1 on Ctrl-C, Ctrl-D or end of
 * input. */
int mp_cli_select(mp_ctx *ctx, const char *message, const char *const *options,
                  size_t n, size_t def, size_t *choice);
/* Asks |question| and reads one line from stdin into |answer|. Returns 0,
 * or -1 on end of input or interrupt. */
int mp_cli_prompt(mp_ctx *ctx, const char *question, char *answer,
                  size_t size);
/* The error of a command that must ask but may not (`--yes must be passed
 * in ...`); returns its exit status (2). */
int mp_cli_need_yes(mp_ctx *ctx);
/* Confirms an irreversible action on |stack|: 0 at once with |yes|; else,
 * when prompts may be shown, prints the warning |fmt| (a line, formatted
 * with the arguments) and asks the user to type the stack's name. Returns
 * 0 when confirmed, else an exit status after the error. */
int mp_cli_confirm_by_name(mp_ctx *ctx, const char *stack, int yes,
                           const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

#endif
