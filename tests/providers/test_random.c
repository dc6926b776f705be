/* Tests of the built-in `random` provider (src/providers/random*.c),
 * called directly through its method table. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/crypto.h"
#include "providers/prov_test.h"

#define T_STRING "random:index/randomString:RandomString"
#define T_PASSWORD "random:index/randomPassword:RandomPassword"
#define T_INTEGER "random:index/randomInteger:RandomInteger"
#define T_PET "random:index/randomPet:RandomPet"
#define T_ID "random:index/randomId:RandomId"
#define T_UUID "random:index/randomUuid:RandomUuid"
#define SPECIAL "!@#$%&*()-_=+[]{}<>:?"

/* Runs Check then Create of |type| with |json| inputs. On success returns
 * 0 and the outputs/id in |r|; |checked| receives the checked inputs. */
static int check_create(mp_provider *p, const char *type, const char *json,
                        int preview, mp_prov_resp *r, mp_err *e) {
  mp_prov_resp c;
  mp_prov_req q;
  mp_value *news = J(json);
  int rc;
  memset(&q, 0, sizeof(q));
  q.type = type;
  q.urn = "urn:pulumi:dev::proj::"
          "x::r";
  q.news = news;
  mp_prov_resp_init(&c);
  rc = call(p, OP_CHECK, &q, &c, e);
  if (rc == 0 && c.nfailures > 0) {
    snprintf(e->msg, sizeof(e->msg), "check failure: %s: %s",
             c.failures[0].property ? c.failures[0].property : "",
             c.failures[0].reason);
    rc = -100;
  }
  if (rc == 0) {
    q.news = c.inputs;
    q.preview = preview;
    rc = call(p, OP_CREATE, &q, r, e);
  }
  mp_prov_resp_destroy(&c);
  mp_value_free(news);
  return rc;
}

static size_t count_in(const char *s, const char *set) {
  size_t n = 0;
  for (; *s; s++)
    if (strchr(set, *s) != NULL)
      n++;
  return n;
}

static void test_random_string_defaults(void) {
  mp_provider *p = prov_make("random");
  mp_prov_resp c, r;
  mp_prov_req q;
  mp_err e;
  const char *res;
  mp_value *news = J("{\"length\":32}");
  memset(&q, 0, sizeof(q));
  q.type = T_STRING;
  q.news = news;
  mp_prov_resp_init(&c);
  CHECK(call(p, OP_CHECK, &q, &c, &e) == 0);
  CHECK(c.nfailures == 0);
  /* Check fills the defaults the real provider fills. */
  CHECK(get(c.inputs, "special")->u.boolean == 1);
  CHECK(get(c.inputs, "upper")->u.boolean == 1);
  CHECK(get(c.inputs, "lower")->u.boolean == 1);
  CHECK(get(c.inputs, "numeric")->u.boolean == 1);
  CHECK(get(c.inputs, "minSpecial")->u.number == 0);
  CHECK(get(c.inputs, "minUpper")->u.number == 0);
  mp_prov_resp_init(&r);
  q.news = c.inputs;
  CHECK(call(p, OP_CREATE, &q, &r, &e) == 0);
  res = get_str(r.outputs, "result");
  CHECK(res != NULL && strlen(res) == 32);
  CHECK_STR(r.id, res);
  CHECK(count_in(res, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                      "0123456789" SPECIAL) == 32);
  /* Outputs carry the inputs too. */
  CHECK(get(r.outputs, "length")->u.number == 32);
  CHECK(get(r.outputs, "special") != NULL);
  mp_prov_resp_destroy(&r);
  mp_prov_resp_destroy(&c);
  mp_value_free(news);
  mp_provider_free(p);
}

