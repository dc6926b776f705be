/* Tests for src/engine/value_json.c: the checkpoint encoding
 * (docs/behaviour.md, "The checkpoint"). */
#include "engine/value.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>

#include "engine/value_json_int.h"
#include "testutil.h"

#define SECRET_HEAD "{\"" MP_SIG_KEY "\":\"" MP_SIG_SECRET "\","

/* A toy crypter: ciphertext = "rev:" + the reversed plaintext. */
static int rev_encrypt(void *ctx, const char *plain, size_t len, mp_buf *out,
                       mp_err *err) {
  int *calls = ctx;
  (void)err;
  (*calls)++;
  mp_buf_puts(out, "rev:");
  for (size_t i = len; i > 0; i--)
    mp_buf_putc(out, plain[i - 1]);
  return 0;
}

static int rev_decrypt(void *ctx, const char *cipher, size_t len, mp_buf *out,
                       mp_err *err) {
  (void)ctx;
  if (len < 4 || strncmp(cipher, "rev:", 4) != 0)
    return mp_err_set(err, MP_EINVAL, "bad ciphertext");
  for (size_t i = len; i > 4; i--)
    mp_buf_putc(out, cipher[i - 1]);
  return 0;
}

static char *to_json(const mp_value *v, const mp_crypter *c, unsigned flags) {
  mp_buf b;
  mp_err err;
  mp_buf_init(&b);
  mp_err_clear(&err);
  int rc = mp_value_to_json(v, c, flags, &b, &err);
  CHECK(rc == 0);
  if (rc != 0)
    fprintf(stderr, "  error: %s\n", err.msg);
  return mp_buf_detach(&b, NULL);
}

static mp_value *from_json(const char *text, const mp_crypter *c) {
  mp_value *v = NULL;
  mp_err err;
  mp_err_clear(&err);
  int rc = mp_value_from_json(text, strlen(text), c, &v, &err);
  CHECK(rc == 0);
  if (rc != 0)
    fprintf(stderr, "  error: %s\n  text: %s\n", err.msg, text);
  return v;
}

/* Encodes, checks the text, decodes and checks equality with |v|. */
static void round_trip(mp_value *v, const mp_crypter *c, unsigned flags,
                       const char *want) {
  char *text = to_json(v, c, flags);
  if (want)
    CHECK_STR(text, want);
  mp_value *back = from_json(text, c);
  CHECK(back != NULL && mp_value_equal(v, back, 0));
  mp_value_free(back);
  mp_value_free(v);
  free(text);
}

static void test_value_json_plain_kinds(void) {
  round_trip(mp_value_new_null(), NULL, 0, "null");
  round_trip(mp_value_new_bool(1), NULL, 0, "true");
  round_trip(mp_value_new_bool(0), NULL, 0, "false");
  round_trip(mp_value_new_number(1), NULL, 0, "1");
  round_trip(mp_value_new_number(-42), NULL, 0, "-42");
  round_trip(mp_value_new_number(1.5), NULL, 0, "1.5");
  round_trip(mp_value_new_number(0.1), NULL, 0, "0.1");
  round_trip(mp_value_new_number(9007199254740993.0), NULL, 0,
             "9007199254740992");
  round_trip(mp_value_new_number(1e20), NULL, 0, "100000000000000000000");
  round_trip(mp_value_new_number(1.0 / 3.0), NULL, 0, "0.3333333333333333");
  round_trip(mp_value_new_number(1e300), NULL, 0, "1e+300");
  round_trip(mp_value_new_cstring("a \"q\" \\ \n\t\x01 é"), NULL, 0,
             "\"a \\\"q\\\" \\\\ \\n\\t\\u0001 é\"");
  mp_value *o = mp_value_new_object();
  mp_value_object_set(o, "z", mp_value_new_number(1));
  mp_value_object_set(o, "a", mp_value_new_array());
  mp_value_object_set(o, "m", mp_value_new_object());
  round_trip(o, NULL, 0, "{\"a\":[],\"m\":{},\"z\":1}");
}

