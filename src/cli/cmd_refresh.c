/* minipulumi refresh: read every resource back from its provider and bring
 * the stack's state up to date. */
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/op_output.h"
#include "cli/operation.h"

static const mp_cmd_help help = {
    "minipulumi refresh [flags]",
    "Refresh the resources in a stack.\n\n"
    "Each resource is read from its provider and the state is updated to "
    "match; the\nworld is not changed."};

int mp_cmd_refresh(int argc, const char **argv, mp_ctx *ctx) {
  mp_op_flags f;
  mp_strv pos;
  mp_op_flags_init(&f);
  mp_strv_init(&pos);
  mp_op_shared_opts shared;
  mp_op_shared_opts_init(&shared, &f, "refresh");
  mp_op_output_opts output;
  mp_op_output_opts_init(&output, &f.output);
  mp_strv imports;
  mp_strv_init(&imports);
  const mp_opt opts[] = {
      MP_OPT_BOOL_('y', "yes", &f.yes, "approve the refresh after the preview without asking"),
      MP_OPT_BOOL_('f', "skip-preview", &f.skip_preview, "do not preview before refreshing"),
      MP_OPT_BOOL_(0, "preview-only", &f.preview_only, "only show what the refresh would change"),
      MP_OPT_BOOL_(0, "clear-pending-creates", &f.clear_pending_creates, "drop the pending create operations first"),
      MP_OPT_BOOL_(0, "skip-pending-creates", &f.skip_pending_creates, "leave the pending create operations as they are"),
      MP_OPT_LIST_(0, "import-pending-creates", &imports, "URN|ID",
                   "complete pending creates: URN ID [URN ID...], one value "
                   "per flag"),
      MP_OPT_BOOL_(0, "run-program", &f.run_program, "run the program to determine up-to-date state for providers to refresh resources"),
      MP_OPT_BOOL_(0, "expect-no-changes", &f.expect_no_changes, "fail (exit 7) if the refresh changed anything"),
      MP_OPT_GROUP_(shared.rows),
      MP_OPT_GROUP_(output.rows),
      MP_OPT_END_};
  int rc = mp_args_parse(ctx, &help, opts, argc, argv, &pos);
  if (rc == MP_ARGS_OK) rc = mp_args_check_count(ctx, "refresh", &pos, 0, 0);
  int status;
  if (rc)
    status = mp_args_exit_status(rc);
  else if (f.skip_pending_creates && f.clear_pending_creates)
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "cannot set both --skip-pending-creates and "
                          "--clear-pending-creates");
  else if (!(status = mp_cli_pending_creates(
                  ctx, &imports,
                  mp_cli_interactive(ctx) && !f.skip_pending_creates &&
                      !f.preview_only)))
    status = mp_cli_operation(ctx, MP_DEPLOY_REFRESH, 0, &f);
  mp_strv_destroy(&imports);
  mp_strv_destroy(&pos);
  mp_op_flags_destroy(&f);
  return status;
}
