/* minipulumi config rm-all KEY... [--path] (also remove-all, delete-all):
 * removes several values at once. */
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/config_cmd.h"
#include "cli/messages.h"

int mp_cmd_config_rm_all(int argc, const char **argv, mp_ctx *ctx) {
  static const mp_cmd_help help = {
      "minipulumi config rm-all KEY... [--path]",
      "Remove multiple configuration values. With --path, keys are property "
      "paths\n(outer.inner, 'foo[0]')."};
  mp_strv pos;
  mp_strv_init(&pos);
  int path = 0;
  const mp_opt opts[] = {
      MP_OPT_BOOL_(0, "path", &path, "keys are property paths"),
      MP_OPT_END_};
  int status = 0;
  int rc = mp_args_parse(ctx, &help, opts, argc, argv, &pos);
  if (rc) {
    status = mp_args_exit_status(rc);
  } else if (pos.len == 0) {
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "requires at least 1 arg(s), only received 0");
  } else {
    mp_cfg_cmd c;
    mp_err err;
    mp_err_clear(&err);
    status = mp_cfg_open(ctx, NULL, &c, 1);
    for (size_t i = 0; !status && i < pos.len; i++)
      if (mp_cfg_remove(&c, pos.items[i], path, &err))
        status = mp_cli_fail(ctx, MP_EXIT_CONFIG, &err);
    if (!status && mp_stack_config_save(&c.file, &err))
      status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
    mp_cfg_close(&c);
  }
  mp_strv_destroy(&pos);
  return status;
}
