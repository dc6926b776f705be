#include "cli/cloud_only.h"

#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/messages.h"
#include "engine/prog_name.h"

int mp_cli_cloud_error(mp_ctx *ctx, const char *what) {
  return mp_cli_error(ctx, MP_EXIT_CONFIG,
                      "%s needs Pulumi Cloud, which minipulumi does not use: "
                      "its state is kept in a SQLite file, a file:// folder "
                      "(Pulumi's DIY layout) or PostgreSQL (see `%s login`)",
                      what, mp_prog_name());
}

int mp_cli_cloud_flag(const char *name, size_t n) {
  /* --remote and its --remote-* settings (deployments run by Pulumi
   * Cloud), --neo (its AI agent), --teams (its access control) */
  if (n >= 6 && !strncmp(name, "remote", 6) && (n == 6 || name[6] == '-'))
    return 1;
  return (n == 3 && !strncmp(name, "neo", 3)) ||
         (n == 5 && !strncmp(name, "teams", 5));
}

int mp_cmd_cloud_only(int argc, const char **argv, mp_ctx *ctx) {
  char *what = mp_xasprintf("`%s %s`", mp_prog_name(), argv[0]);
  for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      char *usage = mp_xasprintf("%s %s", mp_prog_name(), argv[0]);
      char *summary = mp_xasprintf(
          "`pulumi %s` works with Pulumi Cloud, which minipulumi does not "
          "use: its state is kept in a SQLite file, a file:// folder "
          "(Pulumi's DIY layout) or PostgreSQL.",
          argv[0]);
      const mp_cmd_help help = {usage, summary};
      mp_args_print_usage(ctx, &help, NULL);
      free(summary);
      free(usage);
      free(what);
      return MP_EXIT_HELP_SHOWN;
    }
  int status = mp_cli_cloud_error(ctx, what);
  free(what);
  return status;
}
