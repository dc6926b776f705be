/* Writes a snapshot's dependency and parent graph in Graphviz's DOT
 * language. The layout follows Pulumi's `stack graph` (its dotconv
 * printer) so that the two tools draw the same picture: the node order,
 * the generated node names and the edge attributes match. One deliberate
 * difference: labels are escaped, so a name with a quote still gives a
 * file that Graphviz reads. */
#include "engine/graph_dot.h"

#include <stdlib.h>
#include <string.h>

#include "engine/urn.h"

typedef struct edge {
  size_t to;
  const char *color;
  mp_strv labels; /* property names; empty for parent edges */
} edge;

typedef struct vertex {
  const char *urn;
  const mp_resource *res; /* the last entry with this URN, as Pulumi keeps */
  edge *outs;
  size_t nouts, cap;
  long id; /* -1 until first mentioned */
  int drawn;
} vertex;

static int by_urn(const void *a, const void *b) {
  return strcmp(((const vertex *)a)->urn, ((const vertex *)b)->urn);
}

static vertex *find(vertex *v, size_t n, const char *urn) {
  vertex key = {.urn = urn};
  return urn ? bsearch(&key, v, n, sizeof(*v), by_urn) : NULL;
}

static edge *add_edge(vertex *from, size_t to, const char *color) {
  if (from->nouts == from->cap) {
    from->cap = from->cap ? from->cap * 2 : 4;
    from->outs = mp_xrealloc(from->outs, from->cap * sizeof(*from->outs));
  }
  edge *e = &from->outs[from->nouts++];
  e->to = to;
  e->color = color;
  mp_strv_init(&e->labels);
  return e;
}

/* A DOT string's text: '"' and '\\' escaped, and with |amp| each '&' as
 * "&amp;" (keep_ampersands). */
static void put_escaped_n(mp_buf *b, const char *s, size_t n, int amp) {
  for (size_t i = 0; i < n; i++) {
    if (amp && s[i] == '&') {
      mp_buf_puts(b, "&amp;");
      continue;
    }
    if (s[i] == '"' || s[i] == '\\') mp_buf_putc(b, '\\');
    mp_buf_putc(b, s[i]);
  }
}

static void put_escaped(mp_buf *b, const char *s, int amp) {
  put_escaped_n(b, s, strlen(s), amp);
}

static void put_quoted(mp_buf *b, const char *s, size_t n, int amp) {
  mp_buf_putc(b, '"');
  put_escaped_n(b, s, n, amp);
  mp_buf_putc(b, '"');
}

/* Marks the vertices to draw: all, or the first max_nodes URNs in the
 * snapshot's order (the stack, its providers and parents come first). */
static void choose(const mp_snapshot *s, size_t max, vertex *v, size_t n) {
  size_t count = 0;
  for (size_t i = 0; i < n; i++) v[i].drawn = max == 0;
  for (size_t i = 0; max && i < s->nres && count < max; i++) {
    vertex *x = find(v, n, s->res[i]->urn);
    if (!x->drawn) x->drawn = 1, count++;
  }
}

static long node_id(vertex *v, long *next) {
  if (v->id < 0) v->id = (*next)++;
  return v->id;
}

/* Builds the vertices (sorted, unique by URN) and their outgoing edges in
 * the order Pulumi appends them: the snapshot's order. */
