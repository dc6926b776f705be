#include "cli/display.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/prop_diff.h"
#include "cli/render.h"
#include "engine/urn.h"

/* ==== rows ==== */

enum row_state { ROW_PLANNED, ROW_RUNNING, ROW_DONE, ROW_FAILED };

typedef struct row {
  char *urn, *type, *name, *parent;
  mp_step_op op;
  int has_op;
  enum row_state state;
  double start, end;
  int nerr, nwarn, ninfo;
  char *detail; /* rendered --diff detail, or NULL */
  char *diff;   /* the Info column's `[diff: ...]`, or NULL */
  int internal; /* a default provider: never shown, as with Pulumi */
  int header_shown; /* --diff: the stack's block is printed */
} row;

typedef struct diag {
  char *urn; /* may be NULL */
  char *severity;
  char *message;
} diag;

struct mp_display {
  mp_display_opts o;
  row *rows;
  size_t nrows, cap;
  size_t *index; /* open-addressing hash of urn → row + 1 (0 = empty) */
  size_t index_cap;
  diag *diags;
  size_t ndiags, dcap;
  mp_value *outputs; /* the root stack's outputs, or NULL */
  mp_value *old_outputs; /* its outputs before this operation, or NULL */
  int had_stack;         /* the root stack existed before */
  int have_summary;
  int header_printed; /* the header goes out with the first event */
  int64_t counts[MP_OP__COUNT];
  double duration;
  size_t drawn;     /* lines drawn by the last tree redraw */
  double last_draw; /* event time of the last redraw */

  /* The ticker (terminal only): redraws every MP_TICK_MS under |mu|. */
  pthread_mutex_t mu;
  pthread_cond_t wake;
  pthread_t ticker;
  int ticking, stop;
  int told_cancel; /* the cancelling line was printed */
};

#define MP_TICK_MS 100

static uint64_t hash_str(const char *s) {
  uint64_t h = 1469598103934665603ULL;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return h;
}

static void index_insert(mp_display *d, size_t rowi) {
  size_t mask = d->index_cap - 1;
  size_t i = hash_str(d->rows[rowi].urn) & mask;
  while (d->index[i]) i = (i + 1) & mask;
  d->index[i] = rowi + 1;
}

static void index_grow(mp_display *d) {
  free(d->index);
  d->index_cap = d->index_cap ? d->index_cap * 2 : 64;
  d->index = mp_xcalloc(d->index_cap, sizeof(*d->index));
  for (size_t r = 0; r < d->nrows; r++) index_insert(d, r);
}

static row *find_row(const mp_display *d, const char *urn) {
  if (!d->index_cap || !urn) return NULL;
  size_t mask = d->index_cap - 1;
  for (size_t i = hash_str(urn) & mask; d->index[i]; i = (i + 1) & mask)
    if (!strcmp(d->rows[d->index[i] - 1].urn, urn)) return &d->rows[d->index[i] - 1];
  return NULL;
}

/* Pulumi's display name of a type token: `pkg:mod/file:Name` is shown as
 * `pkg:mod:Name` when `file` is `Name` with a lowercase first letter
 * (`random:index/randomPet:RandomPet` is `random:index:RandomPet`). */
static char *display_type(const char *type) {
  const char *c1 = strchr(type, ':');
  const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
  if (!c2 || strchr(c2 + 1, ':') || !c2[1]) return mp_xstrdup(type);
  const char *slash = NULL;
  for (const char *p = c1 + 1; p < c2; p++)
    if (*p == '/') slash = p;
  const char *name = c2 + 1, *file = slash ? slash + 1 : NULL;
  size_t flen = file ? (size_t)(c2 - file) : 0;
  if (!file || flen != strlen(name) || !flen ||
      file[0] != (char)((name[0] >= 'A' && name[0] <= 'Z') ? name[0] + 32 : name[0]) ||
      strncmp(file + 1, name + 1, flen - 1))
    return mp_xstrdup(type);
  return mp_xasprintf("%.*s%s", (int)(slash - type), type, c2);
}

static row *get_row(mp_display *d, const mp_step_meta *m) {
  row *r = find_row(d, m->urn);
  if (r) return r;
  if (d->nrows == d->cap) {
    d->cap = d->cap ? d->cap * 2 : 32;
    d->rows = mp_xreallocarray(d->rows, d->cap, sizeof(*d->rows));
  }
  r = &d->rows[d->nrows++];
  memset(r, 0, sizeof(*r));
  r->urn = mp_xstrdup(m->urn);
  size_t n = 0;
  const char *name = mp_urn_name(m->urn, &n);
  r->name = name ? mp_xstrndup(name, n) : mp_xstrdup(m->urn);
  r->type = display_type(m->type ? m->type : "");
  r->internal = mp_urn_is_default_provider(m->urn);
  const mp_resource *st = m->new_ ? m->new_ : m->old;
  r->parent = st && st->parent ? mp_xstrdup(st->parent) : NULL;
  if ((d->nrows) * 2 > d->index_cap) index_grow(d);
  else index_insert(d, d->nrows - 1);
  return r;
}

/* ==== colors ==== */

static void color_on(const mp_display *d, mp_buf *b, int c) {
  if (!c) return;
  if (d->o.color == MP_COLOR_ALWAYS) mp_buf_printf(b, "\x1b[3%dm", c);
  else if (d->o.color == MP_COLOR_RAW) mp_buf_printf(b, "<{%%fg %d%%}>", c);
}

static void color_off(const mp_display *d, mp_buf *b, int c) {
  if (!c) return;
  if (d->o.color == MP_COLOR_ALWAYS) mp_buf_puts(b, "\x1b[0m");
  else if (d->o.color == MP_COLOR_RAW) mp_buf_puts(b, "<{%reset%}>");
}

static void bold(const mp_display *d, mp_buf *b, int on) {
  if (d->o.color == MP_COLOR_ALWAYS) mp_buf_puts(b, on ? "\x1b[1m" : "\x1b[0m");
  else if (d->o.color == MP_COLOR_RAW) mp_buf_puts(b, on ? "<{%bold%}>" : "<{%reset%}>");
}

/* ==== statuses ==== */

static void put_elapsed(mp_buf *b, double secs) {
  if (secs < 0) secs = 0;
  if (secs < 1) mp_buf_printf(b, " (%.2fs)", secs);
  else mp_buf_printf(b, " (%.0fs)", floor(secs));
}

