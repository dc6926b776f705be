/* minipulumi stack import: replace the stack's state with a deployment
 * produced by `stack export` (ours or Pulumi's). All or nothing: the
 * checks run first and the store replaces the snapshot in one
 * transaction. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/secrets.h"
#include "cli/workspace.h"
#include "engine/names.h"
#include "engine/urn.h"

static const mp_cmd_help help = {
    "minipulumi stack import [flags]",
    "Import a deployment from standard input or a file into the stack.\n\n"
    "A deployment that fails the integrity checks, or holds resources of "
    "another stack or\nentries whose URN is no URN, is refused unless "
    "--force is given (then each is a\nwarning). Pending operations "
    "are removed, with a warning."};

static char *read_all(FILE *f, size_t *len) {
  mp_buf b;
  mp_buf_init(&b);
  char chunk[8192];
  size_t n;
  while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) mp_buf_append(&b, chunk, n);
  return mp_buf_detach(&b, len);
}

/* The passphrase salt named by the deployment's secrets_providers (owned),
 * or NULL. */
static char *deployment_salt(const char *text) {
  cJSON *j = cJSON_Parse(text);
  const cJSON *d = cJSON_GetObjectItemCaseSensitive(j, "deployment");
  const cJSON *sp = cJSON_GetObjectItemCaseSensitive(d, "secrets_providers");
  const cJSON *t = cJSON_GetObjectItemCaseSensitive(sp, "type");
  const cJSON *st = cJSON_GetObjectItemCaseSensitive(sp, "state");
  const cJSON *salt = cJSON_GetObjectItemCaseSensitive(st, "salt");
  char *out = NULL;
  if (cJSON_IsString(t) && !strcmp(t->valuestring, "passphrase") &&
      cJSON_IsString(salt))
    out = mp_xstrdup(salt->valuestring);
  cJSON_Delete(j);
  return out;
}

/* Refuses resources of another stack, and entries whose URN is no URN,
 * unless |force| (then each is a warning), as Pulumi does: a deployment
 * exported from the wrong stack could seriously harm this one. Another
 * project's URN is let through, as Pulumi lets it, but not a project name
 * Pulumi would refuse (`..`, a space, a newline). Exit status. */
static int check_stacks(mp_ctx *ctx, const mp_snapshot *s, const char *stack,
                        int force) {
  for (size_t i = 0; i < s->nres; i++) {
    mp_urn u;
    mp_err err;
    const char *urn = s->res[i]->urn;
    char *problem = NULL;
    if (mp_urn_parse(urn, strlen(urn), &u, &err) != 0) {
      problem = mp_xasprintf("resource '%s' has an invalid URN: %s", urn,
                             err.msg);
    } else {
      if (strcmp(u.stack, stack) != 0)
        problem = mp_xasprintf("resource '%s' is from a different stack "
                               "(%s != %s)",
                               urn, u.stack, stack);
      else if (mp_project_name_check(u.project, &err) != 0)
        problem = mp_xasprintf("resource '%s' has an invalid project name "
                               "'%s': %s",
                               urn, u.project, err.msg);
      mp_urn_destroy(&u);
    }
    if (problem && force) mp_cli_warn(ctx, "%s", problem);
    int status = problem && !force
                     ? mp_cli_error(ctx, MP_EXIT_ERROR,
                                    "%s; pass --force to import it anyway",
                                    problem)
                     : 0;
    free(problem);
    if (status) return status;
  }
  return 0;
}

static void drop_pending(mp_ctx *ctx, mp_snapshot *s) {
  for (size_t i = 0; i < s->npending; i++) {
    mp_cli_warn(ctx, "removing pending operation '%s' on '%s' from snapshot",
                mp_pending_type_name(s->pending[i].type), s->pending[i].res->urn);
    mp_resource_free(s->pending[i].res);
  }
  s->npending = 0;
}

