/* minipulumi state repair: repairs an invalid snapshot as Pulumi does:
 * sorts the resources so that every one comes after what it refers to, then
 * removes references to resources that are not there (a missing parent also
 * takes its type out of the child's URN, and the children's URNs follow).
 * A valid snapshot is left alone; one still invalid after the repair is
 * not written. */
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "engine/prog_name.h"
#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/state_edit.h"
#include "engine/snapshot.h"

static const mp_cmd_help help = {
    "minipulumi state repair [flags]",
    "Repair an invalid state\n\nThis command can be used to repair an invalid "
    "state. It will attempt to sort resources\nthat appear out of order and "
    "remove references to resources that are no longer\npresent in the "
    "state. If the state is already valid, this command will not attempt\nto "
    "make or write any changes. If the state is not already valid, and "
    "remains invalid\nafter repair has been attempted, this command will not "
    "write any changes."};

/* Pulumi's banner when only a manual repair can help. */
static int manual_repair(mp_ctx *ctx, const char *why) {
  const char *s = ctx->stack;
  const char *f = s ? " --stack " : "";
  fprintf(ctx->err,
          "error: Failed to repair the snapshot automatically: %s\n\n"
          "minipulumi is unable to automatically repair the snapshot. This "
          "can happen if the\nsnapshot contains cycles or corrupted or "
          "unparseable data. You may be able to\nmanually repair your stack "
          "as follows:\n\n"
          "1. Manually export your stack's state to a file named "
          "state.json:\n\n   %s stack%s%s export > state.json\n\n"
          "2. Make a copy of the exported state.json file so that you have a "
          "backup:\n\n   cp state.json state.json.backup\n\n"
          "3. Edit the exported state.json file to fix any issues, such as "
          "cyclic\n   dependencies or corrupted data.\n\n"
          "4. Import the repaired state.json file back into your stack:\n\n"
          "   %s stack%s%s import --file state.json\n",
          why, mp_prog_name(), f, s ? s : "", mp_prog_name(), f, s ? s : "");
  return MP_EXIT_ERROR;
}

static int repair(mp_ctx *ctx, mp_state_edit *e, int yes) {
  if (e->was_valid) {
    fprintf(ctx->out, "The snapshot is already valid; skipping repair\n");
    return 0;
  }
  mp_err first, err;
  mp_err_clear(&first);
  mp_err_clear(&err);
  mp_snapshot_verify(e->snap, &first);
  mp_buf report;
  mp_buf_init(&report);
  int status = 0;
  if (mp_snapshot_toposort(e->snap, &report, &err)) {
    status = manual_repair(ctx, err.msg);
  } else {
    mp_snapshot_prune_dangling(e->snap, &report);
    if (mp_snapshot_verify(e->snap, &err)) status = manual_repair(ctx, err.msg);
  }
  if (!status && !yes) {
    fprintf(ctx->out, "%s", report.data ? report.data : "");
    char answer[16];
    if (!mp_cli_interactive(ctx))
      status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                            "--yes must be passed in to proceed when running "
                            "in non-interactive mode");
    else if (mp_cli_prompt(ctx,
                           "This command will edit your stack's state "
                           "directly. Confirm? [yes/no]",
                           answer, sizeof(answer)) ||
             strcmp(answer, "yes")) {
      fprintf(ctx->out,
              "Confirmation denied, not proceeding with state repair\n");
      mp_buf_destroy(&report);
      return 0;
    }
  }
  mp_buf_destroy(&report);
  e->was_valid = 1; /* the repaired snapshot must verify before it is written */
  if (!status) status = mp_state_edit_save(e);
  if (!status) fprintf(ctx->out, "State repaired successfully\n");
  return status;
}

int mp_cmd_state_repair(int argc, const char **argv, mp_ctx *ctx) {
  int yes = 0;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_BOOL_('y', "yes", &yes,
                   "Automatically approve and perform the repair"),
      MP_OPT_END_};
  int rc = mp_args_parse(ctx, &help, opts, argc, argv, &pos);
  if (rc == MP_ARGS_OK) rc = mp_args_check_count(ctx, argv[0], &pos, 0, 0);
  mp_strv_destroy(&pos);
  if (rc) return mp_args_exit_status(rc);
  mp_state_edit e;
  int status = mp_state_edit_open(ctx, &e);
  if (!status) status = repair(ctx, &e, yes);
  mp_state_edit_close(&e);
  return status;
}
