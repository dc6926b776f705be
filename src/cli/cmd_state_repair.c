/* minipulumi state repair: repairs an invalid snapshot as Pulumi does:
 * sorts the resources so that every one comes after what it refers to, then
 * removes references to resources that are not there (a missing parent also
 * takes its type out of the child's URN, and the children's URNs follow).
 * A valid snapshot is left alone; one still invalid after the repair is
 * not written. */
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "engine/prog_name.h"
#include "cli/cli.h"
#include "cli/messages.h"
#include "cli/state_edit.h"
#include "engine/urn.h"

static const mp_cmd_help help = {
    "minipulumi state repair [flags]",
    "Repair an invalid state\n\nThis command can be used to repair an invalid "
    "state. It will attempt to sort resources\nthat appear out of order and "
    "remove references to resources that are no longer\npresent in the "
    "state. If the state is already valid, this command will not attempt\nto "
    "make or write any changes. If the state is not already valid, and "
    "remains invalid\nafter repair has been attempted, this command will not "
    "write any changes."};

typedef struct sorter {
  const mp_snapshot *s;
  unsigned char *mark; /* 0 new, 1 on the path, 2 placed */
  size_t *order, n;
  const char *cycle; /* the URN where a cycle was found */
} sorter;

/* The entry |urn| names for a referrer that is (not) an old copy: the same
 * kind first, as old copies refer to old copies. (size_t)-1 if none. */
static size_t lookup(const mp_snapshot *s, const char *urn, int old) {
  size_t other = (size_t)-1;
  for (size_t i = 0; i < s->nres; i++) {
    if (strcmp(s->res[i]->urn, urn)) continue;
    if (!s->res[i]->delete_ == !old) return i;
    other = i;
  }
  return other;
}

static int visit(sorter *t, size_t i) {
  if (t->mark[i] == 2) return 0;
  if (t->mark[i] == 1) {
    t->cycle = t->s->res[i]->urn;
    return -1;
  }
  t->mark[i] = 1;
  mp_strv refs;
  mp_strv_init(&refs);
  mp_resource_refs(t->s->res[i], MP_REF_ALL, &refs);
  int rc = 0;
  for (size_t k = 0; k < refs.len && !rc; k++) {
    size_t j = lookup(t->s, refs.items[k], t->s->res[i]->delete_);
    if (j != (size_t)-1 && j != i) rc = visit(t, j);
  }
  mp_strv_destroy(&refs);
  t->mark[i] = 2;
  t->order[t->n++] = i;
  return rc;
}

/* Sorts |s| (post-order over references) and appends the moved entries
 * to |report| as Pulumi lists them. Returns 0 or MP_ESTATE (a cycle). */
static int toposort(mp_snapshot *s, mp_buf *report, mp_err *err) {
  sorter t = {s, mp_xcalloc(s->nres + 1, 1),
              mp_xcalloc(s->nres + 1, sizeof(size_t)), 0, NULL};
  int rc = 0;
  for (size_t i = 0; i < s->nres && !rc; i++) rc = visit(&t, i);
  if (rc) {
    rc = mp_err_set(err, MP_ESTATE, "the snapshot has a cycle through %s",
                    t.cycle);
  } else {
    int header = 0;
    for (size_t p = 0; p < s->nres; p++) {
      size_t i = t.order[p];
      int prev_same = p ? t.order[p - 1] + 1 == i : i == 0;
      int next_same = p + 1 < s->nres ? t.order[p + 1] == i + 1
                                      : i + 1 == s->nres;
      if (prev_same || next_same) continue;
      if (!header++)
        mp_buf_puts(report, "The following resources will be reordered to "
                            "appear before their dependents:\n\n");
      mp_buf_printf(report, "* %s%s\n", s->res[i]->urn,
                    s->res[i]->delete_ ? " (deleted)" : "");
    }
    if (header) mp_buf_puts(report, "\n");
    mp_resource **sorted = mp_xcalloc(s->nres + 1, sizeof(*sorted));
    for (size_t p = 0; p < s->nres; p++) sorted[p] = s->res[t.order[p]];
    memcpy(s->res, sorted, s->nres * sizeof(*sorted));
    free(sorted);
  }
  free(t.mark);
  free(t.order);
  return rc;
}

