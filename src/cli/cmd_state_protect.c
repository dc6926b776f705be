/* minipulumi state protect [<URN>] | --all: sets the protect bit, as
 * `pulumi state protect` does (pkg/cmd/pulumi/state/state_protect.go). A
 * program that does not set `protect` clears it again on its next up. */
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/state_edit.h"

static const mp_cmd_help help = {
    "minipulumi state protect [<resource-urn>] [flags]",
    "Protect resource in a stack's state\n\nThis command sets the 'protect' "
    "bit on one or more resources, preventing those\nresources from being "
    "deleted. If the program does not also set the 'protect' resource\n"
    "option, the next `minipulumi up` unprotects the resource again.\n\nTo "
    "see the list of URNs in a stack, use `minipulumi stack --show-urns`."};

int mp_cmd_state_protect(int argc, const char **argv, mp_ctx *ctx) {
  return mp_state_set_protect(ctx, argc, argv, &help, 1);
}
