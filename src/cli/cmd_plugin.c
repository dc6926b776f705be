/* minipulumi plugin: manage the provider plugins of the plugin cache.
 * Dispatches to cmd_plugin_*.c. */
#include "cli/args.h"
#include "cli/cli.h"

static const mp_subcmd subs[] = {
    {"ls", NULL, NULL, mp_cmd_plugin_ls, "List plugins"},
    {"install", NULL, NULL, mp_cmd_plugin_install,
     "Install one or more plugins"},
    {"rm", NULL, NULL, mp_cmd_plugin_rm,
     "Remove one or more plugins from the download cache"},
    {"run", NULL, NULL, mp_cmd_plugin_run, "Run a command on a plugin binary"},
};

static const mp_cmd_help help = {
    "minipulumi plugin <subcommand> [flags]",
    "Manage language and resource plugins.\n\nPlugins live in the plugin "
    "cache, $PULUMI_HOME/plugins (by default ~/.pulumi/plugins), as Pulumi "
    "keeps them;\n~/.minipulumi/plugins is read the same way."};

int mp_cmd_plugin(int argc, const char **argv, mp_ctx *ctx) {
  return mp_args_dispatch(ctx, "plugin", &help, subs, MP_ARRAY_LEN(subs), argc,
                          argv);
}
