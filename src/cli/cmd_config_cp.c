/* minipulumi config cp [KEY] --dest STACK [--path] (also copy): copies
 * the stack's configuration, or one value of it, to another stack, its
 * secrets encrypted again for that stack. */
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/config_cmd.h"
#include "cli/config_values.h"
#include "cli/messages.h"
#include "cli/secrets.h"

/* The stored value of |full| (and |rest| below it) in |c|, or NULL. */
static const mp_value *stored_at(mp_cfg_cmd *c, const char *full,
                                 const char *rest, mp_err *err) {
  const mp_value *v = mp_value_object_get(mp_stack_config_values(&c->file), full);
  if (v == NULL || rest == NULL) return v;
  mp_path p;
  if (mp_path_parse(rest, &p, err)) return NULL;
  v = mp_path_get(v, &p);
  mp_path_destroy(&p);
  return v;
}

/* Copies |vals| (an object of full key -> stored value, owned) into |dst|,
 * secrets re-encrypted for it; |rest| places a single value at a path. */
static int copy_into(mp_cfg_cmd *src, mp_cfg_cmd *dst, mp_value *vals,
                     const char *rest, mp_err *err) {
  mp_passphrase *from = NULL, *to = NULL;
  int rc = mp_cli_secrets(src->ctx, src->stack, &src->file, MP_SECRETS_EXISTING,
                          &from, err);
  if (rc == 0 && from)
    rc = mp_cli_secrets(dst->ctx, dst->stack, &dst->file, MP_SECRETS_CREATE,
                        &to, err);
  if (rc == 0) rc = mp_cli_config_reencrypt(vals, from, to, err);
  for (size_t i = 0; rc == 0 && i < vals->u.obj.len; i++) {
    mp_value_entry *e = &vals->u.obj.items[i];
    rc = mp_cfg_put(dst, e->key, rest, e->value, err);
    e->value = NULL;
  }
  mp_value_free(vals);
  return rc;
}

int mp_cmd_config_cp(int argc, const char **argv, mp_ctx *ctx) {
  static const mp_cmd_help help = {
      "minipulumi config cp [KEY] --dest STACK [--path]",
      "Copies the config from the current stack to the destination stack. If "
      "`key` is omitted,\nthen all of the config from the current stack will "
      "be copied to the destination stack."};
  mp_strv pos;
  mp_strv_init(&pos);
  int path = 0;
  const char *dest = NULL;
  const mp_opt opts[] = {
      MP_OPT_STR_('d', "dest", &dest, "STACK",
                  "the name of the stack to copy the config to"),
      MP_OPT_BOOL_(0, "path", &path, "the key is a property path"),
      MP_OPT_END_};
  int status = 0;
  int rc = mp_args_parse(ctx, &help, opts, argc, argv, &pos);
  mp_cfg_cmd src, dst;
  memset(&src, 0, sizeof(src));
  memset(&dst, 0, sizeof(dst));
  if (rc) {
    status = mp_args_exit_status(rc);
  } else if (pos.len > 1) {
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "accepts at most 1 arg(s), received %zu", pos.len);
  } else if (!(status = mp_cfg_open(ctx, NULL, &src, 0))) {
    if (dest == NULL || !strcmp(dest, src.stack)) {
      status = mp_cli_error(ctx, MP_EXIT_ERROR,
                            "current stack and destination stack are the same");
    } else if (!(status = mp_cfg_open(ctx, dest, &dst, 1))) {
      mp_err err;
      mp_err_clear(&err);
      mp_value *vals = mp_value_new_object();
      char *full = NULL, *rest = NULL;
      if (pos.len == 0) {
        const mp_value *all = mp_stack_config_values(&src.file);
        for (size_t i = 0; i < all->u.obj.len; i++)
          mp_value_object_set(vals, all->u.obj.items[i].key,
                              mp_value_dup(all->u.obj.items[i].value));
      } else if (mp_cli_config_key(ctx, pos.items[0], path, &full, &rest, &err)) {
        status = mp_cli_fail(ctx, MP_EXIT_CONFIG, &err);
      } else {
        const mp_value *v = stored_at(&src, full, rest, &err);
        if (v) mp_value_object_set(vals, full, mp_value_dup(v));
        else if (err.code) status = mp_cli_fail(ctx, MP_EXIT_CONFIG, &err);
        else
          status = mp_cli_error(ctx, MP_EXIT_ERROR,
                                "configuration key '%s' not found for stack '%s'",
                                pos.items[0], src.stack);
      }
      if (status) {
        mp_value_free(vals);
      } else if (copy_into(&src, &dst, vals, rest, &err) ||
                 mp_stack_config_save(&dst.file, &err)) {
        status = mp_cli_fail(ctx, MP_EXIT_CONFIG, &err);
      }
      free(full);
      free(rest);
    }
  }
  mp_cfg_close(&dst);
  mp_cfg_close(&src);
  mp_strv_destroy(&pos);
  return status;
}