static void test_value_json_nonfinite(void) {
  round_trip(mp_value_new_number(INFINITY), NULL, 0,
             "{\"" MP_SIG_KEY "\":\"8ad145fe-0d11-4827-bfd7-1abcbf086f5c\","
             "\"value\":\"7ff0000000000000\"}");
  round_trip(mp_value_new_number(-INFINITY), NULL, 0,
             "{\"" MP_SIG_KEY "\":\"8ad145fe-0d11-4827-bfd7-1abcbf086f5c\","
             "\"value\":\"fff0000000000000\"}");
  mp_value *n = mp_value_new_number(NAN);
  char *t = to_json(n, NULL, 0);
  CHECK_CONTAINS(t, "8ad145fe-0d11-4827-bfd7-1abcbf086f5c");
  mp_value *back = from_json(t, NULL);
  CHECK(back && back->kind == MP_VALUE_NUMBER && isnan(back->u.number));
  mp_value_free(back);
  mp_value_free(n);
  free(t);
}

static void test_value_json_special_objects(void) {
  round_trip(mp_value_new_unknown(), NULL, 0, "\"" MP_UNKNOWN_SENTINEL "\"");
  round_trip(mp_value_new_asset("abc", "hello", NULL, NULL), NULL, 0,
             "{\"" MP_SIG_KEY "\":\"" MP_SIG_ASSET
             "\",\"hash\":\"abc\",\"text\":\"hello\"}");
  round_trip(mp_value_new_asset(NULL, NULL, NULL, "https://x/y"), NULL, 0,
             "{\"" MP_SIG_KEY "\":\"" MP_SIG_ASSET
             "\",\"uri\":\"https://x/y\"}");
  mp_value *assets = mp_value_new_object();
  mp_value_object_set(assets, "a.txt",
                      mp_value_new_asset(NULL, NULL, "./a.txt", NULL));
  round_trip(mp_value_new_archive("h", assets, NULL, NULL), NULL, 0,
             "{\"" MP_SIG_KEY "\":\"" MP_SIG_ARCHIVE "\",\"assets\":{\"a.txt\":"
             "{\"" MP_SIG_KEY "\":\"" MP_SIG_ASSET "\",\"path\":\"./a.txt\"}},"
             "\"hash\":\"h\"}");
  round_trip(mp_value_new_archive(NULL, NULL, "./dir", NULL), NULL, 0, NULL);
  round_trip(
      mp_value_new_ref("urn:pulumi:s::p::t:m:R::r", "i-1", "2.0.0"), NULL, 0,
      "{\"" MP_SIG_KEY "\":\"" MP_SIG_RESOURCE_REF "\",\"id\":\"i-1\","
      "\"packageVersion\":\"2.0.0\",\"urn\":\"urn:pulumi:s::p::t:m:R::r\"}");
  round_trip(mp_value_new_ref("urn:pulumi:s::p::t:m:C::c", NULL, NULL), NULL, 0,
             NULL);
  mp_strv deps;
  mp_strv_init(&deps);
  mp_strv_push(&deps, "urn:a");
  round_trip(mp_value_new_output(mp_value_new_cstring("v"), 0, &deps), NULL, 0,
             "{\"" MP_SIG_KEY "\":\"" MP_SIG_OUTPUT "\",\"dependencies\":"
             "[\"urn:a\"],\"value\":\"v\"}");
  round_trip(mp_value_new_output(NULL, 0, NULL), NULL, 0,
             "{\"" MP_SIG_KEY "\":\"" MP_SIG_OUTPUT "\"}");
  mp_strv_destroy(&deps);
}

