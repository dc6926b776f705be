/* One update: its entry, the timeline, its steps in order with their
 * --diff text, its diagnostics and policy violations (pages.h). A running
 * update's page carries data-live, which the console's script follows
 * (server-sent events) to redraw the steps and the timeline. */
#include <stdlib.h>
#include <string.h>

#include "console/html.h"
#include "console/pages.h"

static void steps_table(mp_buf *b, const char *project, const char *stack,
                        const cJSON *steps) {
  if (cJSON_GetArraySize(steps) == 0) {
    mp_buf_puts(b, "<p class=\"none\">No steps were kept for this update.</p>");
    return;
  }
  mp_buf_puts(b, "<table class=\"steps\"><thead><tr><th>#</th><th>Op</th>"
                 "<th>Resource</th><th>Status</th><th>Duration</th>"
                 "<th>Diff</th></tr></thead><tbody>");
  const cJSON *s;
  cJSON_ArrayForEach(s, steps) {
    const cJSON *end = cJSON_GetObjectItemCaseSensitive(s, "endMs");
    const cJSON *start = cJSON_GetObjectItemCaseSensitive(s, "startMs");
    const char *status = mp_json_str(s, "status");
    mp_buf_printf(b, "<tr class=\"step\"><td class=\"num\">%d</td><td><span class=\"op\">",
                  cJSON_GetObjectItemCaseSensitive(s, "index")->valueint + 1);
    mp_html_put(b, mp_json_str(s, "op"));
    mp_buf_puts(b, "</span></td><td><span class=\"type\">");
    mp_html_put(b, mp_json_str(s, "type"));
    mp_buf_puts(b, "</span> ");
    mp_html_resource_link(b, project, stack, mp_json_str(s, "urn"));
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s, "critical")))
      mp_buf_puts(b, " <span class=\"flag critical\">longest chain</span>");
    mp_buf_puts(b, "</td><td><span class=\"status ");
    mp_html_put(b, status);
    mp_buf_puts(b, "\">");
    mp_html_put(b, status);
    mp_buf_puts(b, "</span></td><td class=\"num\">");
    if (cJSON_IsNumber(end) && cJSON_IsNumber(start))
      mp_buf_printf(b, "%.3fs", (end->valuedouble - start->valuedouble) / 1000);
    mp_buf_puts(b, "</td><td>");
    const char *diff = mp_json_str(s, "diff");
    if (diff) {
      mp_buf_puts(b, "<pre class=\"diff\">");
      mp_html_put(b, diff);
      mp_buf_puts(b, "</pre>");
    }
    mp_buf_puts(b, "</td></tr>\n");
  }
  mp_buf_puts(b, "</tbody></table>");
}

static void diagnostics(mp_buf *b, const char *project, const char *stack,
                        const cJSON *diags) {
  mp_buf_puts(b, "<h2>Diagnostics</h2>");
  if (cJSON_GetArraySize(diags) == 0) {
    mp_buf_puts(b, "<p class=\"none\">none</p>");
    return;
  }
  mp_buf_puts(b, "<ul class=\"diagnostics\">");
  const cJSON *d;
  cJSON_ArrayForEach(d, diags) {
    mp_buf_puts(b, "<li><span class=\"severity ");
    mp_html_put(b, mp_json_str(d, "severity"));
    mp_buf_puts(b, "\">");
    mp_html_put(b, mp_json_str(d, "severity"));
    mp_buf_puts(b, "</span> ");
    if (mp_json_str(d, "urn")) {
      mp_html_resource_link(b, project, stack, mp_json_str(d, "urn"));
      mp_buf_puts(b, ": ");
    }
    mp_buf_puts(b, "<span class=\"msg\">");
    mp_html_put(b, mp_json_str(d, "message"));
    mp_buf_puts(b, "</span></li>");
  }
  mp_buf_puts(b, "</ul>");
}