/* The stack's manager for writing the state; adopts the deployment's salt
 * when the stack has none. */
static int stack_secrets(mp_ctx *ctx, const char *stack, const char *file_salt,
                         mp_passphrase **pp, mp_err *err) {
  int rc = mp_cli_secrets(ctx, stack, NULL,
                          MP_SECRETS_EXISTING | MP_SECRETS_FOR_STATE, pp, err);
  if (rc || *pp || !file_salt) return rc;
  if ((rc = mp_cli_secrets_adopt(ctx, stack, file_salt, err))) return rc;
  return mp_cli_secrets(ctx, stack, NULL,
                        MP_SECRETS_EXISTING | MP_SECRETS_FOR_STATE, pp, err);
}

static int import_text(mp_ctx *ctx, const char *stack, const char *text,
                       size_t len, int force) {
  mp_err err;
  mp_err_clear(&err);
  char *salt = deployment_salt(text);
  mp_passphrase *in_pp = NULL, *pp = NULL;
  mp_crypter in_c, c;
  mp_snapshot *snap = NULL;
  int status = 0;
  if (salt && mp_cli_passphrase_for_salt(ctx, salt, &in_pp, &err)) {
    status = mp_cli_fail(ctx, MP_EXIT_CONFIG, &err);
    goto done;
  }
  if (in_pp) in_c = mp_passphrase_crypter(in_pp);
  if (mp_snapshot_import(text, len, in_pp ? &in_c : NULL, &snap, &err)) {
    status = mp_cli_error(ctx, MP_EXIT_ERROR, "could not import deployment: %s",
                          err.msg);
    goto done;
  }
  if ((status = check_stacks(ctx, snap, stack, force))) goto done;
  drop_pending(ctx, snap);
  /* --disable-integrity-checking: Pulumi skips the check entirely */
  if (!ctx->no_integrity && mp_snapshot_verify(snap, &err) != 0 && !force) {
    status = mp_cli_error(ctx, MP_EXIT_ERROR,
                          "state file contains errors: %s; pass --force to "
                          "import it anyway",
                          err.msg);
    goto done;
  }
  if (stack_secrets(ctx, stack, salt, &pp, &err)) {
    status = mp_cli_fail(ctx, MP_EXIT_CONFIG, &err);
    goto done;
  }
  free(snap->secrets_type);
  free(snap->secrets_state);
  snap->secrets_type = pp ? mp_xstrdup("passphrase") : NULL;
  snap->secrets_state =
      pp ? mp_xasprintf("{\"salt\":\"%s\"}", mp_passphrase_state(pp)) : NULL;
  if (pp) c = mp_passphrase_crypter(pp);
  if (mp_store_replace(ctx->store, mp_cli_ref(ctx, stack), snap, pp ? &c : NULL,
                       &err))
    status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  else
    fprintf(ctx->out, "Import complete.\n");
done:
  mp_snapshot_free(snap);
  free(salt);
  return status;
}

int mp_cmd_stack_import(int argc, const char **argv, mp_ctx *ctx) {
  const char *file = NULL;
  int force = 0;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_STR_(0, "file", &file, "path", "read from this file instead of standard input"),
      MP_OPT_BOOL_('f', "force", &force, "import even if the checks fail"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 0, 0, &pos);
  if (rc) return mp_args_exit_status(rc);
  mp_strv_destroy(&pos);
  char *stack = NULL;
  int status = mp_cli_stack(ctx, NULL, 1, &stack);
  if (status) return status;
  FILE *f = file ? fopen(file, "rb") : stdin;
  if (!f) {
    status = mp_cli_error(ctx, MP_EXIT_ERROR, "cannot read '%s': %s", file,
                          strerror(errno));
  } else {
    size_t len = 0;
    char *text = read_all(f, &len);
    if (file) fclose(f);
    status = import_text(ctx, stack, text, len, force);
    free(text);
  }
  free(stack);
  return status;
}
