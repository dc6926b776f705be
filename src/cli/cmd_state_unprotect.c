/* minipulumi state unprotect <URN>... | --all: clears the protect bit. */
#include "cli/args.h"
#include "cli/cli.h"
#include "cli/state_edit.h"

static const mp_cmd_help help = {
    "minipulumi state unprotect [<resource-urn>...] [flags]",
    "Unprotect resources in a stack's state\n\nThis command clears the "
    "'protect' bit on one or more resources, allowing those\nresources to "
    "be deleted.\n\nTo see the list of URNs in a stack, use `minipulumi "
    "stack --show-urns`."};

int mp_cmd_state_unprotect(int argc, const char **argv, mp_ctx *ctx) {
  return mp_state_set_protect(ctx, argc, argv, &help, 0);
}
