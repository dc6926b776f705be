/* minipulumi stack change-secrets-provider passphrase: a new passphrase
 * (and salt) for the stack. Every secret of the config file and of the
 * state is decrypted with the old passphrase (from the environment, or
 * asked) and encrypted again with the new one, which is asked twice on a
 * terminal, else read as one line from standard input, as Pulumi's
 * rotation does (it never takes the new one from the environment). The
 * state is written first, then the config file; each write is atomic. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/config_file.h"
#include "cli/messages.h"
#include "cli/secrets.h"
#include "cli/workspace.h"

static const mp_cmd_help help = {
    "minipulumi stack change-secrets-provider <new-secrets-provider> [flags]",
    "Change the secrets provider for a stack. minipulumi has one: "
    "`passphrase`.\n\n"
    "Changing to passphrase when the stack already uses one rotates it: the "
    "new\npassphrase is asked on a terminal (else read from standard input), "
    "and the\nconfig's and the state's secrets are encrypted again with a "
    "new salt."};

/* The new passphrase: asked twice without echo on a terminal, else one
 * line of standard input. Owned in *out; 0 or an exit status. */
static int new_passphrase(mp_ctx *ctx, char **out) {
  char a[1024], b[1024];
  *out = NULL;
  if (!mp_cli_interactive(ctx)) {
    if (!fgets(a, sizeof(a), stdin))
      return mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "the new passphrase is read from standard input "
                          "without a terminal, and none was given");
    a[strcspn(a, "\r\n")] = 0;
    *out = mp_xstrdup(a);
    return 0;
  }
  for (;;) {
    if (mp_cli_prompt_secret(ctx, "Enter your new passphrase to protect "
                                  "config/secrets",
                             a, sizeof(a)) ||
        mp_cli_prompt_secret(ctx, "Re-enter your new passphrase to confirm",
                             b, sizeof(b)))
      return mp_cli_error(ctx, MP_EXIT_CANCELLED, "passphrase entry cancelled");
    if (!strcmp(a, b)) break;
    fprintf(ctx->err, "error: passphrases do not match\n");
  }
  *out = mp_xstrdup(a);
  memset(a, 0, sizeof(a));
  memset(b, 0, sizeof(b));
  return 0;
}

/* Re-encrypts every `secure:` value under |v| from |from| to |to|. */
static int reencrypt_config(mp_value *v, const mp_crypter *from,
                            const mp_crypter *to, mp_err *err) {
  if (!v || v->kind != MP_VALUE_OBJECT) {
    if (v && v->kind == MP_VALUE_ARRAY)
      for (size_t i = 0; i < v->u.arr.len; i++)
        if (reencrypt_config(v->u.arr.items[i], from, to, err)) return -1;
    return 0;
  }
  if (mp_config_is_secure(v)) {
    const char *ct = mp_config_secure_text(v);
    mp_buf plain, again;
    mp_buf_init(&plain);
    mp_buf_init(&again);
    int rc = from->decrypt(from->ctx, ct, strlen(ct), &plain, err);
    if (!rc) rc = to->encrypt(to->ctx, plain.data ? plain.data : "", plain.len,
                              &again, err);
    if (!rc) {
      mp_buf_putc(&again, '\0');
      mp_value_object_set(v, "secure", mp_value_new_cstring(again.data));
    }
    if (plain.data) memset(plain.data, 0, plain.len);
    mp_buf_destroy(&plain);
    mp_buf_destroy(&again);
    return rc ? -1 : 0;
  }
  for (size_t i = 0; i < v->u.obj.len; i++)
    if (reencrypt_config(v->u.obj.items[i].value, from, to, err)) return -1;
  return 0;
}

static int rotate(mp_ctx *ctx, const char *stack, mp_stack_config *cfg) {
  mp_err err;
  mp_err_clear(&err);
  mp_passphrase *old = NULL, *fresh = NULL;
  mp_snapshot *snap = NULL;
  mp_crypter old_c, new_c;
  int has_c = 0, status = 0;
  char *pass = NULL;
  if (mp_cli_secrets(ctx, stack, cfg, MP_SECRETS_EXISTING | MP_SECRETS_NOW,
                     &old, &err))
    return mp_cli_fail(ctx, MP_EXIT_CONFIG, &err);
  if ((status = mp_cli_load_snapshot(ctx, stack, &snap, &old_c, &has_c)))
    return status;
  if (old) old_c = mp_passphrase_crypter(old);
  if ((status = new_passphrase(ctx, &pass))) goto done;
  if (mp_passphrase_create(pass, &fresh, &err)) {
    status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
    goto done;
  }
  new_c = mp_passphrase_crypter(fresh);
  fprintf(ctx->out,
          "Migrating old configuration and state to new secrets provider\n");
  if (old && reencrypt_config(mp_stack_config_values(cfg), &old_c, &new_c, &err)) {
    status = mp_cli_error(ctx, MP_EXIT_ERROR,
                          "cannot re-encrypt the config of stack '%s': %s",
                          stack, err.msg);
    goto done;
  }
  free(snap->secrets_type);
  free(snap->secrets_state);
  snap->secrets_type = mp_xstrdup("passphrase");
  snap->secrets_state =
      mp_xasprintf("{\"salt\":\"%s\"}", mp_passphrase_state(fresh));
  if (mp_store_replace(ctx->store, mp_cli_ref(ctx, stack), snap, &new_c, &err)) {
    status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
    goto done;
  }
  mp_stack_config_set_salt(cfg, mp_passphrase_state(fresh));
  if (mp_stack_config_save(cfg, &err))
    status = mp_cli_error(ctx, MP_EXIT_ERROR,
                          "the state uses the new passphrase but %s could not "
                          "be written: %s; run the command again with the new "
                          "passphrase as the old one",
                          cfg->path, err.msg);
done:
  if (pass) memset(pass, 0, strlen(pass));
  free(pass);
  mp_passphrase_free(fresh);
  mp_snapshot_free(snap);
  return status;
}

int mp_cmd_stack_change_secrets_provider(int argc, const char **argv,
                                         mp_ctx *ctx) {
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 1, 1, &pos);
  if (rc) {
    mp_strv_destroy(&pos);
    return mp_args_exit_status(rc);
  }
  int status = 0;
  const char *want = pos.items[0];
  char *stack = NULL;
  if (strcmp(want, "passphrase"))
    status = mp_cli_error(
        ctx, MP_EXIT_CONFIG,
        "unknown secrets provider '%s': minipulumi has the passphrase "
        "provider only (`default` is Pulumi Cloud's; awskms, azurekeyvault, "
        "gcpkms and hashivault are not built in)",
        want);
  if (!status) status = mp_cli_stack(ctx, NULL, 1, &stack);
  if (!status) {
    char *path = mp_cli_stack_config_path(ctx, stack);
    mp_stack_config cfg;
    mp_err err;
    mp_err_clear(&err);
    if (mp_stack_config_open(path, &cfg, &err)) {
      status = mp_cli_fail(ctx, MP_EXIT_CONFIG, &err);
    } else {
      status = rotate(ctx, stack, &cfg);
      mp_stack_config_destroy(&cfg);
    }
    free(path);
  }
  free(stack);
  mp_strv_destroy(&pos);
  return status;
}