static void row_status(const mp_display *d, const row *r, mp_step_op op,
                       double now, mp_buf *b) {
  const mp_op_info *w = mp_op_info_of(op);
  int is_stack = !strcmp(r->type, MP_ROOT_STACK_TYPE);
  if (d->o.preview) {
    mp_buf_puts(b, w->plan);
    return;
  }
  switch (r->state) {
  case ROW_PLANNED:
    break;
  case ROW_RUNNING:
    mp_buf_puts(b, op == MP_OP_SAME ? (is_stack ? "running" : "") : w->doing);
    if (op != MP_OP_SAME) mp_buf_printf(b, " (%.0fs)", floor(now - r->start));
    /* Pulumi's spinner: dots that grow once a second on a terminal */
    if (d->o.tty && (op != MP_OP_SAME || is_stack))
      mp_buf_puts(b, &"..."[3 - ((long)floor(now - r->start) % 4)]);
    break;
  case ROW_DONE:
    mp_buf_puts(b, w->done);
    if (op != MP_OP_SAME) put_elapsed(b, r->end - r->start);
    break;
  case ROW_FAILED:
    mp_buf_printf(b, "**%s failed**", op == MP_OP_SAME ? "running" : w->doing);
    break;
  }
}

static void row_info(const row *r, mp_buf *b) {
  const char *sep = "";
  if (r->diff) {
    mp_buf_puts(b, r->diff);
    sep = "; ";
  }
  if (r->nerr) {
    mp_buf_printf(b, "%d error%s", r->nerr, r->nerr == 1 ? "" : "s");
    sep = "; ";
  }
  if (r->nwarn) {
    mp_buf_printf(b, "%s%d warning%s", sep, r->nwarn, r->nwarn == 1 ? "" : "s");
    sep = "; ";
  }
  if (r->ninfo)
    mp_buf_printf(b, "%s%d message%s", sep, r->ninfo, r->ninfo == 1 ? "" : "s");
}

/* ==== line mode ==== */

static void print_line(mp_display *d, const row *r, mp_step_op op,
                       double now) {
  mp_buf b;
  mp_buf_init(&b);
  int c = mp_op_info_of(op)->color;
  mp_buf_putc(&b, ' ');
  color_on(d, &b, c);
  mp_buf_puts(&b, mp_op_info_of(op)->symbol);
  color_off(d, &b, c);
  mp_buf_printf(&b, " %s %s ", r->type, r->name);
  color_on(d, &b, c);
  row_status(d, r, op, now, &b);
  color_off(d, &b, c);
  mp_buf_putc(&b, ' ');
  row_info(r, &b);
  while (b.len && b.data[b.len - 1] == ' ') b.data[--b.len] = 0;
  fprintf(d->o.out, "%s\n", b.data);
  fflush(d->o.out);
  mp_buf_destroy(&b);
}

static int replacement_part(mp_step_op op);

/* ==== tree mode ==== */

typedef struct tree {
  size_t *order; /* rows in display order */
  int *depth;
  char **prefix; /* tree drawing before the type */
  size_t n;
} tree;

/* A read of an external resource (`get`) is shown only with --show-reads,
 * as Pulumi's display does. */
static int read_hidden(const mp_display *d, mp_step_op op) {
  return (op == MP_OP_READ || op == MP_OP_READ_REPLACEMENT) &&
         !d->o.show_reads;
}

static int row_visible(const mp_display *d, const row *r) {
  if (r->internal || read_hidden(d, r->op)) return 0;
  return r->op != MP_OP_SAME || d->o.show_sames ||
         !strcmp(r->type, MP_ROOT_STACK_TYPE);
}

/* Whether a step's own line is printed (line mode): not for a default
 * provider, a same (unless --show-sames) or a part of a replacement
 * (unless --show-replacement-steps). */
static int step_shown(const mp_display *d, const row *r, mp_step_op op) {
  if (r->internal || read_hidden(d, op)) return 0;
  if (replacement_part(op) && !d->o.show_replacement_steps) return 0;
  return op != MP_OP_SAME || d->o.show_sames ||
         !strcmp(r->type, MP_ROOT_STACK_TYPE);
}

/* Appends row |i| and its visible descendants (children lists |kids|). */
static void walk(const mp_display *d, size_t **kids, size_t *nkids, size_t i,
                 int depth, const char *lead, int last, tree *t) {
  t->order[t->n] = i;
  t->depth[t->n] = depth;
  t->prefix[t->n] = depth ? mp_xasprintf("%s%s", lead, last ? "└─ " : "├─ ")
                          : mp_xstrdup("");
  t->n++;
  char *sub = depth ? mp_xasprintf("%s%s", lead, last ? "   " : "│  ")
                    : mp_xstrdup("");
  for (size_t k = 0; k < nkids[i]; k++)
    walk(d, kids, nkids, kids[i][k], depth + 1, sub, k + 1 == nkids[i], t);
  free(sub);
}

static void build_tree(const mp_display *d, tree *t) {
  size_t n = d->nrows;
  char *vis = mp_xcalloc(n ? n : 1, 1);
  size_t *parent = mp_xcalloc(n ? n : 1, sizeof(size_t));
  /* a row is shown if it changes, is the stack, or has a shown child */
  size_t root = SIZE_MAX;
  for (size_t i = 0; i < n && root == SIZE_MAX; i++)
    if (!strcmp(d->rows[i].type, MP_ROOT_STACK_TYPE)) root = i;
  /* rows without a parent (default providers) show under the stack */
  for (size_t i = 0; i < n; i++) {
    const row *p = find_row(d, d->rows[i].parent);
    parent[i] = p ? (size_t)(p - d->rows) : (i == root ? SIZE_MAX : root);
  }
  for (size_t i = 0; i < n; i++) {
    if (!row_visible(d, &d->rows[i])) continue;
    for (size_t j = i; j != SIZE_MAX && !vis[j]; j = parent[j]) vis[j] = 1;
  }
  size_t **kids = mp_xcalloc(n ? n : 1, sizeof(*kids));
  size_t *nkids = mp_xcalloc(n ? n : 1, sizeof(*nkids));
  for (size_t i = 0; i < n; i++)
    if (vis[i] && parent[i] != SIZE_MAX) {
      kids[parent[i]] = mp_xreallocarray(kids[parent[i]], nkids[parent[i]] + 1,
                                         sizeof(size_t));
      kids[parent[i]][nkids[parent[i]]++] = i;
    }
  t->order = mp_xcalloc(n ? n : 1, sizeof(size_t));
  t->depth = mp_xcalloc(n ? n : 1, sizeof(int));
  t->prefix = mp_xcalloc(n ? n : 1, sizeof(char *));
  t->n = 0;
  for (size_t i = 0; i < n; i++)
    if (vis[i] && parent[i] == SIZE_MAX) walk(d, kids, nkids, i, 0, "", 1, t);
  for (size_t i = 0; i < n; i++) free(kids[i]);
  free(kids);
  free(nkids);
  free(parent);
  free(vis);
}

