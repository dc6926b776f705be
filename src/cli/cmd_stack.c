/* minipulumi stack: the group command; dispatches to cmd_stack_*.c and,
 * without a subcommand, describes the current stack. */
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "engine/prog_name.h"
#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/render.h"

static const struct sub {
  const char *name, *alias;
  int (*fn)(int argc, const char **argv, mp_ctx *ctx);
  const char *summary;
} subs[] = {
    {"init", "new", mp_cmd_stack_init, "Create an empty stack and select it"},
    {"ls", "list", mp_cmd_stack_ls, "List the project's stacks"},
    {"select", NULL, mp_cmd_stack_select, "Switch the current stack"},
    {"rm", "remove", mp_cmd_stack_rm, "Remove a stack and its configuration"},
    {"rename", NULL, mp_cmd_stack_rename, "Rename the current stack"},
    {"output", NULL, mp_cmd_stack_output, "Show the stack's outputs"},
    {"export", NULL, mp_cmd_stack_export, "Export the stack's deployment as JSON"},
    {"import", NULL, mp_cmd_stack_import, "Import a deployment into the stack"},
    {"history", "hist", mp_cmd_stack_history, "Show the stack's update history"},
    {"unselect", NULL, mp_cmd_stack_unselect,
     "Resets stack selection from the current workspace"},
    {"graph", NULL, mp_cmd_stack_graph, "Export a stack's dependency graph to a file"},
    {"change-secrets-provider", NULL, mp_cmd_stack_change_secrets_provider,
     "Change the secrets provider for a stack"},
    {"tag", NULL, mp_cmd_stack_tag, "Manage stack tags"},
};

static const mp_cmd_help help = {
    "minipulumi stack [subcommand] [flags]",
    "Manage stacks. Without a subcommand, show the current stack: its "
    "resources as a tree\n(-u/--show-urns and -i/--show-ids add each one's "
    "URN and ID) and its outputs.\n\n"
    "Subcommands: init, ls, select, rm, rename, output, export, import, "
    "history, unselect,\ngraph, change-secrets-provider, tag"};

static void print_subs(mp_ctx *ctx) {
  fprintf(ctx->out, "\nSubcommands:\n");
  for (size_t i = 0; i < MP_ARRAY_LEN(subs); i++)
    fprintf(ctx->out, "  %-9s %s\n", subs[i].name, subs[i].summary);
}

int mp_cmd_stack(int argc, const char **argv, mp_ctx *ctx) {
  int first = 1;
  if (first < argc &&
      (!strcmp(argv[first], "--help") || !strcmp(argv[first], "-h"))) {
    mp_args_print_usage(ctx, &help, NULL);
    print_subs(ctx);
    return 0;
  }
  if (first >= argc || argv[first][0] == '-') {
    mp_strv pos;
    mp_strv_init(&pos);
    int urns = 0, ids = 0, secrets = 0, name = 0;
    const mp_opt opts[] = {
        MP_OPT_BOOL_('u', "show-urns", &urns, "Display each resource's Pulumi-assigned globally unique URN"),
        MP_OPT_BOOL_('i', "show-ids", &ids, "Display each resource's provider-assigned unique ID"),
        MP_OPT_BOOL_(0, "show-secrets", &secrets, "Display stack outputs which are marked as secret in plaintext"),
        MP_OPT_BOOL_(0, "show-name", &name, "Display only the stack name"),
        MP_OPT_END_};
    int rc = mp_args_parse(ctx, &help, opts, argc, argv, &pos);
    if (rc == MP_ARGS_OK && pos.len) {
      /* flags first, then the subcommand: `stack -s dev output` */
      for (size_t i = 0; i < MP_ARRAY_LEN(subs); i++)
        if (!strcmp(subs[i].name, pos.items[0]) ||
            (subs[i].alias && !strcmp(subs[i].alias, pos.items[0]))) {
          mp_strv_destroy(&pos);
          return mp_cli_error(ctx, MP_EXIT_CONFIG,
                              "put flags after the subcommand: "
                              "`%s stack %s [flags]`",
                              mp_prog_name(), subs[i].name);
        }
      rc = mp_args_check_count(ctx, "stack", &pos, 0, 0);
    }
    mp_strv_destroy(&pos);
    if (rc == MP_ARGS_HELP) print_subs(ctx);
    return rc ? mp_args_exit_status(rc)
              : mp_cli_stack_view(ctx, urns, ids, secrets, name);
  }
  for (size_t i = 0; i < MP_ARRAY_LEN(subs); i++) {
    if (strcmp(subs[i].name, argv[first]) &&
        !(subs[i].alias && !strcmp(subs[i].alias, argv[first])))
      continue;
    char *name = mp_xasprintf("stack %s", subs[i].name);
    const char **args = mp_xcalloc((size_t)argc, sizeof(*args));
    args[0] = name;
    for (int a = first + 1; a < argc; a++) args[a - first] = argv[a];
    int status = subs[i].fn(argc - first, args, ctx);
    free(args);
    free(name);
    return status;
  }
  mp_cli_error(ctx, MP_EXIT_CONFIG, "unknown command \"%s\" for \"%s stack\"",
               argv[first], mp_prog_name());
  fprintf(ctx->err, "Run '%s stack --help' for usage.\n", mp_prog_name());
  return MP_EXIT_CONFIG;
}
