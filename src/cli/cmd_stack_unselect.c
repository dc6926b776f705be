/* minipulumi stack unselect: forget the project's selected stack, so that
 * the next command asks for one (Pulumi's `stack unselect`). */
#include <stdlib.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/workspace.h"

static const mp_cmd_help help = {
    "minipulumi stack unselect [flags]",
    "Resets stack selection from the current workspace.\n\n"
    "This way, next time minipulumi needs to execute an operation, the user "
    "is prompted\nwith one of the stacks to select from."};

int mp_cmd_stack_unselect(int argc, const char **argv, mp_ctx *ctx) {
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 0, 0, &pos);
  mp_strv_destroy(&pos);
  if (rc) return mp_args_exit_status(rc);
  int status = mp_cli_load_project(ctx);
  if (!status) status = mp_cli_store(ctx);
  if (status) return status;
  mp_err err;
  mp_err_clear(&err);
  char *selected = NULL;
  if (mp_store_selected_get(ctx->store, ctx->project->name, &selected, &err))
    return mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  if (selected) {
    if (mp_store_selected_set(ctx->store, ctx->project->name, NULL, &err))
      status = mp_cli_error(ctx, MP_EXIT_ERROR,
                            "Could not unselect the current stack from the "
                            "workspace: %s",
                            err.msg);
    else
      fprintf(ctx->out, "Stack was unselected\n");
  }
  free(selected);
  return status;
}
