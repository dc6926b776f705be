/* minipulumi whoami: the user and, with -v, the backend in use (its URL
 * without the password), as `pulumi whoami` prints them for its local
 * backends. The backend is not opened: this only says which one the other
 * commands would use. */
#include <stdlib.h>

#include "cli/args.h"
#include "cli/backend.h"
#include "cli/cli.h"
#include "cli/json_out.h"

static const mp_cmd_help help = {
    "minipulumi whoami [flags]",
    "Display the current logged-in user.\n\n"
    "Displays the name of the current user; with --verbose also the state\n"
    "backend the other commands use (--backend, MINIPULUMI_BACKEND_URL, the\n"
    "last `minipulumi login`, the Pulumi CLI's login, or\n"
    "~/.minipulumi/state.db), never with its password, and which of these\n"
    "chose it."};

static void print_json(mp_ctx *ctx, const char *user, const char *url) {
  cJSON *j = cJSON_CreateObject();
  cJSON_AddStringToObject(j, "user", user);
  cJSON_AddStringToObject(j, "url", url);
  mp_cli_cjson_emit(ctx->out, j, 4); /* Pulumi's JSON indents by four */
}

int mp_cmd_whoami(int argc, const char **argv, mp_ctx *ctx) {
  int verbose = 0, json = 0;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_BOOL_('v', "verbose", &verbose,
                   "print detailed whoami information"),
      MP_OPT_BOOL_('j', "json", &json, "emit output as JSON"), MP_OPT_END_};
  int rc = mp_args_parse(ctx, &help, opts, argc, argv, &pos);
  if (rc == MP_ARGS_OK)
    rc = mp_args_check_count(ctx, "whoami", &pos, 0, 0);
  mp_strv_destroy(&pos);
  if (rc)
    return mp_args_exit_status(rc);
  char *url = NULL, *source = NULL;
  int status = mp_cli_backend_url(ctx, &url, &source);
  if (status) {
    free(source);
    return status;
  }
  char *shown = mp_store_url_redact(url);
  const char *user = mp_cli_user_name();
  if (json)
    print_json(ctx, user, shown);
  else if (verbose)
    fprintf(ctx->out,
            "User: %s\nOrganizations: \nBackend URL: %s\nBackend chosen "
            "by: %s\n",
            user, shown, source);
  else
    fprintf(ctx->out, "%s\n", user);
  free(shown);
  free(url);
  free(source);
  return 0;
}
