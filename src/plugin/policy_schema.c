/* A policy's config against its config schema (plugin/policy_schema.h).
 * Each error is "<field>: <description>", the field being the dotted
 * path from the config's root ("(root)" for the root itself), as
 * gojsonschema prints one; Pulumi drops a leading "(root): ". */
#include "plugin/policy_schema.h"

#include "plugin/policy_regex.h"
#include "plugin/policy_schema_format.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROOT "(root)"

/* A validation's errors and its score: gojsonschema's measure of how
 * well a value matched (+1 per keyword group passed, -2 per error), by
 * which anyOf and oneOf pick the branch whose errors they report. */
typedef struct {
  mp_strv errs;
  int score;
} result;

static void add(result *r, const char *ctx, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void add(result *r, const char *ctx, const char *fmt, ...) {
  mp_strv *errs = &r->errs;
  r->score -= 2;
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

/* The schema a local "$ref" ("#", "#/a/b", percent and ~0 ~1 escapes
 * decoded) points to in |root|, or NULL. */
static const mp_value *resolve_ref(const mp_value *root, const char *ref) {
  if (ref[0] != '#') return NULL;
  const mp_value *at = root;
  const char *p = ref + 1;
  if (*p == '\0') return root;
  if (*p != '/') return NULL;
  while (at && *p == '/') {
    p++;
    mp_buf tok;
    mp_buf_init(&tok);
    for (; *p && *p != '/'; p++) {
      if (*p == '%' && p[1] && p[2]) {
        char hex[3] = {p[1], p[2], 0};
        mp_buf_putc(&tok, (char)strtol(hex, NULL, 16));
        p += 2;
      } else if (*p == '~' && (p[1] == '0' || p[1] == '1')) {
        mp_buf_putc(&tok, p[1] == '0' ? '~' : '/');
        p++;
      } else
        mp_buf_putc(&tok, *p);
    }
    char *t = mp_buf_detach(&tok, NULL);
    if (at->kind == MP_VALUE_OBJECT)
      at = mp_value_object_get(at, t);
    else if (at->kind == MP_VALUE_ARRAY) {
      char *end;
      long i = strtol(t, &end, 10);
      at = *t && *end == '\0' && i >= 0 && (size_t)i < at->u.arr.len
               ? at->u.arr.items[i]
               : NULL;
    } else
      at = NULL;
    free(t);
  }
  return at;
}

static void validate(const mp_value *root, const mp_value *s,
                     const mp_value *v, const char *ctx, result *r);

static result sub(const mp_value *root, const mp_value *s, const mp_value *v,
                  const char *ctx) {
  result r;
  mp_strv_init(&r.errs);
  r.score = 0;
  validate(root, s, v, ctx, &r);
  return r;
}

static void merge(result *into, result *from) {
  for (size_t i = 0; i < from->errs.len; i++)
    mp_strv_push(&into->errs, from->errs.items[i]);
  into->score += from->score;
}

static void drop(result *r) { mp_strv_destroy(&r->errs); }

static void check_number(const mp_value *s, double x, const char *ctx,
                         result *r) {
  char t[64];
  double m;
  if (num_kw(s, "multipleOf", &m) && m > 0) {
    double q = x / m;
    if (fabs(q - nearbyint(q)) > 1e-9 * fmax(1.0, fabs(q))) {
      go_number(m, t, sizeof(t));
      add(r, ctx, "Must be a multiple of %s", t);
    }
  }
  /* draft 4's boolean exclusiveMaximum makes maximum exclusive */
  const mp_value *exmax = kw(s, "exclusiveMaximum");
  const mp_value *exmin = kw(s, "exclusiveMinimum");
  int max_excl = exmax && exmax->kind == MP_VALUE_BOOL && exmax->u.boolean;
  int min_excl = exmin && exmin->kind == MP_VALUE_BOOL && exmin->u.boolean;
  if (num_kw(s, "maximum", &m)) {
    go_number(m, t, sizeof(t));
    if (max_excl && x >= m) add(r, ctx, "Must be less than %s", t);
    else if (!max_excl && x > m)
      add(r, ctx, "Must be less than or equal to %s", t);
  }
  if (num_kw(s, "exclusiveMaximum", &m) && x >= m) {
    go_number(m, t, sizeof(t));
    add(r, ctx, "Must be less than %s", t);
  }
  if (num_kw(s, "minimum", &m)) {
    go_number(m, t, sizeof(t));
    if (min_excl && x <= m) add(r, ctx, "Must be greater than %s", t);
    else if (!min_excl && x < m)
      add(r, ctx, "Must be greater than or equal to %s", t);
  }
  if (num_kw(s, "exclusiveMinimum", &m) && x <= m) {
    go_number(m, t, sizeof(t));
    add(r, ctx, "Must be greater than %s", t);
  }
  /* gojsonschema 1.2.0 hands a number to the format checkers, and every
   * format it knows refuses one */
  const mp_value *f = kw(s, "format");
  if (f && f->kind == MP_VALUE_STRING &&
      mp_policy_schema_format_known(f->u.str.ptr))
    add(r, ctx, "Does not match format '%s'", f->u.str.ptr);
  r->score++;
}

static void check_string(const mp_value *s, const mp_value *v, const char *ctx,
                         result *r) {
  double m;
  size_t runes = utf8_runes(v->u.str.ptr, v->u.str.len);
  if (num_kw(s, "minLength", &m) && (double)runes < m)
    add(r, ctx, "String length must be greater than or equal to %d", (int)m);
  if (num_kw(s, "maxLength", &m) && (double)runes > m)
    add(r, ctx, "String length must be less than or equal to %d", (int)m);
  const mp_value *pat = kw(s, "pattern");
  if (pat && pat->kind == MP_VALUE_STRING &&
      mp__policy_regex_match(pat->u.str.ptr, v->u.str.ptr) == 0)
    add(r, ctx, "Does not match pattern '%s'", pat->u.str.ptr);
  const mp_value *f = kw(s, "format");
  if (f && f->kind == MP_VALUE_STRING &&
      !mp_policy_schema_format_ok(f->u.str.ptr, v->u.str.ptr))
    add(r, ctx, "Does not match format '%s'", f->u.str.ptr);
  r->score++;
}

static void check_array(const mp_value *root, const mp_value *s,
                        const mp_value *v, const char *ctx, result *r) {
  size_t n = v->u.arr.len;
  const mp_value *items = kw(s, "items");
  int single = items && (items->kind == MP_VALUE_OBJECT ||
                         items->kind == MP_VALUE_BOOL);
  size_t positional =
      items && items->kind == MP_VALUE_ARRAY ? items->u.arr.len : 0;
  const mp_value *more = kw(s, "additionalItems");
  for (size_t i = 0; i < n; i++) {
    const mp_value *is = single           ? items
                         : i < positional ? items->u.arr.items[i]
                         : positional && more && more->kind == MP_VALUE_OBJECT
                             ? more
                             : NULL;
    if (is == NULL) continue;
    char *c = mp_xasprintf("%s.%zu", ctx, i);
    result sr = sub(root, is, v->u.arr.items[i], c);
    merge(r, &sr);
    drop(&sr);
    free(c);
  }
  if (positional && positional < n && more && more->kind == MP_VALUE_BOOL &&
      !more->u.boolean)
    add(r, ctx, "No additional items allowed on array");
  double m;
  if (num_kw(s, "minItems", &m) && (double)n < m)
    add(r, ctx, "Array must have at least %d items", (int)m);
  if (num_kw(s, "maxItems", &m) && (double)n > m)
    add(r, ctx, "Array must have at most %d items", (int)m);
  const mp_value *u = kw(s, "uniqueItems");
  if (u && u->kind == MP_VALUE_BOOL && u->u.boolean)
    for (size_t j = 1; j < n; j++)
      for (size_t i = j; i-- > 0;) /* gojsonschema names the last equal one */
        if (mp_value_equal(v->u.arr.items[i], v->u.arr.items[j], 0)) {
          add(r, ctx, "array items[%zu,%zu] must be unique", i, j);
          break;
        }
  const mp_value *contains = kw(s, "contains");
  if (contains) {
    result best = {{0}, 0};
    int have_best = 0, one = 0;
    for (size_t i = 0; i < n && !one; i++) {
      char *c = mp_xasprintf("%s.%zu", ctx, i);
      result sr = sub(root, contains, v->u.arr.items[i], c);
      free(c);
      if (sr.errs.len == 0) one = 1;
      if (!one && (!have_best || sr.score > best.score)) {
        if (have_best) drop(&best);
        best = sr;
        have_best = 1;
      } else
        drop(&sr);
    }
    if (!one) {
      add(r, ctx, "At least one of the items must match");
      if (have_best) merge(r, &best);
    }
    if (have_best) drop(&best);
  }
  r->score++;
}

/* Whether |key| matches a pattern of patternProperties (checking its
 * value against each such schema). */
static int pattern_properties(const mp_value *root, const mp_value *s,
                              const char *key, const mp_value *val,
                              const char *ctx, result *r) {
  const mp_value *pp = kw(s, "patternProperties");
  int matched = 0;
  for (size_t i = 0; pp && pp->kind == MP_VALUE_OBJECT && i < pp->u.obj.len;
       i++) {
    if (mp__policy_regex_match(pp->u.obj.items[i].key, key) != 1) continue;
    matched = 1;
    char *c = mp_xasprintf("%s.%s", ctx, key);
    result sr = sub(root, pp->u.obj.items[i].value, val, c);
    merge(r, &sr);
    drop(&sr);
    free(c);
  }
  if (matched) r->score++;
  return matched;
}

static void check_object(const mp_value *root, const mp_value *s,
                         const mp_value *v, const char *ctx, result *r) {
  double m;
  if (num_kw(s, "minProperties", &m) && (double)v->u.obj.len < m)
    add(r, ctx, "Must have at least %d properties", (int)m);
  if (num_kw(s, "maxProperties", &m) && (double)v->u.obj.len > m)
    add(r, ctx, "Must have at most %d properties", (int)m);
  const mp_value *req = kw(s, "required");
  for (size_t i = 0; req && req->kind == MP_VALUE_ARRAY && i < req->u.arr.len;
       i++) {
    const mp_value *k = req->u.arr.items[i];
    if (k->kind != MP_VALUE_STRING) continue;
    if (mp_value_object_get(v, k->u.str.ptr)) r->score++;
    else add(r, ctx, "%s is required", k->u.str.ptr);
  }
  const mp_value *props = kw(s, "properties");
  if (props && props->kind != MP_VALUE_OBJECT) props = NULL;
  const mp_value *extra = kw(s, "additionalProperties");
  for (size_t i = 0; i < v->u.obj.len; i++) {
    const char *key = v->u.obj.items[i].key;
    const mp_value *val = v->u.obj.items[i].value;
    int named = props && mp_value_object_get(props, key);
    int patterned = pattern_properties(root, s, key, val, ctx, r);
    if (named || patterned) continue;
    if (extra && extra->kind == MP_VALUE_BOOL && !extra->u.boolean)
      add(r, ctx, "Additional property %s is not allowed", key);
    else if (extra && extra->kind == MP_VALUE_OBJECT) {
      char *c = mp_xasprintf("%s.%s", ctx, key);
      result sr = sub(root, extra, val, c);
      merge(r, &sr);
      drop(&sr);
      free(c);
    }
  }
  const mp_value *names = kw(s, "propertyNames");
  for (size_t i = 0; names && i < v->u.obj.len; i++) {
    const char *key = v->u.obj.items[i].key;
    mp_value *kv = mp_value_new_cstring(key);
    result sr = sub(root, names, kv, ctx);
    mp_value_free(kv);
    if (sr.errs.len) {
      add(r, ctx, "Property name of \"%s\" does not match", key);
      merge(r, &sr);
    }
    drop(&sr);
  }
  r->score++;
}

/* anyOf, oneOf, allOf, not, dependencies and if/then/else, as
 * gojsonschema's validateSchema runs them. */
static void check_combinators(const mp_value *root, const mp_value *s,
                              const mp_value *v, const char *ctx,
                              result *r) {
  const mp_value *any = kw(s, "anyOf");
  if (any && any->kind == MP_VALUE_ARRAY && any->u.arr.len) {
    result best = {{0}, 0};
    int have_best = 0, ok = 0;
    for (size_t i = 0; i < any->u.arr.len && !ok; i++) {
      result sr = sub(root, any->u.arr.items[i], v, ctx);
      ok = sr.errs.len == 0;
      if (!ok && (!have_best || sr.score > best.score)) {
        if (have_best) drop(&best);
        best = sr;
        have_best = 1;
      } else
        drop(&sr);
    }
    if (!ok) {
      add(r, ctx, "Must validate at least one schema (anyOf)");
      if (have_best) merge(r, &best);
    }
    if (have_best) drop(&best);
  }
  const mp_value *one = kw(s, "oneOf");
  if (one && one->kind == MP_VALUE_ARRAY && one->u.arr.len) {
    result best = {{0}, 0};
    int have_best = 0;
    size_t valid = 0;
    for (size_t i = 0; i < one->u.arr.len; i++) {
      result sr = sub(root, one->u.arr.items[i], v, ctx);
      if (sr.errs.len == 0) valid++;
      else if (valid == 0 && (!have_best || sr.score > best.score)) {
        if (have_best) drop(&best);
        best = sr;
        have_best = 1;
        continue;
      }
      drop(&sr);
    }
    if (valid != 1) {
      add(r, ctx, "Must validate one and only one schema (oneOf)");
      if (valid == 0 && have_best) merge(r, &best);
    }
    if (have_best) drop(&best);
  }
  const mp_value *all = kw(s, "allOf");
  if (all && all->kind == MP_VALUE_ARRAY && all->u.arr.len) {
    size_t valid = 0;
    for (size_t i = 0; i < all->u.arr.len; i++) {
      result sr = sub(root, all->u.arr.items[i], v, ctx);
      if (sr.errs.len == 0) valid++;
      merge(r, &sr);
      drop(&sr);
    }
    if (valid != all->u.arr.len)
      add(r, ctx, "Must validate all the schemas (allOf)");
  }
  const mp_value *not = kw(s, "not");
  if (not && (not->kind == MP_VALUE_OBJECT || not->kind == MP_VALUE_BOOL)) {
    result sr = sub(root, not, v, ctx);
    if (sr.errs.len == 0) add(r, ctx, "Must not validate the schema (not)");
    drop(&sr);
  }
  const mp_value *deps = kw(s, "dependencies");
  for (size_t i = 0; deps && deps->kind == MP_VALUE_OBJECT &&
                     v->kind == MP_VALUE_OBJECT && i < deps->u.obj.len;
       i++) {
    const mp_value *d = deps->u.obj.items[i].value;
    if (!mp_value_object_get(v, deps->u.obj.items[i].key)) continue;
    if (d->kind == MP_VALUE_ARRAY) {
      for (size_t k = 0; k < d->u.arr.len; k++)
        if (d->u.arr.items[k]->kind == MP_VALUE_STRING &&
            !mp_value_object_get(v, d->u.arr.items[k]->u.str.ptr))
          add(r, ctx, "Has a dependency on %s",
              d->u.arr.items[k]->u.str.ptr);
    } else
      validate(root, d, v, ctx, r);
  }
  const mp_value *cond = kw(s, "if");
  if (cond) {
    result ir = sub(root, cond, v, ctx);
    int holds = ir.errs.len == 0;
    drop(&ir);
    const mp_value *then = kw(s, holds ? "then" : "else");
    if (then) {
      result tr = sub(root, then, v, ctx);
      if (tr.errs.len) {
        add(r, ctx, holds ? "Must validate \"then\" as \"if\" was valid"
                          : "Must validate \"else\" as \"if\" was not valid");
        merge(r, &tr);
      }
      drop(&tr);
    }
  }
  r->score++;
}

static void check_common(const mp_value *s, const mp_value *v,
                         const char *ctx, result *r) {
  const char *field = strncmp(ctx, ROOT ".", sizeof(ROOT)) == 0
                          ? ctx + sizeof(ROOT)
                          : ctx;
  const mp_value *c = kw(s, "const");
  if (c && !mp_value_equal(c, v, 0)) {
    char *j = json_of(c);
    add(r, ctx, "%s does not match: %s", field, j);
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
      add(r, ctx, "%s must be one of the following: %s", field, allowed.data);
    mp_buf_destroy(&allowed);
  }
  r->score++;
}

/* gojsonschema's validateRecursive: a boolean schema, a $ref (its
 * siblings ignored), the type, then each group of keywords. */
static void validate(const mp_value *root, const mp_value *s,
                     const mp_value *v, const char *ctx, result *r) {
  if (s == NULL) return;
  if (s->kind == MP_VALUE_BOOL) {
    if (!s->u.boolean) add(r, ctx, "False always fails validation");
    return;
  }
  if (s->kind != MP_VALUE_OBJECT) return;
  if (v->kind == MP_VALUE_SECRET && v->u.secret) v = v->u.secret;
  /* a $ref stands for the schema it points to, its siblings ignored
   * (mp_policy_schema_check resolved every one beforehand); the bound
   * stops references that only point at each other */
  const mp_value *ref;
  for (int hops = 0; (ref = kw(s, "$ref")) && ref->kind == MP_VALUE_STRING;
       hops++) {
    s = resolve_ref(root, ref->u.str.ptr);
    if (s == NULL || hops == 64) return;
    if (s->kind != MP_VALUE_OBJECT) {
      validate(root, s, v, ctx, r);
      return;
    }
  }
  const mp_value *types = kw(s, "type");
  if (types && (types->kind == MP_VALUE_STRING ||
                (types->kind == MP_VALUE_ARRAY && types->u.arr.len))) {
    const char *given = type_of(v);
    int ok = has_type(types, given) ||
             (strcmp(given, "integer") == 0 && has_type(types, "number"));
    if (!ok) {
      char *want = types_text(types);
      add(r, ctx, "Invalid type. Expected: %s, given: %s", want, given);
      free(want);
      return;
    }
  }
  check_combinators(root, s, v, ctx, r);
  switch (v->kind) {
  case MP_VALUE_NUMBER:
    check_number(s, v->u.number, ctx, r);
    check_common(s, v, ctx, r);
    break;
  case MP_VALUE_STRING:
    check_common(s, v, ctx, r);
    check_string(s, v, ctx, r);
    break;
  case MP_VALUE_ARRAY:
    check_array(root, s, v, ctx, r);
    check_common(s, v, ctx, r);
    break;
  case MP_VALUE_OBJECT: {
    check_object(root, s, v, ctx, r);
    check_common(s, v, ctx, r);
    const mp_value *props = kw(s, "properties");
    for (size_t i = 0; props && props->kind == MP_VALUE_OBJECT &&
                       i < props->u.obj.len;
         i++) {
      const mp_value *val = mp_value_object_get(v, props->u.obj.items[i].key);
      if (val == NULL) continue;
      char *c = mp_xasprintf("%s.%s", ctx, props->u.obj.items[i].key);
      validate(root, props->u.obj.items[i].value, val, c, r);
      free(c);
    }
    break;
  }
  default: check_common(s, v, ctx, r); break;
  }
  r->score++;
}

/* What of |s| gojsonschema would refuse to load (the first, as the
 * message |*bad|, owned): a "$ref" of its keywords' schemas (not a
 * referenced schema's siblings) that does not resolve in |root|, a
 * `pattern` or a `patternProperties` key that does not compile. |seen|
 * holds the references followed, as a reference may lead back to
 * itself. */
static void find_refs(const mp_value *root, const mp_value *s, mp_strv *seen,
                      char **bad) {
  if (*bad || s == NULL || s->kind != MP_VALUE_OBJECT) return;
  const mp_value *ref = kw(s, "$ref");
  if (ref && ref->kind == MP_VALUE_STRING) {
    for (size_t i = 0; i < seen->len; i++)
      if (strcmp(seen->items[i], ref->u.str.ptr) == 0) return;
    mp_strv_push(seen, ref->u.str.ptr);
    const mp_value *to = resolve_ref(root, ref->u.str.ptr);
    if (to == NULL)
      *bad = mp_xasprintf("$ref \"%s\" does not point into the policy's "
                          "config schema (only local references, "
                          "\"#/properties/...\", are resolved)",
                          ref->u.str.ptr);
    else find_refs(root, to, seen, bad);
    return;
  }
  const mp_value *pat = kw(s, "pattern");
  if (pat && pat->kind == MP_VALUE_STRING &&
      mp__policy_regex_match(pat->u.str.ptr, "") < 0) {
    *bad = mp_xstrdup("pattern must be a valid regex"); /* gojsonschema's */
    return;
  }
  const mp_value *pp = kw(s, "patternProperties");
  for (size_t i = 0; pp && pp->kind == MP_VALUE_OBJECT && i < pp->u.obj.len;
       i++)
    if (mp__policy_regex_match(pp->u.obj.items[i].key, "") < 0) {
      *bad = mp_xasprintf("Invalid regex pattern '%s'",
                          pp->u.obj.items[i].key);
      return;
    }
  static const char *const one[] = {"not",   "additionalProperties",
                                    "items", "additionalItems",
                                    "if",    "then",
                                    "else",  "contains",
                                    "propertyNames"};
  static const char *const list[] = {"anyOf", "oneOf", "allOf", "items"};
  static const char *const map[] = {"properties", "patternProperties",
                                    "definitions", "dependencies"};
  for (size_t i = 0; i < sizeof(one) / sizeof(one[0]); i++)
    find_refs(root, kw(s, one[i]), seen, bad);
  for (size_t i = 0; i < sizeof(list) / sizeof(list[0]); i++) {
    const mp_value *l = kw(s, list[i]);
    for (size_t k = 0; l && l->kind == MP_VALUE_ARRAY && k < l->u.arr.len;
         k++)
      find_refs(root, l->u.arr.items[k], seen, bad);
  }
  for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
    const mp_value *m = kw(s, map[i]);
    for (size_t k = 0; m && m->kind == MP_VALUE_OBJECT && k < m->u.obj.len;
         k++)
      find_refs(root, m->u.obj.items[k].value, seen, bad);
  }
}

int mp_policy_schema_check(const mp_value *properties,
                           const mp_value *required, const mp_value *config,
                           mp_strv *errs, mp_err *err) {
  mp_value *schema = mp_value_new_object();
  mp_value_object_set(schema, "type", mp_value_new_cstring("object"));
  if (properties && properties->kind == MP_VALUE_OBJECT &&
      properties->u.obj.len)
    mp_value_object_set(schema, "properties", mp_value_dup(properties));
  if (required && required->kind == MP_VALUE_ARRAY && required->u.arr.len)
    mp_value_object_set(schema, "required", mp_value_dup(required));
  mp_strv seen;
  mp_strv_init(&seen);
  char *bad = NULL;
  find_refs(schema, schema, &seen, &bad);
  int rc = 0;
  if (bad)
    rc = mp_err_set(err, MP_EINVAL, "%s", bad);
  else {
    result r = sub(schema, schema, config, ROOT);
    for (size_t i = 0; i < r.errs.len; i++)
      mp_strv_push(errs, r.errs.items[i]);
    drop(&r);
  }
  free(bad);
  mp_strv_destroy(&seen);
  mp_value_free(schema);
  return rc;
}
