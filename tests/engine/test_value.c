/* Tests for src/engine/value.c and value_diff.c. */
#include "engine/value.h"

#include <math.h>
#include <stdlib.h>

#include "testutil.h"

static mp_value *obj2(const char *k1, mp_value *v1, const char *k2,
                      mp_value *v2) {
  mp_value *o = mp_value_new_object();
  if (k1)
    mp_value_object_set(o, k1, v1);
  if (k2)
    mp_value_object_set(o, k2, v2);
  return o;
}

static void test_value_object_sorted_unique(void) {
  mp_value *o = mp_value_new_object();
  const char *keys[] = {"m", "b", "z", "a", "q", "b"};
  for (size_t i = 0; i < MP_ARRAY_LEN(keys); i++)
    mp_value_object_set(o, keys[i], mp_value_new_number((double)i));
  CHECK(o->u.obj.len == 5);
  for (size_t i = 1; i < o->u.obj.len; i++)
    CHECK(strcmp(o->u.obj.items[i - 1].key, o->u.obj.items[i].key) < 0);
  CHECK(mp_value_object_get(o, "b")->u.number == 5); /* replaced */
  CHECK(mp_value_object_get(o, "nope") == NULL);
  CHECK(mp_value_object_del(o, "m") == 1);
  CHECK(mp_value_object_del(o, "m") == 0);
  mp_value *t = mp_value_object_take(o, "z");
  CHECK(t != NULL && t->u.number == 2);
  mp_value_free(t);
  CHECK(o->u.obj.len == 3);
  CHECK_STR(o->u.obj.items[0].key, "a");
  CHECK_STR(o->u.obj.items[2].key, "q");
  mp_value_free(o);
}

static void test_value_string_with_nul(void) {
  mp_value *s = mp_value_new_string("a\0b", 3);
  mp_value *d = mp_value_dup(s);
  CHECK(d->u.str.len == 3 && memcmp(d->u.str.ptr, "a\0b", 3) == 0);
  mp_value *e = mp_value_new_string("a\0c", 3);
  CHECK(mp_value_equal(s, d, 0));
  CHECK(!mp_value_equal(s, e, 0));
  mp_value_free(s);
  mp_value_free(d);
  mp_value_free(e);
}

static void test_value_secret_collapses(void) {
  mp_value *s =
      mp_value_new_secret(mp_value_new_secret(mp_value_new_cstring("x")));
  CHECK(s->kind == MP_VALUE_SECRET);
  CHECK(s->u.secret->kind == MP_VALUE_STRING);
  mp_value_free(s);
}

static mp_value *every_kind(void) {
  mp_strv deps;
  mp_strv_init(&deps);
  mp_strv_push(&deps, "urn:pulumi:dev::p::t:m:R::a");
  mp_value *o = mp_value_new_object();
  mp_value_object_set(o, "null", mp_value_new_null());
  mp_value_object_set(o, "t", mp_value_new_bool(1));
  mp_value_object_set(o, "f", mp_value_new_bool(0));
  mp_value_object_set(o, "n", mp_value_new_number(-1.5));
  mp_value_object_set(o, "s", mp_value_new_cstring("hi"));
  mp_value *arr = mp_value_new_array();
  mp_value_array_push(arr, mp_value_new_number(1));
  mp_value_array_push(arr, mp_value_new_unknown());
  mp_value_object_set(o, "arr", arr);
  mp_value_object_set(o, "asset", mp_value_new_asset("h1", "text", NULL, NULL));
  mp_value *assets = mp_value_new_object();
  mp_value_object_set(assets, "f.txt",
                      mp_value_new_asset(NULL, NULL, "./f.txt", NULL));
  mp_value_object_set(o, "archive",
                      mp_value_new_archive("h2", assets, NULL, NULL));
  mp_value_object_set(
      o, "ref",
      mp_value_new_ref("urn:pulumi:dev::p::t:m:R::a", "id-1", "1.2.3"));
  mp_value_object_set(
      o, "comp", mp_value_new_ref("urn:pulumi:dev::p::t:m:C::c", NULL, NULL));
  mp_value_object_set(o, "secret",
                      mp_value_new_secret(mp_value_new_cstring("shh")));
  mp_value_object_set(o, "out",
                      mp_value_new_output(mp_value_new_number(3), 1, &deps));
  mp_value_object_set(o, "outu", mp_value_new_output(NULL, 0, NULL));
  mp_strv_destroy(&deps);
  return o;
}

