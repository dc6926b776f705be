/* minipulumi config set-all [--plaintext KEY=VALUE]... [--secret
 * KEY=VALUE]... [--path] | --json JSON: several values at once, with
 * Pulumi's flags and messages. */
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
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

int mp_cmd_config_set_all(int argc, const char **argv, mp_ctx *ctx) {
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
