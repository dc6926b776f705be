/* minipulumi state protect [<URN>] | --all: sets the protect bit, as
 * `pulumi state protect` does (pkg/cmd/pulumi/state/state_protect.go). A
 * program that does not set `protect` clears it again on its next up. */
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/state_edit.h"

static const mp_cmd_help help = {
    "minipulumi state protect [<resource-urn>] [flags]",
    "Protect resource in a stack's state\n\nThis command sets the 'protect' "
    "bit on one or more resources, preventing those\nresources from being "
    "deleted. If the program does not also set the 'protect' resource\n"
    "option, the next `minipulumi up` unprotects the resource again.\n\nTo "
    "see the list of URNs in a stack, use `minipulumi stack --show-urns`."};

int mp_cmd_state_protect(int argc, const char **argv, mp_ctx *ctx) {
  int all = 0, yes = 0;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_BOOL_(0, "all", &all, "Protect all resources in the checkpoint"),
      MP_OPT_BOOL_('y', "yes", &yes, "Skip confirmation prompts"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 0, 1, &pos);
  if (rc) return mp_args_exit_status(rc);
  int status = 0;
  if (!all && pos.len == 0)
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "Must supply <resource URN> unless minipulumi is "
                          "run interactively");
  mp_state_edit e;
  memset(&e, 0, sizeof(e));
  if (!status) status = mp_state_edit_open(ctx, &e);
  if (!status && all && pos.len)
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "cannot give a resource URN together with --all");
  if (!status && all && e.snap->nres == 0)
    status = mp_cli_error(ctx, MP_EXIT_ERROR, "no resources found to protect");
  if (!status) status = mp_state_edit_confirm(&e, yes);
  size_t at = 0;
  if (!status && pos.len) status = mp_state_edit_find(&e, pos.items[0], &at);
  for (size_t i = 0; !status && i < e.snap->nres; i++)
    if (all ? !e.snap->res[i]->delete_ : i == at) e.snap->res[i]->protect = 1;
  if (!status) status = mp_state_edit_save(&e);
  if (!status)
    fprintf(ctx->out, all ? "All resources protected\n" : "Resource protected\n");
  mp_state_edit_close(&e);
  mp_strv_destroy(&pos);
  return status;
}
