/* The first page: every stack of the store, filtered by name and tag. */
#include <stdlib.h>

#include "console/html.h"
#include "console/pages.h"

static void last_update(mp_buf *b, const cJSON *u) {
  if (!cJSON_IsObject(u)) {
    mp_buf_puts(b, "<td colspan=\"3\" class=\"none\">never updated</td>");
    return;
  }
  const char *result = mp_json_str(u, "result");
  mp_buf_puts(b, "<td>");
  mp_html_put(b, mp_json_str(u, "kind"));
  mp_buf_puts(b, "</td><td><span class=\"result ");
  mp_html_put(b, result);
  mp_buf_puts(b, "\">");
  mp_html_put(b, result);
  mp_buf_puts(b, "</span></td><td>");
  mp_html_age(b, mp_json_str(u, "endTime") ? mp_json_str(u, "endTime")
                                           : mp_json_str(u, "startTime"));
  mp_buf_puts(b, "</td>");
}

static void tags(mp_buf *b, const cJSON *t) {
  const cJSON *e;
  cJSON_ArrayForEach(e, t) {
    mp_buf_puts(b, "<span class=\"tag\">");
    mp_html_put(b, e->string);
    mp_buf_puts(b, "=");
    mp_html_put(b, e->valuestring);
    mp_buf_puts(b, "</span> ");
  }
}

void mp_page_stacks(mp_buf *b, const cJSON *stacks, const char *q,
                    const char *tag) {
  const mp_crumb crumbs[] = {{"Stacks", NULL}};
  mp_html_begin(b, "Stacks", crumbs, MP_ARRAY_LEN(crumbs));
  mp_buf_puts(b, "<h1>Stacks</h1><form class=\"filter\" method=\"get\" "
                 "action=\"/\"><label>Name <input name=\"q\" value=\"");
  mp_html_put(b, q);
  mp_buf_puts(b, "\"></label> <label>Tag <input name=\"tag\" "
                 "placeholder=\"name or name=value\" value=\"");
  mp_html_put(b, tag);
  mp_buf_puts(b, "\"></label> <button>Filter</button></form>");
  if (cJSON_GetArraySize(stacks) == 0) {
    mp_buf_puts(b, "<p class=\"none\">No stacks.</p>");
    mp_html_end(b);
    return;
  }
  mp_buf_puts(b,
              "<table class=\"stacks\"><thead><tr><th>Project</th>"
              "<th>Stack</th><th>Resources</th><th>Last update</th>"
              "<th>Result</th><th>When</th><th>Tags</th></tr></thead><tbody>");
  const cJSON *s;
  cJSON_ArrayForEach(s, stacks) {
    const char *p = mp_json_str(s, "project"), *n = mp_json_str(s, "stack");
    char *href = mp_href_stack(p, n);
    mp_buf_puts(b, "<tr><td>");
    mp_html_put(b, p);
    mp_buf_puts(b, "</td><td>");
    mp_html_link(b, href, n);
    mp_buf_printf(
        b, "</td><td class=\"num\">%d</td>",
        cJSON_GetObjectItemCaseSensitive(s, "resourceCount")->valueint);
    last_update(b, cJSON_GetObjectItemCaseSensitive(s, "lastUpdate"));
    mp_buf_puts(b, "<td>");
    tags(b, cJSON_GetObjectItemCaseSensitive(s, "tags"));
    mp_buf_puts(b, "</td></tr>\n");
    free(href);
  }
  mp_buf_puts(b, "</tbody></table>");
  mp_html_end(b);
}

void mp_page_error(mp_buf *b, int status, const char *message) {
  const mp_crumb crumbs[] = {{"Stacks", "/"}, {"Error", NULL}};
  mp_html_begin(b, "Error", crumbs, MP_ARRAY_LEN(crumbs));
  mp_buf_printf(b, "<h1>%d</h1><p class=\"error\">", status);
  mp_html_put(b, message);
  mp_buf_puts(b, "</p>");
  mp_html_end(b);
}
