/* Read for the built-in random provider. A random value exists only in the
 * state, so a refresh reads back what the state holds. An import turns the
 * ID into the resource, as pulumi-random (terraform-provider-random's
 * ImportState) does for its six importable types:
 *   RandomString, RandomPassword  the value itself
 *   RandomInteger                 "result,min,max" or "result,min,max,seed"
 *   RandomId                      "b64url" or "prefix,b64url"
 *   RandomUuid, RandomUuid4, 7    the UUID
 *   RandomBytes                   the bytes in standard base64 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/crypto.h"
#include "providers/random_int.h"

static void set_num(mp_value *o, const char *key, double v) {
  mp_value_object_set(o, key, mp_value_new_number(v));
}

static void set_bool(mp_value *o, const char *key, int v) {
  mp_value_object_set(o, key, mp_value_new_bool(v));
}

/* The inputs terraform-provider-random gives an imported string: the
 * value's length and every character class allowed. */
static int import_string(const char *id, int secret, mp_prov_resp *r) {
  mp_value *in = mp_value_new_object();
  set_num(in, "length", (double)strlen(id));
  set_bool(in, "lower", 1);
  set_num(in, "minLower", 0);
  set_num(in, "minNumeric", 0);
  set_num(in, "minSpecial", 0);
  set_num(in, "minUpper", 0);
  set_bool(in, "number", 1);
  set_bool(in, "numeric", 1);
  set_bool(in, "special", 1);
  set_bool(in, "upper", 1);
  mp_value *out = mp_value_dup(in);
  mp_value *v = mp_value_new_cstring(id);
  mp_value_object_set(out, "result", secret ? mp_value_new_secret(v) : v);
  r->inputs = in;
  r->outputs = out;
  r->id = mp_xstrdup(secret ? "none" : id);
  return 0;
}

static int parse_int(const char *s, long long *out) {
  char *end;
  errno = 0;
  *out = strtoll(s, &end, 10);
  return !*s || *end || errno ? -1 : 0;
}

static int import_integer(const char *id, mp_prov_resp *r, mp_err *err) {
  char *copy = mp_xstrdup(id), *parts[5];
  int n = 0;
  for (char *save = NULL, *t = strtok_r(copy, ",", &save); t && n < 5;
       t = strtok_r(NULL, ",", &save))
    parts[n++] = t;
  long long v[3];
  int rc = 0;
  if (n != 3 && n != 4)
    rc = mp_err_set(err, MP_EINVAL,
                    "Invalid import usage: expecting {result},{min},{max} or "
                    "{result},{min},{max},{seed}");
  for (int i = 0; !rc && i < 3; i++)
    if (parse_int(parts[i], &v[i]))
      rc = mp_err_set(err, MP_EINVAL,
                      "The value supplied could not be parsed as an integer: "
                      "\"%s\"",
                      parts[i]);
  if (!rc) {
    mp_value *in = mp_value_new_object();
    set_num(in, "max", (double)v[2]);
    set_num(in, "min", (double)v[1]);
    if (n == 4) mp_value_object_set(in, "seed", mp_value_new_cstring(parts[3]));
    mp_value *out = mp_value_dup(in);
    set_num(out, "result", (double)v[0]);
    r->inputs = in;
    r->outputs = out;
    r->id = mp_xstrdup(parts[0]);
  }
  free(copy);
  return rc;
}

/* URL-safe base64 without padding, as Go's RawURLEncoding reads it. */
static int decode_b64url(const char *s, mp_buf *out, mp_err *err) {
  size_t n = strlen(s);
  mp_buf std;
  mp_buf_init(&std);
  int rc = 0;
  for (size_t i = 0; i < n && !rc; i++) {
    char c = s[i];
    if (c == '+' || c == '/' || c == '=')
      rc = mp_err_set(err, MP_EINVAL, "illegal base64 data at input byte %zu", i);
    mp_buf_putc(&std, c == '-' ? '+' : c == '_' ? '/' : c);
  }
  if (n % 4 == 1 && !rc)
    rc = mp_err_set(err, MP_EINVAL, "illegal base64 data at input byte %zu", n);
  while (!rc && std.len % 4) mp_buf_putc(&std, '=');
  if (!rc) rc = mp_base64_decode(std.data ? std.data : "", std.len, out, err);
  mp_buf_destroy(&std);
  return rc;
}

