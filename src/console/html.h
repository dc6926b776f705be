/* The pieces every page is made of (html.c): the frame, links to the
 * other pages, and property values as a tree. Every text that comes from
 * a stack goes through mp_html_put or mp_url_put (escape.h). */
#ifndef MP_CONSOLE_HTML_H
#define MP_CONSOLE_HTML_H

#include <cjson/cJSON.h>

#include "console/escape.h"

/* One step of the breadcrumb line: |href| NULL for the current page. */
typedef struct mp_crumb {
  const char *text;
  const char *href; /* already a URL (built by the functions below) */
} mp_crumb;

void mp_html_begin(mp_buf *b, const char *title, const mp_crumb *crumbs,
                   size_t n);
void mp_html_end(mp_buf *b);

/* URLs of the pages (owned); each part is percent-encoded. */
char *mp_href_stack(const char *project, const char *stack);
char *mp_href_history(const char *project, const char *stack);
char *mp_href_resource(const char *project, const char *stack, const char *urn);
/* The stack's graph page (page_graph.c). */
char *mp_href_graph(const char *project, const char *stack);
char *mp_href_update(const char *project, const char *stack, int version);

/* <a href="|href|">|text|</a>, both escaped. */
void mp_html_link(mp_buf *b, const char *href, const char *text);
/* A link to the resource |urn| of the stack, its text the URN's name and
 * its title the whole URN. */
void mp_html_resource_link(mp_buf *b, const char *project, const char *stack,
                           const char *urn);
/* A property value (as model.h makes it) as nested lists. */
void mp_html_value(mp_buf *b, const cJSON *v);
/* "3 minutes ago" for an RFC 3339 time; "" for NULL. */
void mp_html_age(mp_buf *b, const char *iso);
/* A list of resource links (or "none"). */
void mp_html_urn_list(mp_buf *b, const char *project, const char *stack,
                      const cJSON *urns);
/* The string member |key| of |o|, or NULL. */
const char *mp_json_str(const cJSON *o, const char *key);

#endif
