/* The checkpoint JSON encoding of property values
 * (tests/conformance/scenarios/S16-secrets.scn). */
#include "engine/value.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/crypto.h"
#include "engine/json_nul.h"
#include "engine/text.h"
#include "engine/value_int.h"
#include "engine/value_json_int.h"


/* ==== Printing ==== */

/* Writes |d| as JSON: integral values without a fraction, others in the
 * shortest %g form that reads back to the same double. */
static void format_number(double d, char *buf, size_t n) {
  if (d == floor(d) && fabs(d) < 1e18 && !(d == 0 && signbit(d)) && n >= 21) {
    /* An integer that int64 holds exactly: what "%.0f" writes, without
     * printf's floating-point path (most numbers in a state are these). */
    long long v = (long long)d;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v
                                 : (unsigned long long)v;
    char tmp[24];
    size_t i = sizeof(tmp);
    do {
      tmp[--i] = (char)('0' + u % 10);
      u /= 10;
    } while (u > 0);
    if (v < 0) tmp[--i] = '-';
    memcpy(buf, tmp + i, sizeof(tmp) - i);
    buf[sizeof(tmp) - i] = '\0';
    return;
  }
  if (d == floor(d) && fabs(d) < 1e21) {
    snprintf(buf, n, "%.0f", d);
    return;
  }
  for (int p = 1; p <= 17; p++) {
    snprintf(buf, n, "%.*g", p, d);
    if (strtod(buf, NULL) == d)
      return;
  }
}

/* Writes |s| as a JSON string. Runs of bytes that need no escape go out
 * in one append: a byte at a time made a 100 MiB value cost seconds. */
void mp_json_put_string(mp_buf *out, const char *s, size_t len) {
  mp_buf_putc(out, '"');
  size_t run = 0; /* start of the pending run of plain bytes */
  for (size_t i = 0; i < len; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (ch >= 0x20 && ch != '"' && ch != '\\')
      continue;
    mp_buf_append(out, s + run, i - run);
    run = i + 1;
    switch (ch) {
    case '"':
      mp_buf_puts(out, "\\\"");
      break;
    case '\\':
      mp_buf_puts(out, "\\\\");
      break;
    case '\n':
      mp_buf_puts(out, "\\n");
      break;
    case '\r':
      mp_buf_puts(out, "\\r");
      break;
    case '\t':
      mp_buf_puts(out, "\\t");
      break;
    case '\b':
      mp_buf_puts(out, "\\b");
      break;
    case '\f':
      mp_buf_puts(out, "\\f");
      break;
    default:
      mp_buf_printf(out, "\\u%04x", ch);
    }
  }
  mp_buf_append(out, s + run, len - run);
  mp_buf_putc(out, '"');
}

static void put_indent(mp_buf *out, int pretty, int depth) {
  if (!pretty)
    return;
  mp_buf_putc(out, '\n');
  for (int i = 0; i < depth; i++)
    mp_buf_puts(out, "  ");
}

static void print_item(const cJSON *j, int pretty, int depth, mp_buf *out);

static void print_container(const cJSON *j, int pretty, int depth,
                            mp_buf *out) {
  int is_obj = cJSON_IsObject(j);
  mp_buf_putc(out, is_obj ? '{' : '[');
  if (j->child == NULL) {
    mp_buf_putc(out, is_obj ? '}' : ']');
    return;
  }
  for (const cJSON *c = j->child; c != NULL; c = c->next) {
    put_indent(out, pretty, depth + 1);
    if (is_obj) {
      const char *k = c->string ? c->string : "";
      char *bytes = NULL;
      size_t n = (c->type & MP__CJSON_KEY_STUFFED)
                     ? mp__json_unstuff(k, &bytes)
                     : 0;
      mp_json_put_string(out, bytes ? bytes : k, bytes ? n : strlen(k));
      free(bytes);
      mp_buf_puts(out, pretty ? ": " : ":");
    }
    print_item(c, pretty, depth + 1, out);
    if (c->next)
      mp_buf_putc(out, ',');
  }
  put_indent(out, pretty, depth);
  mp_buf_putc(out, is_obj ? '}' : ']');
}