static int import_id(const char *id, mp_prov_resp *r, mp_err *err) {
  const char *comma = strrchr(id, ',');
  char *prefix = comma ? mp_xstrndup(id, (size_t)(comma - id)) : mp_xstrdup("");
  const char *b64 = comma ? comma + 1 : id;
  mp_buf bytes;
  mp_buf_init(&bytes);
  int rc = decode_b64url(b64, &bytes, err);
  if (rc) {
    rc = mp_err_prefix(err, "While attempting to import a random id there "
                            "was a decoding error");
  } else {
    mp_value *in = mp_value_new_object();
    set_num(in, "byteLength", (double)bytes.len);
    if (*prefix) mp_value_object_set(in, "prefix", mp_value_new_cstring(prefix));
    mp_value *out = mp_value_dup(in);
    mp__random_id_outputs((const unsigned char *)bytes.data, bytes.len, prefix,
                          out, &r->id);
    r->inputs = in;
    r->outputs = out;
  }
  mp_buf_destroy(&bytes);
  free(prefix);
  return rc;
}

static int is_uuid(const char *s) {
  if (strlen(s) != 36) return 0;
  for (int i = 0; i < 36; i++) {
    int dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? s[i] != '-' : !isxdigit((unsigned char)s[i])) return 0;
  }
  return 1;
}

static int import_uuid(const char *id, mp_prov_resp *r, mp_err *err) {
  if (!is_uuid(id))
    return mp_err_set(err, MP_EINVAL,
                      "While attempting to import a random UUID there was a "
                      "parsing error: \"%s\" is not a UUID",
                      id);
  r->inputs = mp_value_new_object();
  r->outputs = mp_value_new_object();
  mp_value_object_set(r->outputs, "result", mp_value_new_cstring(id));
  r->id = mp_xstrdup(id);
  return 0;
}

static int import_bytes(const char *id, mp_prov_resp *r, mp_err *err) {
  mp_buf bytes;
  mp_buf_init(&bytes);
  int rc = mp_base64_decode(id, strlen(id), &bytes, err);
  if (rc) {
    rc = mp_err_prefix(err, "There was an error during the parsing of the "
                            "base64 string");
  } else {
    r->inputs = mp_value_new_object();
    set_num(r->inputs, "length", (double)bytes.len);
    r->outputs = mp_value_dup(r->inputs);
    mp__random_bytes_outputs((const unsigned char *)bytes.data, bytes.len,
                             r->outputs);
    r->id = mp_xstrdup("none");
  }
  mp_buf_destroy(&bytes);
  return rc;
}

int mp__random_read(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                    mp_err *err) {
  (void)p;
  const char *id = q->id ? q->id : "";
  if (q->olds) { /* refresh: the state is the truth */
    r->outputs = mp_value_dup(q->olds);
    if (q->old_inputs) r->inputs = mp_value_dup(q->old_inputs);
    r->id = mp_xstrdup(id);
    return 0;
  }
  const char *t = q->type ? q->type : "";
  if (!strcmp(t, "random:index/randomString:RandomString"))
    return import_string(id, 0, r);
  if (!strcmp(t, "random:index/randomPassword:RandomPassword"))
    return import_string(id, 1, r);
  if (!strcmp(t, "random:index/randomInteger:RandomInteger"))
    return import_integer(id, r, err);
  if (!strcmp(t, "random:index/randomId:RandomId")) return import_id(id, r, err);
  if (!strcmp(t, "random:index/randomUuid:RandomUuid") ||
      !strcmp(t, "random:index/randomUuid4:RandomUuid4") ||
      !strcmp(t, "random:index/randomUuid7:RandomUuid7"))
    return import_uuid(id, r, err);
  if (!strcmp(t, "random:index/randomBytes:RandomBytes"))
    return import_bytes(id, r, err);
  return mp_err_set(err, MP_EINVAL,
                    "resource type '%s' of the random provider cannot be "
                    "imported; pulumi-random imports RandomString, "
                    "RandomPassword, RandomInteger, RandomId, RandomUuid, "
                    "RandomUuid4, RandomUuid7 and RandomBytes",
                    t);
}