static void test_random_string_classes_and_mins(void) {
  mp_provider *p = prov_make("random");
  mp_prov_resp r;
  mp_err e;
  int i;
  const char *res;
  mp_prov_resp_init(&r);
  CHECK(check_create(p, T_STRING,
                     "{\"length\":40,\"upper\":false,\"lower\":false,"
                     "\"special\":false}",
                     0, &r, &e) == 0);
  res = get_str(r.outputs, "result");
  CHECK(res && strlen(res) == 40 && count_in(res, "0123456789") == 40);
  mp_prov_resp_destroy(&r);
  for (i = 0; i < 20; i++) {
    mp_prov_resp_init(&r);
    CHECK(check_create(p, T_STRING,
                       "{\"length\":20,\"minUpper\":5,\"minLower\":5,"
                       "\"minNumeric\":5,\"minSpecial\":5,"
                       "\"overrideSpecial\":\"#\"}",
                       0, &r, &e) == 0);
    res = get_str(r.outputs, "result");
    CHECK(res && strlen(res) == 20);
    CHECK(count_in(res, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == 5);
    CHECK(count_in(res, "abcdefghijklmnopqrstuvwxyz") == 5);
    CHECK(count_in(res, "0123456789") == 5);
    CHECK(count_in(res, "#") == 5);
    mp_prov_resp_destroy(&r);
  }
  /* Multi-byte special characters are drawn whole. */
  mp_prov_resp_init(&r);
  CHECK(check_create(p, T_STRING,
                     "{\"length\":6,\"upper\":false,\"lower\":false,"
                     "\"numeric\":false,\"overrideSpecial\":\"\xc2\xa3\"}",
                     0, &r, &e) == 0);
  CHECK_STR(get_str(r.outputs, "result"),
            "\xc2\xa3\xc2\xa3\xc2\xa3\xc2\xa3\xc2\xa3\xc2\xa3");
  mp_prov_resp_destroy(&r);
  /* Two strings differ (CSPRNG). */
  {
    char *a;
    mp_prov_resp_init(&r);
    CHECK(check_create(p, T_STRING, "{\"length\":24}", 0, &r, &e) == 0);
    a = mp_xstrdup(get_str(r.outputs, "result"));
    mp_prov_resp_destroy(&r);
    mp_prov_resp_init(&r);
    CHECK(check_create(p, T_STRING, "{\"length\":24}", 0, &r, &e) == 0);
    CHECK(strcmp(a, get_str(r.outputs, "result")) != 0);
    mp_prov_resp_destroy(&r);
    free(a);
  }
  mp_provider_free(p);
}

static void expect_failure(mp_provider *p, const char *type, const char *json,
                           const char *prop, const char *reason) {
  mp_prov_resp c;
  mp_prov_req q;
  mp_err e;
  mp_value *news = J(json);
  memset(&q, 0, sizeof(q));
  q.type = type;
  q.news = news;
  mp_prov_resp_init(&c);
  CHECK(call(p, OP_CHECK, &q, &c, &e) == 0);
  if (!has_failure(&c, prop, reason))
    fprintf(stderr, "  no failure %s: %s for %s\n", prop ? prop : "-", reason,
            json);
  CHECK(has_failure(&c, prop, reason));
  mp_prov_resp_destroy(&c);
  mp_value_free(news);
}

static void test_random_check_failures(void) {
  mp_provider *p = prov_make("random");
  mp_prov_resp r;
  mp_prov_req q;
  mp_err e;
  mp_value *bad;
  expect_failure(p, T_STRING, "{}", "length", "missing required property");
  expect_failure(p, T_STRING, "{\"length\":0}", "length", "at least 1");
  expect_failure(p, T_STRING, "{\"length\":2.5}", "length", "whole number");
  expect_failure(p, T_STRING, "{\"length\":\"8\"}", "length",
                 "expected a number, got a string");
  expect_failure(p, T_STRING, "{\"length\":3,\"minUpper\":2,\"minLower\":2}",
                 "length", "at least the sum of minUpper");
  expect_failure(p, T_STRING, "{\"length\":3,\"minUpper\":-1}", "minUpper",
                 "between 0");
  expect_failure(p, T_PASSWORD,
                 "{\"length\":3,\"upper\":false,\"lower\":false,"
                 "\"numeric\":false,\"special\":false}",
                 NULL, "at least one of upper, lower, numeric and special");
  expect_failure(p, T_STRING, "{\"length\":3,\"special\":\"yes\"}", "special",
                 "expected a bool");
  expect_failure(p, T_INTEGER, "{\"min\":5}", "max", "missing required");
  expect_failure(p, T_INTEGER, "{\"min\":5,\"max\":4}", "max",
                 "greater than or equal to min");
  expect_failure(p, T_ID, "{}", "byteLength", "missing required");
  expect_failure(p, T_ID, "{\"byteLength\":0}", "byteLength", "between 1");
  expect_failure(p, T_PET, "{\"length\":0}", "length", "between 1 and 64");
  expect_failure(p, T_UUID, "{\"keepers\":3}", "keepers", "expected an object");
  /* Unknown values are accepted in Check (preview). */
  {
    mp_prov_resp c;
    mp_value *news = J("{\"length\":\"" MP_UNKNOWN_SENTINEL "\"}");
    memset(&q, 0, sizeof(q));
    q.type = T_STRING;
    q.news = news;
    mp_prov_resp_init(&c);
    CHECK(call(p, OP_CHECK, &q, &c, &e) == 0 && c.nfailures == 0);
    mp_prov_resp_destroy(&c);
    mp_value_free(news);
  }
  /* Create re-validates: bad inputs are an error naming the property. */
  bad = J("{\"length\":0}");
  memset(&q, 0, sizeof(q));
  q.type = T_STRING;
  q.urn = "urn:pulumi:dev::p::random:index/randomString:RandomString::s";
  q.news = bad;
  mp_prov_resp_init(&r);
  CHECK(call(p, OP_CREATE, &q, &r, &e) == MP_EINVAL);
  CHECK_CONTAINS(e.msg, "'length': must be at least 1");
  CHECK_CONTAINS(e.msg, "cannot create 'urn:pulumi:dev::p::");
  CHECK(r.id == NULL && r.outputs == NULL);
  mp_prov_resp_destroy(&r);
  mp_value_free(bad);
  /* An unknown type. */
  q.type = "random:index/randomThing:RandomThing";
  q.news = NULL;
  mp_prov_resp_init(&r);
  CHECK(call(p, OP_CHECK, &q, &r, &e) == MP_EINVAL);
  CHECK_CONTAINS(e.msg, "unknown resource type "
                        "'random:index/randomThing:RandomThing'");
  mp_prov_resp_destroy(&r);
  mp_provider_free(p);
}

static void test_random_password_secret(void) {
  mp_provider *p = prov_make("random");
  mp_prov_resp r;
  mp_err e;
  const mp_value *res;
  mp_prov_resp_init(&r);
  CHECK(check_create(p, T_PASSWORD, "{\"length\":16,\"special\":false}", 0, &r,
                     &e) == 0);
  res = get(r.outputs, "result");
  CHECK(res != NULL && res->kind == MP_VALUE_SECRET);
  CHECK(res && res->u.secret->kind == MP_VALUE_STRING &&
        strlen(res->u.secret->u.str.ptr) == 16 &&
        count_in(res->u.secret->u.str.ptr, SPECIAL) == 0);
  CHECK_STR(r.id, "none");
  mp_prov_resp_destroy(&r);
  /* Preview: the result is an unknown, still secret; no id. */
  mp_prov_resp_init(&r);
  CHECK(check_create(p, T_PASSWORD, "{\"length\":16}", 1, &r, &e) == 0);
  res = get(r.outputs, "result");
  CHECK(res && res->kind == MP_VALUE_SECRET &&
        res->u.secret->kind == MP_VALUE_UNKNOWN);
  CHECK(r.id == NULL);
  CHECK(get(r.outputs, "length")->u.number == 16);
  mp_prov_resp_destroy(&r);
  mp_provider_free(p);
}

static void test_random_integer_range_and_seed(void) {
  mp_provider *p = prov_make("random");
  mp_prov_resp r;
  mp_err e;
  int seen[7] = {0}, i, distinct = 0;
  double first = 0;
  char buf[32];
  for (i = 0; i < 200; i++) {
    double v;
    mp_prov_resp_init(&r);
    CHECK(check_create(p, T_INTEGER, "{\"min\":1,\"max\":6}", 0, &r, &e) == 0);
    v = get(r.outputs, "result")->u.number;
    CHECK(v >= 1 && v <= 6 && v == (int)v);
    if (v >= 1 && v <= 6)
      seen[(int)v] = 1;
    snprintf(buf, sizeof(buf), "%d", (int)v);
    CHECK_STR(r.id, buf);
    mp_prov_resp_destroy(&r);
  }
  for (i = 1; i <= 6; i++)
    distinct += seen[i];
  CHECK(distinct == 6);
  /* Negative ranges and a single-value range. */
  mp_prov_resp_init(&r);
  CHECK(check_create(p, T_INTEGER, "{\"min\":-5,\"max\":-5}", 0, &r, &e) == 0);
  CHECK(get(r.outputs, "result")->u.number == -5);
  CHECK_STR(r.id, "-5");
  mp_prov_resp_destroy(&r);
  /* The same seed gives the same number. */
  for (i = 0; i < 5; i++) {
    double v;
    mp_prov_resp_init(&r);
    CHECK(check_create(p, T_INTEGER,
                       "{\"min\":0,\"max\":1000000,\"seed\":\"abc\"}", 0, &r,
                       &e) == 0);
    v = get(r.outputs, "result")->u.number;
    if (i == 0)
      first = v;
    CHECK(v == first);
    mp_prov_resp_destroy(&r);
  }
  mp_prov_resp_init(&r);
  CHECK(check_create(p, T_INTEGER,
                     "{\"min\":0,\"max\":1000000,\"seed\":\"abd\"}", 0, &r,
                     &e) == 0);
  CHECK(get(r.outputs, "result")->u.number != first);
  mp_prov_resp_destroy(&r);
  mp_provider_free(p);
}

static size_t count_char(const char *s, char c) {
  size_t n = 0;
  for (; *s; s++)
    n += *s == c;
  return n;
}

static void test_random_pet_shape(void) {
  mp_provider *p = prov_make("random");
  mp_prov_resp r;
  mp_err e;
  const char *s;
  mp_prov_resp_init(&r);
  CHECK(check_create(p, T_PET, "{}", 0, &r, &e) == 0);
  CHECK(r.id && count_char(r.id, '-') == 1);
  CHECK(get(r.outputs, "length")->u.number == 2);
  CHECK_STR(get_str(r.outputs, "separator"), "-");
  for (s = r.id ? r.id : ""; *s; s++)
    CHECK(islower((unsigned char)*s) || *s == '-');
  mp_prov_resp_destroy(&r);
  mp_prov_resp_init(&r);
  CHECK(check_create(p, T_PET,
                     "{\"length\":4,\"separator\":\"_\",\"prefix\":\"dev\"}", 0,
                     &r, &e) == 0);
  CHECK(r.id && strncmp(r.id, "dev_", 4) == 0 && count_char(r.id, '_') == 4);
  mp_prov_resp_destroy(&r);
  mp_prov_resp_init(&r);
  CHECK(check_create(p, T_PET, "{\"length\":1}", 0, &r, &e) == 0);
  CHECK(r.id && count_char(r.id, '-') == 0 && strlen(r.id) > 1);
  mp_prov_resp_destroy(&r);
  mp_provider_free(p);
}

static void test_random_id_forms(void) {
  mp_provider *p = prov_make("random");
  mp_prov_resp r;
  mp_err e;
  const char *hex, *url, *std, *dec;
  mp_buf raw;
  char rehex[64];
  size_t i;
  mp_prov_resp_init(&r);
  CHECK(check_create(p, T_ID, "{\"byteLength\":8}", 0, &r, &e) == 0);
  hex = get_str(r.outputs, "hex");
  url = get_str(r.outputs, "b64Url");
  std = get_str(r.outputs, "b64Std");
  dec = get_str(r.outputs, "dec");
  CHECK(hex && strlen(hex) == 16);
  CHECK(url && strlen(url) == 11 && !strchr(url, '=') && !strchr(url, '+') &&
        !strchr(url, '/'));
  CHECK(std && strlen(std) == 12 && std[11] == '=');
  CHECK_STR(r.id, url);
  /* All four forms encode the same bytes. */
  if (hex && dec)
    CHECK(strtoull(hex, NULL, 16) == strtoull(dec, NULL, 10));
  mp_buf_init(&raw);
  CHECK(std && mp_base64_decode(std, strlen(std), &raw, &e) == 0 &&
        raw.len == 8);
  for (i = 0; i < raw.len; i++)
    snprintf(rehex + 2 * i, 3, "%02x", (unsigned char)raw.data[i]);
  CHECK_STR(rehex, hex);
  mp_buf_destroy(&raw);
  mp_prov_resp_destroy(&r);
  /* A prefix leads every form but the id. */
  mp_prov_resp_init(&r);
  CHECK(check_create(p, T_ID, "{\"byteLength\":2,\"prefix\":\"p-\"}", 0, &r,
                     &e) == 0);
  CHECK(strncmp(get_str(r.outputs, "hex"), "p-", 2) == 0 &&
        strlen(get_str(r.outputs, "hex")) == 6);
  CHECK(strncmp(get_str(r.outputs, "dec"), "p-", 2) == 0);
  CHECK(strncmp(get_str(r.outputs, "b64Std"), "p-", 2) == 0);
  CHECK(r.id && strncmp(r.id, "p-", 2) != 0 && strlen(r.id) == 3);
  CHECK_STR(get_str(r.outputs, "b64Url") + 2, r.id);
  mp_prov_resp_destroy(&r);
  /* A 20-byte id: the decimal form is a big number. */
  mp_prov_resp_init(&r);
  CHECK(check_create(p, T_ID, "{\"byteLength\":20}", 0, &r, &e) == 0);
  dec = get_str(r.outputs, "dec");
  CHECK(dec && strlen(dec) >= 2 && strlen(dec) <= 49 &&
        strspn(dec, "0123456789") == strlen(dec));
  mp_prov_resp_destroy(&r);
  /* Preview: results unknown. */
  mp_prov_resp_init(&r);
  CHECK(check_create(p, T_ID, "{\"byteLength\":4}", 1, &r, &e) == 0);
  CHECK(get(r.outputs, "hex")->kind == MP_VALUE_UNKNOWN);
  CHECK(get(r.outputs, "dec")->kind == MP_VALUE_UNKNOWN);
  mp_prov_resp_destroy(&r);
  mp_provider_free(p);
}

static void test_random_uuid_format(void) {
  mp_provider *p = prov_make("random");
  mp_prov_resp r;
  mp_err e;
  char first[40] = "";
  int k;
  for (k = 0; k < 2; k++) {
    const char *u;
    size_t i;
    mp_prov_resp_init(&r);
    CHECK(check_create(p, T_UUID, "{\"keepers\":{\"a\":\"b\"}}", 0, &r, &e) ==
          0);
    u = get_str(r.outputs, "result");
    CHECK(u && strlen(u) == 36);
    for (i = 0; u && i < 36; i++) {
      if (i == 8 || i == 13 || i == 18 || i == 23)
        CHECK(u[i] == '-');
      else
        CHECK(strchr("0123456789abcdef", u[i]) != NULL);
    }
    CHECK(u && u[14] == '4' && strchr("89ab", u[19]) != NULL);
    CHECK_STR(r.id, u);
    CHECK_STR(get_str(get(r.outputs, "keepers"), "a"), "b");
    if (k == 0 && u)
      snprintf(first, sizeof(first), "%s", u);
    if (k == 1)
      CHECK(u && strcmp(first, u) != 0);
    mp_prov_resp_destroy(&r);
  }
  mp_provider_free(p);
}

/* RandomShuffle: a permutation of the inputs, resultCount long; the same
 * every time for a seed; more than the inputs repeats each no more than
 * the others by one round. RandomUuid7: version 7, time first. */
static void test_random_shuffle_and_uuid7(void) {
  mp_provider *p = prov_make("random");
  mp_prov_resp r;
  mp_err e;
  mp_buf first;
  mp_buf_init(&first);
  for (int k = 0; k < 2; k++) {
    mp_prov_resp_init(&r);
    CHECK(check_create(p, "random:index/randomShuffle:RandomShuffle",
                       "{\"inputs\":[\"a\",\"b\",\"c\",\"d\"],\"seed\":\"s\"}", 0,
                       &r, &e) == 0);
    const mp_value *res = get(r.outputs, "results");
    CHECK(res && res->kind == MP_VALUE_ARRAY && res->u.arr.len == 4);
    int seen[4] = {0};
    for (size_t i = 0; res && i < res->u.arr.len; i++)
      seen[res->u.arr.items[i]->u.str.ptr[0] - 'a']++;
    CHECK(seen[0] == 1 && seen[1] == 1 && seen[2] == 1 && seen[3] == 1);
    CHECK_STR(r.id, "-");
    mp_buf b;
    mp_buf_init(&b);
    CHECK(mp_value_to_json(res, NULL, 0, &b, NULL) == 0);
    if (k == 0) mp_buf_append(&first, b.data, b.len);
    else CHECK(b.len == first.len && memcmp(b.data, first.data, b.len) == 0);
    mp_buf_destroy(&b);
    mp_prov_resp_destroy(&r);
  }
  mp_buf_destroy(&first);
  mp_prov_resp_init(&r);
  CHECK(check_create(p, "random:index/randomShuffle:RandomShuffle",
                     "{\"inputs\":[\"a\",\"b\"],\"resultCount\":5}", 0, &r, &e) == 0);
  const mp_value *res = get(r.outputs, "results");
  CHECK(res && res->u.arr.len == 5);
  int as = 0;
  for (size_t i = 0; res && i < res->u.arr.len; i++)
    as += res->u.arr.items[i]->u.str.ptr[0] == 'a';
  CHECK(as == 2 || as == 3);
  mp_prov_resp_destroy(&r);
  mp_prov_resp_init(&r);
  CHECK(check_create(p, "random:index/randomUuid7:RandomUuid7", "{}", 0, &r, &e) == 0);
  const char *u = get_str(r.outputs, "result");
  CHECK(u && strlen(u) == 36 && u[14] == '7' && strchr("89ab", u[19]) != NULL);
  /* the first 48 bits: this millisecond's Unix time, give or take a minute */
  char ms_hex[13];
  if (u) {
    memcpy(ms_hex, u, 8);
    memcpy(ms_hex + 8, u + 9, 4);
    ms_hex[12] = '\0';
    long long ms = strtoll(ms_hex, NULL, 16);
    long long now = (long long)time(NULL) * 1000;
    CHECK(ms > now - 60000 && ms < now + 60000);
  }
  mp_prov_resp_destroy(&r);
  mp_provider_free(p);
}

static void test_random_diff_replaces(void) {
  mp_provider *p = prov_make("random");
  mp_prov_resp c, r, d;
  mp_prov_req q;
  mp_err e;
  mp_value *news;
  mp_prov_resp_init(&r);
  CHECK(check_create(p, T_STRING, "{\"length\":8,\"keepers\":{\"k\":1}}", 0, &r,
                     &e) == 0);
  /* Unchanged inputs: no change, whether old inputs are given or not. */
  news = J("{\"length\":8,\"keepers\":{\"k\":1}}");
  memset(&q, 0, sizeof(q));
  q.type = T_STRING;
  q.news = news;
  mp_prov_resp_init(&c);
  CHECK(call(p, OP_CHECK, &q, &c, &e) == 0);
  q.news = c.inputs;
  q.olds = r.outputs;
  mp_prov_resp_init(&d);
  CHECK(call(p, OP_DIFF, &q, &d, &e) == 0);
  CHECK(d.changes == MP_DIFF_CHANGES_NONE && d.replaces.len == 0);
  mp_prov_resp_destroy(&d);
  mp_prov_resp_destroy(&c);
  mp_value_free(news);
  /* A keepers change replaces. */
  news = J("{\"length\":8,\"keepers\":{\"k\":2}}");
  q.news = news;
  mp_prov_resp_init(&c);
  CHECK(call(p, OP_CHECK, &q, &c, &e) == 0);
  q.news = c.inputs;
  mp_prov_resp_init(&d);
  CHECK(call(p, OP_DIFF, &q, &d, &e) == 0);
  CHECK(d.changes == MP_DIFF_CHANGES_SOME);
  CHECK(d.replaces.len == 1 && strcmp(d.replaces.items[0], "keepers") == 0);
  mp_prov_resp_destroy(&d);
  mp_prov_resp_destroy(&c);
  mp_value_free(news);
  /* A length change against old inputs replaces on `length`. */
  news = J("{\"length\":9,\"keepers\":{\"k\":1}}");
  q.news = news;
  mp_prov_resp_init(&c);
  CHECK(call(p, OP_CHECK, &q, &c, &e) == 0);
  {
    mp_value *old_in = mp_value_dup(r.outputs);
    mp_value_object_del(old_in, "result");
    q.news = c.inputs;
    q.old_inputs = old_in;
    mp_prov_resp_init(&d);
    CHECK(call(p, OP_DIFF, &q, &d, &e) == 0);
    CHECK(d.changes == MP_DIFF_CHANGES_SOME);
    CHECK(d.replaces.len == 1 && strcmp(d.replaces.items[0], "length") == 0);
    mp_prov_resp_destroy(&d);
    mp_value_free(old_in);
  }
  mp_prov_resp_destroy(&c);
  mp_value_free(news);
  mp_prov_resp_destroy(&r);
  mp_provider_free(p);
}

static void test_random_plugin_info(void) {
  mp_provider *p = prov_make("random");
  mp_provider *v = NULL;
  mp_prov_resp r;
  mp_prov_req q;
  mp_err e;
  memset(&q, 0, sizeof(q));
  mp_prov_resp_init(&r);
  CHECK(call(p, OP_INFO, &q, &r, &e) == 0);
  CHECK_STR(r.version, "0.1.0");
  CHECK_STR(p->pkg, "random");
  mp_prov_resp_destroy(&r);
  mp_provider_factory f = mp_builtin_providers(NULL);
  CHECK(f.make(f.ud, "random", "4.18.0", &v, &e) == 0);
  mp_prov_resp_init(&r);
  CHECK(call(v, OP_INFO, &q, &r, &e) == 0);
  CHECK_STR(r.version, "4.18.0");
  mp_prov_resp_destroy(&r);
  mp_provider *none = NULL;
  CHECK(f.make(f.ud, "aws", NULL, &none, &e) == MP_ENOENT);
  CHECK(none == NULL);
  CHECK_CONTAINS(e.msg, "no resource plugin 'pulumi-resource-aws' found");
  CHECK(f.make(f.ud, NULL, NULL, &none, &e) == MP_ENOENT);
  mp_provider_free(v);
  mp_provider_free(p);
  mp_provider_free(NULL);
}

int main(void) {
  RUN(test_random_string_defaults);
  RUN(test_random_string_classes_and_mins);
  RUN(test_random_check_failures);
  RUN(test_random_password_secret);
  RUN(test_random_integer_range_and_seed);
  RUN(test_random_pet_shape);
  RUN(test_random_id_forms);
  RUN(test_random_uuid_format);
  RUN(test_random_shuffle_and_uuid7);
  RUN(test_random_diff_replaces);
  RUN(test_random_plugin_info);
  return mp_test_summary();
}
