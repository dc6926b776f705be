/* minipulumi state upgrade: `pulumi state upgrade` migrates a DIY
 * backend's files to their latest layout and, on any other backend, says
 * "Nothing to do" (pkg/cmd/pulumi/state/state_upgrade.go). The SQLite and
 * PostgreSQL stores bring their schema up to date whenever they are
 * opened, so here too there is nothing to do: the command says so and
 * changes nothing. */
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/messages.h"

static const mp_cmd_help help = {
    "minipulumi state upgrade [flags]",
    "Migrates the current backend to the latest supported version\n\nThis "
    "only has an effect on Pulumi's DIY backends. The SQLite and PostgreSQL "
    "stores\nupgrade their schema whenever a command opens them."};

int mp_cmd_state_upgrade(int argc, const char **argv, mp_ctx *ctx) {
  int yes = 0;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_BOOL_('y', "yes", &yes,
                   "Automatically approve and perform the upgrade"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 0, 0, &pos);
  if (rc) return mp_args_exit_status(rc);
  mp_strv_destroy(&pos);
  fprintf(ctx->out, "Nothing to do\n");
  return 0;
}
