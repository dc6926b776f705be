/* Creating a stack (stack init, stack select --create). */
#include <stdlib.h>
#include <string.h>

#include "cli/config_values.h"
#include "cli/messages.h"
#include "cli/secrets.h"
#include "cli/stack_create.h"
#include "cli/workspace.h"

/* Copies the `config` of |from| into the new stack's file, re-encrypting
 * secrets with the new stack's passphrase salt. */
static int copy_config(mp_ctx *ctx, const char *from, const char *to,
                       mp_err *err) {
  mp_stack_config src, dst;
  char *sp = mp_cli_stack_config_path(ctx, from);
  char *dp = mp_cli_stack_config_path(ctx, to);
  int rc = mp_stack_config_load(sp, &src, err);
  free(sp);
  if (rc) {
    free(dp);
    return rc;
  }
  rc = mp_stack_config_open(dp, &dst, err);
  free(dp);
  if (rc) {
    mp_stack_config_destroy(&src);
    return rc;
  }
  mp_value *vals = mp_value_dup(mp_stack_config_values(&src));
  mp_passphrase *pfrom = NULL, *pto = NULL;
  rc = mp_cli_secrets(ctx, from, &src, MP_SECRETS_EXISTING, &pfrom, err);
  if (rc == 0) rc = mp_cli_secrets(ctx, to, &dst, MP_SECRETS_EXISTING, &pto, err);
  if (rc == 0) rc = mp_cli_config_reencrypt(vals, pfrom, pto, err);
  if (rc == 0) {
    mp_value_object_set(dst.doc, "config", vals);
    vals = NULL;
    rc = mp_stack_config_save(&dst, err);
  }
  mp_value_free(vals);
  mp_stack_config_destroy(&src);
  mp_stack_config_destroy(&dst);
  return rc;
}

/* Every new stack gets a passphrase salt, as with Pulumi: the one its
 * file already holds (*salt stays NULL), else one made from a new
 * passphrase (from the environment, or asked twice on a terminal) before
 * the stack exists, so that a stack without a passphrase is never made. */
static int new_salt(mp_ctx *ctx, const char *stack, char **salt,
                    mp_err *err) {
  mp_stack_config cfg;
  char *path = mp_cli_stack_config_path(ctx, stack);
  int rc = mp_stack_config_load(path, &cfg, err);
  free(path);
  *salt = NULL;
  if (rc == 0 && !mp_stack_config_salt(&cfg))
    rc = mp_cli_secrets_new_salt(ctx, salt, err);
  mp_stack_config_destroy(&cfg);
  return rc;
}

/* Writes the new stack's salt to its file (the store gets it from there
 * through mp_cli_secrets). */
static int save_salt(mp_ctx *ctx, const char *stack, const char *salt,
                     mp_err *err) {
  if (!salt) return 0;
  mp_stack_config cfg;
  char *path = mp_cli_stack_config_path(ctx, stack);
  int rc = mp_stack_config_open(path, &cfg, err);
  free(path);
  if (rc) return rc;
  rc = mp_stack_config_save_salt(&cfg, salt, err);
  mp_stack_config_destroy(&cfg);
  return rc;
}

int mp_cli_stack_create(mp_ctx *ctx, const char *name, const char *copy_from,
                        int no_select) {
  int status;
  if ((status = mp_cli_load_project(ctx)) || (status = mp_cli_store(ctx)))
    return status;
  char *stack = NULL, *from = NULL, *salt = NULL;
  if ((status = mp_cli_stack_parse(ctx, name, &stack)) ||
      (copy_from && (status = mp_cli_stack_parse(ctx, copy_from, &from)))) {
    free(stack);
    return status;
  }
  mp_stack_ref ref = mp_cli_ref(ctx, stack);
  mp_err err;
  mp_err_clear(&err);
  mp_passphrase *pp = NULL;
  int e;
  if (from && (e = mp_store_stack_exists(ctx->store, mp_cli_ref(ctx, from),
                                                &err)) <= 0) {
    status = e < 0 ? mp_cli_fail(ctx, MP_EXIT_ERROR, &err)
                   : mp_cli_error(ctx, MP_EXIT_NO_STACK,
                                  "no stack named '%s' found", from);
  } else if ((e = mp_store_stack_exists(ctx->store, ref, &err)) != 0) {
    status = e < 0 ? mp_cli_fail(ctx, MP_EXIT_ERROR, &err)
                   : mp_cli_error(ctx, MP_EXIT_ERROR,
                                  "stack '%s' already exists", stack);
  } else if (new_salt(ctx, stack, &salt, &err)) {
    status = mp_cli_error(ctx, MP_EXIT_ERROR,
                          "could not create secrets manager for new stack: %s",
                          err.msg);
  } else if (mp_store_stack_create(ctx->store, ref, &err)) {
    status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  } else if (save_salt(ctx, stack, salt, &err) ||
             mp_cli_secrets(ctx, stack, NULL, MP_SECRETS_EXISTING, &pp, &err) ||
             (from && copy_config(ctx, from, stack, &err))) {
    status = mp_cli_fail(ctx, MP_EXIT_CONFIG, &err);
  } else if (!no_select &&
             mp_store_selected_set(ctx->store, ctx->project->name, stack, &err)) {
    status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  } else {
    fprintf(ctx->out, "Created stack '%s'\n", stack);
  }
  free(salt);
  free(from);
  free(stack);
  return status;
}
