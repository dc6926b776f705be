/* The stack's graph (docs/console.md, "The graph"): the DOT text `stack
 * graph` writes (engine/graph_dot.h), with each node linked to its
 * resource's page, laid out and drawn as SVG by Graphviz's `dot`
 * (graph_svg.c), checked (svg_check.c) and embedded in a page of its own
 * (page_graph.c). */
#ifndef MP_CONSOLE_GRAPH_H
#define MP_CONSOLE_GRAPH_H

#include <cjson/cJSON.h>

#include "console/console.h"
#include "console/routes.h"

/* The most nodes drawn: Graphviz's layout time grows much faster than the
 * graph, and a picture of thousands of boxes shows nothing. A larger
 * stack is drawn in part (its first resources in checkpoint order), and
 * the page says so. */
#define MP_CONSOLE_GRAPH_LIMIT 200
/* How long `dot` may take before it is killed, in milliseconds. */
#define MP_CONSOLE_GRAPH_TIMEOUT_MS 60000

/* The graph of the stack, at most |limit| nodes: {"nodes": all of them,
 * "drawn": how many are drawn, "limit", "partial": bool, "dot": text}. */
cJSON *mp_console_graph(const mp_console_src *src, mp_stack_ref st,
                        size_t limit, mp_err *err);
/* Runs `dot -Tsvg` on |dot|; returns the <svg> element (owned), checked
 * by mp_console_svg_check, or NULL with |err| set. */
char *mp_console_dot_svg(const char *dot, size_t len, int timeout_ms,
                         mp_err *err);
/* 0 when |s| holds only the elements and attributes Graphviz draws with,
 * no comment, and links that are paths of this origin; else an error. */
int mp_console_svg_check(const char *s, size_t n, mp_err *err);
/* /stack/P/S/graph[?limit=N] and its JSON under /api/. */
void mp_console_graph_route(const mp_console_src *src, mp_stack_ref st,
                            int api, const char *limit, mp_reply *out);

#endif