/* The URNs seen so far, old → new. */
typedef struct seen {
  mp_strv from, to;
} seen;

static const char *seen_get(const seen *m, const char *urn) {
  for (size_t i = m->from.len; i-- > 0;)
    if (!strcmp(m->from.items[i], urn)) return m->to.items[i];
  return NULL;
}

/* Maps the URNs of |v| through |m|, dropping (and reporting) missing ones. */
static void prune_list(const seen *m, mp_strv *v, const char *what,
                       mp_buf *lines) {
  for (size_t i = 0; i < v->len;) {
    const char *to = seen_get(m, v->items[i]);
    if (to) {
      free(v->items[i]);
      v->items[i++] = mp_xstrdup(to);
      continue;
    }
    mp_buf_printf(lines, "  - %s %s\n", v->items[i], what);
    mp_strv_remove_at(v, i);
  }
}

static void prune_one(const seen *m, char **ref, const char *what,
                      mp_buf *lines) {
  if (!*ref) return;
  const char *to = seen_get(m, *ref);
  if (!to) mp_buf_printf(lines, "  - %s %s\n", *ref, what);
  char *keep = to ? mp_xstrdup(to) : NULL;
  free(*ref);
  *ref = keep;
}

/* The URN of |r| under |parent| (NULL: none). Owned. */
static char *urn_under(const mp_resource *r, const char *parent) {
  mp_urn u;
  mp_err err;
  if (mp_urn_parse(r->urn, strlen(r->urn), &u, &err)) return mp_xstrdup(r->urn);
  char *out = mp_urn_new(u.stack, u.project, parent, u.type, u.name, &err);
  mp_urn_destroy(&u);
  return out ? out : mp_xstrdup(r->urn);
}

/* Removes references to missing resources from the sorted |s|, reporting
 * each change as Pulumi does. */
static void prune(mp_snapshot *s, mp_buf *report) {
  seen m;
  mp_strv_init(&m.from);
  mp_strv_init(&m.to);
  int header = 0;
  for (size_t i = 0; i < s->nres; i++) {
    mp_resource *r = s->res[i];
    mp_buf lines;
    mp_buf_init(&lines);
    char *urn = mp_xstrdup(r->urn);
    if (r->parent) {
      const char *p = seen_get(&m, r->parent);
      if (!p) mp_buf_printf(&lines, "  - %s [parent]\n", r->parent);
      char *np = p ? mp_xstrdup(p) : NULL;
      free(r->parent);
      r->parent = np;
      free(urn);
      urn = urn_under(r, np);
    }
    prune_list(&m, &r->dependencies, "[dependency]", &lines);
    for (size_t k = 0; k < r->property_dependencies.len; k++) {
      mp_propdep *pd = &r->property_dependencies.items[k];
      char *what = mp_xasprintf("[property dependency: %s]", pd->key);
      prune_list(&m, &pd->urns, what, &lines);
      free(what);
    }
    prune_one(&m, &r->deleted_with, "[deleted with]", &lines);
    prune_list(&m, &r->replace_with, "[replace with]", &lines);
    if (lines.len || strcmp(urn, r->urn)) {
      if (!header++)
        mp_buf_puts(report, "The following resources will be modified to "
                            "remove missing dependencies:\n\n");
      mp_buf_printf(report, "~ %s%s\n", r->urn, r->delete_ ? " (deleted)" : "");
      if (strcmp(urn, r->urn)) mp_buf_printf(report, "  ~ %s [urn]\n", urn);
      if (lines.len) mp_buf_append(report, lines.data, lines.len);
    }
    mp_buf_destroy(&lines);
    mp_strv_push(&m.from, r->urn);
    mp_strv_push(&m.to, urn);
    free(r->urn);
    r->urn = urn;
  }
  mp_strv_destroy(&m.from);
  mp_strv_destroy(&m.to);
}

