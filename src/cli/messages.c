/* Messages and questions to the user: errors, warnings, prompts and
 * confirmations (the bottom of the CLI's helpers: everything may call
 * them). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli/messages.h"

/* "<label><message>\n" on ctx->err. */
static void report(mp_ctx *ctx, const char *label, const char *fmt,
                   va_list ap) {
  fputs(label, ctx->err);
  vfprintf(ctx->err, fmt, ap);
  fputc('\n', ctx->err);
}

int mp_cli_error(mp_ctx *ctx, int status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(ctx, "error: ", fmt, ap);
  va_end(ap);
  return status;
}

int mp_cli_fail(mp_ctx *ctx, int status, const mp_err *err) {
  return mp_cli_error(ctx, status, "%s", err->msg[0] ? err->msg : "failed");
}

void mp_cli_warn(mp_ctx *ctx, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report(ctx, "warning: ", fmt, ap);
  va_end(ap);
}

int mp_cli_interactive(const mp_ctx *ctx) {
  const char *ci = getenv("CI");
  if (ctx->non_interactive) return 0;
  if (ci && *ci && strcmp(ci, "false") && strcmp(ci, "0")) return 0;
  return ctx->stdin_tty && ctx->stdout_tty;
}

int mp_cli_prompt(mp_ctx *ctx, const char *question, char *answer,
                  size_t size) {
  fprintf(ctx->out, "%s ", question);
  fflush(ctx->out);
  if (!fgets(answer, (int)size, stdin) || ctx->interrupt) return -1;
  answer[strcspn(answer, "\r\n")] = 0;
  return 0;
}

int mp_cli_need_yes(mp_ctx *ctx) {
  return mp_cli_error(ctx, MP_EXIT_CONFIG,
                      "--yes must be passed in to proceed when running in "
                      "non-interactive mode");
}

int mp_cli_confirm_by_name(mp_ctx *ctx, const char *stack, int yes,
                           const char *fmt, ...) {
  if (yes) return 0;
  if (!mp_cli_interactive(ctx)) return mp_cli_need_yes(ctx);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(ctx->out, fmt, ap);
  va_end(ap);
  fputc('\n', ctx->out);
  char q[300], answer[256];
  snprintf(q, sizeof(q),
           "Please confirm that this is what you'd like to do by typing `%s`:",
           stack);
  if (mp_cli_prompt(ctx, q, answer, sizeof(answer)) != 0 || strcmp(answer, stack))
    return mp_cli_error(ctx, MP_EXIT_ERROR, "confirmation declined");
  return 0;
}
