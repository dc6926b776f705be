/* minipulumi state delete <URN>... [--force] [--target-dependents] | --all:
 * removes resources from the stack's state (the cloud is not touched). A
 * protected resource needs --force; a resource others depend on (as
 * parent, dependency, property dependency, deletedWith or provider) needs
 * its dependents deleted too (--target-dependents). */
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/state_edit.h"
#include "engine/urn.h"

static const mp_cmd_help help = {
    "minipulumi state delete [<resource-urn>...] [flags]",
    "Deletes one or more resources from a stack's state\n\nThis command "
    "deletes resources from a stack's state, as long as it is safe to do "
    "so.\nEach resource is specified by its URN. Resources can't be deleted "
    "if other resources\ndepend on it or are parented to it. Protected "
    "resources will not be deleted unless\nspecifically requested using the "
    "--force flag.\n\nTo see the list of URNs in a stack, use `minipulumi "
    "stack --show-urns`."};

/* 1 if |r| refers to a resource marked in |mark| (by URN). */
static int refers_to_marked(const mp_snapshot *s, const unsigned char *mark,
                            const mp_resource *r) {
  mp_strv refs;
  mp_strv_init(&refs);
  mp_resource_refs(r, MP_REF_ALL, &refs);
  int hit = 0;
  for (size_t i = 0; i < s->nres && !hit; i++)
    if (mark[i] && mp_strv_contains(&refs, s->res[i]->urn)) hit = 1;
  mp_strv_destroy(&refs);
  return hit;
}

/* Marks in |deps| every resource that depends, directly or not, on one
 * marked in |set| (not itself in |set|). */
static void dependents(const mp_snapshot *s, const unsigned char *set,
                       unsigned char *deps) {
  unsigned char *all = mp_xcalloc(s->nres + 1, 1);
  memcpy(all, set, s->nres);
  for (int grew = 1; grew;) {
    grew = 0;
    for (size_t i = 0; i < s->nres; i++)
      if (!all[i] && refers_to_marked(s, all, s->res[i])) all[i] = grew = 1;
  }
  for (size_t i = 0; i < s->nres; i++) deps[i] = all[i] && !set[i];
  free(all);
}

/* Pulumi's message for a resource others depend on. */
static int has_dependents(mp_ctx *ctx, const mp_snapshot *s, size_t at,
                          const unsigned char *deps) {
  fprintf(ctx->err,
          "error: %s can't be safely deleted because the following resources "
          "depend on it:\n",
          s->res[at]->urn);
  for (size_t i = 0; i < s->nres; i++) {
    if (!deps[i]) continue;
    size_t n = 0;
    const char *name = mp_urn_name(s->res[i]->urn, &n);
    char *quoted = mp_xasprintf("\"%.*s\"", (int)n, name ? name : "");
    fprintf(ctx->err, " * %-15s (%s)\n", quoted, s->res[i]->urn);
    free(quoted);
  }
  fprintf(ctx->err, "\nDelete those resources first or pass "
                    "--target-dependents.\n");
  return MP_EXIT_ERROR;
}

/* Checks and, with --force, clears the protect bit of every resource in
 * |drop|. Exit status. */
static int check_protect(mp_ctx *ctx, mp_snapshot *s, const unsigned char *drop,
                         int force) {
  for (size_t i = 0; i < s->nres; i++) {
    mp_resource *r = s->res[i];
    if (!drop[i] || !r->protect) continue;
    if (!force)
      return mp_cli_error(ctx, MP_EXIT_ERROR,
                          "%s can't be safely deleted because it is "
                          "protected. Re-run this command with --force to "
                          "force deletion",
                          r->urn);
    mp_cli_warn(ctx, "deleting protected resource %s due to presence of --force",
                r->urn);
    r->protect = 0;
  }
  return 0;
}

/* Marks the resources to drop: the named ones (their protect bit checked
 * first, as Pulumi does), and their dependents with |with_deps| (else
 * dependents outside the named set are an error). */
static int select_drop(mp_state_edit *e, const mp_strv *urns, int with_deps,
                       int force, unsigned char *drop) {
  mp_snapshot *s = e->snap;
  for (size_t i = 0; i < urns->len; i++) {
    size_t at;
    int status = mp_state_edit_find(e, urns->items[i], &at);
    if (status) return status;
    drop[at] = 1;
  }
  int status = check_protect(e->ctx, s, drop, force);
  if (status) return status;
  unsigned char *deps = mp_xcalloc(s->nres + 1, 1);
  if (with_deps) {
    dependents(s, drop, deps);
    for (size_t i = 0; i < s->nres; i++) drop[i] |= deps[i];
  } else {
    unsigned char *one = mp_xcalloc(s->nres + 1, 1);
    for (size_t i = 0; i < s->nres && !status; i++) {
      if (!drop[i]) continue;
      memset(one, 0, s->nres);
      one[i] = 1;
      dependents(s, one, deps);
      int outside = 0;
      for (size_t j = 0; j < s->nres; j++)
        if (deps[j] && !drop[j]) outside = 1;
        else deps[j] = 0;
      if (outside) status = has_dependents(e->ctx, s, i, deps);
    }
    free(one);
  }
  free(deps);
  return status;
}

int mp_cmd_state_delete(int argc, const char **argv, mp_ctx *ctx) {
  int force = 0, yes = 0, all = 0, with_deps = 0;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_BOOL_(0, "force", &force, "Force deletion of protected resources"),
      MP_OPT_BOOL_('y', "yes", &yes, "Skip confirmation prompts"),
      MP_OPT_BOOL_(0, "all", &all, "Delete all resources in the stack"),
      MP_OPT_BOOL_(0, "target-dependents", &with_deps,
                   "Delete the URN and all its dependents"),
      MP_OPT_END_};
  int rc = mp_args_parse(ctx, &help, opts, argc, argv, &pos);
  int status = rc ? mp_args_exit_status(rc) : 0;
  if (!status && all && pos.len)
    status = mp_cli_error(ctx, MP_EXIT_ERROR,
                          "cannot specify a resource URN when deleting all "
                          "resources");
  if (!status && !all && !pos.len)
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "Must supply <resource URN> unless minipulumi is "
                          "run interactively");
  if (status) {
    mp_strv_destroy(&pos);
    return status;
  }
  mp_state_edit e;
  status = mp_state_edit_open(ctx, &e);
  unsigned char *drop = e.snap ? mp_xcalloc(e.snap->nres + 1, 1) : NULL;
  if (!status) status = mp_state_edit_confirm(&e, yes);
  if (!status && all) memset(drop, 1, e.snap->nres);
  if (!status && !all) status = select_drop(&e, &pos, with_deps, force, drop);
  if (!status) status = check_protect(ctx, e.snap, drop, force);
  if (!status) {
    mp_state_edit_remove(&e, drop);
    status = mp_state_edit_save(&e);
  }
  if (!status && all) fprintf(ctx->out, "Resources deleted\n");
  else if (!status && pos.len == 1) fprintf(ctx->out, "Resource deleted\n");
  else if (!status) fprintf(ctx->out, "%zu resources deleted\n", pos.len);
  free(drop);
  mp_state_edit_close(&e);
  mp_strv_destroy(&pos);
  return status;
}
