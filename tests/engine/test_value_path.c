/* Tests for src/engine/value_path.c: property paths
 * (docs/behaviour.md, "Property paths"), ignoreChanges
 * (S33) and replaceOnChanges covering (S32). */
#include "engine/value.h"

#include <stdlib.h>

#include "testutil.h"

/* Parses |s|, checks the round-tripped text, and returns the segments'
 * description ("k:a,i:0,*"). */
static void check_parse(const char *s, const char *want_segs,
                        const char *want_fmt) {
  mp_path p;
  mp_err err;
  mp_err_clear(&err);
  int rc = mp_path_parse(s, &p, &err);
  CHECK(rc == 0);
  if (rc != 0) {
    fprintf(stderr, "  parse '%s': %s\n", s, err.msg);
    return;
  }
  mp_buf b;
  mp_buf_init(&b);
  for (size_t i = 0; i < p.len; i++) {
    if (i)
      mp_buf_putc(&b, ',');
    if (p.segs[i].kind == MP_PATH_KEY)
      mp_buf_printf(&b, "k:%s", p.segs[i].key);
    if (p.segs[i].kind == MP_PATH_INDEX)
      mp_buf_printf(&b, "i:%zu", p.segs[i].index);
    if (p.segs[i].kind == MP_PATH_WILDCARD)
      mp_buf_putc(&b, '*');
  }
  CHECK_STR(b.data, want_segs);
  char *f = mp_path_format(&p);
  CHECK_STR(f, want_fmt);
  free(f);
  mp_buf_destroy(&b);
  mp_path_destroy(&p);
}

static void test_value_path_parse_and_format(void) {
  check_parse("a", "k:a", "a");
  check_parse("a.b", "k:a,k:b", "a.b");
  check_parse("a[0]", "k:a,i:0", "a[0]");
  check_parse("a[12].b", "k:a,i:12,k:b", "a[12].b");
  check_parse("a[\"key.with.dots\"]", "k:a,k:key.with.dots",
              "a[\"key.with.dots\"]");
  check_parse("[\"x.y\"].z", "k:x.y,k:z", "[\"x.y\"].z");
  check_parse("a[\"q\\\"uote\"]", "k:a,k:q\"uote", "a[\"q\\\"uote\"]");
  check_parse("a[*]", "k:a,*", "a[*]");
  check_parse("a.*", "k:a,*", "a[*]");
  check_parse("*", "*", "*");
  check_parse("[0][1]", "i:0,i:1", "[0][1]");
  check_parse("f.g[\"h\"]", "k:f,k:g,k:h", "f.g.h");
  check_parse("#initerror", "k:#initerror", "#initerror");
}

static void check_parse_error(const char *s, const char *want) {
  mp_path p;
  mp_err err;
  mp_err_clear(&err);
  CHECK(mp_path_parse(s, &p, &err) == MP_EINVAL);
  CHECK(p.len == 0 && p.segs == NULL);
  CHECK_CONTAINS(err.msg, want);
}

static void test_value_path_parse_errors(void) {
  check_parse_error("", "the path is empty");
  check_parse_error(".a", "invalid property path '.a': a path must start "
                          "with a name or an index at offset 0");
  check_parse_error("a.", "expected a property name after '.' at offset 2");
  check_parse_error("a..b", "expected a property name after '.' at offset 2");
  check_parse_error("a[0", "missing closing bracket in array index at "
                           "offset 1");
  check_parse_error("a[x]", "array index must be a non-negative integer, "
                            "'*' or a quoted name at offset 2");
  check_parse_error("a[-1]", "at offset 2");
  check_parse_error("a[]", "empty array index at offset 2");
  check_parse_error("a[\"b", "missing closing quote in property name at "
                             "offset 1");
  check_parse_error("a[\"b\"x", "missing closing bracket after quoted name");
  check_parse_error("a[0]b", "expected '.' or '[' after ']' at offset 4");
  check_parse_error("a]", "unexpected ']' at offset 1");
}

