/* minipulumi stack ls: the project's stacks (all projects with --all). */
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/json_out.h"
#include "cli/messages.h"
#include "cli/workspace.h"

static const mp_cmd_help help = {
    "minipulumi stack ls [flags]",
    "List the stacks of the current project; `*` marks the current one.\n\n"
    "Results may be further filtered by passing additional flags. Tag filters "
    "may include\nthe tag name as well as the tag value, separated by an "
    "equals sign. For example\n'environment=production' or just "
    "'gcp:project'."};

/* 1 if stack |s| has the tag |filter| names (`name` or `name=value`, as
 * Pulumi's parseTagFilter splits it), 0 if not, < 0 on a store error. */
static int has_tag(mp_ctx *ctx, const mp_stack_info *s, const char *filter,
                   mp_err *err) {
  const char *eq = strchr(filter, '=');
  size_t nl = eq ? (size_t)(eq - filter) : strlen(filter);
  mp_stack_tag *tags = NULL;
  size_t n = 0;
  mp_stack_ref ref = {s->project, s->name};
  if (mp_store_tags_get(ctx->store, ref, &tags, &n, err)) {
    mp_stack_tags_free(tags, n);
    return -1;
  }
  int found = 0;
  for (size_t i = 0; i < n && !found; i++)
    found = strlen(tags[i].name) == nl && !strncmp(tags[i].name, filter, nl) &&
            (!eq || !strcmp(tags[i].value, eq + 1));
  mp_stack_tags_free(tags, n);
  return found;
}

/* Keeps the stacks of |s| that have the tag |filter|; exit status. */
static int filter_by_tag(mp_ctx *ctx, mp_stack_info *s, size_t *n,
                         const char *filter) {
  size_t kept = 0;
  for (size_t i = 0; i < *n; i++) {
    mp_err err;
    mp_err_clear(&err);
    int has = has_tag(ctx, &s[i], filter, &err);
    if (has < 0) {
      for (size_t j = i; j < *n; j++) mp_stack_info_destroy(&s[j]);
      *n = kept;
      return mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
    }
    if (has) s[kept++] = s[i];
    else mp_stack_info_destroy(&s[i]);
  }
  *n = kept;
  return 0;
}

/* A stack's name as listed: -Q/--fully-qualify-stack-names gives
 * `organization/<project>/<stack>` (the organization of a store without
 * Pulumi Cloud, as Pulumi's DIY backend names it); listing several
 * projects gives `<project>/<stack>`. Owned. */
static char *listed_name(const mp_ctx *ctx, const mp_stack_info *s, int all) {
  if (ctx->fully_qualify)
    return mp_xasprintf("organization/%s/%s", s->project, s->name);
  return all ? mp_xasprintf("%s/%s", s->project, s->name) : mp_xstrdup(s->name);
}

static void print_json(mp_ctx *ctx, const mp_stack_info *s, size_t n,
                       const char *current, int all) {
  cJSON *a = cJSON_CreateArray();
  for (size_t i = 0; i < n; i++) {
    cJSON *o = cJSON_CreateObject();
    char *name = listed_name(ctx, &s[i], all);
    cJSON_AddStringToObject(o, "name", name);
    cJSON_AddBoolToObject(o, "current", current && !strcmp(current, s[i].name) &&
                                            (!ctx->project || !strcmp(s[i].project, ctx->project->name)));
    if (s[i].last_update) cJSON_AddStringToObject(o, "lastUpdate", s[i].last_update);
    cJSON_AddBoolToObject(o, "updateInProgress", 0);
    cJSON_AddNumberToObject(o, "resourceCount", (double)s[i].resource_count);
    cJSON_AddItemToArray(a, o);
    free(name);
  }
  mp_cli_cjson_emit(ctx->out, a, 2);
}

static void print_table(mp_ctx *ctx, const mp_stack_info *s, size_t n,
                        const char *current, int all) {
  char **names = mp_xcalloc(n ? n : 1, sizeof(char *));
  size_t w = 4, wu = 11;
  for (size_t i = 0; i < n; i++) {
    int cur = current && !strcmp(current, s[i].name) &&
              ctx->project && !strcmp(s[i].project, ctx->project->name);
    char *name = listed_name(ctx, &s[i], all);
    names[i] = mp_xasprintf("%s%s", name, cur ? "*" : "");
    free(name);
    if (strlen(names[i]) > w) w = strlen(names[i]);
    if (s[i].last_update && strlen(s[i].last_update) > wu) wu = strlen(s[i].last_update);
  }
  fprintf(ctx->out, "%-*s  %-*s  RESOURCE COUNT\n", (int)w, "NAME", (int)wu,
          "LAST UPDATE");
  for (size_t i = 0; i < n; i++) {
    fprintf(ctx->out, "%-*s  %-*s  ", (int)w, names[i], (int)wu,
            s[i].last_update ? s[i].last_update : "n/a");
    if (s[i].last_update) fprintf(ctx->out, "%lld\n", (long long)s[i].resource_count);
    else fprintf(ctx->out, "n/a\n");
    free(names[i]);
  }
  free(names);
}

int mp_cmd_stack_ls(int argc, const char **argv, mp_ctx *ctx) {
  int json = 0, all = 0;
  const char *project = NULL, *tag = NULL;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_BOOL_('j', "json", &json, "print JSON"),
      MP_OPT_BOOL_('a', "all", &all, "list the stacks of every project"),
      MP_OPT_STR_('p', "project", &project, "name",
                  "list the stacks of this project"),
      MP_OPT_STR_('t', "tag", &tag, "name[=value]",
                  "Filter returned stacks to those in a specific tag "
                  "(tag-name or tag-name=tag-value)"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 0, 0, &pos);
  if (rc) return mp_args_exit_status(rc);
  mp_strv_destroy(&pos);
  int status = all || project ? 0 : mp_cli_load_project(ctx);
  if (!status) status = mp_cli_store(ctx);
  if (status) return status;
  mp_err err;
  mp_err_clear(&err);
  char *current = NULL;
  mp_stack_info *infos = NULL;
  size_t n = 0;
  if ((ctx->project &&
       mp_store_selected_get(ctx->store, ctx->project->name, &current, &err)) ||
      mp_store_stack_list(ctx->store,
                          project ? project : all ? NULL : ctx->project->name,
                          &infos, &n, &err)) {
    free(current);
    return mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  }
  if (tag && *tag && (status = filter_by_tag(ctx, infos, &n, tag))) {
    for (size_t i = 0; i < n; i++) mp_stack_info_destroy(&infos[i]);
    free(infos);
    free(current);
    return status;
  }
  /* another project's stacks are named with their project */
  int qualify = all || (project && !(ctx->project &&
                                      !strcmp(project, ctx->project->name)));
  if (json) print_json(ctx, infos, n, current, qualify);
  else print_table(ctx, infos, n, current, qualify);
  for (size_t i = 0; i < n; i++) mp_stack_info_destroy(&infos[i]);
  free(infos);
  free(current);
  return 0;
}