static void tree_destroy(tree *t) {
  for (size_t i = 0; i < t->n; i++) free(t->prefix[i]);
  free(t->order);
  free(t->depth);
  free(t->prefix);
}

static size_t width(const char *s) { return mp_cli_text_width(s); }

static void pad(mp_buf *b, const char *s, size_t w) {
  mp_buf_puts(b, s);
  for (size_t i = width(s); i < w; i++) mp_buf_putc(b, ' ');
}

static void render_tree(mp_display *d, double now, mp_buf *b) {
  tree t;
  build_tree(d, &t);
  if (t.n == 0) { /* no header over an empty table (a Ctrl-C before any row) */
    tree_destroy(&t);
    return;
  }
  size_t wt = 4, wn = 4, ws = 6;
  int any_info = 0;
  for (size_t k = 0; k < t.n; k++) {
    const row *r = &d->rows[t.order[k]];
    size_t tw = width(t.prefix[k]) + width(r->type);
    if (tw > wt) wt = tw;
    if (width(r->name) > wn) wn = width(r->name);
    mp_buf st;
    mp_buf_init(&st);
    row_status(d, r, r->op, now, &st);
    if (st.len > ws) ws = st.len;
    mp_buf_destroy(&st);
    any_info |= r->diff || r->nerr || r->nwarn || r->ninfo;
  }
  mp_buf_puts(b, "     ");
  pad(b, "Type", wt + 2);
  pad(b, "Name", wn + 2);
  if (any_info) pad(b, d->o.preview ? "Plan" : "Status", ws + 2);
  mp_buf_puts(b, any_info ? "Info" : d->o.preview ? "Plan" : "Status");
  mp_buf_puts(b, "\n");
  for (size_t k = 0; k < t.n; k++) {
    const row *r = &d->rows[t.order[k]];
    int c = mp_op_info_of(r->op)->color;
    char *typ = mp_xasprintf("%s%s", t.prefix[k], r->type);
    mp_buf_putc(b, ' ');
    color_on(d, b, c);
    mp_buf_puts(b, mp_op_info_of(r->op)->symbol);
    color_off(d, b, c);
    mp_buf_puts(b, "  ");
    pad(b, typ, wt + 2);
    pad(b, r->name, wn + 2);
    mp_buf st;
    mp_buf_init(&st);
    row_status(d, r, r->op, now, &st);
    color_on(d, b, c);
    mp_buf_puts(b, st.data ? st.data : "");
    color_off(d, b, c);
    mp_buf info;
    mp_buf_init(&info);
    row_info(r, &info);
    if (info.len) {
      for (size_t i = st.len; i < ws + 2; i++) mp_buf_putc(b, ' ');
      mp_buf_puts(b, info.data);
    }
    mp_buf_destroy(&st);
    mp_buf_destroy(&info);
    mp_buf_putc(b, '\n');
    free(typ);
  }
  tree_destroy(&t);
}

/* Moves the cursor to the start of the last drawing and draws again. */
static void redraw(mp_display *d, double now) {
  mp_buf b;
  mp_buf_init(&b);
  if (d->drawn) mp_buf_printf(&b, "\x1b[%zuA", d->drawn);
  mp_buf tree;
  mp_buf_init(&tree);
  render_tree(d, now, &tree);
  size_t lines = 0;
  for (const char *p = tree.data, *nl; p && (nl = strchr(p, '\n')); p = nl + 1) {
    mp_buf_puts(&b, "\r\x1b[2K");
    mp_buf_append(&b, p, (size_t)(nl - p) + 1);
    lines++;
  }
  mp_buf_puts(&b, "\x1b[J");
  fputs(b.data, d->o.out);
  fflush(d->o.out);
  d->drawn = lines;
  d->last_draw = now;
  mp_buf_destroy(&tree);
  mp_buf_destroy(&b);
}

/* ==== --diff detail ==== */

static void render_prop(const mp_display *d, mp_buf *b, const char *sym,
                        const char *key, const mp_value *v) {
  unsigned f = d->o.show_secrets ? MP_RENDER_SHOW_SECRETS : 0;
  mp_buf_printf(b, "      %s %s: ", sym, key);
  mp_cli_render_value(v, f, 8, b);
  mp_buf_putc(b, '\n');
}

/* hideDiffs: a change under one of the resource's paths is shown by its
 * path alone, `~ key (hidden)` (Pulumi's diff view). */
static int hidden(const mp_step_meta *m, const char *path) {
  const mp_resource *st = m->new_ ? m->new_ : m->old;
  if (st == NULL || st->hide_diffs.len == 0) return 0;
  mp_path p;
  if (mp_path_parse(path, &p, NULL) != 0) return 0;
  int hit = 0;
  for (size_t i = 0; i < st->hide_diffs.len && !hit; i++) {
    mp_path pat;
    if (mp_path_parse(st->hide_diffs.items[i], &pat, NULL) != 0) continue;
    hit = mp_path_covers(&pat, &p);
    mp_path_destroy(&pat);
  }
  mp_path_destroy(&p);
  return hit;
}

static void render_hidden(mp_buf *b, const char *sym, const char *path) {
  mp_buf_printf(b, "      %s %s (hidden)\n", sym, path);
}

/* An update's properties, as Pulumi's --diff shows them: the provider's
 * detailed diff laid out as a tree; without one, the old and new inputs
 * compared (only the keys the provider named, if it named any); without
 * any change, the inputs as they are. Arrays and objects element by
 * element (cli/prop_diff.c). */
