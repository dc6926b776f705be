/* minipulumi schema check <file>: validates a package schema and prints
 * its errors, as Pulumi's `schema check` does. */
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/command_table.h"
#include "cli/messages.h"
#include "lang/schema_check.h"

static const mp_cmd_help check_help = {
    "minipulumi schema check <schema_source> [flags]",
    "Check a Pulumi package schema for errors.\n\nThe file is JSON or "
    "YAML. Each error names its line and column and the schema path\n"
    "(#/resources/<token>/...); any error exits non-zero."};

static int check(int argc, const char **argv, mp_ctx *ctx) {
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &check_help, opts, argc, argv, 1, 1, &pos);
  if (rc) return mp_args_exit_status(rc);
  int n = mp_schema_check_file(pos.items[0], pos.items[0], ctx->err);
  if (n) fprintf(ctx->err, "%d error%s in %s\n", n, n == 1 ? "" : "s",
                 pos.items[0]);
  mp_strv_destroy(&pos);
  return n ? MP_EXIT_ERROR : 0;
}

static const mp_command subs[] = {
    {"check", check, "Check a Pulumi package schema for errors", {NULL}},
};

static const mp_cmd_group group = {
    "schema",
    {"minipulumi schema <subcommand> [flags]",
     "Analyze package schemas."},
    subs,
    MP_ARRAY_LEN(subs),
    NULL};

int mp_cmd_schema(int argc, const char **argv, mp_ctx *ctx) {
  return mp_cmd_group_run(ctx, &group, argc, argv);
}