static void test_value_dup_equal_every_kind(void) {
  mp_value *a = every_kind();
  mp_value *b = mp_value_dup(a);
  CHECK(mp_value_equal(a, b, 0));
  CHECK(mp_value_equal(a, b, MP_VALUE_EQ_IGNORE_SECRETS));
  mp_value_object_set(b, "n", mp_value_new_number(2));
  CHECK(!mp_value_equal(a, b, 0));
  mp_value_free(a);
  mp_value_free(b);
}

static void test_value_equal_null_rules(void) {
  mp_value *empty = mp_value_new_object();
  mp_value *null = mp_value_new_null();
  mp_value *one = obj2("a", mp_value_new_number(1), NULL, NULL);
  CHECK(mp_value_equal(NULL, NULL, 0));
  CHECK(mp_value_equal(NULL, empty, 0));
  CHECK(mp_value_equal(empty, NULL, 0));
  CHECK(mp_value_equal(NULL, null, 0));
  CHECK(!mp_value_equal(NULL, one, 0));
  CHECK(!mp_value_equal(one, NULL, 0));
  CHECK(!mp_value_equal(null, empty, 0));
  mp_value *arr = mp_value_new_array();
  CHECK(!mp_value_equal(NULL, arr, 0));
  mp_value_free(arr);
  mp_value_free(empty);
  mp_value_free(null);
  mp_value_free(one);
}

static void test_value_equal_ignore_secrets(void) {
  mp_value *plain = obj2("a", mp_value_new_cstring("x"), "b",
                         obj2("c", mp_value_new_number(1), NULL, NULL));
  mp_value *sec =
      obj2("a", mp_value_new_secret(mp_value_new_cstring("x")), "b",
           mp_value_new_secret(
               obj2("c", mp_value_new_output(mp_value_new_number(1), 1, NULL),
                    NULL, NULL)));
  CHECK(!mp_value_equal(plain, sec, 0));
  CHECK(mp_value_equal(plain, sec, MP_VALUE_EQ_IGNORE_SECRETS));
  CHECK(mp_value_equal(sec, plain, MP_VALUE_EQ_IGNORE_SECRETS));
  /* An unknown output equals UNKNOWN only when outputs are looked through. */
  mp_value *u = mp_value_new_unknown();
  mp_value *uo = mp_value_new_output(NULL, 0, NULL);
  CHECK(!mp_value_equal(u, uo, 0));
  CHECK(mp_value_equal(u, uo, MP_VALUE_EQ_IGNORE_SECRETS));
  /* A secret wrapping a different value is still different. */
  mp_value *other = mp_value_new_secret(mp_value_new_cstring("y"));
  mp_value *x = mp_value_new_cstring("x");
  CHECK(!mp_value_equal(other, x, MP_VALUE_EQ_IGNORE_SECRETS));
  mp_value_free(other);
  mp_value_free(x);
  mp_value_free(u);
  mp_value_free(uo);
  mp_value_free(plain);
  mp_value_free(sec);
}

static void test_value_equal_numbers_and_kinds(void) {
  mp_value *a = mp_value_new_number(NAN), *b = mp_value_new_number(NAN);
  mp_value *one = mp_value_new_number(1), *str1 = mp_value_new_cstring("1");
  mp_value *t = mp_value_new_bool(1);
  CHECK(mp_value_equal(a, b, 0));
  CHECK(!mp_value_equal(one, str1, 0));
  CHECK(!mp_value_equal(one, t, 0));
  mp_value *r1 = mp_value_new_ref("urn:a", NULL, NULL);
  mp_value *r2 = mp_value_new_ref("urn:a", "", NULL);
  CHECK(!mp_value_equal(r1, r2, 0)); /* component vs unknown id */
  mp_value_free(r1);
  mp_value_free(r2);
  mp_value_free(a);
  mp_value_free(b);
  mp_value_free(one);
  mp_value_free(str1);
  mp_value_free(t);
}

