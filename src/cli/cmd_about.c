/* minipulumi about [--json]: the CLI, the host, the project's runtime,
 * the backend and the current stack, in the shape of Pulumi's `about
 * --json` (pkg/cmd/pulumi/about: plugins, host, backend, currentStack,
 * cliAbout, runtime, dependencies, errors). What cannot be read is an
 * entry of "errors", never a failure. */
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cli/args.h"
#include "cli/backend.h"
#include "cli/cli.h"
#include "cli/json_out.h"
#include "cli/workspace.h"

static const mp_cmd_help help = {
    "minipulumi about [flags]",
    "Print information about the CLI, the host, the project, the backend "
    "and the current stack."};

static cJSON *host_json(void) {
  struct utsname u;
  if (uname(&u) != 0) return cJSON_CreateNull();
  cJSON *h = cJSON_CreateObject();
  cJSON_AddStringToObject(h, "os", strcmp(u.sysname, "Linux") ? u.sysname : "linux");
  cJSON_AddStringToObject(h, "version", u.release);
  cJSON_AddStringToObject(h, "arch", u.machine);
  return h;
}

/* The current stack's name and resources; NULL (and an error) if none. */
static cJSON *stack_json(mp_ctx *ctx, cJSON *errors) {
  char *stack = NULL;
  mp_err err;
  mp_err_clear(&err);
  if (mp_store_selected_get(ctx->store, ctx->project->name, &stack, &err) ||
      stack == NULL) {
    cJSON_AddItemToArray(errors, cJSON_CreateString(
        "Failed to get information about the current stack: No current stack"));
    return NULL;
  }
  mp_snapshot *snap = NULL;
  cJSON *s = cJSON_CreateObject();
  cJSON_AddStringToObject(s, "name", stack);
  char *fq = mp_xasprintf("organization/%s/%s", ctx->project->name, stack);
  cJSON_AddStringToObject(s, "fullyQualifiedName", fq);
  free(fq);
  cJSON *res = cJSON_AddArrayToObject(s, "resources");
  cJSON *pend = cJSON_AddArrayToObject(s, "pendingOps");
  if (mp_store_load(ctx->store, mp_cli_ref(ctx, stack), NULL, &snap, &err)) {
    char *m = mp_xasprintf("Failed to get information about the current "
                           "stack: %s", err.msg);
    cJSON_AddItemToArray(errors, cJSON_CreateString(m));
    free(m);
  }
  for (size_t i = 0; snap && i < snap->nres; i++) {
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "type", snap->res[i]->type);
    cJSON_AddStringToObject(r, "urn", snap->res[i]->urn);
    cJSON_AddItemToArray(res, r);
  }
  for (size_t i = 0; snap && i < snap->npending; i++) {
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "type", mp_pending_type_name(snap->pending[i].type));
    cJSON_AddStringToObject(r, "urn", snap->pending[i].res->urn);
    cJSON_AddItemToArray(pend, r);
  }
  mp_snapshot_free(snap);
  free(stack);
  return s;
}

static cJSON *about_json(mp_ctx *ctx) {
  cJSON *j = cJSON_CreateObject();
  cJSON *errors = cJSON_CreateArray();
  cJSON_AddArrayToObject(j, "plugins");
  cJSON_AddItemToObject(j, "host", host_json());
  int have_project = mp_cli_load_project(ctx) == 0;
  char *url = NULL;
  if (have_project && mp_cli_store(ctx) == 0 &&
      mp_cli_backend_url(ctx, &url, NULL) == 0) {
    char *shown = mp_store_url_redact(url);
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "name", "minipulumi");
    cJSON_AddStringToObject(b, "url", shown);
    cJSON_AddStringToObject(b, "user", mp_cli_user_name());
    cJSON_AddArrayToObject(b, "organizations");
    cJSON_AddItemToObject(j, "backend", b);
    cJSON *s = stack_json(ctx, errors);
    cJSON_AddItemToObject(j, "currentStack", s ? s : cJSON_CreateNull());
    free(shown);
  } else {
    cJSON_AddNullToObject(j, "backend");
    cJSON_AddNullToObject(j, "currentStack");
    cJSON_AddItemToArray(errors, cJSON_CreateString(
        have_project ? "Could not access the backend"
                     : "Failed to read the project: no Pulumi.yaml"));
  }
  free(url);
  cJSON *cli = cJSON_AddObjectToObject(j, "cliAbout");
  char version[96];
  mp_cli_version_text(version, sizeof(version));
  cJSON_AddStringToObject(cli, "version", version);
  cJSON_AddStringToObject(cli, "goVersion", "");
  cJSON_AddStringToObject(cli, "goCompiler", "");
  if (have_project && ctx->project->runtime) {
    cJSON *rt = cJSON_AddObjectToObject(j, "runtime");
    cJSON_AddStringToObject(rt, "language", ctx->project->runtime);
  } else {
    cJSON_AddNullToObject(j, "runtime");
  }
  cJSON_AddArrayToObject(j, "dependencies");
  cJSON_AddItemToObject(j, "errors", errors);
  return j;
}

int mp_cmd_about(int argc, const char **argv, mp_ctx *ctx) {
  int json = 0;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {MP_OPT_BOOL_('j', "json", &json, "emit output as JSON"),
                         MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 0, 0, &pos);
  if (rc) return mp_args_exit_status(rc);
  mp_strv_destroy(&pos);
  /* not a failure: a missing project or backend is one of the errors */
  ctx->non_interactive = 1;
  cJSON *j = about_json(ctx);
  if (json) {
    mp_cli_cjson_emit(ctx->out, j, 4);
    return 0;
  }
  cJSON *cli = cJSON_GetObjectItem(j, "cliAbout");
  cJSON *host = cJSON_GetObjectItem(j, "host");
  cJSON *backend = cJSON_GetObjectItem(j, "backend");
  cJSON *stack = cJSON_GetObjectItem(j, "currentStack");
  fprintf(ctx->out, "CLI\nVersion      %s\n\n",
          cJSON_GetObjectItem(cli, "version")->valuestring);
  if (cJSON_IsObject(host))
    fprintf(ctx->out, "Host\nOS       %s\nVersion  %s\nArch     %s\n\n",
            cJSON_GetObjectItem(host, "os")->valuestring,
            cJSON_GetObjectItem(host, "version")->valuestring,
            cJSON_GetObjectItem(host, "arch")->valuestring);
  if (cJSON_IsObject(stack))
    fprintf(ctx->out, "Current Stack: %s\n\n",
            cJSON_GetObjectItem(stack, "fullyQualifiedName")->valuestring);
  if (cJSON_IsObject(backend))
    fprintf(ctx->out, "Backend\nURL   %s\nUser  %s\n",
            cJSON_GetObjectItem(backend, "url")->valuestring,
            cJSON_GetObjectItem(backend, "user")->valuestring);
  cJSON *e;
  cJSON_ArrayForEach(e, cJSON_GetObjectItem(j, "errors"))
    fprintf(ctx->err, "warning: %s\n", e->valuestring);
  cJSON_Delete(j);
  return 0;
}
