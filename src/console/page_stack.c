/* A stack: its last update, tags, outputs, config and its resources as a
 * tree of parents and children. */
#include <stdlib.h>
#include <string.h>

#include "console/html.h"
#include "console/pages.h"

#define NONE ((size_t)-1)

typedef struct node {
  const cJSON *res;
  const char *urn;
  size_t parent;      /* index, or NONE for a top-level row */
  size_t first, next; /* first child and next sibling, in checkpoint order */
} node;

typedef struct by_urn {
  const char *urn;
  size_t at;
} by_urn;

static int cmp_urn(const void *a, const void *b) {
  return strcmp(((const by_urn *)a)->urn, ((const by_urn *)b)->urn);
}

static int flag(const cJSON *r, const char *key) {
  return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, key));
}

static void flags(mp_buf *b, const cJSON *r) {
  static const struct {
    const char *key, *label;
  } fl[] = {{"protect", "protected"},
            {"pendingReplacement", "pending replacement"},
            {"retainOnDelete", "retainOnDelete"},
            {"external", "external"},
            {"delete", "pending delete"},
            {"taint", "tainted"}};
  for (size_t i = 0; i < MP_ARRAY_LEN(fl); i++)
    if (flag(r, fl[i].key)) {
      mp_buf_puts(b, " <span class=\"flag\">");
      mp_buf_puts(b, fl[i].label);
      mp_buf_puts(b, "</span>");
    }
  const char *op = mp_json_str(r, "pendingOperation");
  if (op) {
    mp_buf_puts(b, " <span class=\"flag pending\">pending ");
    mp_html_put(b, op);
    mp_buf_puts(b, "</span>");
  }
}

typedef struct tree {
  node *nodes;
  size_t n, top; /* top: the first top-level row */
  const char *project, *stack;
} tree;

/* The rows from |at| on, with their siblings and children. */
static void draw(mp_buf *b, const tree *t, size_t at) {
  mp_buf_puts(b, "<ul class=\"restree\">");
  for (; at != NONE; at = t->nodes[at].next) {
    const cJSON *r = t->nodes[at].res;
    mp_buf_puts(b, "<li><span class=\"type\">");
    mp_html_put(b, mp_json_str(r, "type"));
    mp_buf_puts(b, "</span> ");
    mp_html_resource_link(b, t->project, t->stack, t->nodes[at].urn);
    flags(b, r);
    if (t->nodes[at].first != NONE)
      draw(b, t, t->nodes[at].first);
    mp_buf_puts(b, "</li>");
  }
  mp_buf_puts(b, "</ul>");
}

/* Links each row to its parent's list of children, in checkpoint order:
 * one pass, so a stack of any size is drawn in linear time. A parent
 * missing from the snapshot leaves its child at the top; rows in a
 * parent cycle (a corrupt snapshot) are not reached. */
static void link(tree *t) {
  size_t *last = mp_xcalloc(t->n + 1, sizeof(size_t));
  for (size_t i = 0; i <= t->n; i++)
    last[i] = NONE;
  t->top = NONE;
  for (size_t i = 0; i < t->n; i++) {
    size_t p = t->nodes[i].parent;
    size_t *head = p == NONE ? &t->top : &t->nodes[p].first;
    size_t *tail = &last[p == NONE ? t->n : p];
    if (*tail == NONE)
      *head = i;
    else
      t->nodes[*tail].next = i;
    *tail = i;
  }
  free(last);
}

static void resources(mp_buf *b, const char *project, const char *stack,
                      const cJSON *list) {
  size_t n = (size_t)cJSON_GetArraySize(list);
  tree t = {mp_xcalloc(n ? n : 1, sizeof(node)), n, NONE, project, stack};
  by_urn *idx = mp_xcalloc(n ? n : 1, sizeof(by_urn));
  size_t i = 0;
  const cJSON *r;
  cJSON_ArrayForEach(r, list) {
    t.nodes[i].res = r;
    t.nodes[i].urn = mp_json_str(r, "urn");
    t.nodes[i].first = t.nodes[i].next = NONE;
    idx[i].urn = t.nodes[i].urn;
    idx[i].at = i;
    i++;
  }
  qsort(idx, n, sizeof(by_urn), cmp_urn);
  for (i = 0; i < n; i++) {
    const char *parent = mp_json_str(t.nodes[i].res, "parent");
    by_urn key = {parent, 0}, *hit = NULL;
    if (parent)
      hit = bsearch(&key, idx, n, sizeof(by_urn), cmp_urn);
    t.nodes[i].parent = hit && hit->at != i ? hit->at : NONE;
  }
  link(&t);
  if (t.top != NONE)
    draw(b, &t, t.top);
  free(idx);
  free(t.nodes);
}