static void render_changes(const mp_display *d, const mp_step_meta *m,
                           mp_buf *b) {
  const mp_value *olds = m->old ? m->old->inputs : NULL;
  const mp_value *news = m->new_ ? m->new_->inputs : NULL;
  mp_pdiff_style st = {.color = d->o.color,
                       .flags = d->o.show_secrets ? MP_RENDER_SHOW_SECRETS : 0};
  mp_pdiff *pd;
  const mp_value *same = news;
  /* hideDiffs: a hidden path by its name alone, first; the rest as a
   * tree, without it. */
  mp_diff shown;
  mp_diff_init(&shown);
  mp_strv keys;
  mp_strv_init(&keys);
  if (m->detailed_diff) {
    for (size_t i = 0; i < m->detailed_diff->len; i++) {
      const mp_diff_entry *e = &m->detailed_diff->items[i];
      int add = e->kind == MP_DIFF_ADD || e->kind == MP_DIFF_ADD_REPLACE;
      int del = e->kind == MP_DIFF_DELETE || e->kind == MP_DIFF_DELETE_REPLACE;
      if (hidden(m, e->path))
        render_hidden(b, add ? "+" : del ? "-" : "~", e->path);
      else
        mp_diff_add(&shown, e->path, e->kind, e->input_diff);
    }
    pd = shown.len ? mp_pdiff_detailed(&shown,
                                       m->old ? m->old->outputs : NULL, olds,
                                       news)
                   : NULL;
    same = olds;
  } else {
    pd = mp_pdiff_objects(olds, news);
    for (size_t i = 0; pd && i < pd->len; i++) {
      const char *k = pd->items[i].key;
      if (m->diffs && m->diffs->len && !mp_strv_contains(m->diffs, k))
        continue;
      if (hidden(m, k)) {
        mp_pdiff_kind kd = pd->items[i].d->kind;
        if (kd != MP_PDIFF_SAME)
          render_hidden(b, kd == MP_PDIFF_ADD      ? "+"
                           : kd == MP_PDIFF_DELETE ? "-"
                                                   : "~",
                        k);
      } else {
        mp_strv_push(&keys, k);
      }
    }
  }
  int any_hidden = m->detailed_diff ? shown.len < m->detailed_diff->len
                                    : pd && keys.len < pd->len;
  if (pd && (!any_hidden || m->detailed_diff || keys.len))
    mp_pdiff_print_object(pd, m->detailed_diff ? NULL
                              : any_hidden     ? &keys
                                               : m->diffs,
                          2, &st, b);
  else if (!pd && !any_hidden)
    mp_pdiff_print_plain(same, MP_OP_SAME, 1, 2, &st, b);
  mp_pdiff_free(pd);
  mp_strv_destroy(&keys);
  mp_diff_destroy(&shown);
}

/* Steps that are part of a replacement and shown through its `replace`
 * step (Pulumi's default, without --show-replacement-steps). */
static int replacement_part(mp_step_op op) {
  return (mp_op_info_of(op)->flags & MP_OP_REPLACEMENT_PART) != 0;
}

static char *render_detail(const mp_display *d, const mp_step_meta *m) {
  if (m->op == MP_OP_SAME || m->op == MP_OP_REFRESH || replacement_part(m->op))
    return NULL;
  mp_buf b;
  mp_buf_init(&b);
  const mp_resource *st = m->new_ ? m->new_ : m->old;
  mp_buf_printf(&b, "    %s%s: (%s)\n", mp_op_info_of(m->op)->symbol,
                m->type ? m->type : "", mp_op_info_of(m->op)->name);
  if (m->old && m->old->id && *m->old->id)
    mp_buf_printf(&b, "        [id=%s]\n", m->old->id);
  mp_buf_printf(&b, "        [urn=%s]\n", m->urn);
  if (m->op == MP_OP_CREATE || m->op == MP_OP_CREATE_REPLACEMENT ||
      m->op == MP_OP_IMPORT || m->op == MP_OP_READ) {
    const mp_value *in = st ? st->inputs : NULL;
    for (size_t i = 0; in && in->kind == MP_VALUE_OBJECT && i < in->u.obj.len; i++)
      render_prop(d, &b, "+", in->u.obj.items[i].key, in->u.obj.items[i].value);
  } else if (m->op == MP_OP_DELETE || m->op == MP_OP_DELETE_REPLACED ||
             m->op == MP_OP_DISCARD) {
    const mp_value *in = m->old ? m->old->inputs : NULL;
    for (size_t i = 0; in && in->kind == MP_VALUE_OBJECT && i < in->u.obj.len; i++)
      render_prop(d, &b, "-", in->u.obj.items[i].key, in->u.obj.items[i].value);
  } else {
    render_changes(d, m, &b);
  }
  return mp_buf_detach(&b, NULL);
}

/* ==== the Info column's short diff ==== */

static int by_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Appends |sym| and the sorted keys of |v| joined by commas, if any. */
static void put_keys(mp_buf *b, const char *sym, mp_strv *v) {
  if (!v->len) return;
  qsort(v->items, v->len, sizeof(*v->items), by_str);
  mp_buf_puts(b, sym);
  for (size_t i = 0; i < v->len; i++)
    mp_buf_printf(b, "%s%s", i ? "," : "", v->items[i]);
}

/* Pulumi's `[diff: +added-deleted~updated]` for a step that changes a
 * resource, or NULL. */
