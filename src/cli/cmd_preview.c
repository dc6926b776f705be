/* minipulumi preview: show what `up` would do, changing nothing. */
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/op_output.h"
#include "cli/operation.h"

static const mp_cmd_help help = {
    "minipulumi preview [flags]",
    "Show a preview of the updates to a stack's resources.\n\n"
    "The program is run and compared with the stack's last state; nothing "
    "is changed."};

int mp_cmd_preview(int argc, const char **argv, mp_ctx *ctx) {
  mp_op_cmd c;
  mp_op_cmd_init(&c, "preview");
  const mp_opt opts[] = {
      MP_OPT_BOOL_('r', "refresh", &c.f.refresh, "refresh the stack's state first"),
      MP_OPT_BOOL_('j', "json", &c.f.json, "print one JSON document describing the preview"),
      MP_OPT_LIST_(0, "replace", &c.f.replaces, "urn", "replace this resource"),
      MP_OPT_LIST_(0, "target-replace", &c.f.target_replaces, "urn", "replace this resource and target it"),
      MP_OPT_BOOL_(0, "expect-no-changes", &c.f.expect_no_changes, "fail (exit 7) if any change is proposed"),
      MP_OPT_STR_('m', "message", &c.f.message, "text", "a message (kept for symmetry with up)"),
      MP_OPT_LIST_('c', "config", &c.f.config, "key=value", "set a config value before the preview"),
      MP_OPT_BOOL_(0, "config-path", &c.f.config_path, "Config keys contain a path to a property in a map or list to set"),
      MP_OPT_LIST_(0, "attach-debugger", &c.f.attach_debugger, "kind", "refused: minipulumi cannot start the program or its plugins under a debugger (use the runtime's own debugger flags, e.g. NODE_OPTIONS=--inspect)"),
      MP_OPT_BOOL_(0, "run-program", &c.f.run_program, "Run the program to determine up-to-date state for providers to refresh resources, this only applies if --refresh is set"),
      MP_OPT_GROUP_(c.shared.rows),
      MP_OPT_BOOL_(0, "show-policy-remediations", &c.f.show_policy_remediations, "Show per-resource policy remediation details instead of a summary"),
      MP_OP_SECRETS_PROVIDER_ROW(&c.f.output),
      MP_OP_IMPORT_FILE_ROW(&c.f.output),
      MP_OPT_STR_(0, "save-plan", &c.f.save_plan, "file", "Save the operations proposed by the preview to a plan file at the given path"),
      MP_OPT_GROUP_(c.output.rows),
      MP_OPT_END_};
  int status = mp_op_cmd_parse(ctx, "preview", &help, opts, argc, argv);
  if (!status) status = mp_cli_operation(ctx, MP_DEPLOY_UPDATE, 1, &c.f);
  mp_op_cmd_destroy(&c);
  return status;
}
