/* A policy's config against its config schema (plugin/policy_schema.h).
 * Each error is "<field>: <description>", the field being the dotted
 * path from the config's root ("(root)" for the root itself), as
 * gojsonschema prints one; Pulumi drops a leading "(root): ". */
#include "plugin/policy_schema.h"

#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROOT "(root)"

static void add(mp_strv *errs, const char *ctx, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void add(mp_strv *errs, const char *ctx, const char *fmt, ...) {
  const char *field = strncmp(ctx, ROOT ".", sizeof(ROOT)) == 0
                          ? ctx + sizeof(ROOT)
                          : ctx;
  va_list ap;
  va_start(ap, fmt);
  char *desc = mp_xvasprintf(fmt, ap);
  va_end(ap);
  if (strcmp(field, ROOT) == 0) /* Pulumi trims the root's own prefix */
    mp_strv_push_take(errs, desc);
  else {
    mp_strv_push_take(errs, mp_xasprintf("%s: %s", field, desc));
    free(desc);
  }
}

/* A number as Go prints a big.Float with %v: the shortest digits that
 * read back, exponent form below 1e-4 and from 1e6 ('g', precision -1). */
static void go_number(double x, char *out, size_t n) {
  char e[64];
  int p = 1;
  for (; p < 17; p++) {
    snprintf(e, sizeof(e), "%.*e", p - 1, x);
    if (strtod(e, NULL) == x) break;
  }
  snprintf(e, sizeof(e), "%.*e", p - 1, x);
  int exp = atoi(strchr(e, 'e') + 1);
  if (exp < -4 || exp >= 6) {
    /* Go drops the fraction's trailing zeros as %e of p digits does */
    snprintf(out, n, "%s", e);
    return;
  }
  int decimals = p - 1 - exp;
  snprintf(out, n, "%.*f", decimals > 0 ? decimals : 0, x);
}

static int is_integral(double x) { return isfinite(x) && floor(x) == x; }

static const char *type_of(const mp_value *v) {
  switch (v->kind) {
  case MP_VALUE_NULL: return "null";
  case MP_VALUE_BOOL: return "boolean";
  case MP_VALUE_NUMBER: return is_integral(v->u.number) ? "integer" : "number";
  case MP_VALUE_STRING: return "string";
  case MP_VALUE_ARRAY: return "array";
  case MP_VALUE_OBJECT: return "object";
  default: return "object";
  }
}

static int has_type(const mp_value *types, const char *t) {
  if (types->kind == MP_VALUE_STRING) return strcmp(types->u.str.ptr, t) == 0;
  for (size_t i = 0; types->kind == MP_VALUE_ARRAY && i < types->u.arr.len; i++)
    if (types->u.arr.items[i]->kind == MP_VALUE_STRING &&
        strcmp(types->u.arr.items[i]->u.str.ptr, t) == 0)
      return 1;
  return 0;
}

/* "number", or "[string,number]" for several. */
static char *types_text(const mp_value *types) {
  if (types->kind == MP_VALUE_STRING) return mp_xstrdup(types->u.str.ptr);
  mp_buf b;
  mp_buf_init(&b);
  mp_buf_putc(&b, '[');
  for (size_t i = 0; types->kind == MP_VALUE_ARRAY && i < types->u.arr.len;
       i++) {
    const mp_value *t = types->u.arr.items[i];
    if (i) mp_buf_putc(&b, ',');
    if (t->kind == MP_VALUE_STRING) mp_buf_puts(&b, t->u.str.ptr);
  }
  mp_buf_putc(&b, ']');
  if (types->kind == MP_VALUE_ARRAY && types->u.arr.len == 1) {
    mp_buf_destroy(&b);
    const mp_value *t = types->u.arr.items[0];
    return mp_xstrdup(t->kind == MP_VALUE_STRING ? t->u.str.ptr : "");
  }
  return mp_buf_detach(&b, NULL);
}

static char *json_of(const mp_value *v) {
  mp_buf b;
  mp_buf_init(&b);
  mp_err e;
  mp_err_clear(&e);
  if (mp_value_to_json(v, NULL, 0, &b, &e) < 0) mp_buf_puts(&b, "?");
  return mp_buf_detach(&b, NULL);
}

static const mp_value *kw(const mp_value *schema, const char *k) {
  return mp_value_object_get(schema, k);
}

static int num_kw(const mp_value *schema, const char *k, double *out) {
  const mp_value *v = kw(schema, k);
  if (v == NULL || v->kind != MP_VALUE_NUMBER) return 0;
  *out = v->u.number;
  return 1;
}

static size_t utf8_runes(const char *s, size_t len) {
  size_t n = 0;
  for (size_t i = 0; i < len; i++)
    if (((unsigned char)s[i] & 0xC0) != 0x80) n++;
  return n;
}

static void check(const mp_value *schema, const mp_value *v, const char *ctx,
                  mp_strv *errs);

static void check_number(const mp_value *s, double x, const char *ctx,
                         mp_strv *errs) {
  char t[64];
  double m;
  if (num_kw(s, "multipleOf", &m) && m > 0) {
    double q = x / m;
    if (fabs(q - nearbyint(q)) > 1e-9 * fmax(1.0, fabs(q))) {
      go_number(m, t, sizeof(t));
      add(errs, ctx, "Must be a multiple of %s", t);
    }
  }
  /* draft 4's boolean exclusiveMaximum makes maximum exclusive */
  const mp_value *exmax = kw(s, "exclusiveMaximum");
  const mp_value *exmin = kw(s, "exclusiveMinimum");
  int max_excl = exmax && exmax->kind == MP_VALUE_BOOL && exmax->u.boolean;
  int min_excl = exmin && exmin->kind == MP_VALUE_BOOL && exmin->u.boolean;
  if (num_kw(s, "maximum", &m)) {
    go_number(m, t, sizeof(t));
    if (max_excl && x >= m) add(errs, ctx, "Must be less than %s", t);
    else if (!max_excl && x > m)
      add(errs, ctx, "Must be less than or equal to %s", t);
  }
  if (num_kw(s, "exclusiveMaximum", &m) && x >= m) {
    go_number(m, t, sizeof(t));
    add(errs, ctx, "Must be less than %s", t);
  }
  if (num_kw(s, "minimum", &m)) {
    go_number(m, t, sizeof(t));
    if (min_excl && x <= m) add(errs, ctx, "Must be greater than %s", t);
    else if (!min_excl && x < m)
      add(errs, ctx, "Must be greater than or equal to %s", t);
  }
  if (num_kw(s, "exclusiveMinimum", &m) && x <= m) {
    go_number(m, t, sizeof(t));
    add(errs, ctx, "Must be greater than %s", t);
  }
}

static void check_string(const mp_value *s, const mp_value *v, const char *ctx,
                         mp_strv *errs) {
  double m;
  size_t runes = utf8_runes(v->u.str.ptr, v->u.str.len);
  if (num_kw(s, "minLength", &m) && (double)runes < m)
    add(errs, ctx, "String length must be greater than or equal to %d",
        (int)m);
  if (num_kw(s, "maxLength", &m) && (double)runes > m)
    add(errs, ctx, "String length must be less than or equal to %d", (int)m);
  const mp_value *pat = kw(s, "pattern");
  if (pat && pat->kind == MP_VALUE_STRING) {
    regex_t re;
    if (regcomp(&re, pat->u.str.ptr, REG_EXTENDED | REG_NOSUB) == 0) {
      if (regexec(&re, v->u.str.ptr, 0, NULL, 0) != 0)
        add(errs, ctx, "Does not match pattern '%s'", pat->u.str.ptr);
      regfree(&re);
    }
  }
}

static void check_array(const mp_value *s, const mp_value *v, const char *ctx,
                        mp_strv *errs) {
  size_t n = v->u.arr.len;
  const mp_value *items = kw(s, "items");
  for (size_t i = 0; items && i < n; i++) {
    const mp_value *is = items->kind == MP_VALUE_OBJECT ? items
                         : items->kind == MP_VALUE_ARRAY && i < items->u.arr.len
                             ? items->u.arr.items[i]
                             : NULL;
    if (is == NULL) continue;
    char *sub = mp_xasprintf("%s.%zu", ctx, i);
    check(is, v->u.arr.items[i], sub, errs);
    free(sub);
  }
  double m;
  if (num_kw(s, "minItems", &m) && (double)n < m)
    add(errs, ctx, "Array must have at least %d items", (int)m);
  if (num_kw(s, "maxItems", &m) && (double)n > m)
    add(errs, ctx, "Array must have at most %d items", (int)m);
  const mp_value *u = kw(s, "uniqueItems");
  if (u && u->kind == MP_VALUE_BOOL && u->u.boolean)
    for (size_t j = 1; j < n; j++)
      for (size_t i = 0; i < j; i++)
        if (mp_value_equal(v->u.arr.items[i], v->u.arr.items[j], 0)) {
          add(errs, ctx, "array items[%zu,%zu] must be unique", i, j);
          break;
        }
}

static void check_object(const mp_value *s, const mp_value *v, const char *ctx,
                         mp_strv *errs) {
  double m;
  if (num_kw(s, "minProperties", &m) && (double)v->u.obj.len < m)
    add(errs, ctx, "Must have at least %d properties", (int)m);
  if (num_kw(s, "maxProperties", &m) && (double)v->u.obj.len > m)
    add(errs, ctx, "Must have at most %d properties", (int)m);
  const mp_value *req = kw(s, "required");
  for (size_t i = 0; req && req->kind == MP_VALUE_ARRAY && i < req->u.arr.len;
       i++) {
    const mp_value *k = req->u.arr.items[i];
    if (k->kind == MP_VALUE_STRING && !mp_value_object_get(v, k->u.str.ptr))
      add(errs, ctx, "%s is required", k->u.str.ptr);
  }
  const mp_value *props = kw(s, "properties");
  if (props && props->kind != MP_VALUE_OBJECT) props = NULL;
  const mp_value *extra = kw(s, "additionalProperties");
  for (size_t i = 0; i < v->u.obj.len; i++) {
    const char *key = v->u.obj.items[i].key;
    const mp_value *ps = props ? mp_value_object_get(props, key) : NULL;
    char *sub = mp_xasprintf("%s.%s", ctx, key);
    if (ps) check(ps, v->u.obj.items[i].value, sub, errs);
    else if (extra && extra->kind == MP_VALUE_BOOL && !extra->u.boolean)
      add(errs, ctx, "Additional property %s is not allowed", key);
    else if (extra && extra->kind == MP_VALUE_OBJECT)
      check(extra, v->u.obj.items[i].value, sub, errs);
    free(sub);
  }
}

static void check(const mp_value *s, const mp_value *v, const char *ctx,
                  mp_strv *errs) {
  if (s == NULL || s->kind != MP_VALUE_OBJECT) return;
  if (v->kind == MP_VALUE_SECRET && v->u.secret) v = v->u.secret;
  const mp_value *types = kw(s, "type");
  if (types && (types->kind == MP_VALUE_STRING ||
                (types->kind == MP_VALUE_ARRAY && types->u.arr.len))) {
    const char *given = type_of(v);
    int ok = has_type(types, given) ||
             (strcmp(given, "integer") == 0 && has_type(types, "number"));
    if (!ok) {
      char *want = types_text(types);
      add(errs, ctx, "Invalid type. Expected: %s, given: %s", want, given);
      free(want);
      return;
    }
  }
  const char *field = strncmp(ctx, ROOT ".", sizeof(ROOT)) == 0
                          ? ctx + sizeof(ROOT)
                          : ctx;
  const mp_value *c = kw(s, "const");
  if (c && !mp_value_equal(c, v, 0)) {
    char *j = json_of(c);
    add(errs, ctx, "%s does not match: %s", field, j);
    free(j);
  }
  const mp_value *en = kw(s, "enum");
  if (en && en->kind == MP_VALUE_ARRAY && en->u.arr.len) {
    int found = 0;
    mp_buf allowed;
    mp_buf_init(&allowed);
    for (size_t i = 0; i < en->u.arr.len; i++) {
      if (mp_value_equal(en->u.arr.items[i], v, 0)) found = 1;
      char *j = json_of(en->u.arr.items[i]);
      mp_buf_printf(&allowed, "%s%s", i ? ", " : "", j);
      free(j);
    }
    if (!found)
      add(errs, ctx, "%s must be one of the following: %s", field,
          allowed.data);
    mp_buf_destroy(&allowed);
  }
  switch (v->kind) {
  case MP_VALUE_NUMBER: check_number(s, v->u.number, ctx, errs); break;
  case MP_VALUE_STRING: check_string(s, v, ctx, errs); break;
  case MP_VALUE_ARRAY: check_array(s, v, ctx, errs); break;
  case MP_VALUE_OBJECT: check_object(s, v, ctx, errs); break;
  default: break;
  }
}

void mp_policy_schema_check(const mp_value *properties,
                            const mp_value *required, const mp_value *config,
                            mp_strv *errs) {
  mp_value *schema = mp_value_new_object();
  mp_value_object_set(schema, "type", mp_value_new_cstring("object"));
  if (properties && properties->kind == MP_VALUE_OBJECT &&
      properties->u.obj.len)
    mp_value_object_set(schema, "properties", mp_value_dup(properties));
  if (required && required->kind == MP_VALUE_ARRAY && required->u.arr.len)
    mp_value_object_set(schema, "required", mp_value_dup(required));
  check(schema, config, ROOT, errs);
  mp_value_free(schema);
}
