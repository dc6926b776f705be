/* minipulumi config set KEY [VALUE] [--secret] [--plaintext] [--path]:
 * one value of the stack's configuration, from the command line, the
 * terminal or standard input. */
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/config_cmd.h"
#include "cli/messages.h"
#include "cli/config_values.h"
#include "cli/secret_guess.h"
#include "cli/secrets.h"

static char *read_stdin_value(void) {
  mp_buf b;
  mp_buf_init(&b);
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0)
    mp_buf_append(&b, chunk, n);
  char *s = mp_buf_detach(&b, &n);
  if (n && s[n - 1] == '\n') s[--n] = 0;
  if (n && s[n - 1] == '\r') s[--n] = 0;
  return s;
}

static int set(mp_cfg_cmd *c, const mp_strv *pos, int secret, int plaintext,
                   int path) {
  mp_err err;
  mp_err_clear(&err);
  char *full = NULL, *rest = NULL, *value = NULL;
  int status = 0;
  if (mp_cli_config_key(c->ctx, pos->items[0], path, &full, &rest, &err))
    return mp_cli_fail(c->ctx, MP_EXIT_CONFIG, &err);
  if (pos->len > 1) {
    value = mp_xstrdup(pos->items[1]);
  } else if (mp_cli_interactive(c->ctx)) {
    char line[4096];
    /* a secret typed at the prompt is not echoed */
    int got = secret ? mp_cli_prompt_secret(c->ctx, "value", line, sizeof(line))
                     : mp_cli_prompt(c->ctx, "value:", line, sizeof(line));
    if (got == 0) value = mp_xstrdup(line);
    memset(line, 0, sizeof(line));
  } else {
    value = read_stdin_value();
  }
  if (!value) {
    status = mp_cli_error(c->ctx, MP_EXIT_CONFIG, "no value given for '%s'",
                          pos->items[0]);
    goto done;
  }
  mp_value *v = NULL;
  if (secret) {
    mp_passphrase *pp = NULL;
    if (mp_cli_secrets(c->ctx, c->stack, &c->file, MP_SECRETS_CREATE, &pp, &err) ||
        mp_cli_config_encrypt(pp, value, strlen(value), &v, &err)) {
      status = mp_cli_fail(c->ctx, MP_EXIT_CONFIG, &err);
      goto done;
    }
  } else if (!plaintext && mp_cli_looks_like_secret(pos->items[0], value)) {
    status = mp_cli_error(c->ctx, MP_EXIT_CONFIG,
                          "config value for '%s' looks like a secret; rerun "
                          "with --secret to encrypt it, or --plaintext if you "
                          "meant to store in plaintext",
                          full);
    goto done;
  } else if (rest) {
    v = mp_cfg_path_value(value); /* below a key, "true" and "2" are typed */
  } else {
    v = mp_value_new_cstring(value);
  }
  if (mp_cfg_put(c, full, rest, v, &err) || mp_stack_config_save(&c->file, &err))
    status = mp_cli_fail(c->ctx, MP_EXIT_CONFIG, &err);
done:
  free(value);
  free(full);
  free(rest);
  return status;
}

int mp_cmd_config_set(int argc, const char **argv, mp_ctx *ctx) {
  static const mp_cmd_help help = {
      "minipulumi config set <key> [value] [flags]",
      "Set configuration value.\n\nIf the value is not on the command line, "
      "it is read from the terminal, or from standard\ninput when that is not "
      "a terminal. A value that looks like a secret (its key names a\n"
      "password, secret or token, and it is random enough) needs --secret or "
      "--plaintext.\nWith --path, the key is a property path: `names[0]`, "
      "`parent.nested`."};
  mp_strv pos;
  mp_strv_init(&pos);
  int path = 0, plaintext = 0, secret = 0;
  const mp_opt opts[] = {
      MP_OPT_BOOL_(0, "path", &path,
                   "The key contains a path to a property in a map or list to set"),
      MP_OPT_BOOL_(0, "plaintext", &plaintext,
                   "Save the value as plaintext (unencrypted)"),
      MP_OPT_BOOL_(0, "secret", &secret,
                   "Encrypt the value instead of storing it in plaintext"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 1, 2, &pos);
  if (rc) return mp_args_exit_status(rc);
  int status = 0;
  mp_cfg_cmd c;
  memset(&c, 0, sizeof(c));
  if (secret && plaintext)
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "only one of --secret and --plaintext may be given");
  else if (!(status = mp_cfg_open(ctx, NULL, &c, 1)))
    status = set(&c, &pos, secret, plaintext, path);
  mp_cfg_close(&c);
  mp_strv_destroy(&pos);
  return status;
}

