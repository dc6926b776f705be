/* The repair of an invalid snapshot (`state repair`), as Pulumi's
 * Snapshot.Toposort and PruneDanglingReferences do it
 * (pkg/resource/deploy/snapshot.go): the resources sorted so that each
 * comes after what it refers to, then the references to resources that
 * are not there removed. Each change is reported as Pulumi lists it. */
#include "engine/snapshot.h"

#include <stdlib.h>
#include <string.h>

#include "engine/urn.h"

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

int mp_snapshot_toposort(mp_snapshot *s, mp_buf *report, mp_err *err) {
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

void mp_snapshot_prune_dangling(mp_snapshot *s, mp_buf *report) {
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