/* Pulumi's banner when only a manual repair can help. */
static int manual_repair(mp_ctx *ctx, const char *why) {
  const char *s = ctx->stack;
  const char *f = s ? " --stack " : "";
  fprintf(ctx->err,
          "error: Failed to repair the snapshot automatically: %s\n\n"
          "minipulumi is unable to automatically repair the snapshot. This "
          "can happen if the\nsnapshot contains cycles or corrupted or "
          "unparseable data. You may be able to\nmanually repair your stack "
          "as follows:\n\n"
          "1. Manually export your stack's state to a file named "
          "state.json:\n\n   %s stack%s%s export > state.json\n\n"
          "2. Make a copy of the exported state.json file so that you have a "
          "backup:\n\n   cp state.json state.json.backup\n\n"
          "3. Edit the exported state.json file to fix any issues, such as "
          "cyclic\n   dependencies or corrupted data.\n\n"
          "4. Import the repaired state.json file back into your stack:\n\n"
          "   %s stack%s%s import --file state.json\n",
          why, mp_prog_name(), f, s ? s : "", mp_prog_name(), f, s ? s : "");
  return MP_EXIT_ERROR;
}

static int repair(mp_ctx *ctx, mp_state_edit *e, int yes) {
  if (e->was_valid) {
    fprintf(ctx->out, "The snapshot is already valid; skipping repair\n");
    return 0;
  }
  mp_err first, err;
  mp_err_clear(&first);
  mp_err_clear(&err);
  mp_snapshot_verify(e->snap, &first);
  mp_buf report;
  mp_buf_init(&report);
  int status = 0;
  if (toposort(e->snap, &report, &err)) {
    status = manual_repair(ctx, err.msg);
  } else {
    prune(e->snap, &report);
    if (mp_snapshot_verify(e->snap, &err)) status = manual_repair(ctx, err.msg);
  }
  if (!status && !yes) {
    fprintf(ctx->out, "%s", report.data ? report.data : "");
    char answer[16];
    if (!mp_cli_interactive(ctx))
      status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                            "--yes must be passed in to proceed when running "
                            "in non-interactive mode");
    else if (mp_cli_prompt(ctx,
                           "This command will edit your stack's state "
                           "directly. Confirm? [yes/no]",
                           answer, sizeof(answer)) ||
             strcmp(answer, "yes")) {
      fprintf(ctx->out,
              "Confirmation denied, not proceeding with state repair\n");
      mp_buf_destroy(&report);
      return 0;
    }
  }
  mp_buf_destroy(&report);
  e->was_valid = 1; /* the repaired snapshot must verify before it is written */
  if (!status) status = mp_state_edit_save(e);
  if (!status) fprintf(ctx->out, "State repaired successfully\n");
  return status;
}

int mp_cmd_state_repair(int argc, const char **argv, mp_ctx *ctx) {
  int yes = 0;
  mp_strv pos;
  mp_strv_init(&pos);
  const mp_opt opts[] = {
      MP_OPT_BOOL_('y', "yes", &yes,
                   "Automatically approve and perform the repair"),
      MP_OPT_END_};
  int rc = mp_args_parse(ctx, &help, opts, argc, argv, &pos);
  if (rc == MP_ARGS_OK) rc = mp_args_check_count(ctx, argv[0], &pos, 0, 0);
  mp_strv_destroy(&pos);
  if (rc) return mp_args_exit_status(rc);
  mp_state_edit e;
  int status = mp_state_edit_open(ctx, &e);
  if (!status) status = repair(ctx, &e, yes);
  mp_state_edit_close(&e);
  return status;
}