static void print_item(const cJSON *j, int pretty, int depth, mp_buf *out) {
  char num[64];
  switch (j->type & 0xff) {
  case cJSON_False:
    mp_buf_puts(out, "false");
    break;
  case cJSON_True:
    mp_buf_puts(out, "true");
    break;
  case cJSON_Number:
    if (!isfinite(j->valuedouble)) {
      mp_buf_puts(out, "null");
      break;
    }
    format_number(j->valuedouble, num, sizeof(num));
    mp_buf_puts(out, num);
    break;
  case cJSON_String:
    mp_json_put_string(out, j->valuestring ? j->valuestring : "",
                j->valuestring ? strlen(j->valuestring) : 0);
    break;
  case cJSON_Raw:
    mp_buf_puts(out, j->valuestring ? j->valuestring : "");
    break;
  case cJSON_Array:
  case cJSON_Object:
    print_container(j, pretty, depth, out);
    break;
  default:
    mp_buf_puts(out, "null");
    break;
  }
}

void mp__cjson_print(const cJSON *j, unsigned flags, mp_buf *out) {
  if (j == NULL) {
    mp_buf_puts(out, "null");
    return;
  }
  print_item(j, (flags & MP_JSON_PRETTY) != 0, 0, out);
}

/* ==== Encoding ==== */

typedef struct enc_ctx {
  const mp_crypter *crypter;
  unsigned flags;
  int in_secret; /* inside an encrypted secret: nested ones are not
                    encrypted again (Go's NopEncrypter) */
} enc_ctx;

static int encode(const mp_value *v, enc_ctx *cx, cJSON **out, mp_err *err);

static cJSON *sig_object(const char *sig) {
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, MP_SIG_KEY, sig);
  return o;
}

static void add_opt_string(cJSON *o, const char *key, const char *s) {
  if (s != NULL)
    cJSON_AddStringToObject(o, key, s);
}

static cJSON *encode_number(double d) {
  char buf[64];
  if (!isfinite(d)) {
    uint64_t bits;
    memcpy(&bits, &d, sizeof(bits));
    snprintf(buf, sizeof(buf), "%016llx", (unsigned long long)bits);
    cJSON *o = sig_object(MP__SIG_NONFINITE);
    cJSON_AddStringToObject(o, "value", buf);
    return o;
  }
  format_number(d, buf, sizeof(buf));
  return cJSON_CreateRaw(buf);
}

static cJSON *encode_string(const mp_value *v) {
  if (mp_utf8_invalid_at(v->u.str.ptr, v->u.str.len) != v->u.str.len) {
    /* Bytes that are not UTF-8: a byte string, as Pulumi writes one. */
    mp_buf b;
    mp_buf_init(&b);
    mp_base64_encode((const unsigned char *)v->u.str.ptr, v->u.str.len, &b);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, MP_SIG_KEY, MP_SIG_BYTE_STRING);
    cJSON_AddStringToObject(o, "value", b.data ? b.data : "");
    mp_buf_destroy(&b);
    return o;
  }
  char *marked = mp__json_stuff(v->u.str.ptr, v->u.str.len);
  if (marked == NULL)
    return cJSON_CreateString(v->u.str.ptr);
  free(marked);
  /* Embedded NULs (or markers, json_nul.h): cJSON strings cannot hold
   * them, so write the escaped text ourselves. */
  mp_buf b;
  mp_buf_init(&b);
  mp_json_put_string(&b, v->u.str.ptr, v->u.str.len);
  cJSON *r = cJSON_CreateRaw(b.data);
  mp_buf_destroy(&b);
  return r;
}

/* Encodes every item of ARRAY/OBJECT |v| into the container |dst|. */
static int encode_children(const mp_value *v, enc_ctx *cx, cJSON *dst,
                           mp_err *err) {
  int is_obj = v->kind == MP_VALUE_OBJECT;
  size_t n = is_obj ? v->u.obj.len : v->u.arr.len;
  for (size_t i = 0; i < n; i++) {
    cJSON *c = NULL;
    const mp_value *item = is_obj ? v->u.obj.items[i].value : v->u.arr.items[i];
    int rc = encode(item, cx, &c, err);
    if (rc != 0)
      return rc;
    if (is_obj) {
      const mp_value_entry *e = &v->u.obj.items[i];
      char *marked = mp__json_stuff(e->key, e->key_len);
      cJSON_AddItemToObject(dst, marked ? marked : e->key, c);
      if (marked)
        c->type |= MP__CJSON_KEY_STUFFED;
      free(marked);
    } else
      cJSON_AddItemToArray(dst, c);
  }
  return 0;
}

