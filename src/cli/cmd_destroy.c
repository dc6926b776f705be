/* minipulumi destroy: delete every resource of the stack. */
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/op_output.h"
#include "cli/operation.h"

static const mp_cmd_help help = {
    "minipulumi destroy [flags]",
    "Destroy all existing resources in the stack.\n\n"
    "The stack itself and its configuration are kept unless --remove is "
    "given."};

int mp_cmd_destroy(int argc, const char **argv, mp_ctx *ctx) {
  mp_op_cmd c;
  mp_op_cmd_init(&c, "destroy");
  const mp_opt opts[] = {
      MP_OPT_BOOL_('y', "yes", &c.f.yes, "approve the destroy after the preview without asking"),
      MP_OPT_BOOL_('f', "skip-preview", &c.f.skip_preview, "do not preview before destroying"),
      MP_OPT_BOOL_(0, "preview-only", &c.f.preview_only, "only show what would be deleted"),
      MP_OPT_BOOL_(0, "diff", &c.f.diff, "show the properties of each deleted resource"),
      MP_OPT_BOOL_(0, "ignore-protect", &c.f.ignore_protect, "delete or replace protected resources anyway"),
      MP_OPT_BOOL_(0, "exclude-protected", &c.f.exclude_protected, "destroy everything but the protected resources and what they need"),
      MP_OPT_BOOL_('r', "refresh", &c.f.refresh, "refresh the stack's state before the destroy"),
      MP_OPT_BOOL_(0, "run-program", &c.f.run_program, "run the program to determine up-to-date state for providers to destroy resources"),
      MP_OPT_BOOL_(0, "continue-on-error", &c.f.continue_on_error, "go on with independent deletes after a failure"),
      MP_OPT_BOOL_(0, "remove", &c.f.remove, "remove the stack and its config file afterwards"),
      MP_OPT_GROUP_(c.shared.rows),
      MP_OPT_BOOL_('r', "refresh", &c.f.refresh, "refresh the stack's state before the destroy"),
      MP_OPT_GROUP_(c.output.rows),
      MP_OPT_END_};
  int status = mp_op_cmd_parse(ctx, "destroy", &help, opts, argc, argv);
  if (!status) status = mp_cli_operation(ctx, MP_DEPLOY_DESTROY, 0, &c.f);
  mp_op_cmd_destroy(&c);
  return status;
}