static vertex *build(const mp_snapshot *s, const mp_graph_opts *o,
                     size_t *nout) {
  vertex *v = mp_xcalloc(s->nres ? s->nres : 1, sizeof(*v));
  size_t n = 0;
  for (size_t i = 0; i < s->nres; i++) v[n++].urn = s->res[i]->urn;
  qsort(v, n, sizeof(*v), by_urn);
  size_t u = 0;
  for (size_t i = 0; i < n; i++)
    if (!u || strcmp(v[u - 1].urn, v[i].urn)) v[u++] = v[i];
  n = u;
  for (size_t i = 0; i < n; i++) v[i].id = -1;
  for (size_t i = 0; i < s->nres; i++) find(v, n, s->res[i]->urn)->res = s->res[i];

  const char *dep_color = o->dependency_color ? o->dependency_color : "#246C60";
  const char *par_color = o->parent_color ? o->parent_color : "#AA6639";
  for (size_t i = 0; i < s->nres; i++) {
    vertex *self = find(v, n, s->res[i]->urn);
    const mp_resource *r = self->res;
    if (!o->ignore_dependency_edges) {
      for (size_t d = 0; d < r->dependencies.len; d++) {
        vertex *dep = find(v, n, r->dependencies.items[d]);
        if (!dep) continue; /* dangling: nothing to draw it from */
        edge *e = add_edge(dep, (size_t)(self - v), dep_color);
        const mp_propdeps *pd = &r->property_dependencies;
        for (size_t k = 0; k < pd->len; k++)
          for (size_t j = 0; j < pd->items[k].urns.len; j++)
            if (!strcmp(pd->items[k].urns.items[j], dep->urn))
              mp_strv_push(&e->labels, pd->items[k].key);
      }
    }
    if (!o->ignore_parent_edges && r->parent) {
      vertex *parent = find(v, n, r->parent);
      if (parent) add_edge(self, (size_t)(parent - v), par_color);
    }
  }
  *nout = n;
  return v;
}

size_t mp_graph_dot(const mp_snapshot *s, const mp_graph_opts *o,
                    mp_buf *out) {
  size_t n;
  vertex *v = build(s, o, &n);
  choose(s, o->max_nodes, v, n);
  int amp = o->keep_ampersands;
  long next = 0;
  mp_buf_puts(out, "strict digraph {\n");
  if (o->dot_fragment && *o->dot_fragment) {
    mp_buf_puts(out, o->dot_fragment);
    mp_buf_putc(out, '\n');
  }
  for (size_t i = 0; i < n; i++) {
    if (!v[i].drawn) continue;
    long id = node_id(&v[i], &next);
    mp_buf_printf(out, "    Resource%ld", id);
    size_t len = strlen(v[i].urn);
    const char *label = o->short_node_name ? mp_urn_name(v[i].urn, &len)
                                          : v[i].urn;
    if (!label) label = v[i].urn, len = strlen(label);
    char *url = o->node_url ? o->node_url(o->node_url_ud, v[i].urn) : NULL;
    if (len || url) {
      mp_buf_puts(out, " [");
      if (len) {
        mp_buf_puts(out, "label=");
        put_quoted(out, label, len, amp);
      }
      if (url) {
        mp_buf_puts(out, len ? ", URL=" : "URL=");
        put_quoted(out, url, strlen(url), 0);
        mp_buf_puts(out, ", target=\"_top\", tooltip=");
        put_quoted(out, v[i].urn, strlen(v[i].urn), amp);
      }
      mp_buf_putc(out, ']');
    }
    free(url);
    mp_buf_puts(out, ";\n");
    for (size_t e = 0; e < v[i].nouts; e++) {
      edge *ed = &v[i].outs[e];
      if (!v[ed->to].drawn) continue;
      mp_buf_printf(out, "    Resource%ld -> Resource%ld", id,
                    node_id(&v[ed->to], &next));
      int any = 0;
      if (*ed->color) {
        mp_buf_puts(out, " [color = ");
        put_quoted(out, ed->color, strlen(ed->color), 0);
        any = 1;
      }
      for (size_t l = 0; l < ed->labels.len; l++) {
        mp_buf_puts(out, l ? ", " : any ? ", label = \"" : " [label = \"");
        put_escaped(out, ed->labels.items[l], amp);
        if (l + 1 == ed->labels.len) mp_buf_putc(out, '"');
        any = 1;
      }
      mp_buf_puts(out, any ? "];\n" : ";\n");
    }
  }
  mp_buf_puts(out, "}\n");
  for (size_t i = 0; i < n; i++) {
    for (size_t e = 0; e < v[i].nouts; e++) mp_strv_destroy(&v[i].outs[e].labels);
    free(v[i].outs);
  }
  free(v);
  return n;
}