static int encode_archive(const mp_value *v, enc_ctx *cx, cJSON **out,
                          mp_err *err) {
  cJSON *o = sig_object(MP_SIG_ARCHIVE);
  if (v->u.archive.assets != NULL) {
    cJSON *a = NULL;
    int rc = encode(v->u.archive.assets, cx, &a, err);
    if (rc != 0) {
      cJSON_Delete(o);
      return rc;
    }
    cJSON_AddItemToObject(o, "assets", a);
  }
  add_opt_string(o, "hash", v->u.archive.hash);
  add_opt_string(o, "path", v->u.archive.path);
  add_opt_string(o, "uri", v->u.archive.uri);
  *out = o;
  return 0;
}

static int encode_secret(const mp_value *v, enc_ctx *cx, cJSON **out,
                         mp_err *err) {
  enc_ctx inner = *cx;
  inner.in_secret = 1;
  cJSON *j = NULL;
  int rc = encode(v->u.secret, &inner, &j, err);
  if (rc != 0)
    return rc;
  mp_buf text;
  mp_buf_init(&text);
  mp__cjson_print(j, 0, &text);
  cJSON_Delete(j);
  const char *field = "ciphertext";
  if (cx->flags & MP_JSON_SHOW_SECRETS) {
    field = "plaintext";
  } else if (!cx->in_secret) {
    if (cx->crypter == NULL) {
      mp_buf_destroy(&text);
      return mp_err_set(err, MP_EINVAL,
                        "cannot encrypt a secret value: no secrets manager "
                        "is configured for this stack");
    }
    mp_buf cipher;
    mp_buf_init(&cipher);
    rc = cx->crypter->encrypt(cx->crypter->ctx, text.data ? text.data : "",
                              text.len, &cipher, err);
    mp_buf_destroy(&text);
    if (rc != 0) {
      mp_buf_destroy(&cipher);
      return mp_err_prefix(err, "cannot encrypt a secret value");
    }
    text = cipher;
  }
  cJSON *o = sig_object(MP_SIG_SECRET);
  cJSON_AddStringToObject(o, field, text.data ? text.data : "");
  mp_buf_destroy(&text);
  *out = o;
  return 0;
}

static int encode_output(const mp_value *v, enc_ctx *cx, cJSON **out,
                         mp_err *err) {
  cJSON *o = sig_object(MP_SIG_OUTPUT);
  if (v->u.output.deps.len > 0) {
    cJSON *deps = cJSON_AddArrayToObject(o, "dependencies");
    for (size_t i = 0; i < v->u.output.deps.len; i++)
      cJSON_AddItemToArray(deps, cJSON_CreateString(v->u.output.deps.items[i]));
  }
  if (v->u.output.secret)
    cJSON_AddTrueToObject(o, "secret");
  if (v->u.output.value != NULL) {
    /* A secret output's value is written as a secret so that it is
     * encrypted like any other secret; decoding unwraps it again. */
    mp_value tmp = {.kind = MP_VALUE_SECRET};
    const mp_value *val = v->u.output.value;
    if (v->u.output.secret && val->kind != MP_VALUE_SECRET) {
      tmp.u.secret = v->u.output.value;
      val = &tmp;
    }
    cJSON *j = NULL;
    int rc = encode(val, cx, &j, err);
    if (rc != 0) {
      cJSON_Delete(o);
      return rc;
    }
    cJSON_AddItemToObject(o, "value", j);
  }
  *out = o;
  return 0;
}