static void test_value_json_secret_ciphertext(void) {
  int calls = 0;
  mp_crypter c = {rev_encrypt, rev_decrypt, &calls, NULL};
  mp_value *v = mp_value_new_object();
  mp_value_object_set(v, "pw", mp_value_new_secret(mp_value_new_cstring("s3")));
  round_trip(v, &c, 0,
             "{\"pw\":" SECRET_HEAD "\"ciphertext\":\"rev:\\\"3s\\\"\"}}");
  CHECK(calls == 1);
  /* A secret nested in a secret is encrypted once, as a whole. */
  calls = 0;
  mp_value *inner = mp_value_new_object();
  mp_value_object_set(inner, "k", mp_value_new_secret(mp_value_new_number(1)));
  mp_value *outer = mp_value_new_secret(inner);
  char *text = to_json(outer, &c, 0);
  CHECK(calls == 1);
  mp_value *back = from_json(text, &c);
  CHECK(back && mp_value_equal(back, outer, 0));
  CHECK(back && back->kind == MP_VALUE_SECRET &&
        mp_value_object_get(back->u.secret, "k")->kind == MP_VALUE_SECRET);
  mp_value_free(back);
  mp_value_free(outer);
  free(text);
  /* A secret output's value is encrypted too. */
  calls = 0;
  mp_value *so = mp_value_new_output(mp_value_new_cstring("hide"), 1, NULL);
  text = to_json(so, &c, 0);
  CHECK(calls == 1);
  CHECK(strstr(text, "hide") == NULL);
  back = from_json(text, &c);
  CHECK(back && mp_value_equal(back, so, 0));
  mp_value_free(back);
  mp_value_free(so);
  free(text);
}

static void test_value_json_secret_plaintext(void) {
  mp_value *v = mp_value_new_secret(mp_value_new_cstring("s3"));
  /* Shown secrets need no crypter and read back without one. */
  round_trip(v, NULL, MP_JSON_SHOW_SECRETS,
             SECRET_HEAD "\"plaintext\":\"\\\"s3\\\"\"}");
  mp_value *p = from_json(SECRET_HEAD "\"plaintext\":\"[1,2]\"}", NULL);
  CHECK(p && p->kind == MP_VALUE_SECRET &&
        p->u.secret->kind == MP_VALUE_ARRAY && p->u.secret->u.arr.len == 2);
  mp_value_free(p);
}

static void check_json_error(const char *text, const mp_crypter *c,
                             const char *want) {
  mp_value *v = (mp_value *)1;
  mp_err err;
  mp_err_clear(&err);
  int rc = mp_value_from_json(text, strlen(text), c, &v, &err);
  CHECK(rc == MP_EINVAL);
  CHECK(v == NULL);
  CHECK_CONTAINS(err.msg, want);
}

static void test_value_json_errors(void) {
  int calls = 0;
  mp_crypter c = {rev_encrypt, rev_decrypt, &calls, NULL};
  check_json_error("{\"a\": [1, 2,]}", NULL, "syntax error at offset 12");
  check_json_error("{\"a\": ", NULL, "unexpected end of input");
  check_json_error("", NULL, "unexpected end of input at offset 0");
  check_json_error("{} x", NULL, "unexpected trailing data at offset 3");
  check_json_error(SECRET_HEAD "\"ciphertext\":\"rev:1\"}", NULL,
                   "failed to decrypt: snapshot contains encrypted secrets "
                   "but no secrets manager could be found");
  check_json_error("{\"a\":{\"b\":" SECRET_HEAD "\"ciphertext\":\"rev:1\"}}}",
                   NULL, "at 'a.b': failed to decrypt");
  check_json_error("{\"x\":" SECRET_HEAD "\"ciphertext\":\"zzz\"}}", &c,
                   "cannot decrypt the secret at 'x': bad ciphertext");
  check_json_error(SECRET_HEAD "\"other\":1}", NULL,
                   "neither 'ciphertext' nor 'plaintext'");
  check_json_error("{\"l\":[0,{\"" MP_SIG_KEY "\":\"nope\"}]}", NULL,
                   "at 'l[1]': unrecognized signature 'nope'");
  check_json_error("{\"" MP_SIG_KEY "\":\"" MP_SIG_RESOURCE_REF "\"}", NULL,
                   "resource reference has no 'urn'");
  check_json_error("{\"" MP_SIG_KEY "\":\"" MP_SIG_ASSET "\",\"path\":3}", NULL,
                   "field 'path' must be a string");
  check_json_error("{\"" MP_SIG_KEY "\":7}", NULL,
                   "signature key's value must be a string");
}