static char *short_diff(const mp_step_meta *m) {
  mp_step_op op = m->op;
  if ((op != MP_OP_UPDATE && op != MP_OP_REPLACE && !replacement_part(op)) ||
      !m->old || !m->new_)
    return NULL;
  mp_strv add, del, upd;
  mp_strv_init(&add);
  mp_strv_init(&del);
  mp_strv_init(&upd);
  /* the same comparison as the --diff detail's, top-level keys only, as
   * Pulumi's getDiffInfo; the keys the provider named, if it named any */
  const mp_value *olds = m->old->inputs, *news = m->new_->inputs;
  mp_pdiff *pd = m->detailed_diff
                     ? mp_pdiff_detailed(m->detailed_diff, m->old->outputs,
                                         olds, news)
                     : mp_pdiff_objects(olds, news);
  for (size_t i = 0; pd && i < pd->len; i++) {
    const char *k = pd->items[i].key;
    mp_pdiff_kind kind = pd->items[i].d->kind;
    if (m->diffs && m->diffs->len && !mp_strv_contains(m->diffs, k)) continue;
    if (kind != MP_PDIFF_SAME)
      mp_strv_push(kind == MP_PDIFF_ADD      ? &add
                   : kind == MP_PDIFF_DELETE ? &del
                                             : &upd, k);
  }
  mp_pdiff_free(pd);
  mp_buf b;
  mp_buf_init(&b);
  put_keys(&b, "+", &add);
  put_keys(&b, "-", &del);
  put_keys(&b, "~", &upd);
  char *out = b.len ? mp_xasprintf("[diff: %s]", b.data) : NULL;
  mp_buf_destroy(&b);
  mp_strv_destroy(&add);
  mp_strv_destroy(&del);
  mp_strv_destroy(&upd);
  return out;
}

/* ==== events ==== */

/* A row shows the resource's logical op: the steps of a replacement
 * (create-replacement, replace, delete-replaced) all show as `replace`. */
static void set_op(const mp_display *d, row *r, const mp_step_meta *m) {
  if (d->o.show_replacement_steps) { /* each step shows as itself */
    r->op = m->op;
    r->has_op = 1;
    return;
  }
  mp_step_op op = replacement_part(m->op) ? MP_OP_REPLACE : m->op;
  if (!(r->has_op && r->op == MP_OP_REPLACE)) r->op = op;
  r->has_op = 1;
}

/* The display's clock: the engine's event timestamps are whole seconds
 * (as Pulumi's), too coarse for the elapsed times of steps. Events are
 * shown as they happen, so the time of showing stands for theirs. */
static double clock_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* With --diff, a row's detail goes under its line, once. */
static void show_detail(mp_display *d, row *r) {
  if (!d->o.show_diff || !r->detail) return;
  fputs(r->detail, d->o.out);
  free(r->detail);
  r->detail = NULL;
}

/* The root stack's outputs in the last snapshot, from its step's start
 * (later events of the stack carry its state of this operation). */
static void take_old_outputs(mp_display *d, const mp_step_meta *m) {
  const mp_resource *old = m->old;
  if (d->had_stack || !old || strcmp(old->type, MP_ROOT_STACK_TYPE) != 0 ||
      m->op == MP_OP_CREATE)
    return;
  d->had_stack = 1;
  d->old_outputs = old->outputs ? mp_value_dup(old->outputs) : NULL;
}

static void on_pre(mp_display *d, const mp_event *ev) {
  double now = clock_now();
  row *r = get_row(d, &ev->meta);
  set_op(d, r, &ev->meta);
  take_old_outputs(d, &ev->meta);
  char *diff = short_diff(&ev->meta);
  if (diff) {
    free(r->diff);
    r->diff = diff;
  }
  if (r->state != ROW_RUNNING) r->start = now;
  r->state = ev->preview ? ROW_PLANNED : ROW_RUNNING;
  if (ev->preview || d->o.show_diff) {
    char *detail = render_detail(d, &ev->meta);
    if (detail) {
      if (r->detail) {
        char *both = mp_xasprintf("%s%s", r->detail, detail);
        free(r->detail);
        free(detail);
        detail = both;
      }
      r->detail = detail;
    }
  }
  if (d->o.tty) return;
  if (d->o.show_diff) { /* Pulumi's diff view: blocks, no progress lines */
    if (!strcmp(r->type, MP_ROOT_STACK_TYPE) && !r->header_shown) {
      r->header_shown = 1;
      fprintf(d->o.out, "  %s: (%s)\n    [urn=%s]\n", MP_ROOT_STACK_TYPE,
              mp_op_info_of(ev->meta.op == MP_OP_REFRESH ? MP_OP_SAME
                                                          : ev->meta.op)->name,
              ev->meta.urn);
    }
    if (step_shown(d, r, ev->meta.op)) show_detail(d, r);
    return;
  }
  if (step_shown(d, r, ev->meta.op)) print_line(d, r, ev->meta.op, now);
}

static void take_outputs(mp_display *d, const mp_step_meta *m) {
  if (!m->new_ || strcmp(m->new_->type, MP_ROOT_STACK_TYPE) != 0) return;
  mp_value_free(d->outputs);
  d->outputs = m->new_->outputs ? mp_value_dup(m->new_->outputs) : NULL;
}


/* A refresh that found drift: the row becomes the read's result (`~
 * update [diff: ~content]` or a delete) with the drift as its detail, as
 * Pulumi shows it. Returns the op to show the row with. */
static mp_step_op refresh_result(mp_display *d, row *r, const mp_event *ev) {
  mp_step_op op = ev->meta.op;
  if (!(r->has_op && r->op == MP_OP_REFRESH)) return op;
  if (op == MP_OP_SAME || op == MP_OP_REFRESH) return MP_OP_REFRESH;
  set_op(d, r, &ev->meta);
  char *diff = short_diff(&ev->meta);
  if (diff) {
    free(r->diff);
    r->diff = diff;
  }
  free(r->detail);
  r->detail = render_detail(d, &ev->meta);
  return op;
}


static void on_outputs(mp_display *d, const mp_event *ev) {
  row *r = get_row(d, &ev->meta);
  take_outputs(d, &ev->meta);
  int was_refresh = r->has_op && r->op == MP_OP_REFRESH;
  mp_step_op op = refresh_result(d, r, ev);
  int drift = was_refresh && op != MP_OP_REFRESH;
  if (ev->preview) {
    /* A refresh's preview reads too: what it found shows once known. */
    if (drift && !d->o.tty && step_shown(d, r, op)) {
      if (!d->o.show_diff) print_line(d, r, op, clock_now());
      show_detail(d, r);
    }
    return;
  }
  /* On a terminal the stack row stays `running` until the end. */
  if (d->o.tty && !strcmp(r->type, MP_ROOT_STACK_TYPE)) return;
  r->state = ROW_DONE;
  r->end = clock_now();
  if (!d->o.tty && step_shown(d, r, op) &&
      (op != MP_OP_SAME || d->o.show_sames)) {
    if (!d->o.show_diff) print_line(d, r, op, r->end);
    if (drift) show_detail(d, r);
  }
}

