/* minipulumi about [--json]: the CLI, the host, the project's runtime,
 * the backend and the current stack, in the shape of Pulumi's `about
 * --json` (pkg/cmd/pulumi/about: plugins, host, backend, currentStack,
 * cliAbout, runtime, dependencies, errors). What cannot be read is an
 * entry of "errors", never a failure. */
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cli/about.h"
#include "cli/args.h"
#include "cli/backend.h"
#include "cli/cli.h"
#include "cli/json_out.h"
#include "cli/secrets.h"
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

/* A stack's resources or pending operations, {type, urn}. */
static void add_state(cJSON *arr, const char *type, const char *urn) {
  cJSON *r = cJSON_CreateObject();
  cJSON_AddStringToObject(r, "type", type);
  cJSON_AddStringToObject(r, "urn", urn);
  cJSON_AddItemToArray(arr, r);
}

static void add_error(cJSON *errors, const char *what, const char *why) {
  char *m = mp_xasprintf("%s: %s", what, why);
  cJSON_AddItemToArray(errors, cJSON_CreateString(m));
  free(m);
}

/* The current stack's name and resources, its secrets decrypted with the
 * passphrase as any command's are; NULL (and an error) if none. */
static cJSON *stack_json(mp_ctx *ctx, cJSON *errors) {
  static const char what[] = "Failed to get information about the current "
                             "stack";
  char *stack = NULL;
  mp_err err;
  mp_err_clear(&err);
  if (ctx->stack) {
    if (mp_cli_stack_parse(ctx, ctx->stack, &stack) != 0) {
      add_error(errors, what, "invalid stack name");
      return NULL;
    }
  } else if (mp_store_selected_get(ctx->store, ctx->project->name, &stack,
                                   &err) ||
             stack == NULL) {
    add_error(errors, what, err.msg[0] ? err.msg : "No current stack");
    return NULL;
  }
  mp_snapshot *snap = NULL;
  mp_passphrase *pp = NULL;
  mp_crypter c;
  int rc = mp_cli_secrets(ctx, stack, NULL,
                          MP_SECRETS_EXISTING | MP_SECRETS_FOR_STATE, &pp, &err);
  if (rc == 0 && pp)
    c = mp_passphrase_crypter(pp);
  if (rc == 0)
    rc = mp_store_load(ctx->store, mp_cli_ref(ctx, stack), pp ? &c : NULL,
                       &snap, &err);
  if (rc) {
    add_error(errors, what, err.msg);
    free(stack);
    return NULL;
  }
  cJSON *s = cJSON_CreateObject();
  cJSON_AddStringToObject(s, "name", stack);
  char *fq = mp_xasprintf("organization/%s/%s", ctx->project->name, stack);
  cJSON_AddStringToObject(s, "fullyQualifiedName", fq);
  free(fq);
  cJSON *res = cJSON_AddArrayToObject(s, "resources");
  cJSON *pend = cJSON_AddArrayToObject(s, "pendingOps");
  for (size_t i = 0; snap && i < snap->nres; i++)
    add_state(res, snap->res[i]->type, snap->res[i]->urn);
  for (size_t i = 0; snap && i < snap->npending; i++)
    add_state(pend, mp_pending_type_name(snap->pending[i].type),
              snap->pending[i].res->urn);
  mp_snapshot_free(snap);
  free(stack);
  return s;
}