static void policies(mp_buf *b, const char *project, const char *stack,
                     const cJSON *pol) {
  mp_buf_puts(b, "<h2>Policy violations</h2>");
  if (cJSON_GetArraySize(pol) == 0) {
    mp_buf_puts(b, "<p class=\"none\">none</p>");
    return;
  }
  mp_buf_puts(b, "<table class=\"policies\"><thead><tr><th>Pack</th>"
                 "<th>Policy</th><th>Level</th><th>Resource</th>"
                 "<th>Message</th></tr></thead><tbody>");
  const cJSON *p;
  cJSON_ArrayForEach(p, pol) {
    mp_buf_puts(b, "<tr><td>");
    mp_html_put(b, mp_json_str(p, "policyPackName"));
    mp_buf_puts(b, "</td><td>");
    mp_html_put(b, mp_json_str(p, "policyName"));
    mp_buf_puts(b, "</td><td>");
    mp_html_put(b, mp_json_str(p, "enforcementLevel"));
    mp_buf_puts(b, "</td><td>");
    const char *urn = mp_json_str(p, "resourceUrn");
    if (urn && *urn) mp_html_resource_link(b, project, stack, urn);
    mp_buf_puts(b, "</td><td class=\"msg\">");
    mp_html_put(b, mp_json_str(p, "message"));
    mp_buf_puts(b, "</td></tr>");
  }
  mp_buf_puts(b, "</tbody></table>");
}

void mp_page_update(mp_buf *b, const char *project, const char *stack,
                    const cJSON *u) {
  char *title = mp_xasprintf("%s/%s", project, stack);
  char *up = mp_href_stack(project, stack);
  char *hist = mp_href_history(project, stack);
  int version = cJSON_GetObjectItemCaseSensitive(u, "version")->valueint;
  char *name = mp_xasprintf("Update %d", version);
  const mp_crumb crumbs[] = {
      {"Stacks", "/"}, {title, up}, {"History", hist}, {name, NULL}};
  mp_html_begin(b, name, crumbs, MP_ARRAY_LEN(crumbs));
  int running = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(u, "running"));
  mp_buf_puts(b, "<section class=\"update\"");
  if (running) {
    char *api = mp_href_update(project, stack, version);
    mp_buf_puts(b, " data-live=\"/api");
    mp_html_put(b, api);
    mp_buf_puts(b, "/events\"");
    free(api);
  }
  mp_buf_printf(b, "><h1>%s of ", name);
  mp_html_put(b, title);
  mp_buf_puts(b, "</h1><table class=\"kv\"><tr><th>Kind</th><td>");
  mp_html_put(b, mp_json_str(u, "kind"));
  mp_buf_puts(b, "</td></tr><tr><th>Result</th><td><span class=\"result ");
  mp_html_put(b, mp_json_str(u, "result"));
  mp_buf_puts(b, "\">");
  mp_html_put(b, mp_json_str(u, "result"));
  mp_buf_puts(b, "</span></td></tr><tr><th>Start</th><td>");
  mp_html_put(b, mp_json_str(u, "startTime"));
  mp_buf_puts(b, "</td></tr><tr><th>Message</th><td class=\"msg\">");
  mp_html_put(b, mp_json_str(u, "message"));
  mp_buf_puts(b, "</td></tr></table>");
  mp_buf_puts(b, "<h2>Timeline</h2><div class=\"timeline\">");
  mp_svg_timeline(b, u);
  mp_buf_puts(b, "</div><p class=\"legend\">One bar per step, from its start "
                 "to its end; outlined: the longest chain of steps that "
                 "waited for each other.</p>");
  mp_buf_puts(b, "<h2>Steps</h2><div class=\"steps\">");
  steps_table(b, project, stack, cJSON_GetObjectItemCaseSensitive(u, "steps"));
  mp_buf_puts(b, "</div>");
  diagnostics(b, project, stack, cJSON_GetObjectItemCaseSensitive(u, "diagnostics"));
  policies(b, project, stack, cJSON_GetObjectItemCaseSensitive(u, "policyViolations"));
  mp_buf_puts(b, "</section>");
  mp_html_end(b);
  free(name);
  free(hist);
  free(up);
  free(title);
}

void mp_page_stack_live(mp_buf *b, const char *project, const char *stack,
                        const cJSON *last) {
  const char *result = mp_json_str(last, "result");
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(last, "version");
  if (!result || strcmp(result, "in-progress") || !cJSON_IsNumber(v)) return;
  char *href = mp_href_update(project, stack, v->valueint);
  char *text = mp_xasprintf("Update %d is running", v->valueint);
  mp_buf_puts(b, "<p class=\"running\" data-live=\"/api");
  mp_html_put(b, href);
  mp_buf_puts(b, "/events\">");
  mp_html_link(b, href, text);
  mp_buf_puts(b, "</p>");
  free(text);
  free(href);
}
