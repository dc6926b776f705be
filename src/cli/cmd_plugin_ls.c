/* minipulumi plugin ls [--project] [--json]: the installed plugins (or
 * those the current project uses), as Pulumi lists them (name ascending,
 * newest first; its columns and JSON fields). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/args.h"
#include "cli/cli.h"
#include "cli/json_out.h"
#include "cli/messages.h"
#include "cli/plugins.h"
#include "cli/render.h"
#include "lang/required.h"
#include "plugin/cache.h"

static const mp_cmd_help help = {"minipulumi plugin ls [flags]",
                                 "List plugins."};

static char *rfc3339(int64_t t) {
  time_t tt = (time_t)t;
  struct tm tm;
  gmtime_r(&tt, &tm);
  char buf[32];
  strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return mp_xstrdup(buf);
}

static void print_json(mp_ctx *ctx, const mp_plugin_list *l) {
  cJSON *a = cJSON_CreateArray();
  for (size_t i = 0; i < l->len; i++) {
    const mp_plugin_info *p = &l->items[i];
    cJSON *o = cJSON_CreateObject();
    char *v = mp_semver_format(&p->version);
    cJSON_AddStringToObject(o, "name", p->name);
    cJSON_AddStringToObject(o, "kind", p->kind);
    cJSON_AddStringToObject(o, "version", v);
    cJSON_AddNumberToObject(o, "size", (double)p->size);
    if (p->install_time) {
      char *t = rfc3339(p->install_time);
      cJSON_AddStringToObject(o, "installTime", t);
      free(t);
    }
    if (p->last_used) {
      char *t = rfc3339(p->last_used);
      cJSON_AddStringToObject(o, "lastUsedTime", t);
      free(t);
    }
    cJSON_AddItemToArray(a, o);
    free(v);
  }
  mp_cli_cjson_emit(ctx->out, a, 4);
}

enum { NCOLS = 6 };

/* Columns padded to their widths, two spaces apart, the last unpadded. */
static void print_row(mp_ctx *ctx, const char *const *row, const size_t *w) {
  for (int c = 0; c + 1 < NCOLS; c++)
    fprintf(ctx->out, "%-*s  ", (int)w[c], row[c]);
  fprintf(ctx->out, "%s\n", row[NCOLS - 1]);
}

static void print_table(mp_ctx *ctx, const mp_plugin_list *l) {
  static const char *const heads[NCOLS] = {"NAME", "KIND",      "VERSION",
                                           "SIZE", "INSTALLED", "LAST USED"};
  char **cells = mp_xcalloc((l->len + 1) * NCOLS, sizeof(*cells));
  size_t w[NCOLS];
  for (int c = 0; c < NCOLS; c++)
    w[c] = strlen(heads[c]);
  time_t now = time(NULL);
  uint64_t total = 0;
  for (size_t i = 0; i < l->len; i++) {
    const mp_plugin_info *p = &l->items[i];
    char size[32], inst[64], used[64];
    if (p->size)
      mp_cli_bytes(p->size, size, sizeof(size));
    else
      snprintf(size, sizeof(size), "n/a");
    if (p->install_time)
      mp_cli_ago((time_t)p->install_time, now, inst, sizeof(inst));
    else
      snprintf(inst, sizeof(inst), "n/a");
    if (p->last_used)
      mp_cli_ago((time_t)p->last_used, now, used, sizeof(used));
    else
      snprintf(used, sizeof(used), "never");
    char **row = &cells[i * NCOLS];
    row[0] = mp_xstrdup(p->name);
    row[1] = mp_xstrdup(p->kind);
    row[2] = mp_semver_format(&p->version);
    row[3] = mp_xstrdup(size);
    row[4] = mp_xstrdup(inst);
    row[5] = mp_xstrdup(used);
    for (int c = 0; c < NCOLS; c++)
      if (strlen(row[c]) > w[c])
        w[c] = strlen(row[c]);
    total += p->size;
  }
  print_row(ctx, heads, w);
  for (size_t i = 0; i < l->len; i++) {
    print_row(ctx, (const char *const *)&cells[i * NCOLS], w);
    for (int c = 0; c < NCOLS; c++)
      free(cells[i * NCOLS + c]);
  }
  free(cells);
  char tot[32];
  mp_cli_bytes(total, tot, sizeof(tot));
  fprintf(ctx->out, "\nTOTAL plugin cache size: %s\n", tot);
}

/* --project: the installed plugins that serve what the project needs
 * (lang/required.h): the version asked, else the newest; a plugin that
 * nothing installed serves is left out, as Pulumi's resolvePlugins leaves
 * it. Returns an exit status. |shown|
 * borrows |all|'s entries. */
static int project_only(mp_ctx *ctx, const mp_plugin_list *all,
                        mp_plugin_list *shown) {
  mp_required_plugins req = {0};
  int status = mp_cli_project_plugins(ctx, &req);
  mp_err err;
  mp_err_clear(&err);
  shown->items = mp_xcalloc(all->len + 1, sizeof(*shown->items));
  for (size_t i = 0; i < req.len; i++) {
    const mp_required_plugin *r = &req.items[i];
    mp_semver v;
    if (!mp_cli_plugin_wanted(r) ||
        (r->version && mp_semver_parse(r->version, &v, &err) < 0))
      continue;
    const mp_plugin_info *p =
        mp_plugin_select(all, r->kind, r->name, r->version ? &v : NULL);
    int dup = 0;
    for (size_t j = 0; p && j < shown->len; j++)
      dup = dup || shown->items[j].path == p->path;
    if (p && !dup) shown->items[shown->len++] = *p;
  }
  mp_required_plugins_destroy(&req);
  return status;
}

int mp_cmd_plugin_ls(int argc, const char **argv, mp_ctx *ctx) {
  int json = 0, project = 0;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_BOOL_('j', "json", &json, "Emit output as JSON"),
      MP_OPT_BOOL_('p', "project", &project,
                   "List only the plugins used by the current project"),
      MP_OPT_END_};
  int rc = mp_args_parse_n(ctx, &help, opts, argc, argv, 0, 0, &pos);
  if (rc)
    return mp_args_exit_status(rc);
  mp_strv_destroy(&pos);
  mp_plugin_list l = {0}, shown = {0};
  mp_err err;
  mp_err_clear(&err);
  if (mp_cli_plugins_installed(1, &l, &err) < 0) {
    mp_plugin_list_destroy(&l);
    return mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  }
  int status = project ? project_only(ctx, &l, &shown) : 0;
  mp_plugin_list *out = project ? &shown : &l;
  mp_plugin_list_sort(out);
  if (status == 0 && json)
    print_json(ctx, out);
  else if (status == 0)
    print_table(ctx, out);
  free(shown.items); /* borrowed entries */
  mp_plugin_list_destroy(&l);
  return status;
}
