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
  mp_op_cmd c;
  mp_op_cmd_init(&c, "update");
  const mp_opt opts[] = {
      MP_OPT_BOOL_('y', "yes", &c.f.yes, "approve the update after the preview without asking"),
      MP_OPT_BOOL_('f', "skip-preview", &c.f.skip_preview, "do not preview before updating"),
      MP_OPT_BOOL_('r', "refresh", &c.f.refresh, "refresh the stack's state before the update"),
      MP_OPT_LIST_(0, "replace", &c.f.replaces, "urn", "replace this resource"),
      MP_OPT_LIST_(0, "target-replace", &c.f.target_replaces, "urn", "replace this resource and target it"),
      MP_OPT_BOOL_(0, "ignore-protect", &c.f.ignore_protect, "delete or replace protected resources anyway"),
      MP_OPT_BOOL_(0, "continue-on-error", &c.f.continue_on_error, "go on with independent resources after a failure"),
      MP_OPT_BOOL_(0, "expect-no-changes", &c.f.expect_no_changes, "fail (exit 7) if the update changed anything"),
      MP_OPT_LIST_('c', "config", &c.f.config, "key=value", "set a config value before the update"),
      MP_OPT_BOOL_(0, "config-path", &c.f.config_path, "Config keys contain a path to a property in a map or list to set"),
      MP_OPT_LIST_(0, "attach-debugger", &c.f.attach_debugger, "kind", "refused: minipulumi cannot start the program or its plugins under a debugger (use the runtime's own debugger flags, e.g. NODE_OPTIONS=--inspect)"),
      MP_OPT_BOOL_(0, "strict", &c.f.strict, "Enable strict plan behavior: generate a plan during preview and constrain the update to that plan. Cannot be used with --skip-preview."),
      MP_OPT_BOOL_(0, "run-program", &c.f.run_program, "Run the program to determine up-to-date state for providers to refresh resources, this only applies if --refresh is set"),
      MP_OPT_STR_(0, "plan", &c.f.plan, "file", "Path to a plan file to use for the update. The update will not perform operations that exceed its plan (e.g. replacements instead of updates, or updates instead of sames)."),
      MP_OPT_GROUP_(c.shared.rows),
      MP_OPT_BOOL_(0, "show-policy-remediations", &c.f.show_policy_remediations, "Show per-resource policy remediation details instead of a summary"),
      MP_OP_SECRETS_PROVIDER_ROW(&c.f.output),
      MP_OPT_GROUP_(c.output.rows),
      MP_OPT_END_};
  int status = mp_op_cmd_parse(ctx, "up", &help, opts, argc, argv);
  if (!status) status = mp_cli_operation(ctx, MP_DEPLOY_UPDATE, 0, &c.f);
  mp_op_cmd_destroy(&c);
  return status;
}
