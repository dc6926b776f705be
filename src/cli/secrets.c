/* The stack's passphrase secrets manager. Its salt lives in two places, as
 * with Pulumi: `encryptionsalt` in Pulumi.<stack>.yaml and the stack's
 * secrets provider state `{"salt": "v1:..."}` in the store. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "cli/messages.h"
#include "cli/secrets.h"
#include "cli/workspace.h"

/* The salt from a secrets state JSON text (owned), or NULL. */
static char *salt_of_state(const char *state) {
  if (!state) return NULL;
  cJSON *j = cJSON_Parse(state);
  const cJSON *s = cJSON_GetObjectItemCaseSensitive(j, "salt");
  char *out = cJSON_IsString(s) ? mp_xstrdup(s->valuestring) : NULL;
  cJSON_Delete(j);
  return out;
}

static char *state_of_salt(const char *salt) {
  cJSON *j = cJSON_CreateObject();
  cJSON_AddStringToObject(j, "salt", salt);
  char *txt = cJSON_PrintUnformatted(j);
  char *out = mp_xstrdup(txt);
  cJSON_free(txt);
  cJSON_Delete(j);
  return out;
}

static mp_passphrase *cache_get(mp_ctx *ctx, const char *salt) {
  for (size_t i = 0; i < MP_ARRAY_LEN(ctx->pp); i++)
    if (ctx->pp[i] && !strcmp(ctx->pp_salt[i], salt)) return ctx->pp[i];
  return NULL;
}

static void cache_put(mp_ctx *ctx, const char *salt, mp_passphrase *pp) {
  size_t i = 0;
  while (i < MP_ARRAY_LEN(ctx->pp) - 1 && ctx->pp[i]) i++;
  mp_passphrase_free(ctx->pp[i]); /* the last slot is recycled when full */
  free(ctx->pp_salt[i]);
  ctx->pp[i] = pp;
  ctx->pp_salt[i] = mp_xstrdup(salt);
}

void mp_cli_secrets_release(mp_ctx *ctx) {
  for (size_t i = 0; i < MP_ARRAY_LEN(ctx->pp); i++) {
    mp_passphrase_free(ctx->pp[i]);
    free(ctx->pp_salt[i]);
    ctx->pp[i] = NULL;
    ctx->pp_salt[i] = NULL;
  }
}

/* The passphrase from the user's environment (an mp_passphrase_source). */
static int passphrase_from_env(void *ud, char **out, mp_err *err) {
  (void)ud;
  return mp_cli_passphrase_env(out, err);
}

/* Asks the environment only when a secret is first en- or decrypted. */
static int open_salt(const char *salt, mp_passphrase **out, mp_err *err) {
  static const mp_passphrase_source from_env = {passphrase_from_env, NULL};
  return mp_passphrase_open_lazy(salt, &from_env, out, err);
}

int mp_cli_secrets_new_salt(mp_ctx *ctx, char **salt, mp_err *err) {
  char *pass = NULL;
  mp_passphrase *pp = NULL;
  int rc = mp_cli_passphrase_new(ctx, &pass, err);
  if (rc == 0) rc = mp_passphrase_create(pass, &pp, err);
  if (pass) memset(pass, 0, strlen(pass));
  free(pass);
  if (rc) return rc;
  *salt = mp_xstrdup(mp_passphrase_state(pp));
  cache_put(ctx, *salt, pp);
  return 0;
}

/* Writes |salt| where it is missing: the file and/or the store. */
static int sync_salt(mp_ctx *ctx, mp_stack_ref ref, mp_stack_config *cfg,
                     const char *salt, int in_file, int in_store,
                     mp_err *err) {
  int rc = 0;
  if (!in_store) {
    char *state = state_of_salt(salt);
    rc = mp_store_secrets_set(ctx->store, ref, "passphrase", state, err);
    free(state);
  }
  if (rc == 0 && !in_file) {
    rc = mp_stack_config_save_salt(cfg, salt, err);
  }
  return rc;
}