static void on_failed(mp_display *d, const mp_event *ev) {
  row *r = get_row(d, &ev->meta);
  r->state = ROW_FAILED;
  r->end = clock_now();
  if (!d->o.tty && !r->internal) print_line(d, r, ev->meta.op, r->end);
}

static void on_diag(mp_display *d, const mp_event *ev) {
  const char *sev = ev->severity ? ev->severity : "info";
  if (!strcmp(sev, "debug") && !d->o.show_debug) return;
  if (d->ndiags == d->dcap) {
    d->dcap = d->dcap ? d->dcap * 2 : 8;
    d->diags = mp_xreallocarray(d->diags, d->dcap, sizeof(*d->diags));
  }
  diag *g = &d->diags[d->ndiags++];
  g->urn = mp_xstrdup(ev->urn);
  g->severity = mp_xstrdup(sev);
  g->message = mp_xstrdup(ev->message ? ev->message : "");
  row *r = find_row(d, ev->urn);
  if (!r) return;
  if (!strcmp(sev, "error")) r->nerr++;
  else if (!strcmp(sev, "warning")) r->nwarn++;
  else r->ninfo++;
}

/* Row 0: ^C; 1: SIGTERM; 2: SIGHUP (a closed terminal, taken as SIGTERM). */
static int signal_row(int sig) {
  return sig == SIGTERM ? 1 : sig == SIGHUP ? 2 : 0;
}

const char *mp_display_cancel_text(int sig, int preview) {
  static const char *const text[3][2] = {
      {"^C received; cancelling. If you would like to terminate immediately, "
       "press ^C again.\nNote that terminating immediately may lead to "
       "orphaned resources and other inconsistencies.\n",
       "^C received; cancelling. If you would like to terminate immediately, "
       "press ^C again.\n"},
      {"SIGTERM received; cancelling. If you would like to terminate "
       "immediately, send SIGTERM again.\nNote that terminating immediately "
       "may lead to orphaned resources and other inconsistencies.\n",
       "SIGTERM received; cancelling. If you would like to terminate "
       "immediately, send SIGTERM again.\n"},
      {"SIGHUP received; cancelling. If you would like to terminate "
       "immediately, send SIGHUP again.\nNote that terminating immediately "
       "may lead to orphaned resources and other inconsistencies.\n",
       "SIGHUP received; cancelling. If you would like to terminate "
       "immediately, send SIGHUP again.\n"}};
  return text[signal_row(sig)][preview != 0];
}

const char *mp_display_terminate_text(int sig) {
  static const char *const text[3] = {"^C received; terminating\n",
                                      "SIGTERM received; terminating\n",
                                      "SIGHUP received; terminating\n"};
  return text[signal_row(sig)];
}

/* Pulumi's line for a first Ctrl-C, printed above the table (which is
 * drawn again below it) so that no redraw overwrites it. Under |mu|. */
static void tell_cancel(mp_display *d) {
  if (d->told_cancel || !d->o.interrupt || !*d->o.interrupt) return;
  d->told_cancel = 1;
  if (d->o.cancel_told && *d->o.cancel_told) return;
  if (d->o.cancel_told) *d->o.cancel_told = 1;
  if (d->drawn) fprintf(d->o.out, "\x1b[%zuA\r\x1b[J", d->drawn);
  int sig = d->o.interrupt_signal ? *d->o.interrupt_signal : SIGINT;
  fputs(mp_display_cancel_text(sig, d->o.preview), d->o.out);
  d->drawn = 0;
}

static void *tick_main(void *arg) {
  mp_display *d = arg;
  pthread_mutex_lock(&d->mu);
  while (!d->stop) {
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += MP_TICK_MS * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
      until.tv_sec++;
      until.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&d->wake, &d->mu, &until);
    if (d->stop) break;
    tell_cancel(d);
    if (d->drawn || d->nrows) redraw(d, clock_now());
  }
  pthread_mutex_unlock(&d->mu);
  return NULL;
}

static void stop_ticker(mp_display *d) {
  if (!d->ticking) return;
  pthread_mutex_lock(&d->mu);
  d->stop = 1;
  pthread_cond_signal(&d->wake);
  pthread_mutex_unlock(&d->mu);
  pthread_join(d->ticker, NULL);
  d->ticking = 0;
}

static void event_locked(mp_display *d, const mp_event *ev);

/* Prints the header once. It waits for the engine's first event, so that
 * an error that stops the run before it starts (a wrong passphrase, an
 * unsupported runtime) is not shown under an "Updating (dev)" that never
 * happened. */
static void show_header(mp_display *d) {
  if (d->header_printed) return;
  d->header_printed = 1;
  if (d->o.header) fprintf(d->o.out, "%s\n\n", d->o.header);
  fflush(d->o.out);
}

void mp_display_event(mp_display *d, const mp_event *ev) {
  /* the findings show only in the Policies: section (print_policies) */
  if (ev->kind == MP_EVENT_POLICY_VIOLATION ||
      ev->kind == MP_EVENT_POLICY_REMEDIATION)
    return;
  pthread_mutex_lock(&d->mu);
  if (ev->kind != MP_EVENT_PRELUDE) show_header(d);
  event_locked(d, ev);
  pthread_mutex_unlock(&d->mu);
}

static void event_locked(mp_display *d, const mp_event *ev) {
  switch (ev->kind) {
  case MP_EVENT_PRELUDE: break;
  case MP_EVENT_RESOURCE_PRE: on_pre(d, ev); break;
  case MP_EVENT_RES_OUTPUTS: on_outputs(d, ev); break;
  case MP_EVENT_RES_OP_FAILED: on_failed(d, ev); break;
  case MP_EVENT_DIAGNOSTIC: on_diag(d, ev); break;
  case MP_EVENT_SUMMARY:
    d->have_summary = 1;
    memcpy(d->counts, ev->counts, sizeof(d->counts));
    d->duration = ev->duration_seconds;
    break;
  case MP_EVENT_CANCEL: break;
  case MP_EVENT_POLICY_VIOLATION: break;
  case MP_EVENT_POLICY_REMEDIATION: break;
  }
  double now = clock_now();
  if (d->o.tty) tell_cancel(d);
  if (d->o.tty && ev->kind != MP_EVENT_SUMMARY &&
      (now - d->last_draw >= 0.1 || !d->drawn))
    redraw(d, now);
}

