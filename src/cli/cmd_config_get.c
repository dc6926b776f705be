/* minipulumi config get KEY [--json] [--path]: one value of the stack's
 * configuration, decrypted. */
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/config_cmd.h"
#include "cli/messages.h"
#include "cli/config_values.h"
#include "cli/json_out.h"
#include "cli/render.h"

static int get(mp_cfg_cmd *c, const char *key, int path, int json) {
  mp_err err;
  mp_err_clear(&err);
  char *full = NULL, *rest = NULL;
  if (mp_cli_config_key(c->ctx, key, path, &full, &rest, &err))
    return mp_cli_fail(c->ctx, MP_EXIT_CONFIG, &err);
  mp_value *all = NULL, *found = NULL;
  int status = mp_cfg_decode_all(c, 1, &all);
  const mp_value *v = all ? mp_value_object_get(all, full) : NULL;
  if (!status && v && rest) {
    mp_path p;
    if (mp_path_parse(rest, &p, &err)) {
      status = mp_cli_fail(c->ctx, MP_EXIT_CONFIG, &err);
    } else {
      const mp_value *at = mp_path_get(v, &p);
      found = at ? mp_value_dup(at) : NULL;
      v = found;
      mp_path_destroy(&p);
    }
  }
  if (!status && !v)
    status = mp_cli_error(c->ctx, MP_EXIT_ERROR,
                          "configuration key '%s' not found for stack '%s'",
                          key, c->stack);
  if (!status) {
    if (json) {
      mp_cli_cjson_emit(c->ctx->out, mp_cfg_entry_json(v, 1, 1), 2);
    } else {
      mp_value *plain = mp_value_strip_secrets(v);
      mp_buf b;
      mp_buf_init(&b);
      if (plain->kind == MP_VALUE_STRING) mp_buf_puts(&b, plain->u.str.ptr);
      else mp_cli_value_json(plain, MP_RENDER_SHOW_SECRETS, 0, &b);
      fprintf(c->ctx->out, "%s\n", b.data ? b.data : "");
      mp_buf_destroy(&b);
      mp_value_free(plain);
    }
  }
  mp_value_free(found);
  mp_value_free(all);
  free(full);
  free(rest);
  return status;
}

int mp_cmd_config_get(int argc, const char **argv, mp_ctx *ctx) {
  static const mp_cmd_help help = {
      "minipulumi config get <key> [flags]",
      "Get a single configuration value.\n\nWith --path, the key is a property "
      "path: `names[0]`, `parent.nested`."};
  mp_strv pos;
  mp_strv_init(&pos);
  int json = 0, path = 0;
  const mp_opt opts[] = {
      MP_OPT_BOOL_('j', "json", &json, "Emit output as JSON"),
      MP_OPT_BOOL_(0, "path", &path,
                   "The key contains a path to a property in a map or list to get"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 1, 1, &pos);
  if (rc) return mp_args_exit_status(rc);
  mp_cfg_cmd c;
  int status = mp_cfg_open(ctx, NULL, &c, 0);
  if (!status) status = get(&c, pos.items[0], path, json);
  mp_cfg_close(&c);
  mp_strv_destroy(&pos);
  return status;
}

