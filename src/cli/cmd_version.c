/* minipulumi version: the version of Pulumi's CLI contract minipulumi
 * speaks, as semver, with minipulumi's own version as build metadata:
 * v3.206.0+minipulumi.0.1.0. The Automation API parses it (cmd.ts
 * parseAndValidatePulumiVersion) and picks behaviour by it; the README's
 * "Driving minipulumi from the Automation API" says why 3.206.0. */
#include <stdlib.h>

#include "cli/args.h"
#include "cli/cli.h"

/* The least version for which @pulumi/pulumi's Automation API takes the
 * engine events from a gRPC Events stream (stack.ts setupEventLog: above
 * 3.205.0) rather than by tailing the --event-log file, which loses the
 * last events when the CLI exits right after writing them
 * (docs/automation.md); and above 3.181.0, the least for inline refresh
 * and destroy (checkInlineSupport). */
#define MP_PULUMI_CONTRACT "3.206.0"

static const mp_cmd_help help = {
    "minipulumi version",
    "Print the Pulumi CLI version minipulumi implements, with minipulumi's "
    "own version as build metadata."};

void mp_cli_version_text(char *buf, size_t n) {
  /* MINIPULUMI_PULUMI_VERSION claims another contract version (X.Y.Z):
   * at most 3.205.0 the Automation API tails the --event-log file. */
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
