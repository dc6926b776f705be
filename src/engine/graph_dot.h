/* The DOT picture of a snapshot, as `pulumi stack graph` draws it: used by
 * `stack graph` (cli/) and the console's graph page (console/), hence in
 * the core. */
#ifndef MP_ENGINE_GRAPH_DOT_H
#define MP_ENGINE_GRAPH_DOT_H

#include "engine/mem.h"
#include "engine/snapshot.h"

typedef struct mp_graph_opts {
  int ignore_parent_edges;
  int ignore_dependency_edges;
  int short_node_name;          /* label nodes by name, not URN */
  const char *dependency_color; /* NULL: Pulumi's "#246C60" */
  const char *parent_color;     /* NULL: Pulumi's "#AA6639" */
  const char *dot_fragment;     /* inserted after the header, or NULL */
  /* The console's additions; all zero for `stack graph`. */
  size_t max_nodes; /* 0: every node; else the first N URNs in checkpoint
                       order, and only the edges between them */
  /* Each node's link (owned by the caller's allocator: freed with free)
   * as its URL attribute, with its URN as the tooltip; NULL: no link. */
  char *(*node_url)(void *ud, const char *urn);
  void *node_url_ud;
  /* Writes '&' as "&amp;" in labels and tooltips: Graphviz reads
   * character references in them, so that a name such as "&lt;" would
   * otherwise be drawn as "<". */
  int keep_ampersands;
} mp_graph_opts;

/* Appends the digraph of |s| to |out|: one node per URN (numbered
 * Resource0, Resource1, ... in the order first mentioned), visited in URN
 * order; an edge from each dependency to its dependent, labelled with the
 * properties that carry it; an edge from each child to its parent. */
/* Returns the number of nodes of the whole graph (drawn or not). */
size_t mp_graph_dot(const mp_snapshot *s, const mp_graph_opts *o, mp_buf *out);

#endif
