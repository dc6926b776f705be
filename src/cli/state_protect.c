/* What `state protect` and `state unprotect` share (state_edit.h,
 * mp_state_set_protect): the flags, the checks, the edit and the words;
 * and the edit of one bit that `state taint` and `untaint` use too
 * (mp_state_edit_flag). */
#include <stdio.h>
#include <string.h>

#include "cli/args.h"
#include "cli/messages.h"
#include "cli/state_edit.h"

static void set_protect(mp_resource *r, int on) { r->protect = on; }

int mp_state_edit_flag(mp_ctx *ctx, const mp_strv *urns, int all, int yes,
                       void (*set)(mp_resource *r, int on), int on,
                       const char *nothing_for_all) {
  int status = 0;
  if (!all && urns->len == 0)
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "Must supply <resource URN> unless minipulumi is "
                          "run interactively");
  mp_state_edit e;
  memset(&e, 0, sizeof(e));
  if (!status) status = mp_state_edit_open(ctx, &e);
  if (!status && all && urns->len)
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "cannot give resource URNs together with --all");
  if (!status && nothing_for_all && all && e.snap->nres == 0)
    status = mp_cli_error(ctx, MP_EXIT_ERROR, "%s", nothing_for_all);
  if (!status) status = mp_state_edit_confirm(&e, yes);
  for (size_t i = 0; !status && all && i < e.snap->nres; i++)
    if (!e.snap->res[i]->delete_) set(e.snap->res[i], on);
  for (size_t i = 0; !status && i < urns->len; i++) {
    size_t at;
    if ((status = mp_state_edit_find(&e, urns->items[i], &at))) break;
    set(e.snap->res[at], on);
  }
  if (!status) status = mp_state_edit_save(&e);
  mp_state_edit_close(&e);
  return status;
}

int mp_state_set_protect(mp_ctx *ctx, int argc, const char **argv,
                         const mp_cmd_help *help, int protect) {
  int all = 0, yes = 0;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_BOOL_(0, "all", &all,
                   protect ? "Protect all resources in the checkpoint"
                           : "Unprotect all resources in the checkpoint"),
      MP_OPT_BOOL_('y', "yes", &yes, "Skip confirmation prompts"),
      MP_OPT_END_};
  /* Pulumi's protect takes one URN, its unprotect any number */
  int rc = mp_args_parse_n(ctx, help, opts, argc, argv, 0, protect ? 1 : -1,
                           &pos);
  if (rc) return mp_args_exit_status(rc);
  int status = mp_state_edit_flag(ctx, &pos, all, yes, set_protect, protect,
                                  protect ? "no resources found to protect"
                                          : NULL);
  if (!status && all)
    fprintf(ctx->out, "All resources %s\n", protect ? "protected" : "unprotected");
  else if (!status && protect)
    fprintf(ctx->out, "Resource protected\n");
  else if (!status)
    fprintf(ctx->out, "%zu resources unprotected\n", pos.len);
  mp_strv_destroy(&pos);
  return status;
}
