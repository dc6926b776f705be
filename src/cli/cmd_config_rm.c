/* minipulumi config rm KEY [--path]: removes one value of the stack's
 * configuration. */
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/config_cmd.h"
#include "cli/messages.h"

static int rm(mp_cfg_cmd *c, const char *key, int path) {
  mp_err err;
  mp_err_clear(&err);
  if (mp_cfg_remove(c, key, path, &err))
    return mp_cli_fail(c->ctx, MP_EXIT_CONFIG, &err);
  if (mp_stack_config_save(&c->file, &err))
    return mp_cli_fail(c->ctx, MP_EXIT_ERROR, &err);
  return 0;
}

int mp_cmd_config_rm(int argc, const char **argv, mp_ctx *ctx) {
  static const mp_cmd_help help = {
      "minipulumi config rm <key> [flags]",
      "Remove configuration value.\n\nWith --path, the key is a property "
      "path: `names[0]`, `parent.nested`."};
  mp_strv pos;
  mp_strv_init(&pos);
  int path = 0;
  const mp_opt opts[] = {
      MP_OPT_BOOL_(0, "path", &path,
                   "The key contains a path to a property in a map or list to remove"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 1, 1, &pos);
  if (rc) return mp_args_exit_status(rc);
  mp_cfg_cmd c;
  int status = mp_cfg_open(ctx, NULL, &c, 1);
  if (!status) status = rm(&c, pos.items[0], path);
  mp_cfg_close(&c);
  mp_strv_destroy(&pos);
  return status;
}
