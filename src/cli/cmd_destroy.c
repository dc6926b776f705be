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
  mp_op_flags f;
  mp_strv pos;
  mp_op_flags_init(&f);
  mp_strv_init(&pos);
  mp_op_shared_opts shared;
  mp_op_shared_opts_init(&shared, &f, "destroy");
  mp_op_output_opts output;
  mp_op_output_opts_init(&output, &f.output);
  const mp_opt opts[] = {
      MP_OPT_BOOL_('y', "yes", &f.yes, "approve the destroy after the preview without asking"),
      MP_OPT_BOOL_('f', "skip-preview", &f.skip_preview, "do not preview before destroying"),
      MP_OPT_BOOL_(0, "preview-only", &f.preview_only, "only show what would be deleted"),
      MP_OPT_BOOL_(0, "diff", &f.diff, "show the properties of each deleted resource"),
      MP_OPT_BOOL_(0, "ignore-protect", &f.ignore_protect, "delete or replace protected resources anyway"),
      MP_OPT_BOOL_(0, "exclude-protected", &f.exclude_protected, "destroy everything but the protected resources and what they need"),
      MP_OPT_BOOL_('r', "refresh", &f.refresh, "refresh the stack's state before the destroy"),
      MP_OPT_BOOL_(0, "run-program", &f.run_program, "run the program to determine up-to-date state for providers to destroy resources"),
      MP_OPT_BOOL_(0, "continue-on-error", &f.continue_on_error, "go on with independent deletes after a failure"),
      MP_OPT_BOOL_(0, "remove", &f.remove, "remove the stack and its config file afterwards"),
      MP_OPT_GROUP_(shared.rows),
      MP_OPT_BOOL_('r', "refresh", &f.refresh, "refresh the stack's state before the destroy"),
      MP_OPT_GROUP_(output.rows),
      MP_OPT_END_};
  int rc = mp_args_parse(ctx, &help, opts, argc, argv, &pos);
  if (rc == MP_ARGS_OK) rc = mp_args_check_count(ctx, "destroy", &pos, 0, 0);
  int status = rc ? mp_args_exit_status(rc)
                  : mp_cli_operation(ctx, MP_DEPLOY_DESTROY, 0, &f);
  mp_strv_destroy(&pos);
  mp_op_flags_destroy(&f);
  return status;
}
