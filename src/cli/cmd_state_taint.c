/* minipulumi state taint <URN>... and state untaint <URN>... | --all: set
 * or clear the `taint` bit, as `pulumi state taint`/`untaint` do
 * (pkg/cmd/pulumi/state/state_taint.go, state_untaint.go). The step
 * generator replaces a tainted resource on the next up (stepgen.c,
 * `forced`), and the replacement's new state is not tainted. */
#include <stdio.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/state_edit.h"

static const mp_cmd_help taint_help = {
    "minipulumi state taint [<resource-urn>...] [flags]",
    "Taint one or more resources in the stack's state\n\nThis has the "
    "effect of ensuring the resources are destroyed and recreated upon the "
    "next `minipulumi up`.\n\nTo see the list of URNs in a stack, use "
    "`minipulumi stack --show-urns`."};

static const mp_cmd_help untaint_help = {
    "minipulumi state untaint [<resource-urn>...] [flags]",
    "Untaint one or more resources in the stack's state\n\nAfter running "
    "this, the resources will no longer be destroyed and recreated upon the "
    "next `minipulumi up`.\n\nTo see the list of URNs in a stack, use "
    "`minipulumi stack --show-urns`."};

static void set_taint_bit(mp_resource *r, int on) { r->taint = on; }

static int set_taint(mp_ctx *ctx, int argc, const char **argv, int taint) {
  int all = 0, yes = 0;
  mp_strv pos;
  mp_strv_init(&pos);
  /* Pulumi's taint has no --all; its untaint has */
  mp_opt opts[] = {
      MP_OPT_BOOL_('y', "yes", &yes, "Skip confirmation prompts"),
      MP_OPT_BOOL_(0, "all", &all, "Untaint all resources in the checkpoint"),
      MP_OPT_END_};
  if (taint) opts[1] = (mp_opt)MP_OPT_END_;
  int rc = mp_args_parse_n(ctx, taint ? &taint_help : &untaint_help, opts,
                           argc, argv, 0, -1, &pos);
  if (rc) return mp_args_exit_status(rc);
  int status = mp_state_edit_flag(ctx, &pos, all, yes, set_taint_bit, taint,
                                  NULL);
  if (!status && all)
    fprintf(ctx->out, "All resources untainted\n");
  else if (!status)
    fprintf(ctx->out, "%zu resources %s\n", pos.len,
            taint ? "tainted" : "untainted");
  mp_strv_destroy(&pos);
  return status;
}

int mp_cmd_state_taint(int argc, const char **argv, mp_ctx *ctx) {
  return set_taint(ctx, argc, argv, 1);
}

int mp_cmd_state_untaint(int argc, const char **argv, mp_ctx *ctx) {
  return set_taint(ctx, argc, argv, 0);
}