/* ==== the end ==== */

/* The stack's row, or NULL. */
static const row *stack_row(const mp_display *d) {
  for (size_t k = 0; k < d->nrows; k++)
    if (!strcmp(d->rows[k].type, MP_ROOT_STACK_TYPE)) return &d->rows[k];
  return NULL;
}

/* The resource a diagnostic is about: one without a URN (the program's
 * own logs) is the stack's, as Pulumi's display files it. */
static const char *diag_urn(const mp_display *d, const diag *g) {
  const row *st = g->urn ? NULL : stack_row(d);
  return g->urn ? g->urn : st ? st->urn : NULL;
}

static int same_urn(const char *a, const char *b) {
  return a && b ? !strcmp(a, b) : a == b;
}

/* The header over a resource's diagnostics: `  type (name):`. */
static void diag_header(const mp_display *d, const char *urn) {
  const row *r = find_row(d, urn);
  if (r) {
    fprintf(d->o.out, "  %s (%s):\n", r->type, r->name);
  } else if (urn) {
    size_t tn = 0, nn = 0;
    const char *t = mp_urn_type(urn, &tn), *n = mp_urn_name(urn, &nn);
    fprintf(d->o.out, "  %.*s (%.*s):\n", (int)tn, t ? t : "", (int)nn,
            n ? n : "");
  } else {
    fprintf(d->o.out, "  %s:\n", MP_ROOT_STACK_TYPE);
  }
}

/* One diagnostic, each of its lines indented as the first (which carries
 * the severity, but for an info), trailing blanks left out. */
static void diag_lines(const mp_display *d, const diag *g) {
  const char *msg = g->message;
  size_t len = strlen(msg);
  while (len && (msg[len - 1] == '\n' || msg[len - 1] == ' ' ||
                 msg[len - 1] == '\t' || msg[len - 1] == '\r'))
    len--;
  if (!len) return;
  const char *sev = strcmp(g->severity, "info") ? g->severity : NULL;
  for (size_t at = 0, first = 1; at < len; first = 0) {
    size_t n = strcspn(msg + at, "\n");
    if (at + n > len) n = len - at;
    size_t w = n;
    while (w && (msg[at + w - 1] == ' ' || msg[at + w - 1] == '\t' ||
                 msg[at + w - 1] == '\r'))
      w--;
    if (first && sev)
      fprintf(d->o.out, "    %s: %.*s\n", sev, (int)w, msg + at);
    else fprintf(d->o.out, "    %.*s\n", (int)w, msg + at);
    at += n + 1;
  }
}

/* Pulumi's Diagnostics section: each resource's diagnostics under one
 * header, in the order they came. */
static void print_diags(mp_display *d) {
  if (!d->ndiags) return;
  fprintf(d->o.out, "Diagnostics:\n");
  char *done = mp_xcalloc(d->ndiags, 1);
  for (size_t i = 0; i < d->ndiags; i++) {
    if (done[i]) continue;
    const char *urn = diag_urn(d, &d->diags[i]);
    diag_header(d, urn);
    for (size_t j = i; j < d->ndiags; j++) {
      if (done[j] || !same_urn(diag_urn(d, &d->diags[j]), urn)) continue;
      done[j] = 1;
      diag_lines(d, &d->diags[j]);
    }
    fputc('\n', d->o.out);
  }
  free(done);
}

/* One line of the Outputs section: |sym| ("+", "-", "~" or NULL for an
 * unchanged one), the key padded to |w| before the colon, the value (an
 * update: old => new). */
static void output_line(mp_display *d, const char *sym, int op, size_t w,
                        const char *key, const mp_value *old,
                        const mp_value *v) {
  unsigned f = d->o.show_secrets ? MP_RENDER_SHOW_SECRETS : 0;
  mp_buf b;
  mp_buf_init(&b);
  int c = sym ? mp_op_info_of((mp_step_op)op)->color : 0;
  if (sym) color_on(d, &b, c);
  mp_buf_printf(&b, "  %s %-*s: ", sym ? sym : " ", (int)w, key);
  if (old) {
    mp_cli_render_value(old, f, 4, &b);
    mp_buf_puts(&b, " => ");
  }
  mp_cli_render_value(v, f, 4, &b);
  if (sym) color_off(d, &b, c);
  fprintf(d->o.out, "%s\n", b.data);
  mp_buf_destroy(&b);
}

