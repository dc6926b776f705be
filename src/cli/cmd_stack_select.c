/* minipulumi stack select [NAME] [-c]: switch the current stack. */
#include <stdlib.h>

#include "cli/args.h"
#include "engine/prog_name.h"
#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/stack_create.h"
#include "cli/workspace.h"

static const mp_cmd_help help = {
    "minipulumi stack select [<stack>] [flags]",
    "Switch the current stack; later commands operate on it.\n\n"
    "With --create, a stack that does not exist is created."};

int mp_cmd_stack_select(int argc, const char **argv, mp_ctx *ctx) {
  int create = 0;
  const char *provider = NULL;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_BOOL_('c', "create", &create, "create the stack if it does not exist"),
      MP_OPT_STR_(0, "secrets-provider", &provider, "name", "the secrets provider for a created stack (passphrase)"),
      MP_OPT_END_};
  int rc = mp_args_parse(ctx, &help, opts, argc, argv, &pos);
  if (rc == MP_ARGS_OK) rc = mp_args_check_count(ctx, argv[0], &pos, 0, 1);
  const char *name = pos.len ? pos.items[0] : ctx->stack;
  int status = 0;
  char *stack = NULL;
  if (rc) {
    status = mp_args_exit_status(rc);
  } else if (!name) {
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "no stack name given; use `%s stack select "
                          "<name>`",
                          mp_prog_name());
  } else if (create && (status = mp_cli_load_project(ctx)) == 0 &&
             (status = mp_cli_store(ctx)) == 0) {
    mp_err err;
    mp_err_clear(&err);
    char *shortn = NULL;
    int e = 0;
    if ((status = mp_cli_stack_parse(ctx, name, &shortn)) == 0)
      e = mp_store_stack_exists(ctx->store, mp_cli_ref(ctx, shortn), &err);
    free(shortn);
    if (status) {
      /* refused: printed */
    } else if (e < 0) {
      status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
    } else if (e == 0) {
      status = mp_cli_stack_create(ctx, name, NULL, 0);
    } else {
      create = 0; /* exists: plain select below */
    }
  }
  if (!rc && !status && !create) {
    status = mp_cli_stack(ctx, name, 1, &stack);
    mp_err err;
    mp_err_clear(&err);
    if (!status &&
        mp_store_selected_set(ctx->store, ctx->project->name, stack, &err))
      status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  }
  free(stack);
  mp_strv_destroy(&pos);
  return status;
}
