/* minipulumi version: the first command of the README. */
#include "cli/args.h"
#include "cli/cli.h"

static const mp_cmd_help help = {"minipulumi version",
                                 "Print minipulumi's version number."};

int mp_cmd_version(int argc, const char **argv, mp_ctx *ctx) {
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {MP_OPT_END_};
  int rc = mp_args_parse(ctx, &help, opts, argc, argv, &pos);
  if (rc == MP_ARGS_OK) rc = mp_args_check_count(ctx, "version", &pos, 0, 0);
  mp_strv_destroy(&pos);
  if (rc) return mp_args_exit_status(rc);
  fprintf(ctx->out, "minipulumi version %s\n", MP_VERSION);
  return 0;
}
