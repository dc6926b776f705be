/* minipulumi version: the version of Pulumi's CLI contract minipulumi
 * speaks, as semver, with minipulumi's own version as build metadata:
 * v3.205.0+minipulumi.0.1.0. The Automation API parses it (cmd.ts
 * parseAndValidatePulumiVersion) and picks behaviour by it; the README's
 * "Driving minipulumi from the Automation API" says why 3.205.0. */
#include <stdlib.h>

#include "cli/args.h"
#include "cli/cli.h"

/* The highest version for which @pulumi/pulumi's Automation API reads
 * engine events from the --event-log file (stack.ts setupEventLog; above
 * it the API serves a gRPC Events stream instead), and above 3.181.0, the
 * least for inline refresh and destroy (checkInlineSupport). */
#define MP_PULUMI_CONTRACT "3.205.0"

static const mp_cmd_help help = {
    "minipulumi version",
    "Print the Pulumi CLI version minipulumi implements, with minipulumi's "
    "own version as build metadata."};

void mp_cli_version_text(char *buf, size_t n) {
  /* MINIPULUMI_PULUMI_VERSION claims another contract version (X.Y.Z):
   * above 3.205.0 the Automation API streams events over gRPC. */
  const char *claim = getenv("MINIPULUMI_PULUMI_VERSION");
  if (claim == NULL || claim[0] == '\0') claim = MP_PULUMI_CONTRACT;
  snprintf(buf, n, "%s+minipulumi.%s", claim, MP_VERSION);
}

void mp_cli_print_version(mp_ctx *ctx) {
  char v[96];
  mp_cli_version_text(v, sizeof(v));
  fprintf(ctx->out, "v%s\n", v);
}

int mp_cmd_version(int argc, const char **argv, mp_ctx *ctx) {
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {MP_OPT_END_};
  int rc = mp_args_parse(ctx, &help, opts, argc, argv, &pos);
  if (rc == MP_ARGS_OK) rc = mp_args_check_count(ctx, "version", &pos, 0, 0);
  mp_strv_destroy(&pos);
  if (rc) return mp_args_exit_status(rc);
  mp_cli_print_version(ctx);
  return 0;
}