static void config(mp_buf *b, const cJSON *cfg) {
  if (cJSON_GetArraySize(cfg) == 0) {
    mp_buf_puts(b, "<p class=\"none\">none recorded</p>");
    return;
  }
  mp_buf_puts(b, "<table class=\"kv\"><tbody>");
  const cJSON *e;
  cJSON_ArrayForEach(e, cfg) {
    mp_buf_puts(b, "<tr><th>");
    mp_html_put(b, e->string);
    mp_buf_puts(b, "</th><td>");
    mp_html_value(b, cJSON_GetObjectItemCaseSensitive(e, "value"));
    mp_buf_puts(b, "</td></tr>");
  }
  mp_buf_puts(b, "</tbody></table>");
}

static void last_update(mp_buf *b, const cJSON *u, const char *history) {
  if (!cJSON_IsObject(u)) {
    mp_buf_puts(b, "<p class=\"none\">Never updated.</p>");
    return;
  }
  mp_buf_puts(b, "<p>Last update: ");
  mp_html_put(b, mp_json_str(u, "kind"));
  mp_buf_puts(b, " <span class=\"result ");
  mp_html_put(b, mp_json_str(u, "result"));
  mp_buf_puts(b, "\">");
  mp_html_put(b, mp_json_str(u, "result"));
  mp_buf_puts(b, "</span> ");
  mp_html_age(b, mp_json_str(u, "startTime"));
  mp_buf_puts(b, " · ");
  mp_html_link(b, history, "history");
  mp_buf_puts(b, "</p>");
}

void mp_page_stack(mp_buf *b, const cJSON *st) {
  const char *project = mp_json_str(st, "project"),
             *name = mp_json_str(st, "stack");
  char *title = mp_xasprintf("%s/%s", project, name);
  char *history = mp_href_history(project, name);
  const mp_crumb crumbs[] = {{"Stacks", "/"}, {title, NULL}};
  mp_html_begin(b, title, crumbs, MP_ARRAY_LEN(crumbs));
  mp_buf_puts(b, "<h1>");
  mp_html_put(b, title);
  mp_buf_puts(b, "</h1>");
  last_update(b, cJSON_GetObjectItemCaseSensitive(st, "lastUpdate"), history);
  mp_page_stack_live(b, project, name,
                     cJSON_GetObjectItemCaseSensitive(st, "lastUpdate"));
  mp_buf_puts(b, "<h2>Tags</h2>");
  mp_html_value(b, cJSON_GetObjectItemCaseSensitive(st, "tags"));
  mp_buf_puts(b, "<h2>Outputs</h2>");
  mp_html_value(b, cJSON_GetObjectItemCaseSensitive(st, "outputs"));
  mp_buf_puts(b, "<h2>Config</h2>");
  config(b, cJSON_GetObjectItemCaseSensitive(st, "config"));
  const cJSON *list = cJSON_GetObjectItemCaseSensitive(st, "resources");
  mp_buf_printf(b, "<h2>Resources (%d)</h2>", cJSON_GetArraySize(list));
  char *graph = mp_href_graph(project, name);
  mp_buf_puts(b, "<p>");
  mp_html_link(b, graph, "Graph of the resources");
  mp_buf_puts(b, "</p>");
  free(graph);
  resources(b, project, name, list);
  const cJSON *pend = cJSON_GetObjectItemCaseSensitive(st, "pendingOperations");
  if (cJSON_GetArraySize(pend)) {
    mp_buf_puts(b, "<h2>Pending operations</h2><ul>");
    const cJSON *p;
    cJSON_ArrayForEach(p, pend) {
      mp_buf_puts(b, "<li>");
      mp_html_put(b, mp_json_str(p, "operation"));
      mp_buf_puts(b, " <code>");
      mp_html_put(b, mp_json_str(p, "urn"));
      mp_buf_puts(b, "</code></li>");
    }
    mp_buf_puts(b, "</ul>");
  }
  mp_html_end(b);
  free(history);
  free(title);
}