static int encode(const mp_value *v, enc_ctx *cx, cJSON **out, mp_err *err) {
  cJSON *o = NULL;
  if (v == NULL) {
    *out = cJSON_CreateNull();
    return 0;
  }
  switch (v->kind) {
  case MP_VALUE_NULL:
    o = cJSON_CreateNull();
    break;
  case MP_VALUE_BOOL:
    o = cJSON_CreateBool(v->u.boolean);
    break;
  case MP_VALUE_NUMBER:
    o = encode_number(v->u.number);
    break;
  case MP_VALUE_STRING:
    o = encode_string(v);
    break;
  case MP_VALUE_UNKNOWN:
    o = cJSON_CreateString(MP_UNKNOWN_SENTINEL);
    break;
  case MP_VALUE_ARRAY:
  case MP_VALUE_OBJECT: {
    o = v->kind == MP_VALUE_ARRAY ? cJSON_CreateArray() : cJSON_CreateObject();
    int rc = encode_children(v, cx, o, err);
    if (rc != 0) {
      cJSON_Delete(o);
      return rc;
    }
    break;
  }
  case MP_VALUE_ASSET:
    o = sig_object(MP_SIG_ASSET);
    add_opt_string(o, "hash", v->u.asset.hash);
    add_opt_string(o, "path", v->u.asset.path);
    add_opt_string(o, "text", v->u.asset.text);
    add_opt_string(o, "uri", v->u.asset.uri);
    break;
  case MP_VALUE_ARCHIVE:
    return encode_archive(v, cx, out, err);
  case MP_VALUE_RESOURCE_REF:
    o = sig_object(MP_SIG_RESOURCE_REF);
    add_opt_string(o, "id", v->u.ref.id);
    add_opt_string(o, "packageVersion", v->u.ref.package_version);
    cJSON_AddStringToObject(o, "urn", v->u.ref.urn);
    break;
  case MP_VALUE_SECRET:
    return encode_secret(v, cx, out, err);
  case MP_VALUE_OUTPUT:
    return encode_output(v, cx, out, err);
  }
  *out = o;
  return 0;
}

int mp__value_to_cjson(const mp_value *v, const mp_crypter *c, unsigned flags,
                       cJSON **out, mp_err *err) {
  enc_ctx cx = {c, flags, 0};
  *out = NULL;
  return encode(v, &cx, out, err);
}

int mp_value_to_json(const mp_value *v, const mp_crypter *c, unsigned flags,
                     mp_buf *out, mp_err *err) {
  cJSON *j = NULL;
  int rc = mp__value_to_cjson(v, c, flags, &j, err);
  if (rc != 0)
    return rc;
  mp__cjson_print(j, flags, out);
  cJSON_Delete(j);
  return 0;
}

/* ==== Decoding ==== */

/* The plain tree of |j| (no signature decoding; value_sig.c does that).
 * Deeper than the decoder accepts, a subtree is cut to a null: the
 * decoder refuses the node above it, naming its path. */
static int plain_of(const cJSON *j, int depth, mp_value **out, mp_err *err) {
  if (depth > MP_VALUE_MAX_DEPTH) {
    *out = mp_value_new_null();
    return 0;
  }
  switch (j->type & 0xff) {
  case cJSON_False:
  case cJSON_True:
    *out = mp_value_new_bool((j->type & 0xff) == cJSON_True);
    return 0;
  case cJSON_Number:
    *out = mp_value_new_number(j->valuedouble);
    return 0;
  case cJSON_String: {
    const char *t = j->valuestring ? j->valuestring : "";
    char *bytes = NULL;
    size_t n = mp__json_unstuff(t, &bytes);
    *out = bytes ? mp_value_new_string(bytes, n) : mp_value_new_cstring(t);
    free(bytes);
    return 0;
  }
  case cJSON_Raw: {
    const char *raw = j->valuestring ? j->valuestring : "";
    cJSON *p = mp__cjson_parse(raw, strlen(raw), NULL);
    if (p == NULL) {
      mp_buf none = {0};
      return mp__value_dec_fail(&none, MP_EINVAL, err,
                                "raw JSON item is not valid JSON");
    }
    int rc = plain_of(p, depth, out, err);
    cJSON_Delete(p);
    return rc;
  }
  case cJSON_Array:
  case cJSON_Object: {
    int is_obj = cJSON_IsObject(j);
    mp_value *v = is_obj ? mp_value_new_object() : mp_value_new_array();
    for (const cJSON *c = j->child; c != NULL; c = c->next) {
      mp_value *item = NULL;
      int rc = plain_of(c, depth + 1, &item, err);
      if (rc != 0) {
        mp_value_free(v);
        return rc;
      }
      if (is_obj) {
        const char *k = c->string ? c->string : "";
        char *bytes = NULL;
        size_t n = mp__json_unstuff(k, &bytes);
        mp_value_object_setn(v, bytes ? bytes : k, bytes ? n : strlen(k), item);
        free(bytes);
      } else {
        mp_value_array_push(v, item);
      }
    }
    *out = v;
    return 0;
  }
  default:
    *out = mp_value_new_null();
    return 0;
  }
}

