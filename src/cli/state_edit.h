/* What the `minipulumi state` subcommands share: the stack's snapshot
 * loaded for a direct edit, Pulumi's confirmation, URN lookup with its
 * messages, and the write back (one transaction). */
#ifndef MP_CLI_STATE_EDIT_H
#define MP_CLI_STATE_EDIT_H

#include "cli/ctx.h"
#include "engine/snapshot.h"

typedef struct mp_state_edit {
  mp_ctx *ctx;
  char *stack;
  mp_snapshot *snap;
  mp_crypter crypter;
  int has_crypter;
  int was_valid; /* the snapshot passed mp_snapshot_verify before the edit */
} mp_state_edit;

/* Loads the current stack's snapshot into |e|. Returns an exit status. */
int mp_state_edit_open(mp_ctx *ctx, mp_state_edit *e);
/* Pulumi's `This command will edit your stack's state directly. Confirm?`
 * on a terminal unless |yes| (or PULUMI_SKIP_CONFIRMATIONS); without a
 * terminal the edit goes on, as with Pulumi. Declined: prints
 * `confirmation declined` and returns 1; else 0. */
int mp_state_edit_confirm(mp_state_edit *e, int yes);
/* The index of the one live (not `delete`) entry for |urn|, or an exit
 * status with Pulumi's message (not a URN, no such resource with the
 * nearest URNs, ambiguous) and *index untouched. */
int mp_state_edit_find(mp_state_edit *e, const char *urn, size_t *index);
/* Verifies the edited snapshot (when it was valid before) and writes it
 * back. Returns an exit status. */
int mp_state_edit_save(mp_state_edit *e);
/* Removes the entries whose |drop| flag is set (|drop| has snap->nres
 * entries), keeping the order of the rest. */
void mp_state_edit_remove(mp_state_edit *e, const unsigned char *drop);
void mp_state_edit_close(mp_state_edit *e);

/* `state protect` (|protect| 1: one URN or --all) and `state unprotect`
 * (0: URNs or --all), with the command's |help| (state_protect.c).
 * Returns the exit status. */
struct mp_cmd_help;
int mp_state_set_protect(mp_ctx *ctx, int argc, const char **argv,
                         const struct mp_cmd_help *help, int protect);

/* One bit of the live entries that |urns| name, or of all of them with
 * |all|, set to |on| by |set| (`state protect`, `unprotect`, `taint`,
 * `untaint`): the URNs and --all checked, the snapshot opened, the edit
 * confirmed (|yes|), made and saved. |nothing_for_all|: the error when
 * --all finds no resource (NULL: none). Returns the exit status. */
int mp_state_edit_flag(mp_ctx *ctx, const mp_strv *urns, int all, int yes,
                       void (*set)(mp_resource *r, int on), int on,
                       const char *nothing_for_all);
/* `To list the resource URNs in the stack, run ...` for |stack|. */
void mp_state_edit_hint(mp_state_edit *e);

#endif
