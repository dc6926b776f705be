/* minipulumi state: edit the current stack's state directly. Dispatches to
 * cmd_state_*.c. */
#include "cli/args.h"
#include "cli/cli.h"

static const mp_subcmd subs[] = {
    {"delete", "rm", "remove", mp_cmd_state_delete,
     "Deletes one or more resources from a stack's state"},
    {"unprotect", NULL, NULL, mp_cmd_state_unprotect,
     "Unprotect resources in a stack's state"},
    {"rename", NULL, NULL, mp_cmd_state_rename,
     "Renames a resource from a stack's state"},
    {"repair", NULL, NULL, mp_cmd_state_repair, "Repair an invalid state"},
    {"move", "mv", NULL, mp_cmd_state_move,
     "Move resources from one stack to another"},
    {"edit", NULL, NULL, mp_cmd_state_edit,
     "Edit the current stack's state in your EDITOR"},
    {"protect", NULL, NULL, mp_cmd_state_protect,
     "Protect resource in a stack's state"},
    {"taint", NULL, NULL, mp_cmd_state_taint,
     "Taint one or more resources in the stack's state"},
    {"untaint", NULL, NULL, mp_cmd_state_untaint,
     "Untaint one or more resources in the stack's state"},
    {"upgrade", NULL, NULL, mp_cmd_state_upgrade,
     "Migrates the current backend to the latest supported version"},
};

static const mp_cmd_help help = {
    "minipulumi state <subcommand> [flags]",
    "Edit the current stack's state.\n\nSubcommands: delete, unprotect, "
    "rename, repair, move, edit, protect, taint, untaint,\n"
    "upgrade. To see the URNs of a stack's resources, run\n`minipulumi stack "
    "--show-urns`."};

int mp_cmd_state(int argc, const char **argv, mp_ctx *ctx) {
  return mp_args_dispatch(ctx, "state", &help, subs, MP_ARRAY_LEN(subs), argc,
                          argv);
}
