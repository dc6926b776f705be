/* minipulumi plugin: manage the provider plugins of the plugin cache.
 * Dispatches to cmd_plugin_*.c. */
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/command_table.h"

static const mp_command subs[] = {
    {"ls", mp_cmd_plugin_ls, "List plugins", {NULL}},
    {"install", mp_cmd_plugin_install,
     "Install one or more plugins", {NULL}},
    {"rm", mp_cmd_plugin_rm,
     "Remove one or more plugins from the download cache", {NULL}},
    {"run", mp_cmd_plugin_run, "Run a command on a plugin binary", {NULL}},
};

static const mp_cmd_group group = {
    "plugin",
    {"minipulumi plugin <subcommand> [flags]",
     "Manage language and resource plugins.\n\nPlugins live in the plugin "
     "cache, $PULUMI_HOME/plugins (by default ~/.pulumi/plugins), as Pulumi "
     "keeps them;\n~/.minipulumi/plugins is read the same way."},
    subs,
    MP_ARRAY_LEN(subs),
    NULL};

int mp_cmd_plugin(int argc, const char **argv, mp_ctx *ctx) {
  return mp_cmd_group_run(ctx, &group, argc, argv);
}
