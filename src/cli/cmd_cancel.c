/* minipulumi cancel [STACK]: break the lock of an update that is stuck or
 * whose process died. Dangerous: the state may need a refresh afterwards. */
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/workspace.h"

static const mp_cmd_help help = {
    "minipulumi cancel [<stack-name>] [flags]",
    "Cancel the stack's currently running update by breaking its lock.\n\n"
    "Only do this when the update's process is gone or stuck: a still "
    "running update\nmay leave pending operations behind."};

int mp_cmd_cancel(int argc, const char **argv, mp_ctx *ctx) {
  int yes = 0;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_BOOL_('y', "yes", &yes, "skip the confirmation"), MP_OPT_END_};
  int rc = mp_args_parse(ctx, &help, opts, argc, argv, &pos);
  if (rc == MP_ARGS_OK) rc = mp_args_check_count(ctx, "cancel", &pos, 0, 1);
  if (rc) {
    mp_strv_destroy(&pos);
    return mp_args_exit_status(rc);
  }
  char *stack = NULL;
  int status = rc ? mp_args_exit_status(rc)
                  : mp_cli_stack(ctx, pos.len ? pos.items[0] : NULL, 1, &stack);
  mp_lock_info info;
  mp_err err;
  mp_err_clear(&err);
  if (!status)
    status = mp_cli_confirm_by_name(
        ctx, stack, yes,
        "This will irreversibly cancel the currently running update for "
        "'%s'!",
        stack);
  if (!status) {
    int locked = mp_store_lock_get(ctx->store, mp_cli_ref(ctx, stack), &info, &err);
    if (locked < 0) {
      status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
    } else if (locked == 0) {
      fprintf(ctx->out, "Stack '%s' has no update in progress.\n", stack);
    } else if (mp_store_lock_break(ctx->store, mp_cli_ref(ctx, stack), &err)) {
      status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
    } else {
      fprintf(ctx->out,
              "The currently running %s for '%s' (pid %lld on %s, since %s) "
              "has been canceled!\n",
              info.operation, stack, (long long)info.pid, info.host, info.time);
    }
  }
  free(stack);
  mp_strv_destroy(&pos);
  return status;
}
