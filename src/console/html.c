#include "console/html.h"

#include "console/console.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

void mp_html_begin(mp_buf *b, const char *title, const mp_crumb *crumbs,
                   size_t n) {
  mp_buf_puts(
      b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
         "<meta name=\"viewport\" content=\"width=device-width\">"
         "<title>");
  mp_html_put(b, title);
  mp_buf_puts(b, " · minipulumi console</title>"
                 "<link rel=\"stylesheet\" href=\"/static/console.css\">"
                 "</head><body><header><a class=\"brand\" href=\"/\">"
                 "minipulumi console</a></header><nav class=\"crumbs\">");
  for (size_t i = 0; i < n; i++) {
    if (i)
      mp_buf_puts(b, " <span class=\"sep\">/</span> ");
    if (crumbs[i].href)
      mp_html_link(b, crumbs[i].href, crumbs[i].text);
    else {
      mp_buf_puts(b, "<span class=\"here\">");
      mp_html_put(b, crumbs[i].text);
      mp_buf_puts(b, "</span>");
    }
  }
  mp_buf_puts(b, "</nav><main>\n");
}

void mp_html_end(mp_buf *b) {
  mp_buf_puts(b, "</main><script src=\"/static/console.js\"></script>"
                 "</body></html>\n");
}

static char *stack_path(const char *project, const char *stack,
                        const char *tail) {
  mp_buf b;
  mp_buf_init(&b);
  mp_buf_puts(&b, "/stack/");
  mp_url_put(&b, project);
  mp_buf_putc(&b, '/');
  mp_url_put(&b, stack);
  mp_buf_puts(&b, tail);
  return mp_buf_detach(&b, NULL);
}

char *mp_href_stack(const char *project, const char *stack) {
  return stack_path(project, stack, "");
}

char *mp_console_stack_path(const char *project, const char *stack) {
  return mp_href_stack(project, stack);
}

char *mp_href_history(const char *project, const char *stack) {
  return stack_path(project, stack, "/history");
}

char *mp_href_update(const char *project, const char *stack, int version) {
  char *tail = mp_xasprintf("/update/%d", version);
  char *out = stack_path(project, stack, tail);
  free(tail);
  return out;
}

char *mp_href_resource(const char *project, const char *stack,
                       const char *urn) {
  mp_buf b;
  mp_buf_init(&b);
  char *base = stack_path(project, stack, "/resource?urn=");
  mp_buf_puts(&b, base);
  mp_url_put(&b, urn);
  free(base);
  return mp_buf_detach(&b, NULL);
}

void mp_html_link(mp_buf *b, const char *href, const char *text) {
  mp_buf_puts(b, "<a href=\"");
  mp_html_put(b, href);
  mp_buf_puts(b, "\">");
  mp_html_put(b, text);
  mp_buf_puts(b, "</a>");
}

/* The name of a URN: what follows its last "::". */
static const char *urn_name(const char *urn) {
  const char *name = urn, *p = urn;
  while ((p = strstr(p, "::")) != NULL)
    name = p += 2;
  return name;
}

void mp_html_resource_link(mp_buf *b, const char *project, const char *stack,
                           const char *urn) {
  char *href = mp_href_resource(project, stack, urn);
  mp_buf_puts(b, "<a href=\"");
  mp_html_put(b, href);
  mp_buf_puts(b, "\" title=\"");
  mp_html_put(b, urn);
  mp_buf_puts(b, "\">");
  mp_html_put(b, urn_name(urn));
  mp_buf_puts(b, "</a>");
  free(href);
}

static void scalar(mp_buf *b, const cJSON *v) {
  if (cJSON_IsString(v)) {
    int masked = !strcmp(v->valuestring, "[secret]");
    mp_buf_puts(b, masked ? "<span class=\"secret\">" : "<span class=\"str\">");
    mp_html_put(b, v->valuestring);
    mp_buf_puts(b, "</span>");
    return;
  }
  char *t = cJSON_PrintUnformatted(v);
  mp_buf_puts(b, "<span class=\"lit\">");
  mp_html_put(b, t ? t : "null");
  mp_buf_puts(b, "</span>");
  cJSON_free(t);
}

void mp_html_value(mp_buf *b, const cJSON *v) {
  if (!cJSON_IsObject(v) && !cJSON_IsArray(v)) {
    scalar(b, v);
    return;
  }
  if (cJSON_GetArraySize(v) == 0) {
    mp_buf_puts(b, cJSON_IsArray(v) ? "<span class=\"lit\">[]</span>"
                                    : "<span class=\"lit\">{}</span>");
    return;
  }
  mp_buf_puts(b, "<ul class=\"tree\">");
  const cJSON *e;
  int i = 0;
  cJSON_ArrayForEach(e, v) {
    mp_buf_puts(b, "<li><span class=\"key\">");
    if (cJSON_IsArray(v))
      mp_buf_printf(b, "[%d]", i);
    else
      mp_html_put(b, e->string);
    mp_buf_puts(b, "</span>: ");
    mp_html_value(b, e);
    mp_buf_puts(b, "</li>");
    i++;
  }
  mp_buf_puts(b, "</ul>");
}

void mp_html_age(mp_buf *b, const char *iso) {
  struct tm tm;
  memset(&tm, 0, sizeof(tm));
  if (iso == NULL ||
      sscanf(iso, "%d-%d-%dT%d:%d:%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
             &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6)
    return;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  long long s = (long long)(time(NULL) - timegm(&tm));
  if (s < 0)
    s = 0;
  const char *unit = "second";
  long long n = s;
  if (s >= 86400)
    n = s / 86400, unit = "day";
  else if (s >= 3600)
    n = s / 3600, unit = "hour";
  else if (s >= 60)
    n = s / 60, unit = "minute";
  mp_buf_puts(b, "<time datetime=\"");
  mp_html_put(b, iso);
  mp_buf_printf(b, "\" title=\"");
  mp_html_put(b, iso);
  mp_buf_printf(b, "\">%lld %s%s ago</time>", n, unit, n == 1 ? "" : "s");
}

void mp_html_urn_list(mp_buf *b, const char *project, const char *stack,
                      const cJSON *urns) {
  if (cJSON_GetArraySize(urns) == 0) {
    mp_buf_puts(b, "<span class=\"none\">none</span>");
    return;
  }
  mp_buf_puts(b, "<ul class=\"urns\">");
  const cJSON *u;
  cJSON_ArrayForEach(u, urns) {
    if (!cJSON_IsString(u))
      continue;
    mp_buf_puts(b, "<li>");
    mp_html_resource_link(b, project, stack, u->valuestring);
    mp_buf_puts(b, " <code>");
    mp_html_put(b, u->valuestring);
    mp_buf_puts(b, "</code></li>");
  }
  mp_buf_puts(b, "</ul>");
}

const char *mp_json_str(const cJSON *o, const char *key) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  return cJSON_IsString(v) ? v->valuestring : NULL;
}