int mp__value_plain_from_json(const char *text, size_t len, mp_value **out) {
  const char *end = NULL;
  cJSON *j = mp__cjson_parse(text, len, &end);
  if (j == NULL) return -1;
  int rc = plain_of(j, 0, out, NULL);
  cJSON_Delete(j);
  return rc < 0 ? -1 : 0;
}

int mp__value_from_cjson(const cJSON *j, const mp_crypter *c, mp_value **out,
                         mp_err *err) {
  *out = NULL;
  if (j == NULL) {
    *out = mp_value_new_null();
    return 0;
  }
  mp_value *plain = NULL;
  int rc = plain_of(j, 0, &plain, err);
  if (rc != 0) return rc;
  mp__sig_opts o = {.code = MP_EINVAL, .checkpoint = 1, .crypter = c};
  return mp__value_decode_sigs(plain, &o, out, err);
}

/* Describes where cJSON stopped parsing |text|. */
static int syntax_error(const char *text, size_t len, const char *end,
                        mp_err *err) {
  size_t off =
      end && end >= text && end <= text + len ? (size_t)(end - text) : 0;
  size_t rest = off;
  while (rest < len && strchr(" \t\r\n", text[rest]) && text[rest] != '\0')
    rest++;
  if (rest >= len)
    return mp_err_set(err, MP_EINVAL,
                      "cannot parse property value JSON: unexpected end of "
                      "input at offset %zu",
                      rest);
  size_t n = len - off < 20 ? len - off : 20;
  return mp_err_set(err, MP_EINVAL,
                    "cannot parse property value JSON: syntax error at "
                    "offset %zu near '%.*s'",
                    off, (int)n, text + off);
}

int mp_value_from_json(const char *text, size_t len, const mp_crypter *c,
                       mp_value **out, mp_err *err) {
  const char *end = NULL;
  *out = NULL;
  cJSON *j = mp__cjson_parse(text, len, &end);
  if (j == NULL)
    return syntax_error(text, len, end, err);
  size_t off = (size_t)(end - text);
  while (off < len && strchr(" \t\r\n", text[off]) && text[off] != '\0')
    off++;
  if (off < len) {
    cJSON_Delete(j);
    return mp_err_set(err, MP_EINVAL,
                      "cannot parse property value JSON: unexpected trailing "
                      "data at offset %zu",
                      off);
  }
  int rc = mp__value_from_cjson(j, c, out, err);
  cJSON_Delete(j);
  return rc;
}

/* ==== A crypter that keeps ciphertext ==== */

/* "Decrypts" by wrapping the ciphertext as a JSON string, so the secret's
 * value is the ciphertext itself; never sees a key. */
static int keep_decrypt(void *ctx, const char *cipher, size_t len, mp_buf *out,
                        mp_err *err) {
  (void)ctx;
  (void)err;
  mp_json_put_string(out, cipher, len);
  return 0;
}

/* The reverse: accepts only what keep_decrypt made (a JSON string) and
 * gives its text back as the ciphertext. */
static int keep_encrypt(void *ctx, const char *plain, size_t len, mp_buf *out,
                        mp_err *err) {
  (void)ctx;
  cJSON *j = cJSON_ParseWithLength(plain, len);
  int rc = 0;
  if (cJSON_IsString(j))
    mp_buf_puts(out, j->valuestring);
  else
    rc = mp_err_set(err, MP_EINVAL,
                    "cannot encrypt a new secret value without the stack's "
                    "secrets manager");
  cJSON_Delete(j);
  return rc;
}

mp_crypter mp_crypter_keep_ciphertext(void) {
  mp_crypter c = {keep_encrypt, keep_decrypt, NULL, NULL};
  return c;
}
