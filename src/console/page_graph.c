/* The stack's graph page and its JSON (graph.h). */
#include <stdlib.h>
#include <string.h>

#include "console/graph.h"
#include "console/html.h"
#include "console/pages.h"
#include "engine/graph_dot.h"
#include "engine/snapshot.h"

typedef struct url_ctx {
  const char *project, *stack;
} url_ctx;

static char *node_url(void *ud, const char *urn) {
  const url_ctx *u = ud;
  return mp_href_resource(u->project, u->stack, urn);
}

char *mp_href_graph(const char *project, const char *stack) {
  mp_buf b;
  mp_buf_init(&b);
  mp_buf_puts(&b, "/stack/");
  mp_url_put(&b, project);
  mp_buf_putc(&b, '/');
  mp_url_put(&b, stack);
  mp_buf_puts(&b, "/graph");
  return mp_buf_detach(&b, NULL);
}

cJSON *mp_console_graph(const mp_console_src *src, mp_stack_ref st,
                        size_t limit, mp_err *err) {
  int rc = mp_store_stack_exists(src->store, st, err);
  if (rc == 0)
    mp_err_set(err, MP_ENOENT, "no stack named '%s/%s' found", st.project,
               st.name);
  if (rc <= 0)
    return NULL;
  /* The graph shows no value: the snapshot is read with its secrets'
   * ciphertext kept, whatever --show-secrets says. */
  mp_crypter keep = mp_crypter_keep_ciphertext();
  mp_snapshot *s = NULL;
  if (mp_store_load(src->store, st, keep.decrypt ? &keep : NULL, &s, err))
    return NULL;
  url_ctx u = {st.project, st.name};
  mp_graph_opts o = {0};
  o.short_node_name = 1;
  o.max_nodes = limit;
  o.node_url = node_url;
  o.node_url_ud = &u;
  o.keep_ampersands = 1;
  mp_buf dot;
  mp_buf_init(&dot);
  size_t total = mp_graph_dot(s, &o, &dot);
  mp_snapshot_free(s);
  size_t drawn = total < limit ? total : limit;
  cJSON *j = cJSON_CreateObject();
  cJSON_AddNumberToObject(j, "nodes", (double)total);
  cJSON_AddNumberToObject(j, "drawn", (double)drawn);
  cJSON_AddNumberToObject(j, "limit", (double)limit);
  cJSON_AddBoolToObject(j, "partial", drawn < total);
  cJSON_AddStringToObject(j, "dot", dot.data ? dot.data : "");
  mp_buf_destroy(&dot);
  return j;
}

static void page(mp_buf *b, mp_stack_ref st, const cJSON *g) {
  char *title = mp_xasprintf("%s/%s", st.project, st.name);
  char *stack = mp_href_stack(st.project, st.name);
  const mp_crumb crumbs[] = {{"Stacks", "/"}, {title, stack}, {"graph", NULL}};
  mp_html_begin(b, title, crumbs, MP_ARRAY_LEN(crumbs));
  mp_buf_puts(b, "<h1>Graph of ");
  mp_html_put(b, title);
  mp_buf_puts(b, "</h1>");
  int nodes = cJSON_GetObjectItemCaseSensitive(g, "nodes")->valueint;
  int drawn = cJSON_GetObjectItemCaseSensitive(g, "drawn")->valueint;
  if (drawn < nodes)
    mp_buf_printf(b,
                  "<p class=\"partial\">This stack has %d resources: the "
                  "graph shows only the first %d, in the order of the "
                  "checkpoint, and the edges between them.</p>",
                  nodes, drawn);
  else
    mp_buf_printf(b, "<p>%d resources.</p>", nodes);
  mp_buf_puts(b, "<p class=\"legend\"><span class=\"dep\">&#8594;</span> "
                 "dependency (labelled with the properties that carry it), "
                 "<span class=\"par\">&#8594;</span> child to parent; each "
                 "node links to its resource.</p>");
  const char *dot = mp_json_str(g, "dot");
  mp_err err;
  mp_err_clear(&err);
  char *svg = nodes ? mp_console_dot_svg(dot, strlen(dot),
                                         MP_CONSOLE_GRAPH_TIMEOUT_MS, &err)
                    : NULL;
  if (svg) {
    mp_buf_puts(b, "<div class=\"graph\">");
    mp_buf_puts(b, svg); /* checked: mp_console_svg_check */
    mp_buf_puts(b, "</div>");
  } else if (nodes) {
    mp_buf_puts(b, "<p class=\"error\">");
    mp_html_put(b, err.msg);
    mp_buf_puts(b, "</p>");
  }
  mp_html_end(b);
  free(svg);
  free(stack);
  free(title);
}

/* ?limit=N: a whole number from 1 to the limit; NULL: the limit. */
static int parse_limit(const char *s, size_t *out) {
  if (s == NULL) {
    *out = MP_CONSOLE_GRAPH_LIMIT;
    return 0;
  }
  char *end;
  long v = strtol(s, &end, 10);
  if (!*s || *end || v < 1 || v > MP_CONSOLE_GRAPH_LIMIT)
    return -1;
  *out = (size_t)v;
  return 0;
}

static void reply(mp_reply *out, int status, const char *type, char *body,
                  size_t len) {
  out->status = status;
  out->type = type;
  out->body = body;
  out->len = len;
}

static void fail(mp_reply *out, int api, int status, const char *message) {
  if (api) {
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "error", message);
    size_t len;
    char *text = mp_json_text(j, &len);
    reply(out, status, "application/json", text, len);
    cJSON_Delete(j);
    return;
  }
  mp_buf b;
  mp_buf_init(&b);
  mp_page_error(&b, status, message);
  size_t len;
  char *text = mp_buf_detach(&b, &len);
  reply(out, status, "text/html; charset=utf-8", text, len);
}

void mp_console_graph_route(const mp_console_src *src, mp_stack_ref st,
                            int api, const char *limit, mp_reply *out) {
  size_t max;
  if (parse_limit(limit, &max)) {
    char *m = mp_xasprintf("limit must be a whole number from 1 to %d",
                           MP_CONSOLE_GRAPH_LIMIT);
    fail(out, api, 400, m);
    free(m);
    return;
  }
  mp_err err;
  mp_err_clear(&err);
  cJSON *g = mp_console_graph(src, st, max, &err);
  if (g == NULL) {
    fail(out, api, err.code == MP_ENOENT ? 404 : 500, err.msg);
    return;
  }
  size_t len;
  char *text;
  if (api) {
    text = mp_json_text(g, &len);
    reply(out, 200, "application/json", text, len);
  } else {
    mp_buf b;
    mp_buf_init(&b);
    page(&b, st, g);
    text = mp_buf_detach(&b, &len);
    reply(out, 200, "text/html; charset=utf-8", text, len);
  }
  cJSON_Delete(g);
}
