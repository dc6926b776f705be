/* minipulumi plugin rm [KIND [NAME [VERSION]]] [--all] [--yes]: removes
 * plugins from the cache, with Pulumi's messages; VERSION may be a range
 * (plugin/cache.h, mp_semver_in_range). */
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/backend.h"
#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/plugins.h"
#include "plugin/cache.h"

static const mp_cmd_help help = {
    "minipulumi plugin rm [KIND [NAME [VERSION]]] [flags]",
    "Remove one or more plugins from the download cache.\n\nSpecify KIND, "
    "NAME, and/or VERSION to narrow down what will be removed.\nIf none are "
    "specified, the entire cache will be cleared (with --all). If only KIND "
    "and\nNAME are specified, but not VERSION, all versions of the plugin "
    "with the\ngiven KIND and NAME will be removed. VERSION may be a range\n(\">=1.0.0 "
    "<2.0.0\", \"1.x || 3.x\").\n\nThis removal cannot be undone."};

/* |range| checked before (mp_semver_in_range reads it again). */
static int matches(const mp_plugin_info *p, const char *kind, const char *name,
                   const char *range) {
  mp_err e;
  return (kind == NULL || strcmp(p->kind, kind) == 0) &&
         (name == NULL || strcmp(p->name, name) == 0) &&
         (range == NULL || mp_semver_in_range(range, &p->version, &e) == 1);
}

/* "aws-6.1.0", as Pulumi names a plugin in these messages. */
static char *label(const mp_plugin_info *p) {
  char *v = mp_semver_format(&p->version);
  char *s = mp_xasprintf("%s-%s", p->name, v);
  free(v);
  return s;
}

static int confirm(mp_ctx *ctx, const mp_plugin_list *l, const char *kind,
                   const char *name, const char *version, size_t n) {
  if (!mp_cli_interactive(ctx))
    return mp_cli_need_yes(ctx);
  fprintf(ctx->out, "This will remove %zu plugin%s from the cache:\n", n,
          n == 1 ? "" : "s");
  for (size_t i = 0; i < l->len; i++)
    if (matches(&l->items[i], kind, name, version)) {
      char *s = label(&l->items[i]);
      fprintf(ctx->out, "    %s %s\n", l->items[i].kind, s);
      free(s);
    }
  char answer[64];
  if (mp_cli_prompt(ctx, "Do you want to continue? (type \"yes\"):", answer,
                    sizeof(answer)) < 0 ||
      strcmp(answer, "yes") != 0)
    return -1; /* not confirmed: nothing removed, success */
  return 0;
}

int mp_cmd_plugin_rm(int argc, const char **argv, mp_ctx *ctx) {
  int all = 0, yes = 0;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_BOOL_('a', "all", &all, "Remove all plugins"),
      MP_OPT_BOOL_('y', "yes", &yes,
                   "Skip confirmation prompts, and proceed with removal "
                   "anyway"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 0, 3, &pos);
  if (rc)
    return mp_args_exit_status(rc);
  yes = yes || mp_cli_env_true("PULUMI_SKIP_CONFIRMATIONS");
  const char *kind = pos.len > 0 ? pos.items[0] : NULL;
  const char *name = pos.len > 1 ? pos.items[1] : NULL;
  const char *want = pos.len > 2 ? pos.items[2] : NULL;
  mp_semver any = {0};
  mp_err err;
  mp_err_clear(&err);
  int status = 0;
  if (kind && !mp_plugin_kind_known(kind))
    status =
        mp_cli_error(ctx, MP_EXIT_CONFIG, "unrecognized plugin kind: %s", kind);
  else if (kind == NULL && !all)
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "please pass --all if you'd like to remove all "
                          "plugins");
  else if (want && mp_semver_in_range(want, &any, &err) < 0)
    status =
        mp_cli_error(ctx, MP_EXIT_CONFIG, "invalid plugin semver: %s", err.msg);
  mp_plugin_list l = {0};
  if (!status && mp_cli_plugins_installed(0, &l, &err) < 0)
    status = mp_cli_error(ctx, MP_EXIT_ERROR, "%s", err.msg);
  size_t n = 0;
  for (size_t i = 0; !status && i < l.len; i++)
    n += (size_t)matches(&l.items[i], kind, name, want);
  if (!status && n == 0) {
    fprintf(ctx->out, "no plugins found to uninstall\n");
  } else if (!status &&
             (yes || (status = confirm(ctx, &l, kind, name, want, n)) == 0)) {
    for (size_t i = 0; i < l.len; i++) {
      const mp_plugin_info *p = &l.items[i];
      if (!matches(p, kind, name, want))
        continue;
      char *s = label(p);
      if (mp_plugin_cache_remove(p, &err) == 0)
        fprintf(ctx->out, "removed: %s %s\n", p->kind, s);
      else
        status = mp_cli_error(ctx, MP_EXIT_ERROR,
                              "failed to delete %s plugin %s: %s", p->kind, s,
                              err.msg);
      free(s);
    }
  }
  if (status < 0)
    status = 0; /* declined at the prompt */
  mp_plugin_list_destroy(&l);
  mp_strv_destroy(&pos);
  return status;
}