int mp_cli_secrets(mp_ctx *ctx, const char *stack, mp_stack_config *cfg,
                   int mode, mp_passphrase **out, mp_err *err) {
  mp_stack_config own = {0};
  char *type = NULL, *state = NULL, *store_salt = NULL, *salt = NULL;
  mp_stack_ref ref = mp_cli_ref(ctx, stack);
  int rc = 0;
  *out = NULL;
  if (!cfg) {
    char *path = mp_cli_stack_config_path(ctx, stack);
    rc = mp_stack_config_load(path, &own, err);
    free(path);
    if (rc) return rc;
    cfg = &own;
  }
  if ((rc = mp_store_secrets_get(ctx->store, ref, &type, &state, err)))
    goto done;
  if (type && strcmp(type, "passphrase") != 0) {
    rc = mp_err_set(err, MP_EINVAL,
                    "stack '%s' uses the '%s' secrets provider; only "
                    "'passphrase' is supported",
                    stack, type);
    goto done;
  }
  store_salt = salt_of_state(state);
  const char *file_salt = mp_stack_config_salt(cfg);
  if (store_salt && (mode & MP_SECRETS_FOR_STATE)) salt = mp_xstrdup(store_salt);
  else if (file_salt) salt = mp_xstrdup(file_salt);
  else if (store_salt) salt = mp_xstrdup(store_salt);
  if (!salt) {
    if (!(mode & MP_SECRETS_CREATE)) goto done;
    if ((rc = mp_cli_secrets_new_salt(ctx, &salt, err))) goto done;
  }
  if ((rc = sync_salt(ctx, ref, cfg, salt, file_salt != NULL,
                      store_salt != NULL, err)))
    goto done;
  mp_passphrase *pp = cache_get(ctx, salt);
  if (!pp) {
    /* Without a passphrase in the environment, a terminal is asked now;
     * otherwise the engine reads it when a secret first needs it, unless
     * the caller needs it now. */
    if (mp_cli_passphrase_given() ||
        (!(mode & MP_SECRETS_NOW) && !mp_cli_interactive(ctx)))
      rc = open_salt(salt, &pp, err);
    else
      rc = mp_cli_passphrase_unlock(ctx, salt, stack, &pp, err);
    if (rc) goto done;
    cache_put(ctx, salt, pp);
  }
  if ((mode & MP_SECRETS_NOW) && (rc = mp_passphrase_verify(pp, err)))
    goto done;
  *out = pp;
done:
  free(type);
  free(state);
  free(store_salt);
  free(salt);
  if (cfg == &own) mp_stack_config_destroy(&own);
  return rc;
}

void mp_cli_secrets_head_start(mp_ctx *ctx) {
  if (!mp_cli_passphrase_given()) return;
  char *dir = mp_cli_project_dir_find(ctx);
  char *project = dir ? mp_project_peek_name(dir) : NULL;
  char *stack = NULL, *type = NULL, *state = NULL, *salt = NULL;
  mp_err err;
  mp_err_clear(&err);
  if (project == NULL || mp_cli_store_quiet(ctx) != 0) goto done;
  if (ctx->stack) { /* <stack>, <org>/<stack> or <org>/<project>/<stack> */
    const char *slash = strrchr(ctx->stack, '/');
    stack = mp_xstrdup(slash ? slash + 1 : ctx->stack);
  } else if (mp_store_selected_get(ctx->store, project, &stack, &err)) {
    goto done;
  }
  mp_stack_ref ref = {project, stack};
  if (stack == NULL ||
      mp_store_secrets_get(ctx->store, ref, &type, &state, &err) ||
      (type && strcmp(type, "passphrase") != 0) ||
      (salt = salt_of_state(state)) == NULL)
    goto done;
  mp_passphrase *pp = cache_get(ctx, salt);
  if (pp == NULL && open_salt(salt, &pp, &err) == 0) cache_put(ctx, salt, pp);
  if (pp) mp_passphrase_derive_ahead(pp);
done:
  free(dir);
  free(project);
  free(stack);
  free(type);
  free(state);
  free(salt);
}

int mp_cli_load_snapshot(mp_ctx *ctx, const char *stack, mp_snapshot **out,
                         mp_crypter *crypter, int *has_crypter) {
  mp_err err;
  mp_passphrase *pp = NULL;
  mp_err_clear(&err);
  *out = NULL;
  *has_crypter = 0;
  if (mp_cli_secrets(ctx, stack, NULL, MP_SECRETS_EXISTING | MP_SECRETS_FOR_STATE,
                     &pp, &err))
    return mp_cli_fail(ctx, MP_EXIT_CONFIG, &err);
  if (pp) {
    *crypter = mp_passphrase_crypter(pp);
    *has_crypter = 1;
  }
  if (mp_store_load(ctx->store, mp_cli_ref(ctx, stack), pp ? crypter : NULL,
                    out, &err))
    return mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  return 0;
}

int mp_cli_passphrase_for_salt(mp_ctx *ctx, const char *salt,
                               mp_passphrase **out, mp_err *err) {
  mp_passphrase *pp = cache_get(ctx, salt);
  *out = NULL;
  if (!pp) {
    int rc = open_salt(salt, &pp, err);
    if (rc) return rc;
    cache_put(ctx, salt, pp);
  }
  *out = pp;
  return 0;
}

int mp_cli_secrets_adopt(mp_ctx *ctx, const char *stack, const char *salt,
                         mp_err *err) {
  char *state = state_of_salt(salt);
  int rc = mp_store_secrets_set(ctx->store, mp_cli_ref(ctx, stack),
                                "passphrase", state, err);
  free(state);
  return rc;
}