static void test_value_json_encrypt_needs_crypter(void) {
  mp_value *v = mp_value_new_secret(mp_value_new_cstring("x"));
  mp_buf b;
  mp_err err;
  mp_buf_init(&b);
  mp_err_clear(&err);
  CHECK(mp_value_to_json(v, NULL, 0, &b, &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "cannot encrypt a secret value");
  mp_buf_destroy(&b);
  mp_value_free(v);
}

static void test_value_json_pretty(void) {
  mp_value *o = mp_value_new_object();
  mp_value *arr = mp_value_new_array();
  mp_value_array_push(arr, mp_value_new_number(1));
  mp_value_array_push(arr, mp_value_new_object());
  mp_value_object_set(o, "b", arr);
  mp_value_object_set(o, "a", mp_value_new_cstring("x"));
  char *t = to_json(o, NULL, MP_JSON_PRETTY);
  CHECK_STR(t, "{\n  \"a\": \"x\",\n  \"b\": [\n    1,\n    {}\n  ]\n}");
  free(t);
  mp_value_free(o);
}

static void test_value_json_cjson_tree(void) {
  mp_value *o = mp_value_new_object();
  mp_value_object_set(o, "n", mp_value_new_number(2));
  mp_value_object_set(o, "u", mp_value_new_unknown());
  cJSON *j = NULL;
  mp_err err;
  mp_err_clear(&err);
  CHECK(mp__value_to_cjson(o, NULL, 0, &j, &err) == 0);
  cJSON *doc = cJSON_CreateObject();
  cJSON_AddItemToObject(doc, "inputs", j);
  mp_buf b;
  mp_buf_init(&b);
  mp__cjson_print(doc, 0, &b);
  CHECK_STR(b.data, "{\"inputs\":{\"n\":2,\"u\":\"" MP_UNKNOWN_SENTINEL "\"}}");
  mp_value *back = NULL;
  CHECK(mp__value_from_cjson(cJSON_GetObjectItem(doc, "inputs"), NULL, &back,
                             &err) == 0);
  CHECK(back && mp_value_equal(back, o, 0));
  /* A tree from cJSON_Parse (real number items) decodes the same way. */
  mp_value *back2 = NULL;
  cJSON *parsed = cJSON_Parse(b.data);
  CHECK(mp__value_from_cjson(cJSON_GetObjectItem(parsed, "inputs"), NULL,
                             &back2, &err) == 0);
  CHECK(back2 && mp_value_equal(back2, o, 0));
  cJSON_Delete(parsed);
  mp_value_free(back2);
  mp_value_free(back);
  mp_buf_destroy(&b);
  cJSON_Delete(doc);
  mp_value_free(o);
}

static void test_value_json_embedded_nul(void) {
  mp_value *s = mp_value_new_string("a\0b", 3);
  char *t = to_json(s, NULL, 0);
  CHECK_STR(t, "\"a\\u0000b\"");
  free(t);
  mp_value_free(s);

  /* Through the text and back: NULs in strings and keys, U+FDD0 (the
   * marker of json_nul.h) kept as itself, an escaped backslash before
   * "u0000" left a backslash. */
  mp_value *o = mp_value_new_object();
  mp_value_object_setn(o, "k\0x", 3, mp_value_new_string("v\0w\0", 5));
  mp_value_object_set(o, "m\xEF\xB7\x90" "0",
                      mp_value_new_cstring("\xEF\xB7\x90" "1\\u0000"));
  t = to_json(o, NULL, 0);
  mp_value *back = NULL;
  mp_err err;
  CHECK(mp_value_from_json(t, strlen(t), NULL, &back, &err) == 0);
  CHECK(back && mp_value_equal(o, back, 0));
  const mp_value *v = back ? mp_value_object_getn(back, "k\0x", 3) : NULL;
  CHECK(v && v->kind == MP_VALUE_STRING && v->u.str.len == 5 &&
        memcmp(v->u.str.ptr, "v\0w\0", 5) == 0);
  v = back ? mp_value_object_get(back, "m\xEF\xB7\x90" "0") : NULL;
  CHECK(v && v->kind == MP_VALUE_STRING &&
        strcmp(v->u.str.ptr, "\xEF\xB7\x90" "1\\u0000") == 0);
  free(t);
  mp_value_free(back);
  mp_value_free(o);
}

/* Strings are written in runs of plain bytes between escapes: escapes
 * first, last and side by side, and bytes that start like the NUL marker
 * (0xEF) without being it, read back as themselves. */
static void test_value_json_escape_runs(void) {
  round_trip(mp_value_new_cstring("\"abc\""), NULL, 0, "\"\\\"abc\\\"\"");
  round_trip(mp_value_new_cstring("\n\n\x1f"), NULL, 0,
             "\"\\n\\n\\u001f\"");
  round_trip(mp_value_new_cstring("x\\"), NULL, 0, "\"x\\\\\"");
  round_trip(mp_value_new_cstring(""), NULL, 0, "\"\"");
  round_trip(mp_value_new_cstring("\xEF\xBB\xBF \xEF\xB7\x90" "0 \xEF\xB7\x91"),
             NULL, 0, "\"\xEF\xBB\xBF \xEF\xB7\x90" "0 \xEF\xB7\x91\"");
  round_trip(mp_value_new_cstring("end \xEF\xB7\x90"), NULL, 0,
             "\"end \xEF\xB7\x90\"");
  /* A long string with an escape every 1000 bytes. */
  size_t n = 1 << 20;
  char *big = malloc(n + 1);
  for (size_t i = 0; i < n; i++)
    big[i] = i % 1000 == 999 ? '"' : (char)('a' + i % 26);
  big[n] = '\0';
  mp_value *v = mp_value_new_cstring(big);
  char *t = to_json(v, NULL, 0);
  CHECK(t && strlen(t) == n + 2 + n / 1000);
  mp_value *back = from_json(t, NULL);
  CHECK(back && mp_value_equal(v, back, 0));
  mp_value_free(back);
  mp_value_free(v);
  free(t);
  free(big);
}

/* Integral numbers are written as printf's "%.0f" writes them (the
 * integer fast path of format_number): both signs, powers of ten, the
 * edges of 2^53 and of the fast path (1e18), and -0. */
static void test_value_json_integer_text(void) {
  double fixed[] = {0, 1, -1, 9, 10, -10, 99, 100, 12345, -98765,
                    4294967296.0, 9007199254740992.0, 9007199254740994.0,
                    -9007199254740992.0, 999999999999999872.0, 1e18, -1e18,
                    1e19, 1e20, -0.0};
  for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
    char want[64];
    snprintf(want, sizeof(want), "%.0f", fixed[i]);
    mp_value *v = mp_value_new_number(fixed[i]);
    char *t = to_json(v, NULL, 0);
    CHECK(t && strcmp(t, want) == 0);
    if (t && strcmp(t, want) != 0)
      fprintf(stderr, "  %.17g: got %s, want %s\n", fixed[i], t, want);
    free(t);
    mp_value_free(v);
  }
  uint64_t x = 12345;
  for (int i = 0; i < 2000; i++) {
    x = x * 6364136223846793005u + 1442695040888963407u;
    double d = (double)(int64_t)(x >> (i % 60)) * (i % 2 ? -1 : 1);
    char want[64];
    snprintf(want, sizeof(want), "%.0f", d);
    mp_value *v = mp_value_new_number(d);
    char *t = to_json(v, NULL, 0);
    CHECK(t && strcmp(t, want) == 0);
    free(t);
    mp_value_free(v);
  }
}