static int by_key(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int primitive(const mp_value *v) {
  return v->kind != MP_VALUE_OBJECT && v->kind != MP_VALUE_ARRAY;
}

/* Pulumi's Outputs section: the stack's outputs, keys sorted and aligned;
 * against the outputs it had before, added, removed and changed ones are
 * marked + - ~ (old => new), and a preview shows only those. */
static void print_outputs(mp_display *d) {
  if (d->o.suppress_outputs) return;
  static const mp_value empty = {.kind = MP_VALUE_OBJECT};
  const mp_value *o = d->outputs && d->outputs->kind == MP_VALUE_OBJECT
                          ? d->outputs : &empty;
  const mp_value *old = d->old_outputs && d->old_outputs->kind == MP_VALUE_OBJECT
                            ? d->old_outputs : (d->had_stack ? &empty : NULL);
  mp_strv keys;
  mp_strv_init(&keys);
  for (size_t i = 0; i < o->u.obj.len; i++) mp_strv_push(&keys, o->u.obj.items[i].key);
  for (size_t i = 0; old && i < old->u.obj.len; i++)
    if (!mp_value_object_get(o, old->u.obj.items[i].key))
      mp_strv_push(&keys, old->u.obj.items[i].key);
  if (keys.len) qsort(keys.items, keys.len, sizeof(*keys.items), by_key);
  size_t w = 0, changed = 0;
  for (size_t i = 0; i < keys.len; i++) {
    if (strlen(keys.items[i]) > w) w = strlen(keys.items[i]);
    const mp_value *a = old ? mp_value_object_get(old, keys.items[i]) : NULL;
    const mp_value *b = mp_value_object_get(o, keys.items[i]);
    if (old && (!a || !b || !mp_value_equal(a, b, 0))) changed++;
  }
  int only_changes = d->o.preview && !d->o.show_sames;
  if (keys.len == 0 || (old && !changed && only_changes)) {
    mp_strv_destroy(&keys);
    return;
  }
  fprintf(d->o.out, "Outputs:\n");
  /* changes shown element by element, as Pulumi's display shows them */
  mp_pdiff *pd = old ? mp_pdiff_objects(old, o) : NULL;
  mp_pdiff_style st = {.color = d->o.color,
                       .flags = d->o.show_secrets ? MP_RENDER_SHOW_SECRETS : 0};
  for (size_t i = 0; i < keys.len; i++) {
    const char *k = keys.items[i];
    const mp_value *a = old ? mp_value_object_get(old, k) : NULL;
    const mp_value *b = mp_value_object_get(o, k);
    mp_buf line;
    mp_buf_init(&line);
    int changed = old && (!a || !b || !mp_value_equal(a, b, 0));
    if (changed && mp_pdiff_print_property(pd, k, (int)w, 1, &st, &line)) {
      fputs(line.data ? line.data : "", d->o.out);
    } else if (old && !a) {
      output_line(d, "+", MP_OP_CREATE, w, k, NULL, b);
    } else if (old && !b) {
      output_line(d, "-", MP_OP_DELETE, w, k, NULL, a);
    } else if (old && !mp_value_equal(a, b, 0)) {
      if (primitive(a) && primitive(b)) {
        output_line(d, "~", MP_OP_UPDATE, w, k, a, b);
      } else {
        output_line(d, "-", MP_OP_DELETE, w, k, NULL, a);
        output_line(d, "+", MP_OP_CREATE, w, k, NULL, b);
      }
    } else if (!only_changes || !old) {
      output_line(d, NULL, 0, w, k, NULL, b);
    }
    mp_buf_destroy(&line);
  }
  mp_pdiff_free(pd);
  fputc('\n', d->o.out);
  mp_strv_destroy(&keys);
}

static void print_summary(mp_display *d) {
  int64_t total = 0;
  int kinds = 0;
  mp_buf b;
  mp_buf_init(&b);
  mp_buf_puts(&b, "Resources:\n");
  for (int op = 0; op < MP_OP__COUNT; op++) {
    /* The parts of another op's work (counted by their logical op) and
     * mere reads are left out, as Pulumi does. */
    const mp_op_info *w = mp_op_info_of((mp_step_op)op);
    if (!(w->flags & MP_OP_SUMMARIZED) || !d->counts[op]) continue;
    int c = w->color;
    mp_buf_puts(&b, "    ");
    color_on(d, &b, c);
    mp_buf_printf(&b, "%s%lld %s%s", w->symbol, (long long)d->counts[op],
                  d->o.preview ? "to " : "", d->o.preview ? w->plan : w->done);
    color_off(d, &b, c);
    mp_buf_putc(&b, '\n');
    total += d->counts[op];
    kinds++;
  }
  int pieces = 0;
  if (kinds >= 2 || d->counts[MP_OP_SAME]) mp_buf_puts(&b, "    ");
  if (kinds >= 2) {
    bold(d, &b, 1);
    mp_buf_printf(&b, "%lld change%s", (long long)total, total == 1 ? "" : "s");
    bold(d, &b, 0);
    pieces++;
  }
  if (d->counts[MP_OP_SAME])
    mp_buf_printf(&b, "%s%lld unchanged", pieces ? ". " : "",
                  (long long)d->counts[MP_OP_SAME]);
  if (kinds >= 2 || d->counts[MP_OP_SAME]) mp_buf_putc(&b, '\n');
  fprintf(d->o.out, "%s\n", b.data);
  mp_buf_destroy(&b);
  if (!d->o.preview) {
    long s = (long)ceil(d->duration);
    if (s >= 60) fprintf(d->o.out, "Duration: %ldm%lds\n\n", s / 60, s % 60);
    else fprintf(d->o.out, "Duration: %lds\n\n", s);
  }
}

void mp_display_finish(mp_display *d) {
  stop_ticker(d);
  show_header(d);
  double now = clock_now();
  for (size_t i = 0; i < d->nrows; i++) {
    row *r = &d->rows[i];
    if (r->state == ROW_RUNNING && !strcmp(r->type, MP_ROOT_STACK_TYPE)) {
      r->state = ROW_DONE;
      r->end = now;
    }
  }
  if (d->o.tty) redraw(d, now);
  fputc('\n', d->o.out);
  int mandatory = d->o.print_policies &&
                  d->o.print_policies(d->o.print_policies_ud, d->o.out);
  print_diags(d);
  print_outputs(d);
  if (d->have_summary && !mandatory) print_summary(d);
  fflush(d->o.out);
}

void mp_display_details(mp_display *d) {
  for (size_t i = 0; i < d->nrows; i++)
    if (d->rows[i].detail) fputs(d->rows[i].detail, d->o.out);
  fflush(d->o.out);
}

mp_display *mp_display_new(const mp_display_opts *o) {
  mp_display *d = mp_xcalloc(1, sizeof(*d));
  d->o = *o;
  if (d->o.show_diff) d->o.tty = 0; /* the detail goes under each line */
  pthread_mutex_init(&d->mu, NULL);
  pthread_cond_init(&d->wake, NULL);
  if (d->o.tty)
    d->ticking = pthread_create(&d->ticker, NULL, tick_main, d) == 0;
  return d;
}

void mp_display_free(mp_display *d) {
  if (!d) return;
  stop_ticker(d);
  pthread_cond_destroy(&d->wake);
  pthread_mutex_destroy(&d->mu);
  for (size_t i = 0; i < d->nrows; i++) {
    free(d->rows[i].urn);
    free(d->rows[i].type);
    free(d->rows[i].name);
    free(d->rows[i].parent);
    free(d->rows[i].detail);
    free(d->rows[i].diff);
  }
  for (size_t i = 0; i < d->ndiags; i++) {
    free(d->diags[i].urn);
    free(d->diags[i].severity);
    free(d->diags[i].message);
  }
  free(d->rows);
  free(d->index);
  free(d->diags);
  mp_value_free(d->old_outputs);
  mp_value_free(d->outputs);
  free(d);
}

char *mp_display_step_diff(const mp_step_meta *m) {
  mp_display d;
  memset(&d, 0, sizeof(d));
  d.o.color = MP_COLOR_NEVER; /* secrets masked: show_secrets is 0 */
  return render_detail(&d, m);
}
