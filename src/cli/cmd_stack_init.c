/* minipulumi stack init [NAME]: create an empty stack and select it. */
#include <string.h>

#include "cli/args.h"
#include "engine/prog_name.h"
#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/stack_create.h"

static const mp_cmd_help help = {
    "minipulumi stack init [<stack-name>] [flags]",
    "Create an empty stack with the given name, ready for updates, and "
    "select it.\n\nWith PULUMI_CONFIG_PASSPHRASE (or _FILE) set, the "
    "stack's passphrase salt is created\nnow and written as `encryptionsalt` "
    "to Pulumi.<stack>.yaml."};

int mp_cmd_stack_init(int argc, const char **argv, mp_ctx *ctx) {
  const char *provider = NULL, *copy_from = NULL;
  int no_select = 0;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_STR_(0, "secrets-provider", &provider, "name", "the secrets provider: passphrase (the only one)"),
      MP_OPT_STR_(0, "copy-config-from", &copy_from, "stack", "copy the config of this stack"),
      MP_OPT_BOOL_(0, "no-select", &no_select, "do not select the new stack"),
      MP_OPT_END_};
  int rc = mp_args_parse(ctx, &help, opts, argc, argv, &pos);
  if (rc == MP_ARGS_OK) rc = mp_args_check_count(ctx, argv[0], &pos, 0, 1);
  int status;
  const char *name = pos.len ? pos.items[0] : ctx->stack;
  if (rc) {
    status = mp_args_exit_status(rc);
  } else if (provider && strcmp(provider, "passphrase") && strcmp(provider, "default")) {
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "unsupported secrets provider '%s'; only "
                          "'passphrase' is available",
                          provider);
  } else if (!name) {
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "no stack name given; use `%s stack init "
                          "<name>`",
                          mp_prog_name());
  } else {
    status = mp_cli_stack_create(ctx, name, copy_from, no_select);
  }
  mp_strv_destroy(&pos);
  return status;
}
