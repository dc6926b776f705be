/* minipulumi state: edit the current stack's state directly. Dispatches to
 * cmd_state_*.c. */
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/messages.h"

static const struct sub {
  const char *name, *alias, *alias2;
  int (*fn)(int argc, const char **argv, mp_ctx *ctx);
  const char *summary;
} subs[] = {
    {"delete", "rm", "remove", mp_cmd_state_delete,
     "Deletes one or more resources from a stack's state"},
    {"unprotect", NULL, NULL, mp_cmd_state_unprotect,
     "Unprotect resources in a stack's state"},
    {"rename", NULL, NULL, mp_cmd_state_rename,
     "Renames a resource from a stack's state"},
    {"repair", NULL, NULL, mp_cmd_state_repair, "Repair an invalid state"},
    {"move", "mv", NULL, mp_cmd_state_move,
     "Move resources from one stack to another"},
    /* issue 37 */
    {"protect", NULL, NULL, mp_cmd_state_protect,
     "Protect resource in a stack's state"},
    {"upgrade", NULL, NULL, mp_cmd_state_upgrade,
     "Migrates the current backend to the latest supported version"},
};

static const mp_cmd_help help = {
    "minipulumi state <subcommand> [flags]",
    "Edit the current stack's state.\n\nSubcommands: delete, unprotect, "
    "rename, repair, move, protect, upgrade. To see the URNs of a stack's resources, run\n`minipulumi stack "
    "--show-urns`."};

int mp_cmd_state(int argc, const char **argv, mp_ctx *ctx) {
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    mp_args_print_usage(ctx, &help, NULL);
    fprintf(ctx->out, "\nSubcommands:\n");
    for (size_t i = 0; i < MP_ARRAY_LEN(subs); i++)
      fprintf(ctx->out, "  %-10s %s\n", subs[i].name, subs[i].summary);
    return argc < 2 ? MP_EXIT_CONFIG : 0;
  }
  for (size_t i = 0; i < MP_ARRAY_LEN(subs); i++) {
    const struct sub *s = &subs[i];
    if (strcmp(s->name, argv[1]) && !(s->alias && !strcmp(s->alias, argv[1])) &&
        !(s->alias2 && !strcmp(s->alias2, argv[1])))
      continue;
    char *name = mp_xasprintf("state %s", s->name);
    const char **args = mp_xcalloc((size_t)argc, sizeof(*args));
    args[0] = name;
    for (int a = 2; a < argc; a++) args[a - 1] = argv[a];
    int status = s->fn(argc - 1, args, ctx);
    free(args);
    free(name);
    return status;
  }
  mp_cli_error(ctx, MP_EXIT_CONFIG,
               "unknown command \"%s\" for \"minipulumi state\"", argv[1]);
  fprintf(ctx->err, "Run 'minipulumi state --help' for usage.\n");
  return MP_EXIT_CONFIG;
}