static void test_value_contains_and_strip(void) {
  mp_value *v = every_kind();
  CHECK(mp_value_contains_unknowns(v));
  CHECK(mp_value_contains_secrets(v));
  mp_value *s = mp_value_strip_secrets(v);
  CHECK(!mp_value_contains_secrets(s));
  CHECK(mp_value_contains_unknowns(s));
  CHECK(mp_value_object_get(s, "secret")->kind == MP_VALUE_STRING);
  CHECK(mp_value_object_get(s, "out")->kind == MP_VALUE_NUMBER);
  CHECK(mp_value_object_get(s, "outu")->kind == MP_VALUE_UNKNOWN);
  CHECK(mp_value_equal(v, s, MP_VALUE_EQ_IGNORE_SECRETS));
  mp_value *plain = obj2("a", mp_value_new_number(1), NULL, NULL);
  CHECK(!mp_value_contains_unknowns(plain));
  CHECK(!mp_value_contains_secrets(plain));
  CHECK(!mp_value_contains_unknowns(NULL));
  mp_value_free(plain);
  mp_value_free(s);
  mp_value_free(v);
}

static void test_value_kind_names(void) {
  CHECK_STR(mp_value_kind_name(MP_VALUE_STRING), "string");
  CHECK_STR(mp_value_kind_name(MP_VALUE_OBJECT), "object");
  CHECK_STR(mp_value_kind_name(MP_VALUE_OUTPUT), "output");
  CHECK_STR(mp_value_kind_name((mp_value_kind)99), "invalid");
  CHECK_STR(mp_diff_kind_name(MP_DIFF_ADD), "add");
  CHECK_STR(mp_diff_kind_name(MP_DIFF_ADD_REPLACE), "add-replace");
  CHECK_STR(mp_diff_kind_name(MP_DIFF_DELETE), "delete");
  CHECK_STR(mp_diff_kind_name(MP_DIFF_DELETE_REPLACE), "delete-replace");
  CHECK_STR(mp_diff_kind_name(MP_DIFF_UPDATE), "update");
  CHECK_STR(mp_diff_kind_name(MP_DIFF_UPDATE_REPLACE), "update-replace");
}

/* Renders a diff as "path:kind,..." for compact assertions. */
static char *diff_text(const mp_diff *d) {
  mp_buf b;
  mp_buf_init(&b);
  for (size_t i = 0; i < d->len; i++)
    mp_buf_printf(&b, "%s%s:%s", i ? "," : "", d->items[i].path,
                  mp_diff_kind_name(d->items[i].kind));
  return mp_buf_detach(&b, NULL);
}

static char *strv_text(const mp_strv *v) {
  mp_buf b;
  mp_buf_init(&b);
  for (size_t i = 0; i < v->len; i++)
    mp_buf_printf(&b, "%s%s", i ? "," : "", v->items[i]);
  return mp_buf_detach(&b, NULL);
}

static void check_diff(const mp_value *o, const mp_value *n, unsigned flags,
                       const char *want, const char *want_keys) {
  mp_diff d;
  mp_strv keys;
  mp_diff_init(&d);
  mp_strv_init(&keys);
  mp_value_diff(o, n, flags, &d, &keys);
  char *got = diff_text(&d), *gk = strv_text(&keys);
  CHECK_STR(got, want);
  CHECK_STR(gk, want_keys);
  for (size_t i = 0; i < d.len; i++)
    CHECK(d.items[i].input_diff == 1);
  free(got);
  free(gk);
  mp_strv_destroy(&keys);
  mp_diff_destroy(&d);
}

