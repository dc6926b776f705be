/* The `config` subcommands that work on several values at once:
 *   config set-all [--plaintext KEY=VALUE]... [--secret KEY=VALUE]... [--path]
 *   config rm-all KEY... [--path]
 *   config cp [KEY] --dest STACK [--path]
 * with Pulumi's flags and messages. */
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/config_cmd.h"
#include "cli/config_values.h"
#include "cli/messages.h"
#include "cli/secrets.h"

/* Splits `key=value` on the first '=' (a key quoted with ' or " may hold
 * '=' up to its closing quote). Sets *key and *value (owned). */
static int split_pair(const char *pair, char **key, char **value, mp_err *err) {
  const char *eq = NULL;
  const char *k = pair;
  if (pair[0] == '"' || pair[0] == '\'') {
    char pat[3] = {pair[0], '=', 0};
    k = pair + 1;
    eq = strstr(k, pat);
    if (eq) {
      *key = mp_xstrndup(k, (size_t)(eq - k));
      *value = mp_xstrdup(eq + 2);
      return 0;
    }
  } else {
    eq = strchr(pair, '=');
  }
  if (eq == NULL)
    return mp_err_set(err, MP_EINVAL,
                      "config value must be in the form [key]=[value]");
  *key = mp_xstrndup(pair, (size_t)(eq - pair));
  *value = mp_xstrdup(eq + 1);
  return 0;
}

/* Sets one `key=value`; |pp| encrypts it when not NULL. */
static int set_pair(mp_cfg_cmd *c, const char *pair, int path,
                    mp_passphrase *pp, mp_err *err) {
  char *key = NULL, *value = NULL, *full = NULL, *rest = NULL;
  int rc = split_pair(pair, &key, &value, err);
  if (rc == 0) rc = mp_cli_config_key(c->ctx, key, path, &full, &rest, err);
  if (rc) {
    if (rc && key) mp_err_prefix(err, "invalid configuration key '%s'", key);
  } else {
    mp_value *v = NULL;
    if (pp) rc = mp_cli_config_encrypt(pp, value, strlen(value), &v, err);
    else v = rest ? mp_cfg_path_value(value) : mp_value_new_cstring(value);
    if (rc == 0) rc = mp_cfg_put(c, full, rest, v, err);
  }
  free(key);
  if (value) memset(value, 0, strlen(value));
  free(value);
  free(full);
  free(rest);
  return rc;
}

static int set_all(int argc, const char **argv, mp_ctx *ctx) {
  static const mp_cmd_help help = {
      "minipulumi config set-all [--plaintext KEY=VALUE]... [--secret "
      "KEY=VALUE]... [--path] | --json JSON",
      "Set multiple configuration values: each --plaintext value as text, "
      "each --secret value\nencrypted. With --path, keys are property paths "
      "(a.b, names[0]). With --json, the values\nare read from one JSON "
      "object in the format `minipulumi config --json` prints."};
  mp_strv plain, secret, pos;
  mp_strv_init(&plain);
  mp_strv_init(&secret);
  mp_strv_init(&pos);
  int path = 0;
  const char *json = NULL;
  const mp_opt opts[] = {
      MP_OPT_STR_(0, "json", &json, "JSON",
                  "Read the values from this JSON object, in the format "
                  "`config --json` prints"),
      MP_OPT_LIST_(0, "plaintext", &plain, "KEY=VALUE",
                   "a value to store as text (repeatable)"),
      MP_OPT_LIST_(0, "secret", &secret, "KEY=VALUE",
                   "a value to encrypt (repeatable)"),
      MP_OPT_BOOL_(0, "path", &path, "keys are property paths"),
      MP_OPT_END_};
  int status = 0;
  int rc = mp_args_parse(ctx, &help, opts, argc, argv, &pos);
  if (rc) {
    status = mp_args_exit_status(rc);
  } else if (pos.len) {
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "config set-all takes no arguments; give the values "
                          "as --plaintext KEY=VALUE or --secret KEY=VALUE");
  } else if (json && (path || plain.len || secret.len)) {
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "--json cannot be combined with --path, "
                          "--plaintext or --secret");
  } else {
    mp_cfg_cmd c;
    mp_err err;
    mp_err_clear(&err);
    status = mp_cfg_open(ctx, NULL, &c, 1);
    if (!status && json && mp_cfg_set_json(&c, json, &err))
      status = mp_cli_fail(ctx, MP_EXIT_CONFIG, &err);
    mp_passphrase *pp = NULL;
    if (!status && secret.len &&
        mp_cli_secrets(ctx, c.stack, &c.file, MP_SECRETS_CREATE, &pp, &err))
      status = mp_cli_fail(ctx, MP_EXIT_CONFIG, &err);
    for (size_t i = 0; !status && i < plain.len; i++)
      if (set_pair(&c, plain.items[i], path, NULL, &err))
        status = mp_cli_fail(ctx, MP_EXIT_CONFIG, &err);
    for (size_t i = 0; !status && i < secret.len; i++)
      if (set_pair(&c, secret.items[i], path, pp, &err))
        status = mp_cli_fail(ctx, MP_EXIT_CONFIG, &err);
    if (!status && mp_stack_config_save(&c.file, &err))
      status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
    mp_cfg_close(&c);
  }
  mp_strv_destroy(&plain);
  mp_strv_destroy(&secret);
  mp_strv_destroy(&pos);
  return status;
}

static int rm_all(int argc, const char **argv, mp_ctx *ctx) {
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

static int copy_config(int argc, const char **argv, mp_ctx *ctx) {
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

int mp_cfg_bulk(int argc, const char **argv, mp_ctx *ctx, int *status) {
  static const struct {
    const char *names[3];
    int (*fn)(int argc, const char **argv, mp_ctx *ctx);
    const char *title;
  } subs[] = {
      {{"set-all", NULL, NULL}, set_all, "config set-all"},
      {{"rm-all", "remove-all", "delete-all"}, rm_all, "config rm-all"},
      {{"cp", "copy", NULL}, copy_config, "config cp"},
  };
  for (size_t i = 0; i < MP_ARRAY_LEN(subs); i++)
    for (size_t n = 0; n < 3 && subs[i].names[n]; n++) {
      if (strcmp(argv[1], subs[i].names[n])) continue;
      const char **args = mp_xcalloc((size_t)argc, sizeof(*args));
      args[0] = subs[i].title;
      for (int a = 2; a < argc; a++) args[a - 1] = argv[a];
      *status = subs[i].fn(argc - 1, args, ctx);
      free(args);
      return 1;
    }
  return 0;
}
