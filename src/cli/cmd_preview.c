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
  mp_op_flags f;
  mp_strv pos;
  mp_op_flags_init(&f);
  mp_strv_init(&pos);
  mp_op_shared_opts shared;
  mp_op_shared_opts_init(&shared, &f, "preview");
  mp_op_output_opts output;
  mp_op_output_opts_init(&output, &f.output);
  const mp_opt opts[] = {
      MP_OPT_BOOL_('r', "refresh", &f.refresh, "refresh the stack's state first"),
      MP_OPT_BOOL_('j', "json", &f.json, "print one JSON document describing the preview"),
      MP_OPT_LIST_(0, "replace", &f.replaces, "urn", "replace this resource"),
      MP_OPT_LIST_(0, "target-replace", &f.target_replaces, "urn", "replace this resource and target it"),
      MP_OPT_BOOL_(0, "expect-no-changes", &f.expect_no_changes, "fail (exit 7) if any change is proposed"),
      MP_OPT_STR_('m', "message", &f.message, "text", "a message (kept for symmetry with up)"),
      MP_OPT_LIST_('c', "config", &f.config, "key=value", "set a config value before the preview"),
      MP_OPT_BOOL_(0, "config-path", &f.config_path, "Config keys contain a path to a property in a map or list to set"),
      MP_OPT_LIST_(0, "attach-debugger", &f.attach_debugger, "kind", "refused: minipulumi cannot start the program or its plugins under a debugger (use the runtime's own debugger flags, e.g. NODE_OPTIONS=--inspect)"),
      MP_OPT_BOOL_(0, "run-program", &f.run_program, "Run the program to determine up-to-date state for providers to refresh resources, this only applies if --refresh is set"),
      MP_OPT_GROUP_(shared.rows),
      MP_OPT_BOOL_(0, "show-policy-remediations", &f.show_policy_remediations, "Show per-resource policy remediation details instead of a summary"),
      MP_OP_SECRETS_PROVIDER_ROW(&f.output),
      MP_OP_IMPORT_FILE_ROW(&f.output),
      MP_OPT_STR_(0, "save-plan", &f.save_plan, "file", "Save the operations proposed by the preview to a plan file at the given path"),
      MP_OPT_GROUP_(output.rows),
      MP_OPT_END_};
  int rc = mp_args_parse(ctx, &help, opts, argc, argv, &pos);
  if (rc == MP_ARGS_OK) rc = mp_args_check_count(ctx, "preview", &pos, 0, 0);
  int status = rc ? mp_args_exit_status(rc)
                  : mp_cli_operation(ctx, MP_DEPLOY_UPDATE, 1, &f);
  mp_strv_destroy(&pos);
  mp_op_flags_destroy(&f);
  return status;
}
