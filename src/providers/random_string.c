/* RandomString and RandomPassword of the `random` package: input checks
 * (with the defaults Pulumi's random provider fills) and generation from
 * the kernel CSPRNG. */
#include "providers/random_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The provider's default special characters (terraform-provider-random). */
#define DEFAULT_SPECIAL "!@#$%&*()-_=+[]{}<>:?"
#define MAX_LENGTH (1 << 20)

enum { CLS_UPPER, CLS_LOWER, CLS_NUMERIC, CLS_SPECIAL, NCLS };

static const char *const cls_flag[NCLS] = {"upper", "lower", "numeric",
                                           "special"};
static const char *const cls_min[NCLS] = {"minUpper", "minLower", "minNumeric",
                                          "minSpecial"};
static const char *const cls_chars[NCLS] = {"ABCDEFGHIJKLMNOPQRSTUVWXYZ",
                                            "abcdefghijklmnopqrstuvwxyz",
                                            "0123456789", DEFAULT_SPECIAL};

typedef struct str_opts {
  int64_t length;      /* -1 while unknown */
  int on[NCLS];        /* the class is in the general pool */
  int64_t min[NCLS];   /* -1 while unknown */
  const char *special; /* characters of the special class, borrowed */
} str_opts;

/* Reads the options from checked (or unchecked) inputs, applying the
 * defaults; adds failures to |r|. Unknown values are tolerated. */
static void parse_opts(const mp_value *in, str_opts *o, mp_prov_resp *r) {
  int i, all_off = 1;
  int64_t sum = 0;
  int sum_known = 1;
  mp__prov_field f;
  o->length = -1;
  f = mp__prov_int(in, "length", &o->length, r);
  if (f == MP_PROV_FIELD_MISSING)
    mp_prov_resp_add_failure(r, "length", "missing required property");
  else if (f == MP_PROV_FIELD_OK && o->length < 1)
    mp_prov_resp_add_failure(r, "length", "must be at least 1");
  else if (f == MP_PROV_FIELD_OK && o->length > MAX_LENGTH)
    mp_prov_resp_add_failure(r, "length", "must be at most 1048576");
  if (f != MP_PROV_FIELD_OK)
    o->length = -1;
  for (i = 0; i < NCLS; i++) {
    o->on[i] = 1;
    f = mp__prov_bool(in, cls_flag[i], &o->on[i], r);
    if (f == MP_PROV_FIELD_UNKNOWN || o->on[i])
      all_off = 0;
    o->min[i] = 0;
    f = mp__prov_int(in, cls_min[i], &o->min[i], r);
    if (f == MP_PROV_FIELD_OK && (o->min[i] < 0 || o->min[i] > MAX_LENGTH)) {
      mp_prov_resp_add_failure(r, cls_min[i], "must be between 0 and 1048576");
      f = MP_PROV_FIELD_BAD;
    }
    if (f == MP_PROV_FIELD_UNKNOWN || f == MP_PROV_FIELD_BAD) {
      o->min[i] = -1;
      sum_known = 0;
    } else {
      sum += o->min[i];
    }
  }
  o->special = DEFAULT_SPECIAL;
  if (mp__prov_str(in, "overrideSpecial", &o->special, r) != MP_PROV_FIELD_OK)
    o->special = DEFAULT_SPECIAL;
  if (o->length > 0 && sum_known && sum > o->length) {
    char reason[200];
    snprintf(reason, sizeof(reason),
             "must be at least the sum of minUpper, minLower, minNumeric "
             "and minSpecial (%lld)",
             (long long)sum);
    mp_prov_resp_add_failure(r, "length", reason);
  }
  if (all_off && !(o->length > 0 && sum_known && sum >= o->length))
    mp_prov_resp_add_failure(
        r, NULL,
        "at least one of upper, lower, numeric and special must be "
        "true");
}

/* Check for both types: fills upper/lower/numeric/special (default true;
 * the deprecated `number` feeds `numeric` and is kept equal to it),
 * minUpper..minSpecial (default 0), then validates. */
int mp__random_check_string(const mp_value *news, mp_value *out,
                            mp_prov_resp *r) {
  str_opts o;
  int i, num;
  const mp_value *number = mp__prov_get(news, "number");
  if (mp__prov_get(news, "numeric") == NULL &&
      !mp__prov_is_unknown(news, "numeric") && number != NULL &&
      number->kind == MP_VALUE_BOOL)
    mp_value_object_set(out, "numeric", mp_value_new_bool(number->u.boolean));
  for (i = 0; i < NCLS; i++) {
    if (mp_value_object_get(out, cls_flag[i]) == NULL)
      mp_value_object_set(out, cls_flag[i], mp_value_new_bool(1));
    if (mp_value_object_get(out, cls_min[i]) == NULL)
      mp_value_object_set(out, cls_min[i], mp_value_new_number(0));
  }
  if (mp__prov_bool(out, "numeric", &num, NULL) == MP_PROV_FIELD_OK)
    mp_value_object_set(out, "number", mp_value_new_bool(num));
  parse_opts(out, &o, r);
  return 0;
}

