/* The command's context: its defaults and its release (above the
 * secrets, whose cached managers it releases). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/plugins.h"
#include "cli/sanitized.h"
#include "cli/secrets.h"

void mp_ctx_init(mp_ctx *ctx) {
  memset(ctx, 0, sizeof(*ctx));
  ctx->out = stdout;
  ctx->err = stderr;
  ctx->stdin_tty = isatty(0);
  ctx->stdout_tty = isatty(1);
  ctx->previewing = 1; /* no update runs yet */
  ctx->leave_memory = !MP_SANITIZED;
  mp_log_init(&ctx->log);
  mp_cli_http_read(&ctx->http);
}

static void project_free(mp_cli_project *p) {
  if (!p) return;
  mp_project_free(p->lang);
  free(p->bare_name);
  free(p);
}

void mp_ctx_destroy(mp_ctx *ctx) {
  mp_cli_secrets_release(ctx);
  mp_store_close(ctx->store);
  ctx->store = NULL;
  free(ctx->backend_url);
  ctx->backend_url = NULL;
  if (!ctx->leave_memory) project_free(ctx->project); /* else: the exit's */
  ctx->project = NULL;
}
