/* The console's URLs (docs/console.md):
 *   /                                     the stacks (?q=NAME&tag=K[=V])
 *   /stack/PROJECT/STACK                  a stack
 *   /stack/PROJECT/STACK/resource?urn=U   a resource
 *   /stack/PROJECT/STACK/history          its updates
 *   /stack/PROJECT/STACK/graph?limit=N    its graph (graph.h)
 *   /stack/PROJECT/STACK/update/N         one update: steps, timeline
 *   /api/stacks, /api/stack/...           the same as JSON
 *   /static/console.css, console.js       the built-in assets */
#include "console/routes.h"

#include <stdlib.h>
#include <string.h>

#include "console/assets.h"
#include "console/escape.h"
#include "console/graph.h"
#include "console/model.h"
#include "console/pages.h"
#include "engine/names.h"

#define HTML "text/html; charset=utf-8"
#define JSON "application/json"

static void reply_buf(mp_reply *out, int status, const char *type, mp_buf *b) {
  out->status = status;
  out->type = type;
  out->body = mp_buf_detach(b, &out->len);
}

static void reply_json(mp_reply *out, int status, const cJSON *j) {
  out->status = status;
  out->type = JSON;
  out->body = mp_json_text(j, &out->len);
}

static void fail(mp_reply *out, int api, int status, const char *message) {
  if (api) {
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "error", message);
    reply_json(out, status, j);
    cJSON_Delete(j);
    return;
  }
  mp_buf b;
  mp_buf_init(&b);
  mp_page_error(&b, status, message);
  reply_buf(out, status, HTML, &b);
}

static void asset(mp_reply *out, const char *type, const char *text) {
  out->status = 200;
  out->type = type;
  out->body = mp_xstrdup(text);
  out->len = strlen(text);
}

/* Splits "PROJECT/STACK[/REST]" in |path| (a copy it cuts up). */
static int split_stack(char *path, mp_stack_ref *st, const char **rest) {
  char *slash = strchr(path, '/');
  if (slash == NULL || slash == path)
    return -1;
  *slash = '\0';
  st->project = path;
  st->name = slash + 1;
  char *tail = strchr(slash + 1, '/');
  *rest = "";
  if (tail) {
    *tail = '\0';
    *rest = tail + 1;
  }
  return *st->name ? 0 : -1;
}

/* N of "update/N" (1 and up), or 0. */
static int64_t update_version(const char *rest) {
  if (strncmp(rest, "update/", 7) != 0) return 0;
  const char *p = rest + 7;
  int64_t v = 0;
  for (; *p >= '0' && *p <= '9' && v < 1000000000; p++) v = v * 10 + (*p - '0');
  return *p || p == rest + 7 ? 0 : v;
}

/* One stack's pages and JSON: |rest| is "", "history" or "resource". */
static void stack_route(const mp_console_src *src, mp_stack_ref st,
                        const char *rest, int api, mp_query_fn arg,
                        void *arg_ctx, mp_reply *out) {
  mp_err err;
  mp_err_clear(&err);
  cJSON *j = NULL;
  const char *urn = NULL;
  int which;
  /* a name the store refuses (`..`, a space) names no stack: 404 */
  if (mp_project_name_check(st.project, &err) != 0 ||
      mp_stack_name_check(st.name, &err) != 0) {
    mp_err_prefix(&err, "invalid stack name '%s/%s'", st.project, st.name);
    fail(out, api, 404, err.msg);
    return;
  }
  int64_t version;
  if (!*rest)
    which = 0, j = mp_console_stack(src, st, &err);
  else if (!strcmp(rest, "history"))
    which = 1, j = mp_console_history(src, st, &err);
  else if (!strcmp(rest, "graph")) {
    mp_console_graph_route(src, st, api, arg(arg_ctx, "limit"), out);
    return;
  } else if (!strcmp(rest, "resource"))
    which = 2, urn = arg(arg_ctx, "urn"),
    j = mp_console_resource(src, st, urn, &err);
  else if ((version = update_version(rest)) > 0)
    which = 3, j = mp_console_update(src, st, version, &err);
  else {
    fail(out, api, 404, "no such page");
    return;
  }
  if (j == NULL) {
    fail(out, api, err.code == MP_ENOENT ? 404 : 500, err.msg);
    return;
  }
  if (api) {
    reply_json(out, 200, j);
  } else {
    mp_buf b;
    mp_buf_init(&b);
    if (which == 0)
      mp_page_stack(&b, j);
    else if (which == 1)
      mp_page_history(&b, st.project, st.name, j);
    else if (which == 3)
      mp_page_update(&b, st.project, st.name, j);
    else
      mp_page_resource(&b, st.project, st.name, j);
    reply_buf(out, 200, HTML, &b);
  }
  cJSON_Delete(j);
}

void mp_console_route(const mp_console_src *src, const char *path,
                      mp_query_fn arg, void *arg_ctx, mp_reply *out) {
  memset(out, 0, sizeof(*out));
  int api = !strncmp(path, "/api/", 5);
  const char *p = api ? path + 4 : path;
  if (!strcmp(path, "/static/console.css")) {
    asset(out, "text/css; charset=utf-8", mp_console_css);
    return;
  }
  if (!strcmp(path, "/static/console.js")) {
    asset(out, "text/javascript; charset=utf-8", mp_console_js);
    return;
  }
  if ((!api && !strcmp(p, "/")) || (api && !strcmp(p, "/stacks"))) {
    mp_err err;
    mp_err_clear(&err);
    const char *q = arg(arg_ctx, "q"), *tag = arg(arg_ctx, "tag");
    cJSON *j = mp_console_stacks(src, q, tag, &err);
    if (j == NULL) {
      fail(out, api, 500, err.msg);
      return;
    }
    if (api) {
      reply_json(out, 200, j);
    } else {
      mp_buf b;
      mp_buf_init(&b);
      mp_page_stacks(&b, j, q, tag);
      reply_buf(out, 200, HTML, &b);
    }
    cJSON_Delete(j);
    return;
  }
  if (!strncmp(p, "/stack/", 7)) {
    char *copy = mp_xstrdup(p + 7);
    mp_stack_ref st;
    const char *rest;
    if (split_stack(copy, &st, &rest) == 0)
      stack_route(src, st, rest, api, arg, arg_ctx, out);
    else
      fail(out, api, 404, "no such page");
    free(copy);
    return;
  }
  fail(out, api, 404, "no such page");
}
