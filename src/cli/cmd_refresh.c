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
  mp_op_cmd c;
  mp_op_cmd_init(&c, "refresh");
  mp_strv imports;
  mp_strv_init(&imports);
  const mp_opt opts[] = {
      MP_OPT_BOOL_('y', "yes", &c.f.yes, "approve the refresh after the preview without asking"),
      MP_OPT_BOOL_('f', "skip-preview", &c.f.skip_preview, "do not preview before refreshing"),
      MP_OPT_BOOL_(0, "preview-only", &c.f.preview_only, "only show what the refresh would change"),
      MP_OPT_BOOL_(0, "clear-pending-creates", &c.f.clear_pending_creates, "drop the pending create operations first"),
      MP_OPT_BOOL_(0, "skip-pending-creates", &c.f.skip_pending_creates, "leave the pending create operations as they are"),
      MP_OPT_LIST_(0, "import-pending-creates", &imports, "URN|ID",
                   "complete pending creates: URN ID [URN ID...], one value "
                   "per flag"),
      MP_OPT_BOOL_(0, "run-program", &c.f.run_program, "run the program to determine up-to-date state for providers to refresh resources"),
      MP_OPT_BOOL_(0, "expect-no-changes", &c.f.expect_no_changes, "fail (exit 7) if the refresh changed anything"),
      MP_OPT_GROUP_(c.shared.rows),
      MP_OPT_GROUP_(c.output.rows),
      MP_OPT_END_};
  int status = mp_op_cmd_parse(ctx, "refresh", &help, opts, argc, argv);
  if (!status && c.f.skip_pending_creates && c.f.clear_pending_creates)
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "cannot set both --skip-pending-creates and "
                          "--clear-pending-creates");
  if (!status)
    status = mp_cli_pending_creates(
        ctx, &imports,
        mp_cli_interactive(ctx) && !c.f.skip_pending_creates &&
            !c.f.preview_only);
  if (!status) status = mp_cli_operation(ctx, MP_DEPLOY_REFRESH, 0, &c.f);
  mp_strv_destroy(&imports);
  mp_op_cmd_destroy(&c);
  return status;
}
