/* No stack selected on a terminal: Pulumi's menu of the project's stacks
 * (chooseStack in pkg/cmd/pulumi/stack/: "Please choose a stack, or
 * create a new one:", the names sorted, then "<create a new stack>"); the
 * stack chosen or created is selected, as Pulumi's setCurrent does. */
#include <stdlib.h>
#include <string.h>

#include "cli/messages.h"
#include "cli/stack_create.h"
#include "cli/workspace.h"

#define NEW_OPTION "<create a new stack>"

static int by_name(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int mp_cli_stack_choose(mp_ctx *ctx, int offer_new, char **out) {
  *out = NULL;
  mp_stack_info *infos = NULL;
  size_t n = 0, pick = 0;
  mp_err err;
  mp_err_clear(&err);
  if (mp_store_stack_list(ctx->store, ctx->project->name, &infos, &n, &err))
    return mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  const char **options = mp_xcalloc(n + 1, sizeof(*options));
  for (size_t i = 0; i < n; i++) options[i] = infos[i].name;
  qsort(options, n, sizeof(*options), by_name);
  size_t nopt = n;
  if (offer_new) options[nopt++] = NEW_OPTION;
  int status = 0;
  if (nopt == 0)
    status = mp_cli_error(ctx, MP_EXIT_ERROR,
                          "no stacks to choose from; create one with "
                          "`minipulumi stack init`");
  else if (mp_cli_select(ctx,
                         offer_new ? "Please choose a stack, or create a new one:"
                                   : "Please choose a stack:",
                         options, nopt, 0, &pick) != 0)
    status = mp_cli_error(ctx, MP_EXIT_ERROR, "no stack selected");
  char name[256];
  if (!status && offer_new && pick == n) {
    if (mp_cli_prompt(ctx, "Please enter your desired stack name:", name,
                      sizeof(name)) != 0 || !*name)
      status = mp_cli_error(ctx, MP_EXIT_ERROR, "no stack name given");
    else if (!(status = mp_cli_stack_create(ctx, name, NULL, 0)))
      *out = mp_xstrdup(name);
  } else if (!status) {
    *out = mp_xstrdup(options[pick]);
    if (mp_store_selected_set(ctx->store, ctx->project->name, *out, &err)) {
      status = mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
      free(*out);
      *out = NULL;
    }
  }
  free(options);
  for (size_t i = 0; i < n; i++) mp_stack_info_destroy(&infos[i]);
  free(infos);
  return status;
}
