/* minipulumi up: preview, confirm, then create or update the stack's
 * resources. */
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/op_output.h"
#include "cli/operation.h"

static const mp_cmd_help help = {
    "minipulumi up [flags]",
    "Create or update the resources in a stack.\n\n"
    "The program is run, its resources are compared with the stack's last "
    "state, and the\ndifference is shown as a preview; after confirmation "
    "the changes are made."};

int mp_cmd_up(int argc, const char **argv, mp_ctx *ctx) {
  mp_op_flags f;
  mp_strv pos;
  mp_op_flags_init(&f);
  mp_strv_init(&pos);
  mp_op_shared_opts shared;
  mp_op_shared_opts_init(&shared, &f, "update");
  mp_op_output_opts output;
  mp_op_output_opts_init(&output, &f.output);
  const mp_opt opts[] = {
      MP_OPT_BOOL_('y', "yes", &f.yes, "approve the update after the preview without asking"),
      MP_OPT_BOOL_('f', "skip-preview", &f.skip_preview, "do not preview before updating"),
      MP_OPT_BOOL_('r', "refresh", &f.refresh, "refresh the stack's state before the update"),
      MP_OPT_LIST_(0, "replace", &f.replaces, "urn", "replace this resource"),
      MP_OPT_LIST_(0, "target-replace", &f.target_replaces, "urn", "replace this resource and target it"),
      MP_OPT_BOOL_(0, "ignore-protect", &f.ignore_protect, "delete or replace protected resources anyway"),
      MP_OPT_BOOL_(0, "continue-on-error", &f.continue_on_error, "go on with independent resources after a failure"),
      MP_OPT_BOOL_(0, "expect-no-changes", &f.expect_no_changes, "fail (exit 7) if the update changed anything"),
      MP_OPT_LIST_('c', "config", &f.config, "key=value", "set a config value before the update"),
      MP_OPT_BOOL_(0, "config-path", &f.config_path, "Config keys contain a path to a property in a map or list to set"),
      MP_OPT_LIST_(0, "attach-debugger", &f.attach_debugger, "kind", "refused: minipulumi cannot start the program or its plugins under a debugger (use the runtime's own debugger flags, e.g. NODE_OPTIONS=--inspect)"),
      MP_OPT_BOOL_(0, "strict", &f.strict, "Enable strict plan behavior: generate a plan during preview and constrain the update to that plan. Cannot be used with --skip-preview."),
      MP_OPT_BOOL_(0, "run-program", &f.run_program, "Run the program to determine up-to-date state for providers to refresh resources, this only applies if --refresh is set"),
      MP_OPT_STR_(0, "plan", &f.plan, "file", "Path to a plan file to use for the update. The update will not perform operations that exceed its plan (e.g. replacements instead of updates, or updates instead of sames)."),
      MP_OPT_GROUP_(shared.rows),
      MP_OPT_BOOL_(0, "show-policy-remediations", &f.show_policy_remediations, "Show per-resource policy remediation details instead of a summary"),
      MP_OP_SECRETS_PROVIDER_ROW(&f.output),
      MP_OPT_GROUP_(output.rows),
      MP_OPT_END_};
  int rc = mp_args_parse(ctx, &help, opts, argc, argv, &pos);
  if (rc == MP_ARGS_OK) rc = mp_args_check_count(ctx, "up", &pos, 0, 0);
  int status = rc ? mp_args_exit_status(rc)
                  : mp_cli_operation(ctx, MP_DEPLOY_UPDATE, 0, &f);
  mp_strv_destroy(&pos);
  mp_op_flags_destroy(&f);
  return status;
}
