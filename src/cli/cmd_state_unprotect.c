/* minipulumi state unprotect <URN>... | --all: clears the protect bit. */
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/state_edit.h"

static const mp_cmd_help help = {
    "minipulumi state unprotect [<resource-urn>...] [flags]",
    "Unprotect resources in a stack's state\n\nThis command clears the "
    "'protect' bit on one or more resources, allowing those\nresources to "
    "be deleted.\n\nTo see the list of URNs in a stack, use `minipulumi "
    "stack --show-urns`."};

int mp_cmd_state_unprotect(int argc, const char **argv, mp_ctx *ctx) {
  int all = 0, yes = 0;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_BOOL_(0, "all", &all, "Unprotect all resources in the checkpoint"),
      MP_OPT_BOOL_('y', "yes", &yes, "Skip confirmation prompts"),
      MP_OPT_END_};
  int rc = mp_args_parse(ctx, &help, opts, argc, argv, &pos);
  if (rc) {
    mp_strv_destroy(&pos);
    return mp_args_exit_status(rc);
  }
  if (!all && pos.len == 0) {
    mp_strv_destroy(&pos);
    return mp_cli_error(ctx, MP_EXIT_CONFIG,
                        "Must supply <resource URN> unless minipulumi is run "
                        "interactively");
  }
  mp_state_edit e;
  int status = mp_state_edit_open(ctx, &e);
  if (!status && all && pos.len)
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "cannot give resource URNs together with --all");
  if (!status) status = mp_state_edit_confirm(&e, yes);
  size_t count = 0;
  for (size_t i = 0; !status && all && i < e.snap->nres; i++)
    if (!e.snap->res[i]->delete_) e.snap->res[i]->protect = 0;
  for (size_t i = 0; !status && i < pos.len; i++) {
    size_t at;
    if ((status = mp_state_edit_find(&e, pos.items[i], &at))) break;
    e.snap->res[at]->protect = 0;
    count++;
  }
  if (!status) status = mp_state_edit_save(&e);
  if (!status && all) fprintf(ctx->out, "All resources unprotected\n");
  else if (!status) fprintf(ctx->out, "%zu resources unprotected\n", count);
  mp_state_edit_close(&e);
  mp_strv_destroy(&pos);
  return status;
}