static mp_value *parse_json(const char *text) {
  mp_value *v = NULL;
  mp_err err;
  mp_err_clear(&err);
  CHECK(mp_value_from_json(text, strlen(text), NULL, &v, &err) == 0);
  if (v == NULL)
    fprintf(stderr, "  json: %s: %s\n", text, err.msg);
  return v;
}

static char *json(const mp_value *v) {
  mp_buf b;
  mp_buf_init(&b);
  CHECK(mp_value_to_json(v, NULL, MP_JSON_SHOW_SECRETS, &b, NULL) == 0);
  return mp_buf_detach(&b, NULL);
}

static void with_path(const char *s, mp_path *p) {
  mp_err err;
  CHECK(mp_path_parse(s, p, &err) == 0);
}

static void test_value_path_get_set_delete(void) {
  mp_value *v = parse_json("{\"a\":{\"b\":[10,{\"c\":1}]},\"x.y\":2}");
  mp_path p;
  with_path("a.b[1].c", &p);
  const mp_value *got = mp_path_get(v, &p);
  CHECK(got && got->kind == MP_VALUE_NUMBER && got->u.number == 1);
  mp_path_destroy(&p);
  with_path("[\"x.y\"]", &p);
  got = mp_path_get(v, &p);
  CHECK(got && got->u.number == 2);
  mp_path_destroy(&p);
  with_path("a.b[5]", &p);
  CHECK(mp_path_get(v, &p) == NULL);
  mp_path_destroy(&p);
  with_path("a.b[*]", &p);
  got = mp_path_get(v, &p);
  CHECK(got && got->u.number == 10); /* wildcard: the first element */
  mp_path_destroy(&p);

  mp_err err;
  with_path("n.m.o", &p);
  CHECK(mp_path_set(v, &p, mp_value_new_cstring("deep"), &err) == 0);
  mp_path_destroy(&p);
  with_path("a.b[2]", &p);
  CHECK(mp_path_set(v, &p, mp_value_new_bool(1), &err) == 0); /* append */
  mp_path_destroy(&p);
  char *t = json(v);
  CHECK_STR(t,
            "{\"a\":{\"b\":[10,{\"c\":1},true]},\"n\":{\"m\":{\"o\":\"deep\"}},"
            "\"x.y\":2}");
  free(t);
  with_path("a.b[9]", &p);
  mp_value *nine = mp_value_new_number(9);
  CHECK(mp_path_set(v, &p, nine, &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "cannot set property path 'a.b[9]': the array "
                          "index is out of range");
  mp_value_free(nine); /* still ours on failure */
  mp_path_destroy(&p);
  with_path("a.*", &p);
  mp_value *w = mp_value_new_null();
  CHECK(mp_path_set(v, &p, w, &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "wildcards cannot be set");
  mp_value_free(w);
  mp_path_destroy(&p);

  with_path("a.b[0]", &p);
  CHECK(mp_path_delete(v, &p) == 1);
  mp_path_destroy(&p);
  with_path("n.*", &p);
  CHECK(mp_path_delete(v, &p) == 1);
  mp_path_destroy(&p);
  with_path("zzz.q", &p);
  CHECK(mp_path_delete(v, &p) == 0);
  mp_path_destroy(&p);
  t = json(v);
  CHECK_STR(t, "{\"a\":{\"b\":[{\"c\":1},true]},\"n\":{},\"x.y\":2}");
  free(t);
  mp_value_free(v);
}

static int covers(const char *pattern, const char *path) {
  mp_path a, b;
  with_path(pattern, &a);
  with_path(path, &b);
  int r = mp_path_covers(&a, &b);
  mp_path_destroy(&a);
  mp_path_destroy(&b);
  return r;
}

static void test_value_path_covers_replace_on_changes(void) {
  CHECK(covers("a", "a"));
  CHECK(covers("a", "a.b"));
  CHECK(covers("a", "a[0]"));
  CHECK(!covers("a", "b"));
  CHECK(covers("b.c", "b.c"));
  CHECK(!covers("b.c", "b"));
  CHECK(!covers("b.c", "b.d"));
  CHECK(covers("*", "a"));
  CHECK(covers("*", "b.c"));
  CHECK(covers("*", "#initerror"));
  CHECK(covers("b[*].c", "b[3].c"));
  CHECK(covers("b.*", "b.anything"));
  CHECK(!covers("b[0]", "b[1]"));
}

/* Applies |paths| (NULL-terminated) to news and checks the resulting JSON
 * and the list of invalid paths. */
static void check_ignore(const char *olds_json, const char *news_json,
                         const char *const *paths, const char *want,
                         const char *want_invalid) {
  mp_value *olds = olds_json ? parse_json(olds_json) : NULL;
  mp_value *news = parse_json(news_json);
  mp_strv pv, invalid;
  mp_strv_init(&pv);
  mp_strv_init(&invalid);
  for (size_t i = 0; paths[i]; i++)
    mp_strv_push(&pv, paths[i]);
  mp_err err;
  mp_err_clear(&err);
  CHECK(mp_value_apply_ignore_changes(olds, news, &pv, &invalid, &err) == 0);
  char *t = json(news);
  CHECK_STR(t, want);
  mp_buf b;
  mp_buf_init(&b);
  mp_buf_puts(&b, "");
  for (size_t i = 0; i < invalid.len; i++)
    mp_buf_printf(&b, "%s%s", i ? "," : "", invalid.items[i]);
  CHECK_STR(b.data, want_invalid);
  mp_buf_destroy(&b);
  free(t);
  mp_strv_destroy(&pv);
  mp_strv_destroy(&invalid);
  mp_value_free(olds);
  mp_value_free(news);
}

#define S33_OLD                                                                \
  "{\"a\":1,\"b\":{\"c\":\"foo\"},\"d\":[1],\"e\":[1],\"f\":{\"g\":{\"h\":"    \
  "\"bar\"}}}"

static void test_value_path_ignore_changes_s33(void) {
  const char *const all[] = {"a", "b.c", "d", "e[0]", "f.g[\"h\"]", NULL};
  /* All ignored values changed: the old values come back. */
  check_ignore(S33_OLD,
               "{\"a\":2,\"b\":{\"c\":\"bar\"},\"d\":[2],\"e\":[2],"
               "\"f\":{\"g\":{\"h\":\"baz\"}}}",
               all, S33_OLD, "");
  /* Removed ignored properties are restored. */
  const char *const top[] = {"a", "b", "d", "e", "f", NULL};
  check_ignore(S33_OLD, "{\"e\":[]}", top, S33_OLD, "");
  /* Added ignored properties the state lacks are dropped; others stay. */
  const char *const added[] = {"a", "b", "d", "e", "f", "g", NULL};
  check_ignore("{\"e\":[1]}",
               "{\"a\":1,\"b\":{\"c\":\"x\"},\"e\":[1],\"g\":3,\"i\":4}", added,
               "{\"e\":[1],\"i\":4}", "");
  /* Nested: the parent is gone from the program but the leaf is restored. */
  const char *const nested[] = {"b.c", NULL};
  check_ignore("{\"b\":{\"c\":\"foo\",\"d\":1}}", "{}", nested,
               "{\"b\":{\"c\":\"foo\"}}", "");
  /* Nested added key absent from old: dropped. */
  check_ignore("{\"b\":{\"d\":1}}", "{\"b\":{\"c\":\"new\",\"d\":2}}", nested,
               "{\"b\":{\"d\":2}}", "");
  /* No olds at all: ignored keys are dropped. */
  const char *const a_only[] = {"a", NULL};
  check_ignore(NULL, "{\"a\":1,\"z\":2}", a_only, "{\"z\":2}", "");
}

static void test_value_path_ignore_changes_wildcards(void) {
  const char *const star[] = {"*", NULL};
  check_ignore("{\"a\":1,\"b\":2}", "{\"a\":5,\"c\":3}", star,
               "{\"a\":1,\"b\":2}", "");
  const char *const tags[] = {"tags.*", NULL};
  check_ignore("{\"tags\":{\"x\":\"1\",\"y\":\"2\"},\"n\":1}",
               "{\"tags\":{\"x\":\"9\",\"z\":\"3\"},\"n\":2}", tags,
               "{\"n\":2,\"tags\":{\"x\":\"1\",\"y\":\"2\"}}", "");
  const char *const arr[] = {"l[*].v", NULL};
  check_ignore("{\"l\":[{\"v\":1,\"w\":1},{\"v\":2}]}",
               "{\"l\":[{\"v\":7,\"w\":5},{\"v\":8}]}", arr,
               "{\"l\":[{\"v\":1,\"w\":5},{\"v\":2}]}", "");
  /* Length mismatch under `*`: invalid, left as sent. */
  check_ignore("{\"l\":[{\"v\":1}]}", "{\"l\":[{\"v\":7},{\"v\":8}]}", arr,
               "{\"l\":[{\"v\":7},{\"v\":8}]}", "l[*].v");
}

static void test_value_path_ignore_changes_invalid(void) {
  /* An index present on one side only: invalid, value left as sent; the
   * valid path in the same list still applies. */
  const char *const paths[] = {"e[1]", "a", NULL};
  check_ignore("{\"a\":1,\"e\":[1]}", "{\"a\":2,\"e\":[1,2]}", paths,
               "{\"a\":1,\"e\":[1,2]}", "e[1]");
  const char *const oldonly[] = {"e[1]", NULL};
  check_ignore("{\"e\":[1,2]}", "{\"e\":[1]}", oldonly, "{\"e\":[1]}", "e[1]");
  /* Index on neither side: nothing to do. */
  check_ignore("{\"e\":[1]}", "{\"e\":[1]}", oldonly, "{\"e\":[1]}", "");
  /* Unparsable path: MP_EINVAL naming the path. */
  mp_value *news = parse_json("{\"a\":1}");
  mp_strv pv;
  mp_strv_init(&pv);
  mp_strv_push(&pv, "a[");
  mp_err err;
  mp_err_clear(&err);
  CHECK(mp_value_apply_ignore_changes(NULL, news, &pv, NULL, &err) ==
        MP_EINVAL);
  CHECK_CONTAINS(err.msg, "invalid ignoreChanges entry: invalid property "
                          "path 'a['");
  mp_strv_destroy(&pv);
  mp_value_free(news);
}

static void test_value_path_ignore_changes_secrets(void) {
  /* The old value, secret wrapper included, is what comes back. */
  mp_value *olds = mp_value_new_object();
  mp_value *inner = mp_value_new_object();
  mp_value_object_set(inner, "c", mp_value_new_number(1));
  mp_value_object_set(olds, "b", mp_value_new_secret(inner));
  mp_value_object_set(olds, "p",
                      mp_value_new_secret(mp_value_new_cstring("o")));
  mp_value *news = parse_json("{\"b\":{\"c\":2,\"d\":3},\"p\":\"n\"}");
  mp_strv pv;
  mp_strv_init(&pv);
  mp_strv_push(&pv, "b.c");
  mp_strv_push(&pv, "p");
  CHECK(mp_value_apply_ignore_changes(olds, news, &pv, NULL, NULL) == 0);
  char *t = json(news);
  CHECK_STR(t, "{\"b\":{\"c\":1,\"d\":3},\"p\":{\"" MP_SIG_KEY
               "\":\"" MP_SIG_SECRET "\",\"plaintext\":\"\\\"o\\\"\"}}");
  free(t);
  mp_strv_destroy(&pv);
  mp_value_free(olds);
  mp_value_free(news);
}

int main(void) {
  RUN(test_value_path_parse_and_format);
  RUN(test_value_path_parse_errors);
  RUN(test_value_path_get_set_delete);
  RUN(test_value_path_covers_replace_on_changes);
  RUN(test_value_path_ignore_changes_s33);
  RUN(test_value_path_ignore_changes_wildcards);
  RUN(test_value_path_ignore_changes_invalid);
  RUN(test_value_path_ignore_changes_secrets);
  return mp_test_summary();
}
