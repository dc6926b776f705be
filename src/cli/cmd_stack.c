/* minipulumi stack: the group of cmd_stack_*.c and, without a
 * subcommand, the current stack. */
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/command_table.h"
#include "cli/render.h"

static int show(int argc, const char **argv, mp_ctx *ctx);

static const mp_command subs[] = {
    {"init", mp_cmd_stack_init, "Create an empty stack and select it",
     {"new"}},
    {"ls", mp_cmd_stack_ls, "List the project's stacks", {"list"}},
    {"select", mp_cmd_stack_select, "Switch the current stack", {NULL}},
    {"rm", mp_cmd_stack_rm, "Remove a stack and its configuration",
     {"remove"}},
    {"rename", mp_cmd_stack_rename, "Rename the current stack", {NULL}},
    {"output", mp_cmd_stack_output, "Show the stack's outputs", {NULL}},
    {"export", mp_cmd_stack_export, "Export the stack's deployment as JSON",
     {NULL}},
    {"import", mp_cmd_stack_import, "Import a deployment into the stack",
     {NULL}},
    {"history", mp_cmd_stack_history, "Show the stack's update history",
     {"hist"}},
    {"unselect", mp_cmd_stack_unselect,
     "Resets stack selection from the current workspace", {NULL}},
    {"graph", mp_cmd_stack_graph, "Export a stack's dependency graph to a file",
     {NULL}},
    {"change-secrets-provider", mp_cmd_stack_change_secrets_provider,
     "Change the secrets provider for a stack", {NULL}},
    {"tag", mp_cmd_stack_tag, "Manage stack tags", {NULL}},
};

static const mp_cmd_group group = {
    "stack",
    {"minipulumi stack [subcommand] [flags]",
     "Manage stacks. Without a subcommand, show the current stack: its "
     "resources as a tree\n(-u/--show-urns and -i/--show-ids add each one's "
     "URN and ID) and its outputs.\n\n"
     "Subcommands: init, ls, select, rm, rename, output, export, import, "
     "history, unselect,\ngraph, change-secrets-provider, tag"},
    subs,
    MP_ARRAY_LEN(subs),
    show};

/* `stack` without a subcommand: the current stack. */
static int show(int argc, const char **argv, mp_ctx *ctx) {
  mp_strv pos;
  mp_strv_init(&pos);
  int urns = 0, ids = 0, secrets = 0, name = 0;
  const mp_opt opts[] = {
      MP_OPT_BOOL_('u', "show-urns", &urns, "Display each resource's Pulumi-assigned globally unique URN"),
      MP_OPT_BOOL_('i', "show-ids", &ids, "Display each resource's provider-assigned unique ID"),
      MP_OPT_BOOL_(0, "show-secrets", &secrets, "Display stack outputs which are marked as secret in plaintext"),
      MP_OPT_BOOL_(0, "show-name", &name, "Display only the stack name"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &group.help, opts, argc, argv, 0, 0, &pos);
  if (rc) return mp_args_exit_status(rc);
  mp_strv_destroy(&pos);
  return mp_cli_stack_view(ctx, urns, ids, secrets, name);
}

int mp_cmd_stack(int argc, const char **argv, mp_ctx *ctx) {
  return mp_cmd_group_run(ctx, &group, argc, argv);
}
