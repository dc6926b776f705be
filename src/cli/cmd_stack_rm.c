/* minipulumi stack rm [NAME]: remove a stack, its history and its config
 * file. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"
#include "engine/prog_name.h"
#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/workspace.h"

static const mp_cmd_help help = {
    "minipulumi stack rm [<stack>] [flags]",
    "Remove a stack and its configuration.\n\n"
    "A stack that still has resources is refused unless --force is given "
    "(the resources\nare then forgotten, not deleted)."};

int mp_cmd_stack_rm(int argc, const char **argv, mp_ctx *ctx) {
  int force = 0, yes = 0, preserve = 0, backups = 0;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_BOOL_('f', "force", &force, "remove the stack even if it still has resources"),
      MP_OPT_BOOL_('y', "yes", &yes, "skip the confirmation"),
      MP_OPT_BOOL_(0, "preserve-config", &preserve, "keep Pulumi.<stack>.yaml"),
      MP_OPT_BOOL_(0, "remove-backups", &backups,
                   "Additionally remove backups of the stack, if using the "
                   "DIY backend (file://; without it the checkpoint is kept "
                   "as <stack>.json.bak; the SQLite and PostgreSQL stores "
                   "keep no backups)"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 0, 1, &pos);
  if (rc) return mp_args_exit_status(rc);
  char *stack = NULL;
  ctx->project_optional = 1;
  int status = mp_cli_stack(ctx, pos.len ? pos.items[0] : NULL, 1, &stack);
  if (!status)
    status = mp_cli_confirm_by_name(
        ctx, stack, yes, "This will permanently remove the '%s' stack!", stack);
  if (!status) {
    mp_err err;
    mp_err_clear(&err);
    if (mp_store_stack_remove(ctx->store, mp_cli_ref(ctx, stack),
                              (force ? MP_STORE_RM_FORCE : 0) |
                                  (backups ? MP_STORE_RM_BACKUPS : 0),
                              &err)) {
      if (err.code == MP_ESTATE && !force) /* Pulumi's text, said once */
        status = mp_cli_error(ctx, MP_EXIT_ERROR,
                              "'%s' still has resources; removal rejected. "
                              "Possible actions:\n"
                              "- Make sure that '%s' is the stack that you "
                              "want to destroy\n"
                              "- Run `%s destroy` to delete the "
                              "resources, then run `%s stack rm`\n"
                              "- Run `%s stack rm --force` to override "
                              "this error",
                              stack, stack, mp_prog_name(), mp_prog_name(),
                              mp_prog_name());
      else
        status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
    }
  }
  if (!status) {
    char *path = mp_cli_stack_config_path(ctx, stack);
    if (!preserve && path) unlink(path);
    free(path);
    fprintf(ctx->out, "Stack '%s' has been removed!\n", stack);
  }
  free(stack);
  mp_strv_destroy(&pos);
  return status;
}
