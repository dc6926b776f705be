/* minipulumi stack rename NEW: rename the current stack (and its config
 * file). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/workspace.h"

static const mp_cmd_help help = {
    "minipulumi stack rename <new-stack-name> [flags]",
    "Rename the current stack (or the one named by --stack); its "
    "Pulumi.<stack>.yaml\nfollows."};

static int rename_stack(mp_ctx *ctx, const char *old, const char *new_name) {
  mp_err err;
  mp_err_clear(&err);
  char *selected = NULL;
  int e = mp_store_stack_exists(ctx->store, mp_cli_ref(ctx, new_name), &err);
  if (e < 0) return mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  if (e > 0)
    return mp_cli_error(ctx, MP_EXIT_ERROR, "stack '%s' already exists", new_name);
  if (mp_store_selected_get(ctx->store, ctx->project->name, &selected, &err) ||
      mp_store_stack_rename(ctx->store, mp_cli_ref(ctx, old), new_name, &err)) {
    free(selected);
    return mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  }
  int status = 0;
  if (selected && !strcmp(selected, old) &&
      mp_store_selected_set(ctx->store, ctx->project->name, new_name, &err))
    status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  free(selected);
  char *from = mp_cli_stack_config_path(ctx, old);
  char *to = mp_cli_stack_config_path(ctx, new_name);
  if (!status && rename(from, to) != 0 && errno != ENOENT)
    status = mp_cli_error(ctx, MP_EXIT_ERROR, "cannot rename '%s' to '%s': %s",
                          from, to, strerror(errno));
  free(from);
  free(to);
  if (!status) fprintf(ctx->out, "Renamed %s to %s\n", old, new_name);
  return status;
}

int mp_cmd_stack_rename(int argc, const char **argv, mp_ctx *ctx) {
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 1, 1, &pos);
  if (rc) return mp_args_exit_status(rc);
  char *stack = NULL, *new_name = NULL;
  int status = mp_cli_stack(ctx, NULL, 1, &stack);
  if (!status && !(status = mp_cli_stack_parse(ctx, pos.items[0], &new_name)))
    status = rename_stack(ctx, stack, new_name);
  free(stack);
  free(new_name);
  mp_strv_destroy(&pos);
  return status;
}