static cJSON *about_json(mp_ctx *ctx) {
  cJSON *j = cJSON_CreateObject();
  cJSON *errors = cJSON_CreateArray();
  int have_project = mp_cli_load_project(ctx) == 0;
  cJSON_AddItemToObject(j, "plugins", have_project ? mp_cli_about_plugins(ctx)
                                                   : cJSON_CreateNull());
  cJSON_AddItemToObject(j, "host", host_json());
  char *url = NULL;
  if (have_project && mp_cli_store(ctx) == 0 &&
      mp_cli_backend_url(ctx, &url, NULL) == 0) {
    char *shown = mp_store_url_redact(url);
    cJSON *b = cJSON_CreateObject();
    char host[256] = "";
    gethostname(host, sizeof(host) - 1); /* Pulumi's diy backend's Name() */
    cJSON_AddStringToObject(b, "name", *host ? host : "diy");
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
  cJSON_AddItemToObject(j, "dependencies",
                        have_project ? mp_cli_about_dependencies(ctx, errors)
                                     : cJSON_CreateNull());
  cJSON_AddItemToObject(j, "errors", errors);
  return j;
}

/* Pulumi's cmdutil.Table: each column but the last padded to its widest
 * cell and two spaces; |cells| row by row, the headers first. */
static void table(FILE *out, const char **cells, size_t ncols, size_t nrows) {
  size_t w[4] = {0};
  for (size_t r = 0; r < nrows; r++)
    for (size_t c = 0; c < ncols; c++)
      if (strlen(cells[r * ncols + c]) > w[c]) w[c] = strlen(cells[r * ncols + c]);
  for (size_t r = 0; r < nrows; r++) {
    for (size_t c = 0; c + 1 < ncols; c++)
      fprintf(out, "%-*s  ", (int)w[c], cells[r * ncols + c]);
    fprintf(out, "%s\n", cells[r * ncols + ncols - 1]);
  }
}

static const char *str(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(v) ? v->valuestring : "unknown";
}

/* Rows of |arr|'s objects, |keys| their columns, under |headers|. */
static void object_table(FILE *out, const cJSON *arr, const char **headers,
                         const char **keys, size_t ncols) {
  size_t n = (size_t)cJSON_GetArraySize(arr) + 1, i = ncols;
  const char **cells = mp_xcalloc(n * ncols, sizeof(*cells));
  memcpy(cells, headers, ncols * sizeof(*cells));
  const cJSON *e;
  cJSON_ArrayForEach(e, arr)
    for (size_t c = 0; c < ncols; c++) cells[i++] = str(e, keys[c]);
  table(out, cells, ncols, n);
  free(cells);
}

/* The sections of Pulumi's about (summaryAbout.Print), in its order. */
static void print_text(FILE *out, const cJSON *j) {
  const cJSON *cli = cJSON_GetObjectItem(j, "cliAbout");
  const cJSON *plugins = cJSON_GetObjectItem(j, "plugins");
  const cJSON *host = cJSON_GetObjectItem(j, "host");
  const cJSON *rt = cJSON_GetObjectItem(j, "runtime");
  const cJSON *stack = cJSON_GetObjectItem(j, "currentStack");
  const cJSON *backend = cJSON_GetObjectItem(j, "backend");
  const cJSON *deps = cJSON_GetObjectItem(j, "dependencies");
  const char *c[] = {"CLI", "", "Version", str(cli, "version")};
  table(out, c, 2, 2);
  fputc('\n', out);
  if (cJSON_IsArray(plugins)) {
    const char *h[] = {"KIND", "NAME", "VERSION"}, *k[] = {"kind", "name", "version"};
    fprintf(out, "Plugins\n");
    object_table(out, plugins, h, k, 3);
    fputc('\n', out);
  }
  if (cJSON_IsObject(host)) {
    const char *h[] = {"Host", "", "OS", str(host, "os"), "Version",
                       str(host, "version"), "Arch", str(host, "arch")};
    table(out, h, 2, 4);
    fputc('\n', out);
  }
  if (cJSON_IsObject(rt)) {
    const char *h[] = {"Language", "", "Name", str(rt, "language")};
    table(out, h, 2, 2);
    fputc('\n', out);
  }
  if (cJSON_IsObject(stack)) {
    const char *name = str(stack, "name");
    const cJSON *res = cJSON_GetObjectItem(stack, "resources");
    const cJSON *pend = cJSON_GetObjectItem(stack, "pendingOps");
    fprintf(out, "Current Stack: %s\n\n", str(stack, "fullyQualifiedName"));
    const char *k[] = {"type", "urn"}, *h[] = {"TYPE", "URN"},
               *hp[] = {"OPP TYPE", "URN"};
    if (cJSON_GetArraySize(res) == 0)
      fprintf(out, "Found no resources associated with %s\n", name);
    else
      object_table(out, res, h, k, 2);
    fputc('\n', out);
    if (cJSON_GetArraySize(pend) == 0)
      fprintf(out, "Found no pending operations associated with %s\n", name);
    else
      object_table(out, pend, hp, k, 2);
    fputc('\n', out);
  }
  if (cJSON_IsObject(backend)) {
    const char *b[] = {"Backend", "", "Name", str(backend, "name"), "URL",
                       str(backend, "url"), "User", str(backend, "user"),
                       "Organizations", "", "Token type", "personal"};
    table(out, b, 2, 6);
    fputc('\n', out);
  }
  if (cJSON_IsArray(deps) && cJSON_GetArraySize(deps) == 0) {
    fprintf(out, "No dependencies found\n\n");
  } else if (cJSON_IsArray(deps)) {
    const char *h[] = {"NAME", "VERSION"}, *k[] = {"name", "version"};
    fprintf(out, "Dependencies:\n");
    object_table(out, deps, h, k, 2);
    fputc('\n', out);
  }
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
  print_text(ctx->out, j);
  cJSON *e;
  cJSON_ArrayForEach(e, cJSON_GetObjectItem(j, "errors"))
    fprintf(ctx->err, "warning: %s\n", e->valuestring);
  cJSON_Delete(j);
  return 0;
}