/* One character: a UTF-8 sequence inside some borrowed string. */
typedef struct uchar {
  const char *s;
  size_t n;
} uchar;

typedef struct uset {
  uchar *items;
  size_t len;
} uset;

static size_t utf8_len(unsigned char c) {
  if (c >= 0xf0 && c < 0xf8)
    return 4;
  if (c >= 0xe0)
    return c < 0xf0 ? 3 : 1;
  if (c >= 0xc0)
    return 2;
  return 1;
}

static void uset_add(uset *u, const char *s) {
  while (*s) {
    size_t n = utf8_len((unsigned char)*s), k;
    for (k = 1; k < n; k++)
      if (s[k] == '\0')
        n = k;
    u->items = mp_xreallocarray(u->items, u->len + 1, sizeof(*u->items));
    u->items[u->len].s = s;
    u->items[u->len].n = n;
    u->len++;
    s += n;
  }
}

static int pick(const uset *u, uchar *dst, const char *what, mp_err *err) {
  uint64_t k;
  int rc;
  if (u->len == 0)
    return mp_err_set(err, MP_EINVAL,
                      "cannot generate %s: its character set is empty; "
                      "enable a character class or set overrideSpecial",
                      what);
  if ((rc = mp__prov_random_below(u->len, &k, err)) < 0)
    return rc;
  *dst = u->items[k];
  return 0;
}

/* Draws the minimum counts from their classes, the rest from the pool of
 * enabled classes, then shuffles (Fisher-Yates). */
static int draw(const str_opts *o, uchar *out, mp_err *err) {
  uset cls[NCLS], pool = {NULL, 0};
  size_t at = 0, i;
  int c, rc = 0;
  for (c = 0; c < NCLS; c++) {
    cls[c].items = NULL;
    cls[c].len = 0;
    uset_add(&cls[c], c == CLS_SPECIAL ? o->special : cls_chars[c]);
    if (o->on[c])
      uset_add(&pool, c == CLS_SPECIAL ? o->special : cls_chars[c]);
  }
  for (c = 0; c < NCLS && rc == 0; c++)
    for (i = 0; i < (size_t)o->min[c] && rc == 0; i++)
      rc = pick(&cls[c], &out[at++], cls_min[c], err);
  while (rc == 0 && at < (size_t)o->length)
    rc = pick(&pool, &out[at++], "the string", err);
  for (i = at; rc == 0 && i > 1; i--) {
    uint64_t j;
    uchar t;
    if ((rc = mp__prov_random_below(i, &j, err)) < 0)
      break;
    t = out[i - 1];
    out[i - 1] = out[j];
    out[j] = t;
  }
  for (c = 0; c < NCLS; c++)
    free(cls[c].items);
  free(pool.items);
  return rc;
}

/* Generates the string of checked inputs |in| into *out (owned). */
static int generate(const mp_value *in, const char *type, char **out,
                    mp_err *err) {
  mp_prov_resp tmp;
  str_opts o;
  uchar *chars;
  mp_buf b;
  size_t i;
  int rc;
  *out = NULL;
  mp_prov_resp_init(&tmp);
  parse_opts(in, &o, &tmp);
  rc = mp__prov_failures_to_err(&tmp, type, err);
  mp_prov_resp_destroy(&tmp);
  if (rc < 0)
    return rc;
  if (o.length < 0)
    return mp_err_set(err, MP_EINVAL, "cannot create '%s': length is unknown",
                      type);
  chars = mp_xcalloc((size_t)o.length, sizeof(*chars));
  if ((rc = draw(&o, chars, err)) == 0) {
    mp_buf_init(&b);
    for (i = 0; i < (size_t)o.length; i++)
      mp_buf_append(&b, chars[i].s, chars[i].n);
    *out = mp_buf_detach(&b, NULL);
  }
  free(chars);
  return rc;
}

int mp__random_gen_string(const mp_value *in, const char *type,
                          mp_value *outputs, char **id, mp_err *err) {
  char *s = NULL;
  int rc = generate(in, type, &s, err);
  if (rc < 0)
    return rc;
  mp_value_object_set(outputs, "result", mp_value_new_cstring(s));
  *id = s;
  return 0;
}

int mp__random_gen_password(const mp_value *in, const char *type,
                            mp_value *outputs, char **id, mp_err *err) {
  char *s = NULL;
  int rc = generate(in, type, &s, err);
  if (rc < 0)
    return rc;
  mp_value_object_set(outputs, "result",
                      mp_value_new_secret(mp_value_new_cstring(s)));
  free(s);
  /* The real provider never exposes the password through the id. */
  *id = mp_xstrdup("none");
  return 0;
}
