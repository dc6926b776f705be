/* minipulumi state: edit the current stack's state directly. Dispatches to
 * cmd_state_*.c. */
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/command_table.h"

static const mp_command subs[] = {
    {"delete", mp_cmd_state_delete,
     "Deletes one or more resources from a stack's state", {"rm", "remove"}},
    {"unprotect", mp_cmd_state_unprotect,
     "Unprotect resources in a stack's state", {NULL}},
    {"rename", mp_cmd_state_rename,
     "Renames a resource from a stack's state", {NULL}},
    {"repair", mp_cmd_state_repair, "Repair an invalid state", {NULL}},
    {"move", mp_cmd_state_move,
     "Move resources from one stack to another", {"mv"}},
    {"edit", mp_cmd_state_edit,
     "Edit the current stack's state in your EDITOR", {NULL}},
    {"protect", mp_cmd_state_protect,
     "Protect resource in a stack's state", {NULL}},
    {"taint", mp_cmd_state_taint,
     "Taint one or more resources in the stack's state", {NULL}},
    {"untaint", mp_cmd_state_untaint,
     "Untaint one or more resources in the stack's state", {NULL}},
    {"upgrade", mp_cmd_state_upgrade,
     "Migrates the current backend to the latest supported version", {NULL}},
};

static const mp_cmd_group group = {
    "state",
    {"minipulumi state <subcommand> [flags]",
     "Edit the current stack's state.\n\nSubcommands: delete, unprotect, "
     "rename, repair, move, edit, protect, taint, untaint,\n"
     "upgrade. To see the URNs of a stack's resources, run\n`minipulumi stack "
     "--show-urns`."},
    subs,
    MP_ARRAY_LEN(subs),
    NULL};

int mp_cmd_state(int argc, const char **argv, mp_ctx *ctx) {
  return mp_cmd_group_run(ctx, &group, argc, argv);
}