static void test_value_diff_leaves(void) {
  mp_value *olds = mp_value_new_object();
  mp_value_object_set(olds, "a", mp_value_new_number(1));
  mp_value_object_set(
      olds, "b",
      obj2("c", mp_value_new_cstring("foo"), "k", mp_value_new_bool(1)));
  mp_value *d = mp_value_new_array();
  mp_value_array_push(d, mp_value_new_number(1));
  mp_value_array_push(d, mp_value_new_number(2));
  mp_value_object_set(olds, "d", d);
  mp_value_object_set(olds, "gone", mp_value_new_cstring("x"));
  mp_value_object_set(olds, "same", mp_value_new_cstring("s"));
  mp_value_object_set(olds, "x.y", mp_value_new_number(1));

  mp_value *news = mp_value_dup(olds);
  mp_value_object_set(news, "a", mp_value_new_number(2));
  mp_value_object_set(mp_value_object_get(news, "b"), "c",
                      mp_value_new_cstring("bar"));
  mp_value *nd = mp_value_object_get(news, "d");
  mp_value_array_push(nd, mp_value_new_number(3));
  mp_value_free(nd->u.arr.items[0]);
  nd->u.arr.items[0] = mp_value_new_number(9);
  mp_value_object_del(news, "gone");
  mp_value_object_set(news, "new", mp_value_new_cstring("n"));
  mp_value_object_set(news, "x.y", mp_value_new_number(2));

  check_diff(olds, news, 0,
             "[\"x.y\"]:update,a:update,b.c:update,d[0]:update,d[2]:add,"
             "gone:delete,new:add",
             "a,b,d,gone,new,x.y");
  check_diff(NULL, olds, 0, "[\"x.y\"]:add,a:add,b:add,d:add,gone:add,same:add",
             "a,b,d,gone,same,x.y");
  check_diff(olds, NULL, 0,
             "[\"x.y\"]:delete,a:delete,b:delete,d:delete,gone:delete,"
             "same:delete",
             "a,b,d,gone,same,x.y");
  check_diff(olds, olds, 0, "", "");
  mp_value_free(olds);
  mp_value_free(news);
}

static void test_value_diff_secrets_and_nulls(void) {
  mp_value *olds =
      obj2("p", mp_value_new_cstring("pw"), "z", mp_value_new_null());
  mp_value *news =
      obj2("p", mp_value_new_secret(mp_value_new_cstring("pw")), NULL, NULL);
  /* Null vs missing is no change; the secret wrapper is one unless ignored. */
  check_diff(olds, news, 0, "p:update", "p");
  check_diff(olds, news, MP_VALUE_EQ_IGNORE_SECRETS, "", "");
  /* Inside two secrets the changed leaf is still named. */
  mp_value *o2 = obj2(
      "s", mp_value_new_secret(obj2("k", mp_value_new_number(1), NULL, NULL)),
      NULL, NULL);
  mp_value *n2 = obj2(
      "s", mp_value_new_secret(obj2("k", mp_value_new_number(2), NULL, NULL)),
      NULL, NULL);
  check_diff(o2, n2, 0, "s.k:update", "s");
  /* An unknown new value is an update. */
  mp_value *n3 = obj2("p", mp_value_new_unknown(), NULL, NULL);
  check_diff(olds, n3, 0, "p:update", "p");
  mp_value_free(n3);
  mp_value_free(o2);
  mp_value_free(n2);
  mp_value_free(olds);
  mp_value_free(news);
}

static void test_value_diff_add_keeps_sorted_unique(void) {
  mp_diff d;
  mp_diff_init(&d);
  mp_diff_add(&d, "b", MP_DIFF_UPDATE, 0);
  mp_diff_add(&d, "a", MP_DIFF_ADD, 1);
  mp_diff_add(&d, "c", MP_DIFF_DELETE, 0);
  mp_diff_add(&d, "b", MP_DIFF_UPDATE_REPLACE, 1);
  char *t = diff_text(&d);
  CHECK_STR(t, "a:add,b:update-replace,c:delete");
  CHECK(d.items[1].input_diff == 1);
  free(t);
  mp_diff_destroy(&d);
  CHECK(d.len == 0 && d.items == NULL);
}

int main(void) {
  RUN(test_value_object_sorted_unique);
  RUN(test_value_string_with_nul);
  RUN(test_value_secret_collapses);
  RUN(test_value_dup_equal_every_kind);
  RUN(test_value_equal_null_rules);
  RUN(test_value_equal_ignore_secrets);
  RUN(test_value_equal_numbers_and_kinds);
  RUN(test_value_contains_and_strip);
  RUN(test_value_kind_names);
  RUN(test_value_diff_leaves);
  RUN(test_value_diff_secrets_and_nulls);
  RUN(test_value_diff_add_keeps_sorted_unique);
  return mp_test_summary();
}
