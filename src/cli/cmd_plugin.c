/* minipulumi plugin: manage the provider plugins of the plugin cache.
 * Dispatches to cmd_plugin_*.c. */
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/messages.h"

static const struct sub {
  const char *name;
  int (*fn)(int argc, const char **argv, mp_ctx *ctx);
  const char *summary;
} subs[] = {
    {"ls", mp_cmd_plugin_ls, "List plugins"},
    {"install", mp_cmd_plugin_install, "Install one or more plugins"},
    {"rm", mp_cmd_plugin_rm,
     "Remove one or more plugins from the download cache"},
};

static const mp_cmd_help help = {
    "minipulumi plugin <subcommand> [flags]",
    "Manage language and resource plugins.\n\nPlugins live in the plugin "
    "cache, $PULUMI_HOME/plugins (by default ~/.pulumi/plugins), as Pulumi "
    "keeps them;\n~/.minipulumi/plugins is read the same way."};

int mp_cmd_plugin(int argc, const char **argv, mp_ctx *ctx) {
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    mp_args_print_usage(ctx, &help, NULL);
    fprintf(ctx->out, "\nSubcommands:\n");
    for (size_t i = 0; i < MP_ARRAY_LEN(subs); i++)
      fprintf(ctx->out, "  %-10s %s\n", subs[i].name, subs[i].summary);
    return argc < 2 ? MP_EXIT_CONFIG : 0;
  }
  for (size_t i = 0; i < MP_ARRAY_LEN(subs); i++) {
    if (strcmp(subs[i].name, argv[1]) != 0)
      continue;
    char *name = mp_xasprintf("plugin %s", subs[i].name);
    const char **args = mp_xcalloc((size_t)argc, sizeof(*args));
    args[0] = name;
    for (int a = 2; a < argc; a++)
      args[a - 1] = argv[a];
    int status = subs[i].fn(argc - 1, args, ctx);
    free(args);
    free(name);
    return status;
  }
  mp_cli_error(ctx, MP_EXIT_CONFIG,
               "unknown command \"%s\" for \"minipulumi plugin\"", argv[1]);
  fprintf(ctx->err, "Run 'minipulumi plugin --help' for usage.\n");
  return MP_EXIT_CONFIG;
}
