/* minipulumi config refresh [--force]: rewrites Pulumi.<stack>.yaml from
 * the config of the stack's last deployment, as Pulumi's `config refresh`
 * (pkg/cmd/pulumi/config/config_refresh.go): the recorded config replaces
 * the file's `config` mapping, the secrets provider's salt comes from the
 * stack, and an existing file is kept as <file>.bak (.bak.bak, ...) unless
 * --force. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/config_file.h"
#include "cli/json_out.h"
#include "cli/messages.h"
#include "cli/workspace.h"

static const mp_cmd_help help = {
    "minipulumi config refresh [flags]",
    "Update the local configuration based on the most recent deployment of "
    "the stack"};

/* The config recorded with the stack's newest history entry (owned JSON
 * text); an exit status when there is none. */
static int latest_config(mp_ctx *ctx, const char *stack, char **out) {
  mp_history_entry *h = NULL;
  size_t n = 0;
  mp_err err;
  mp_err_clear(&err);
  *out = NULL;
  int status = 0;
  if (mp_store_history(ctx->store, mp_cli_ref(ctx, stack), &h, &n, &err))
    status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  else if (n == 0)
    status = mp_cli_error(ctx, MP_EXIT_ERROR, "no previous deployment");
  else if (h[0].config == NULL)
    status = mp_cli_error(ctx, MP_EXIT_ERROR,
                          "the last deployment of stack '%s' has no recorded "
                          "configuration (it was made before minipulumi kept "
                          "it); run an update first",
                          stack);
  else
    *out = mp_xstrdup(h[0].config);
  for (size_t i = 0; i < n; i++) mp_history_entry_destroy(&h[i]);
  free(h);
  return status;
}

/* Fills |c| from the recorded |config| and the stack's secrets provider. */
static int apply(mp_ctx *ctx, const char *stack, const char *config,
                 mp_stack_config *c) {
  mp_err err;
  mp_err_clear(&err);
  mp_value *v = NULL;
  if (mp_value_from_json(config, strlen(config), NULL, &v, &err))
    return mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  mp_value_object_set(c->doc, "config", v);
  char *type = NULL, *state = NULL;
  if (mp_store_secrets_get(ctx->store, mp_cli_ref(ctx, stack), &type, &state,
                           &err)) {
    return mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  }
  if (type && !strcmp(type, "passphrase") && state) {
    cJSON *j = cJSON_Parse(state);
    const cJSON *salt = cJSON_GetObjectItemCaseSensitive(j, "salt");
    if (cJSON_IsString(salt)) mp_stack_config_set_salt(c, salt->valuestring);
    cJSON_Delete(j);
  }
  free(type);
  free(state);
  return 0;
}

/* Moves |path| to the first free <path>.bak, .bak.bak, ...; exit status. */
static int back_up(mp_ctx *ctx, const char *path) {
  char *bak = mp_xasprintf("%s.bak", path);
  while (access(bak, F_OK) == 0) {
    char *more = mp_xasprintf("%s.bak", bak);
    free(bak);
    bak = more;
  }
  int status = 0;
  if (rename(path, bak) != 0)
    status = mp_cli_error(ctx, MP_EXIT_ERROR,
                          "backing up existing configuration file: cannot "
                          "move '%s' to '%s'", path, bak);
  else
    fprintf(ctx->out, "backed up existing configuration file to %s\n", bak);
  free(bak);
  return status;
}

int mp_cmd_config_refresh(int argc, const char **argv, mp_ctx *ctx) {
  int force = 0;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_BOOL_('f', "force", &force,
                   "Overwrite configuration file, if it exists, without "
                   "creating a backup"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 0, 0, &pos);
  if (rc) return mp_args_exit_status(rc);
  mp_strv_destroy(&pos);
  char *stack = NULL, *config = NULL;
  int status = mp_cli_stack(ctx, NULL, 1, &stack);
  if (!status) status = latest_config(ctx, stack, &config);
  char *path = NULL;
  mp_stack_config c;
  int loaded = 0;
  if (!status) {
    path = ctx->config_file ? mp_xstrdup(ctx->config_file)
                            : mp_cli_stack_config_path(ctx, stack);
    mp_err err;
    mp_err_clear(&err);
    if (mp_stack_config_load(path, &c, &err))
      status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
    else
      loaded = 1;
  }
  if (!status) status = apply(ctx, stack, config, &c);
  int existed = path && access(path, F_OK) == 0;
  if (!status && existed && !force) status = back_up(ctx, path);
  if (!status) {
    mp_err err;
    mp_err_clear(&err);
    if (mp_stack_config_save(&c, &err))
      status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
    else if (existed && !force)
      fprintf(ctx->out, "refreshed configuration for stack '%s'\n", stack);
  }
  if (loaded) mp_stack_config_destroy(&c);
  free(path);
  free(config);
  free(stack);
  return status;
}
