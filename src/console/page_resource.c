/* A resource: what it is, what it is linked to, its options and its
 * inputs and outputs. */
#include <stdlib.h>

#include "console/html.h"
#include "console/pages.h"

static void row_start(mp_buf *b, const char *label) {
  mp_buf_puts(b, "<tr><th>");
  mp_buf_puts(b, label);
  mp_buf_puts(b, "</th><td>");
}

static void text_row(mp_buf *b, const char *label, const char *text) {
  row_start(b, label);
  if (text) {
    mp_buf_puts(b, "<code>");
    mp_html_put(b, text);
    mp_buf_puts(b, "</code>");
  } else {
    mp_buf_puts(b, "<span class=\"none\">none</span>");
  }
  mp_buf_puts(b, "</td></tr>");
}

static void link_row(mp_buf *b, const char *project, const char *stack,
                     const char *label, const char *urn) {
  row_start(b, label);
  if (urn) {
    mp_html_resource_link(b, project, stack, urn);
    mp_buf_puts(b, " <code>");
    mp_html_put(b, urn);
    mp_buf_puts(b, "</code>");
  } else {
    mp_buf_puts(b, "<span class=\"none\">none</span>");
  }
  mp_buf_puts(b, "</td></tr>");
}

static void prop_deps(mp_buf *b, const char *project, const char *stack,
                      const cJSON *pd) {
  if (cJSON_GetArraySize(pd) == 0) {
    mp_buf_puts(b, "<span class=\"none\">none</span>");
    return;
  }
  mp_buf_puts(b, "<ul class=\"tree\">");
  const cJSON *e;
  cJSON_ArrayForEach(e, pd) {
    mp_buf_puts(b, "<li><span class=\"key\">");
    mp_html_put(b, e->string);
    mp_buf_puts(b, "</span>: ");
    mp_html_urn_list(b, project, stack, e);
    mp_buf_puts(b, "</li>");
  }
  mp_buf_puts(b, "</ul>");
}

void mp_page_resource(mp_buf *b, const char *project, const char *stack,
                      const cJSON *r) {
  const char *urn = mp_json_str(r, "urn"), *name = mp_json_str(r, "name");
  char *title = mp_xasprintf("%s/%s", project, stack);
  char *up = mp_href_stack(project, stack);
  const mp_crumb crumbs[] = {{"Stacks", "/"}, {title, up}, {name, NULL}};
  mp_html_begin(b, name, crumbs, MP_ARRAY_LEN(crumbs));
  mp_buf_puts(b, "<h1>");
  mp_html_put(b, name);
  mp_buf_puts(b, " <span class=\"type\">");
  mp_html_put(b, mp_json_str(r, "type"));
  mp_buf_puts(b, "</span></h1><table class=\"kv\"><tbody>");
  text_row(b, "URN", urn);
  text_row(b, "Type", mp_json_str(r, "type"));
  text_row(b, "ID", mp_json_str(r, "id"));
  const cJSON *prov = cJSON_GetObjectItemCaseSensitive(r, "provider");
  link_row(b, project, stack, "Provider", mp_json_str(prov, "urn"));
  link_row(b, project, stack, "Parent", mp_json_str(r, "parent"));
  text_row(b, "Pending operation", mp_json_str(r, "pendingOperation"));
  text_row(b, "Created", mp_json_str(r, "created"));
  text_row(b, "Modified", mp_json_str(r, "modified"));
  static const struct {
    const char *key, *label;
  } lists[] = {{"children", "Children"},
               {"dependencies", "Dependencies"},
               {"dependents", "Depended on by"}};
  for (size_t i = 0; i < MP_ARRAY_LEN(lists); i++) {
    row_start(b, lists[i].label);
    mp_html_urn_list(b, project, stack,
                     cJSON_GetObjectItemCaseSensitive(r, lists[i].key));
    mp_buf_puts(b, "</td></tr>");
  }
  row_start(b, "Property dependencies");
  prop_deps(b, project, stack,
            cJSON_GetObjectItemCaseSensitive(r, "propertyDependencies"));
  mp_buf_puts(b, "</td></tr></tbody></table><h2>Options</h2>");
  mp_html_value(b, cJSON_GetObjectItemCaseSensitive(r, "options"));
  mp_buf_puts(b, "<h2>Inputs</h2>");
  mp_html_value(b, cJSON_GetObjectItemCaseSensitive(r, "inputs"));
  mp_buf_puts(b, "<h2>Outputs</h2>");
  mp_html_value(b, cJSON_GetObjectItemCaseSensitive(r, "outputs"));
  const cJSON *errs = cJSON_GetObjectItemCaseSensitive(r, "initErrors");
  if (cJSON_GetArraySize(errs)) {
    mp_buf_puts(b, "<h2>Initialization errors</h2>");
    mp_html_value(b, errs);
  }
  mp_html_end(b);
  free(up);
  free(title);
}
