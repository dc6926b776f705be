/* Tests for src/console/'s pure parts: the request gates (guard.c), the
 * escaping of hostile text (escape.c), secret masking (values.c) and the
 * routes that need no store (routes.c). The pages on a real store are
 * tested by tests/cli/t1300-console.sh. */
#include <stdlib.h>
#include <string.h>

#include "console/escape.h"
#include "console/guard.h"
#include "console/model.h"
#include "console/routes.h"
#include "testutil.h"

static void test_host_header(void) {
  CHECK(mp_console_host_ok("127.0.0.1:8080", NULL, 8080));
  CHECK(mp_console_host_ok("localhost:8080", NULL, 8080));
  CHECK(mp_console_host_ok("LOCALHOST", NULL, 8080));
  CHECK(mp_console_host_ok("[::1]:8080", NULL, 8080));
  CHECK(mp_console_host_ok("10.1.2.3:8080", "0.0.0.0", 8080));
  CHECK(mp_console_host_ok("box.lan:8080", "box.lan", 8080));
  /* DNS rebinding: a name that is not ours */
  CHECK(!mp_console_host_ok("evil.example:8080", NULL, 8080));
  CHECK(!mp_console_host_ok("evil.example", NULL, 8080));
  CHECK(!mp_console_host_ok("localhost.evil.example:8080", NULL, 8080));
  /* another port, a broken header, none */
  CHECK(!mp_console_host_ok("localhost:8081", NULL, 8080));
  CHECK(!mp_console_host_ok("localhost:", NULL, 8080));
  CHECK(!mp_console_host_ok("localhost:80x", NULL, 8080));
  CHECK(!mp_console_host_ok("[::1", NULL, 8080));
  CHECK(!mp_console_host_ok("::1", NULL, 8080));
  CHECK(!mp_console_host_ok("", NULL, 8080));
  CHECK(!mp_console_host_ok(NULL, NULL, 8080));
}

static void test_loopback(void) {
  CHECK(mp_console_is_loopback("127.0.0.1"));
  CHECK(mp_console_is_loopback("127.1.2.3"));
  CHECK(mp_console_is_loopback("::1"));
  CHECK(mp_console_is_loopback("::ffff:127.0.0.1"));
  CHECK(mp_console_is_loopback("localhost"));
  CHECK(!mp_console_is_loopback("0.0.0.0"));
  CHECK(!mp_console_is_loopback("::"));
  CHECK(!mp_console_is_loopback("192.168.1.1"));
}

static void test_token(void) {
  char a[65], b[65];
  mp_err err;
  CHECK(mp_console_token_new(a, &err) == 0);
  CHECK(mp_console_token_new(b, &err) == 0);
  CHECK(strlen(a) == 64 && strspn(a, "0123456789abcdef") == 64);
  CHECK(strcmp(a, b) != 0);
  CHECK(mp_console_token_equal(a, a));
  CHECK(!mp_console_token_equal(a, b));
  CHECK(!mp_console_token_equal(a, ""));
  CHECK(!mp_console_token_equal(a, NULL));
}

static void test_escape(void) {
  mp_buf b;
  mp_buf_init(&b);
  mp_html_put(&b, "<script>alert('x')</script>\"&</svg>");
  CHECK_STR(b.data, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;"
                    "&amp;&lt;/svg&gt;");
  mp_buf_reset(&b);
  mp_url_put(&b, "urn:a$b::c d/é?&#");
  CHECK_STR(b.data, "urn%3Aa%24b%3A%3Ac%20d%2F%C3%A9%3F%26%23");
  mp_buf_destroy(&b);
  cJSON *j = cJSON_CreateObject();
  cJSON_AddStringToObject(j, "</script><b>&", "<x>");
  size_t len;
  char *t = mp_json_text(j, &len);
  CHECK_STR(t, "{\"\\u003c/script\\u003e\\u003cb\\u003e\\u0026\":"
               "\"\\u003cx\\u003e\"}\n");
  cJSON *back = cJSON_Parse(t);
  CHECK_STR(
      cJSON_GetObjectItemCaseSensitive(back, "</script><b>&")->valuestring,
      "<x>");
  cJSON_Delete(back);
  free(t);
  cJSON_Delete(j);
}

static void test_secrets_masked(void) {
  mp_value *o = mp_value_new_object();
  mp_value_object_set(o, "pw",
                      mp_value_new_secret(mp_value_new_cstring("hunter2")));
  mp_value *arr = mp_value_new_array();
  mp_value_array_push(
      arr, mp_value_new_output(mp_value_new_cstring("deep2"), 1, NULL));
  mp_value_object_set(o, "list", arr);
  mp_value_object_set(o, "plain", mp_value_new_cstring("ok"));
  cJSON *masked = mp_console_value_json(o, 0),
        *shown = mp_console_value_json(o, 1);
  char *m = cJSON_PrintUnformatted(masked), *s = cJSON_PrintUnformatted(shown);
  CHECK_STR(m,
            "{\"list\":[\"[secret]\"],\"plain\":\"ok\",\"pw\":\"[secret]\"}");
  CHECK_STR(s, "{\"list\":[\"deep2\"],\"plain\":\"ok\",\"pw\":\"hunter2\"}");
  cJSON_free(m);
  cJSON_free(s);
  cJSON_Delete(masked);
  cJSON_Delete(shown);
  mp_value_free(o);
}

static const char *no_args(void *ctx, const char *name) {
  (void)ctx;
  (void)name;
  return NULL;
}

static void test_routes_without_store(void) {
  mp_console_src src;
  memset(&src, 0, sizeof(src));
  mp_reply r;
  mp_console_route(&src, "/static/console.css", no_args, NULL, &r);
  CHECK(r.status == 200 && !strncmp(r.type, "text/css", 8));
  free(r.body);
  mp_console_route(&src, "/nope", no_args, NULL, &r);
  CHECK(r.status == 404 && !strncmp(r.type, "text/html", 9));
  free(r.body);
  mp_console_route(&src, "/api/nope", no_args, NULL, &r);
  CHECK(r.status == 404 && !strcmp(r.type, "application/json"));
  CHECK_CONTAINS(r.body, "\"error\"");
  free(r.body);
  mp_console_route(&src, "/stack/onlyproject", no_args, NULL, &r);
  CHECK(r.status == 404);
  free(r.body);
}

int main(void) {
  RUN(test_host_header);
  RUN(test_loopback);
  RUN(test_token);
  RUN(test_escape);
  RUN(test_secrets_masked);
  RUN(test_routes_without_store);
  return mp_test_summary();
}
