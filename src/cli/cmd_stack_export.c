/* minipulumi stack export: the stack's deployment as Pulumi's untyped
 * deployment JSON (`{"version": 3, "deployment": {...}}`). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/secrets.h"
#include "cli/workspace.h"

static const mp_cmd_help help = {
    "minipulumi stack export [flags]",
    "Export the stack's deployment to standard output or a file, in the "
    "format of\n`pulumi stack export`; `stack import` reads it back. "
    "Secrets are written as the\nciphertext stored, so no passphrase is "
    "needed unless --show-secrets is given."};

static int write_out(mp_ctx *ctx, const char *file, const mp_buf *b) {
  FILE *f = file ? fopen(file, "w") : ctx->out;
  if (!f)
    return mp_cli_error(ctx, MP_EXIT_ERROR, "cannot write '%s': %s", file,
                        strerror(errno));
  fprintf(f, "%s\n", b->data ? b->data : "");
  if (file && fclose(f) != 0)
    return mp_cli_error(ctx, MP_EXIT_ERROR, "cannot write '%s': %s", file,
                        strerror(errno));
  return 0;
}

/* The snapshot with every secret kept as the ciphertext stored (Pulumi
 * exports without decrypting): no passphrase needed. Exit status. */
static int load_as_stored(mp_ctx *ctx, const char *stack, mp_snapshot **snap,
                          mp_crypter *c, int *has_c) {
  mp_err err;
  mp_err_clear(&err);
  *c = mp_crypter_keep_ciphertext();
  *has_c = 1;
  if (mp_store_load(ctx->store, mp_cli_ref(ctx, stack), c, snap, &err))
    return mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  return 0;
}

int mp_cmd_stack_export(int argc, const char **argv, mp_ctx *ctx) {
  const char *file = NULL, *version = NULL;
  int show = 0;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_STR_(0, "file", &file, "path", "write to this file instead of standard output"),
      MP_OPT_BOOL_(0, "show-secrets", &show, "write secrets as plaintext"),
      MP_OPT_STR_(0, "version", &version, "version",
                  "refused: the previous stack version to export; as with "
                  "Pulumi's DIY backend, only Pulumi Cloud keeps the "
                  "deployment of each update"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 0, 0, &pos);
  if (rc) return mp_args_exit_status(rc);
  char *stack = NULL;
  mp_snapshot *snap = NULL;
  mp_crypter c;
  int has_c = 0;
  ctx->project_optional = 1;
  int status = mp_cli_stack(ctx, NULL, 1, &stack);
  /* Pulumi asks the backend for backend.SpecificDeploymentExporter, which
   * only its Cloud backend has (cmd/pulumi/stack/stack_export.go). */
  if (!status && version)
    status = mp_cli_error(ctx, MP_EXIT_ERROR,
                          "the current backend (%s) does not provide the "
                          "ability to export previous deployments",
                          mp_store_location(ctx->store));
  if (status) {
    free(stack);
    mp_strv_destroy(&pos);
    return status;
  }
  if (!status && show)
    status = mp_cli_load_snapshot(ctx, stack, &snap, &c, &has_c);
  else if (!status)
    status = load_as_stored(ctx, stack, &snap, &c, &has_c);
  if (!status) {
    mp_buf b;
    mp_err err;
    mp_buf_init(&b);
    mp_err_clear(&err);
    unsigned flags = MP_DEPLOY_JSON_PRETTY | (show ? MP_DEPLOY_JSON_SHOW_SECRETS : 0);
    if (mp_snapshot_export(snap, has_c ? &c : NULL, MP_VERSION, flags, &b, &err))
      status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
    else
      status = write_out(ctx, file, &b);
    mp_buf_destroy(&b);
  }
  mp_snapshot_free(snap);
  free(stack);
  mp_strv_destroy(&pos);
  return status;
}
