/* Tests for the console's graph (console/graph.h): the DOT the page asks
 * Graphviz for (engine/graph_dot.c with the console's options), the check
 * of Graphviz's SVG before a page embeds it (svg_check.c), and Graphviz's
 * own drawing of hostile names (graph_svg.c, when `dot` is installed).
 * The page itself in a browser: tests/console/browser.sh. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "console/graph.h"
#include "engine/graph_dot.h"
#include "engine/snapshot.h"
#include "testutil.h"

#define HOSTILE "<script>x()</script>\"q'</svg>&lt;"
#define U(name) "urn:pulumi:dev::p::t:index:R::" name

static mp_snapshot *hostile_snapshot(void) {
  mp_snapshot *s = mp_snapshot_new();
  mp_snapshot_append(s, mp_resource_new(U(HOSTILE), "t:index:R", 1));
  for (int i = 0; i < 3; i++) {
    char *urn = mp_xasprintf(U("r%d"), i);
    mp_resource *r = mp_resource_new(urn, "t:index:R", 1);
    r->parent = mp_xstrdup(U(HOSTILE));
    mp_strv_push(&r->dependencies, U(HOSTILE));
    mp_snapshot_append(s, r);
    free(urn);
  }
  return s;
}

static char *url_of(void *ud, const char *urn) {
  (void)ud;
  return mp_xasprintf("/r?%zu", strlen(urn));
}

static void test_dot_options(void) {
  mp_snapshot *s = hostile_snapshot();
  mp_graph_opts o = {0};
  mp_buf b;
  /* stack graph's DOT: no links, no limit */
  mp_buf_init(&b);
  CHECK(mp_graph_dot(s, &o, &b) == 4);
  CHECK(strstr(b.data, "URL=") == NULL);
  CHECK(strstr(b.data, "\\\"q'</svg>&lt;\"") != NULL);
  mp_buf_destroy(&b);
  /* the console's: short names, '&' kept from Graphviz's entities, a link
   * and a tooltip per node, the first two nodes only */
  o.short_node_name = 1;
  o.keep_ampersands = 1;
  o.node_url = url_of;
  o.max_nodes = 2;
  mp_buf_init(&b);
  CHECK(mp_graph_dot(s, &o, &b) == 4);
  CHECK(strstr(b.data, "label=\"<script>x()</script>\\\"q'</svg>&amp;lt;\"") !=
        NULL);
  CHECK(strstr(b.data, "URL=\"/r?") != NULL);
  CHECK(strstr(b.data, "tooltip=\"urn:pulumi:") != NULL);
  CHECK(strstr(b.data, "Resource1") != NULL);
  CHECK(strstr(b.data, "Resource2") == NULL); /* two nodes drawn */
  mp_buf_destroy(&b);
  mp_snapshot_free(s);
}

static int svg_ok(const char *svg) {
  mp_err err;
  mp_err_clear(&err);
  return mp_console_svg_check(svg, strlen(svg), &err) == 0;
}

static void test_svg_check(void) {
  CHECK(svg_ok("<svg width=\"1pt\" viewBox=\"0 0 1 1\" "
               "xmlns=\"http://www.w3.org/2000/svg\">\n<g id=\"n\" "
               "class=\"node\"><title>a</title><a xlink:href=\"/stack/p/s/"
               "resource?urn=u%3C\" xlink:title=\"&lt;script&gt; onload=x\" "
               "target=\"_top\"><ellipse cx=\"1\"/><text x=\"1\">&lt;/svg"
               "&gt; onclick=x javascript:x</text></a></g></svg>"));
  CHECK(!svg_ok("<svg><script>x()</script></svg>"));
  CHECK(!svg_ok("<svg><g onload=\"x()\"></g></svg>"));
  CHECK(!svg_ok("<svg><foreignObject></foreignObject></svg>"));
  CHECK(!svg_ok("<svg><style>a{}</style></svg>"));
  CHECK(!svg_ok("<svg><g style=\"x\"></g></svg>"));
  CHECK(!svg_ok("<svg><a xlink:href=\"javascript:x()\"></a></svg>"));
  CHECK(!svg_ok("<svg><a xlink:href=\"//evil.example/\"></a></svg>"));
  CHECK(!svg_ok("<svg><a xlink:href=\"https://evil.example/\"></a></svg>"));
  CHECK(!svg_ok("<svg><a href=\"/x\"></a></svg>"));
  CHECK(!svg_ok("<svg><!-- x --!><script>x()</script> --></svg>"));
  CHECK(!svg_ok("<svg><text x=\"a<b\"></text></svg>"));
  CHECK(!svg_ok("<svg><text x=a></text></svg>"));
  CHECK(!svg_ok("<svg><text x=\"a></text></svg>"));
  CHECK(!svg_ok("<svg></script></svg>"));
}

/* Graphviz's own drawing of the hostile snapshot: every name is text. */
static void test_dot_svg(void) {
  if (system("command -v dot >/dev/null 2>&1") != 0) {
    printf("no Graphviz `dot`: its drawing is not tested\n");
    return;
  }
  mp_snapshot *s = hostile_snapshot();
  mp_graph_opts o = {.short_node_name = 1, .keep_ampersands = 1,
                     .node_url = url_of};
  mp_buf b;
  mp_buf_init(&b);
  mp_graph_dot(s, &o, &b);
  mp_err err;
  mp_err_clear(&err);
  char *svg = mp_console_dot_svg(b.data, b.len, 60000, &err);
  CHECK(svg != NULL);
  if (svg) {
    CHECK(!strncmp(svg, "<svg", 4));
    CHECK(strstr(svg, "&lt;script&gt;x()&lt;/script&gt;") != NULL);
    CHECK(strstr(svg, "&lt;/svg&gt;&amp;lt;") != NULL); /* '&' kept */
    CHECK(strstr(svg, "<script") == NULL);
    CHECK(strstr(svg, "</svg>") == svg + strlen(svg) - 6);
    CHECK(strstr(svg, "<!--") == NULL);
  }
  free(svg);
  /* broken DOT: Graphviz's message, no picture */
  mp_err_clear(&err);
  svg = mp_console_dot_svg("digraph {", 9, 60000, &err);
  CHECK(svg == NULL && strstr(err.msg, "`dot` failed") != NULL);
  mp_buf_destroy(&b);
  mp_snapshot_free(s);
}

int main(void) {
  signal(SIGPIPE, SIG_IGN); /* as the minipulumi binary does */
  RUN(test_dot_options);
  RUN(test_svg_check);
  RUN(test_dot_svg);
  return mp_test_summary();
}