/* Every finite IEEE double survives the checkpoint: subnormals, the
 * extremes, -0 and a sweep of bit patterns (a fixed LCG, so the test is
 * the same every run). */
static void test_value_json_every_double(void) {
  double fixed[] = {5e-324, -5e-324, 2.2250738585072009e-308, DBL_MIN,
                    DBL_MAX, -DBL_MAX, 0.1, 1.0 / 3, 9007199254740993.0,
                    1e21, 123456789012345678901234.0};
  for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
    round_trip(mp_value_new_number(fixed[i]), NULL, 0, NULL);
  mp_value *z = mp_value_new_number(-0.0);
  char *t = to_json(z, NULL, 0);
  mp_value *back = from_json(t, NULL);
  CHECK(back && back->kind == MP_VALUE_NUMBER && back->u.number == 0 &&
        signbit(back->u.number));
  mp_value_free(back);
  mp_value_free(z);
  free(t);
  uint64_t x = 0x9E3779B97F4A7C15u;
  int bad = 0;
  for (int i = 0; i < 20000; i++) {
    x = x * 6364136223846793005u + 1442695040888963407u;
    double d;
    memcpy(&d, &x, sizeof d);
    if (!isfinite(d)) continue;
    mp_value *v = mp_value_new_number(d);
    char *text = to_json(v, NULL, 0);
    mp_value *r = from_json(text, NULL);
    if (r == NULL || r->kind != MP_VALUE_NUMBER ||
        memcmp(&r->u.number, &d, sizeof d) != 0) {
      if (bad++ < 3) fprintf(stderr, "  %a came back from %s\n", d, text);
    }
    mp_value_free(r);
    mp_value_free(v);
    free(text);
  }
  CHECK(bad == 0);
}

