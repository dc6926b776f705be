/* minipulumi state rename <URN> <new-name>: gives a resource in the state a
 * new name (its URN's last part), and every reference to it the new URN:
 * children's parent, dependencies, property dependencies, deletedWith,
 * replaceWith and, for a provider, the resources' provider references. */
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/state_edit.h"
#include "engine/urn.h"

static const mp_cmd_help help = {
    "minipulumi state rename <resource-urn> <new-name> [flags]",
    "Renames a resource from a stack's state\n\nThis command renames a "
    "resource in a stack's state; the program must use the new\nname too "
    "(or an alias), or the next update replaces it.\n\nTo see the list of "
    "URNs in a stack, use `minipulumi stack --show-urns`."};

static void swap_str(char **s, const char *from, const char *to) {
  if (*s && !strcmp(*s, from)) {
    free(*s);
    *s = mp_xstrdup(to);
  }
}

static void swap_strv(mp_strv *v, const char *from, const char *to) {
  for (size_t i = 0; i < v->len; i++) swap_str(&v->items[i], from, to);
}

/* Points every reference to |from| at |to|. */
static void rewrite_refs(mp_snapshot *s, const char *from, const char *to) {
  for (size_t i = 0; i < s->nres; i++) {
    mp_resource *r = s->res[i];
    swap_str(&r->parent, from, to);
    swap_str(&r->deleted_with, from, to);
    swap_strv(&r->dependencies, from, to);
    swap_strv(&r->replace_with, from, to);
    for (size_t k = 0; k < r->property_dependencies.len; k++)
      swap_strv(&r->property_dependencies.items[k].urns, from, to);
    mp_provider_ref ref;
    mp_err err;
    if (r->provider && mp_provider_ref_parse(r->provider, &ref, &err) == 0) {
      if (!strcmp(ref.urn, from)) {
        free(r->provider);
        r->provider = mp_provider_ref_format(to, ref.id);
      }
      mp_provider_ref_destroy(&ref);
    }
  }
}

int mp_cmd_state_rename(int argc, const char **argv, mp_ctx *ctx) {
  int yes = 0;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_BOOL_('y', "yes", &yes, "Skip confirmation prompts"),
      MP_OPT_END_};
  int rc = mp_args_parse(ctx, &help, opts, argc, argv, &pos);
  if (rc == MP_ARGS_OK && pos.len < 2) {
    mp_strv_destroy(&pos);
    return mp_cli_error(ctx, MP_EXIT_CONFIG,
                        "Must supply <resource URN> and <new name> unless "
                        "minipulumi is run interactively");
  }
  if (rc == MP_ARGS_OK) rc = mp_args_check_count(ctx, argv[0], &pos, 2, 2);
  if (rc) {
    mp_strv_destroy(&pos);
    return mp_args_exit_status(rc);
  }
  const char *urn = pos.items[0], *name = pos.items[1];
  mp_state_edit e;
  size_t at = 0, n = 0;
  char *to = NULL;
  int status = mp_state_edit_open(ctx, &e);
  if (!status && !mp_urn_valid(urn))
    status = mp_cli_error(ctx, MP_EXIT_ERROR,
                          "The provided input URN is not valid");
  if (!status) status = mp_state_edit_confirm(&e, yes);
  if (!status) status = mp_state_edit_find(&e, urn, &at);
  if (!status) {
    const char *old_name = mp_urn_name(urn, &n);
    to = mp_xasprintf("%.*s%s", (int)(old_name - urn), urn, name);
    for (size_t i = 0; i < e.snap->nres && !status; i++)
      if (!strcmp(e.snap->res[i]->urn, to) && strcmp(to, urn))
        status = mp_cli_error(ctx, MP_EXIT_ERROR,
                              "The chosen new urn for the state corresponds "
                              "to an already existing resource");
  }
  if (!status && strcmp(to, urn)) {
    swap_str(&e.snap->res[at]->urn, urn, to);
    rewrite_refs(e.snap, urn, to);
  }
  if (!status) status = mp_state_edit_save(&e);
  if (!status) fprintf(ctx->out, "Resource renamed\n");
  free(to);
  mp_state_edit_close(&e);
  mp_strv_destroy(&pos);
  return status;
}
