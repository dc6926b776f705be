/* `minipulumi stack` without a subcommand: Pulumi's stack view. The
 * resources are drawn as a tree under the root stack (children under their
 * parent, the rest under the root), in checkpoint order, as a TYPE/NAME
 * table; -u/-i add each one's URN and ID on the lines below it. */
#include <stdlib.h>
#include <string.h>

#include "cli/messages.h"
#include "engine/prog_name.h"
#include "cli/render.h"
#include "cli/secrets.h"
#include "cli/workspace.h"
#include "engine/urn.h"

typedef struct view_row {
  char *type; /* with the tree's prefix */
  const char *name;
  size_t name_len;
  char *info; /* the URN/ID lines, or NULL */
} view_row;

typedef struct view {
  const mp_snapshot *snap;
  size_t *parent; /* index of the tree parent; (size_t)-1 for the root */
  view_row *rows;
  size_t nrows;
  int urns, ids;
} view;

static int has_children(const view *v, size_t at) {
  for (size_t i = 0; i < v->snap->nres; i++)
    if (v->parent[i] == at && i != at) return 1;
  return 0;
}

/* Appends |at| and, below it, its children (in checkpoint order). */
static void add_node(view *v, size_t at, const char *padding,
                     const char *branch) {
  const mp_resource *r = v->snap->res[at];
  const char *pad_branch = !strcmp(branch, "├─ ")   ? "│  "
                           : !strcmp(branch, "└─ ") ? "   "
                                                    : "";
  char *child_pad = mp_xasprintf("%s%s", padding, pad_branch);
  char *info_pad = mp_xasprintf("%s%s", child_pad,
                                has_children(v, at) ? "│  " : "   ");
  view_row *row = &v->rows[v->nrows++];
  row->type = mp_xasprintf("%s%s%s", padding, branch, r->type);
  row->name = mp_urn_name(r->urn, &row->name_len);
  if (!row->name) row->name = "", row->name_len = 0;
  mp_buf info;
  mp_buf_init(&info);
  if (v->urns) mp_buf_printf(&info, "    %sURN: %s\n", info_pad, r->urn);
  if (v->ids && r->id && *r->id)
    mp_buf_printf(&info, "    %sID: %s\n", info_pad, r->id);
  row->info = info.len ? mp_buf_detach(&info, NULL) : NULL;
  mp_buf_destroy(&info);
  size_t last = (size_t)-1;
  for (size_t i = 0; i < v->snap->nres; i++)
    if (v->parent[i] == at && i != at) last = i;
  for (size_t i = 0; i < v->snap->nres; i++)
    if (v->parent[i] == at && i != at)
      add_node(v, i, child_pad, i == last ? "└─ " : "├─ ");
  free(child_pad);
  free(info_pad);
}

/* The tree parents: a resource's parent entry if there is one, else the
 * root stack. Returns the root's index, or (size_t)-1 if there is none. */
static size_t link_parents(view *v) {
  const mp_snapshot *s = v->snap;
  size_t root = (size_t)-1;
  for (size_t i = 0; i < s->nres; i++)
    if (!s->res[i]->parent && !strcmp(s->res[i]->type, MP_ROOT_STACK_TYPE))
      root = i;
  for (size_t i = 0; i < s->nres; i++) {
    v->parent[i] = i == root ? (size_t)-1 : root;
    for (size_t j = 0; s->res[i]->parent && j < s->nres; j++)
      if (j != i && !strcmp(s->res[j]->urn, s->res[i]->parent)) v->parent[i] = j;
  }
  return root;
}

static void print_rows(mp_ctx *ctx, view *v) {
  size_t w = 4; /* TYPE */
  for (size_t i = 0; i < v->nrows; i++) {
    size_t n = mp_cli_text_width(v->rows[i].type);
    if (n > w) w = n;
  }
  fprintf(ctx->out, "    TYPE%*s  NAME\n", (int)(w - 4), "");
  for (size_t i = 0; i < v->nrows; i++) {
    view_row *r = &v->rows[i];
    size_t n = mp_cli_text_width(r->type);
    fprintf(ctx->out, "    %s%*s  %.*s\n", r->type, (int)(w - n), "",
            (int)r->name_len, r->name);
    if (r->info) fputs(r->info, ctx->out);
    free(r->type);
    free(r->info);
  }
}

static void print_resources(mp_ctx *ctx, const mp_snapshot *s, int urns,
                            int ids) {
  view v = {s, mp_xcalloc(s->nres + 1, sizeof(size_t)),
            mp_xcalloc(s->nres + 1, sizeof(view_row)), 0, urns, ids};
  size_t root = link_parents(&v);
  if (root != (size_t)-1) {
    add_node(&v, root, "", "");
  } else { /* no root stack: a flat list, as Pulumi */
    for (size_t i = 0; i < s->nres; i++) {
      v.parent[i] = i; /* no children */
      add_node(&v, i, "", "");
    }
  }
  print_rows(ctx, &v);
  free(v.rows);
  free(v.parent);
}

int mp_cli_stack_view(mp_ctx *ctx, int show_urns, int show_ids,
                      int show_secrets, int show_name) {
  char *stack = NULL;
  int status = mp_cli_stack(ctx, NULL, 1, &stack);
  if (status) return status;
  if (show_name) {
    fprintf(ctx->out, "%s\n", stack);
    free(stack);
    return 0;
  }
  mp_snapshot *snap = NULL;
  mp_crypter c;
  int has_c = 0;
  status = mp_cli_load_snapshot(ctx, stack, &snap, &c, &has_c);
  mp_stack_info *infos = NULL;
  size_t n = 0;
  mp_err err;
  mp_err_clear(&err);
  /* the last update is the listing's; another stack's unreadable
   * checkpoint (which fails `stack ls`) only leaves it out here */
  int listed = !status && mp_store_stack_list(ctx->store, ctx->project->name,
                                              &infos, &n, &err) == 0;
  if (!status) {
    char *shown = mp_store_url_redact(ctx->backend_url);
    fprintf(ctx->out, "Current stack is %s:\n    Managed by %s\n", stack,
            shown);
    free(shown);
    const char *last = NULL;
    for (size_t i = 0; i < n; i++)
      if (!strcmp(infos[i].name, stack)) last = infos[i].last_update;
    if (last) fprintf(ctx->out, "    Last updated: %s\n", last);
    else if (listed)
      fprintf(ctx->out, "    No updates yet; run `%s up`\n", mp_prog_name());
    fprintf(ctx->out, "Current stack resources (%zu):\n", snap->nres);
    if (!snap->nres) {
      fprintf(ctx->out, "    No resources currently in this stack\n");
    } else {
      print_resources(ctx, snap, show_urns, show_ids);
      fprintf(ctx->out, "\n");
      mp_cli_print_outputs(ctx, mp_cli_stack_outputs(snap),
                           show_secrets ? MP_RENDER_SHOW_SECRETS : 0, 1);
    }
    fprintf(ctx->out, "\nUse `%s stack select` to change stack; "
                      "`%s stack ls` lists known ones\n",
            mp_prog_name(), mp_prog_name());
  }
  for (size_t i = 0; i < n; i++) mp_stack_info_destroy(&infos[i]);
  free(infos);
  mp_snapshot_free(snap);
  free(stack);
  return status;
}
