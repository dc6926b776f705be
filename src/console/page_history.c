/* A stack's history: every update, newest first. */
#include <stdlib.h>

#include "console/html.h"
#include "console/pages.h"

static void changes(mp_buf *b, const cJSON *c) {
  if (cJSON_GetArraySize(c) == 0) {
    mp_buf_puts(b, "<span class=\"none\">no changes</span>");
    return;
  }
  const cJSON *e;
  cJSON_ArrayForEach(e, c) {
    mp_buf_puts(b, "<span class=\"change ");
    mp_html_put(b, e->string);
    mp_buf_puts(b, "\">");
    mp_html_put(b, e->string);
    mp_buf_printf(b, " %d</span> ", e->valueint);
  }
}

static void duration(mp_buf *b, const cJSON *d) {
  if (!cJSON_IsNumber(d))
    return;
  long long s = (long long)d->valuedouble;
  if (s >= 3600)
    mp_buf_printf(b, "%lldh%lldm%llds", s / 3600, s % 3600 / 60, s % 60);
  else if (s >= 60)
    mp_buf_printf(b, "%lldm%llds", s / 60, s % 60);
  else
    mp_buf_printf(b, "%llds", s);
}

void mp_page_history(mp_buf *b, const char *project, const char *stack,
                     const cJSON *updates) {
  char *title = mp_xasprintf("%s/%s", project, stack);
  char *up = mp_href_stack(project, stack);
  const mp_crumb crumbs[] = {{"Stacks", "/"}, {title, up}, {"History", NULL}};
  mp_html_begin(b, "History", crumbs, MP_ARRAY_LEN(crumbs));
  mp_buf_puts(b, "<h1>History of ");
  mp_html_put(b, title);
  mp_buf_puts(b, "</h1>");
  if (cJSON_GetArraySize(updates) == 0) {
    mp_buf_puts(b, "<p class=\"none\">Never updated.</p>");
  } else {
    mp_buf_puts(b, "<table class=\"history\"><thead><tr><th>#</th><th>Kind</th>"
                   "<th>Result</th><th>Start</th><th>Duration</th>"
                   "<th>Changes</th><th>Message</th><th>Environment</th>"
                   "</tr></thead><tbody>");
    const cJSON *u;
    cJSON_ArrayForEach(u, updates) {
      const char *result = mp_json_str(u, "result");
      int version = cJSON_GetObjectItemCaseSensitive(u, "version")->valueint;
      char *href = mp_href_update(project, stack, version);
      char *num = mp_xasprintf("%d", version);
      mp_buf_printf(b, "<tr id=\"update-%d\"><td class=\"num\">", version);
      mp_html_link(b, href, num);
      mp_buf_puts(b, "</td><td>");
      free(num);
      free(href);
      mp_html_put(b, mp_json_str(u, "kind"));
      mp_buf_puts(b, "</td><td><span class=\"result ");
      mp_html_put(b, result);
      mp_buf_puts(b, "\">");
      mp_html_put(b, result);
      mp_buf_puts(b, "</span></td><td>");
      mp_html_put(b, mp_json_str(u, "startTime"));
      mp_buf_puts(b, "<br>");
      mp_html_age(b, mp_json_str(u, "startTime"));
      mp_buf_puts(b, "</td><td>");
      duration(b, cJSON_GetObjectItemCaseSensitive(u, "durationSeconds"));
      mp_buf_puts(b, "</td><td>");
      changes(b, cJSON_GetObjectItemCaseSensitive(u, "resourceChanges"));
      mp_buf_puts(b, "</td><td class=\"msg\">");
      mp_html_put(b, mp_json_str(u, "message"));
      mp_buf_puts(b, "</td><td><details><summary>environment</summary>");
      mp_html_value(b, cJSON_GetObjectItemCaseSensitive(u, "environment"));
      mp_buf_puts(b, "</details></td></tr>\n");
    }
    mp_buf_puts(b, "</tbody></table>");
  }
  mp_html_end(b);
  free(up);
  free(title);
}
