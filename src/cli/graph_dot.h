/* The DOT picture of a snapshot, as `pulumi stack graph` draws it. */
#ifndef MP_CLI_GRAPH_DOT_H
#define MP_CLI_GRAPH_DOT_H

#include "engine/mem.h"
#include "engine/snapshot.h"

typedef struct mp_graph_opts {
  int ignore_parent_edges;
  int ignore_dependency_edges;
  int short_node_name;          /* label nodes by name, not URN */
  const char *dependency_color; /* NULL: Pulumi's "#246C60" */
  const char *parent_color;     /* NULL: Pulumi's "#AA6639" */
  const char *dot_fragment;     /* inserted after the header, or NULL */
} mp_graph_opts;

/* Appends the digraph of |s| to |out|: one node per URN (numbered
 * Resource0, Resource1, ... in the order first mentioned), visited in URN
 * order; an edge from each dependency to its dependent, labelled with the
 * properties that carry it; an edge from each child to its parent. */
void mp_graph_dot(const mp_snapshot *s, const mp_graph_opts *o, mp_buf *out);

#endif