/* Reading and writing back through the ciphertext-keeping crypter gives
 * the same ciphertext, without any key; a new secret cannot be written. */
static void test_value_json_keep_ciphertext(void) {
  mp_crypter keep = mp_crypter_keep_ciphertext();
  const char *text =
      "{\"pw\":" SECRET_HEAD "\"ciphertext\":\"v1:bm9uY2U=:Y2lwaGVy\"}}";
  mp_value *v = from_json(text, &keep);
  CHECK(v != NULL);
  const mp_value *pw = v ? mp_value_object_get(v, "pw") : NULL;
  CHECK(pw && pw->kind == MP_VALUE_SECRET);
  char *back = v ? to_json(v, &keep, 0) : NULL;
  CHECK_STR(back, text);
  free(back);
  mp_value_free(v);
  mp_value *fresh = mp_value_new_secret(mp_value_new_number(3));
  mp_buf b;
  mp_err err;
  mp_buf_init(&b);
  mp_err_clear(&err);
  CHECK(mp_value_to_json(fresh, &keep, 0, &b, &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "without the stack's secrets manager");
  mp_buf_destroy(&b);
  mp_value_free(fresh);
}

/* A string of bytes that are not UTF-8 is written as Pulumi's byte string
 * (JSON text must be UTF-8) and read back whole. */
static void test_value_json_byte_string(void) {
  static const char raw[] = "ok \x80\xfe\xff";
  mp_value *v = mp_value_new_string(raw, sizeof(raw) - 1);
  mp_buf b;
  mp_buf_init(&b);
  mp_err err;
  CHECK(mp_value_to_json(v, NULL, 0, &b, &err) == 0);
  CHECK(b.data && strstr(b.data, "\"" MP_SIG_BYTE_STRING "\"") != NULL);
  CHECK(b.data && strstr(b.data, "\"b2sggP7/\"") != NULL);
  mp_value *back = NULL;
  CHECK(b.data && mp_value_from_json(b.data, b.len, NULL, &back, &err) == 0);
  CHECK(back && mp_value_equal(v, back, 0));
  mp_value_free(back);
  mp_buf_destroy(&b);
  mp_value_free(v);
}

int main(void) {
  RUN(test_value_json_plain_kinds);
  RUN(test_value_json_byte_string);
  RUN(test_value_json_nonfinite);
  RUN(test_value_json_special_objects);
  RUN(test_value_json_secret_ciphertext);
  RUN(test_value_json_secret_plaintext);
  RUN(test_value_json_errors);
  RUN(test_value_json_encrypt_needs_crypter);
  RUN(test_value_json_pretty);
  RUN(test_value_json_cjson_tree);
  RUN(test_value_json_embedded_nul);
  RUN(test_value_json_escape_runs);
  RUN(test_value_json_every_double);
  RUN(test_value_json_integer_text);
  RUN(test_value_json_keep_ciphertext);
  return mp_test_summary();
}
