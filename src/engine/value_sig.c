/* The signature-decoding pass shared by the checkpoint JSON and the gRPC
 * protobuf codecs (value_int.h): each codec reads its format into a plain
 * tree, and this pass turns the signature objects in it into values, in
 * place. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/value_int.h"


typedef struct sig_ctx {
  const mp__sig_opts *o;
  int in_secret; /* checkpoint: nested secrets carry plaintext as
                    "ciphertext" */
  int depth;
  mp_buf path; /* property path of the node being decoded, for errors */
} sig_ctx;

static int decode(sig_ctx *cx, mp_value *v, mp_value **out, mp_err *err);

static int fail(sig_ctx *cx, mp_err *err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(sig_ctx *cx, mp_err *err, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  return mp__value_dec_fail(&cx->path, cx->o->code, err, msg);
}

/* Optional string member |key| of OBJECT |o| into *dst (NULL if absent
 * or null). */
static int opt_string(sig_ctx *cx, const mp_value *o, const char *key,
                      const char **dst, mp_err *err) {
  const mp_value *m = mp_value_object_get(o, key);
  *dst = NULL;
  if (m == NULL || m->kind == MP_VALUE_NULL) return 0;
  if (m->kind != MP_VALUE_STRING)
    return fail(cx, err, "field '%s' must be a string", key);
  *dst = m->u.str.ptr;
  return 0;
}

/* Decodes the member |key| of |o| (taken out of it); an absent member is
 * NULL in *out. */
static int decode_member(sig_ctx *cx, mp_value *o, const char *key,
                         mp_value **out, mp_err *err) {
  mp_value *m = mp_value_object_take(o, key);
  *out = NULL;
  return m ? decode(cx, m, out, err) : 0;
}

/* ---- secrets ---- */

/* Checkpoint: the JSON text of a secret's inner value. */
static int secret_text(sig_ctx *cx, const char *text, size_t len,
                       mp_value **out, mp_err *err) {
  mp_value *plain = NULL;
  if (mp__value_plain_from_json(text, len, &plain) < 0)
    return fail(cx, err, "the secret's plaintext is not valid JSON");
  int saved = cx->in_secret;
  cx->in_secret = 1;
  mp_value *inner = NULL;
  int rc = decode(cx, plain, &inner, err);
  cx->in_secret = saved;
  if (rc != 0) return rc;
  *out = mp_value_new_secret(inner);
  return 0;
}

static int checkpoint_secret(sig_ctx *cx, const mp_value *o, mp_value **out,
                             mp_err *err) {
  const char *plain = NULL, *cipher = NULL;
  int rc = opt_string(cx, o, "plaintext", &plain, err);
  if (rc == 0) rc = opt_string(cx, o, "ciphertext", &cipher, err);
  if (rc != 0) return rc;
  if (plain != NULL) return secret_text(cx, plain, strlen(plain), out, err);
  if (cipher == NULL)
    return fail(cx, err, "secret has neither 'ciphertext' nor 'plaintext'");
  if (cx->in_secret) return secret_text(cx, cipher, strlen(cipher), out, err);
  /* No crypter means the state names no secrets manager (a passphrase
   * that is only missing fails later, when the key is derived): telling
   * the user to set the passphrase would send them the wrong way. */
  const mp_crypter *c = cx->o->crypter;
  if (c == NULL)
    return fail(cx, err,
                "failed to decrypt: snapshot contains encrypted secrets but "
                "no secrets manager could be found");
  mp_buf text;
  mp_buf_init(&text);
  rc = c->decrypt(c->ctx, cipher, strlen(cipher), &text, err);
  if (rc != 0) {
    mp_buf_destroy(&text);
    if (cx->path.len)
      return mp_err_prefix(err, "cannot decrypt the secret at '%s'",
                           cx->path.data);
    return mp_err_prefix(err, "cannot decrypt a secret value");
  }
  rc = secret_text(cx, text.data ? text.data : "", text.len, out, err);
  mp_buf_destroy(&text);
  return rc;
}

static int decode_secret(sig_ctx *cx, mp_value *o, mp_value **out,
                         mp_err *err) {
  if (cx->o->checkpoint) return checkpoint_secret(cx, o, out, err);
  mp_value *inner = NULL;
  int rc = decode_member(cx, o, "value", &inner, err);
  if (rc != 0) return rc;
  *out = mp_value_new_secret(inner ? inner : mp_value_new_null());
  return 0;
}

/* ---- assets, archives, references ---- */

static int decode_asset(sig_ctx *cx, mp_value *o, mp_value **out,
                        mp_err *err) {
  const char *hash, *text, *path, *uri;
  int rc;
  if ((rc = opt_string(cx, o, "hash", &hash, err)) != 0 ||
      (rc = opt_string(cx, o, "text", &text, err)) != 0 ||
      (rc = opt_string(cx, o, "path", &path, err)) != 0 ||
      (rc = opt_string(cx, o, "uri", &uri, err)) != 0)
    return rc;
  *out = mp_value_new_asset(hash, text, path, uri);
  return 0;
}

static int decode_fields(sig_ctx *cx, mp_value *obj, mp_err *err);

static int decode_archive(sig_ctx *cx, mp_value *o, mp_value **out,
                          mp_err *err) {
  const char *hash, *path, *uri;
  int rc;
  if ((rc = opt_string(cx, o, "hash", &hash, err)) != 0 ||
      (rc = opt_string(cx, o, "path", &path, err)) != 0 ||
      (rc = opt_string(cx, o, "uri", &uri, err)) != 0)
    return rc;
  mp_value *assets = mp_value_object_take(o, "assets");
  if (assets != NULL && assets->kind == MP_VALUE_NULL) {
    mp_value_free(assets);
    assets = NULL;
  }
  if (assets != NULL && assets->kind != MP_VALUE_OBJECT) {
    mp_value_free(assets);
    return fail(cx, err, "archive field 'assets' must be an object");
  }
  if (assets != NULL && (rc = decode_fields(cx, assets, err)) != 0) {
    mp_value_free(assets);
    return rc;
  }
  *out = mp_value_new_archive(hash, assets, path, uri);
  return 0;
}

static int decode_ref(sig_ctx *cx, mp_value *o, mp_value **out, mp_err *err) {
  const char *urn, *id, *pv;
  int rc;
  if ((rc = opt_string(cx, o, "urn", &urn, err)) != 0 ||
      (rc = opt_string(cx, o, "id", &id, err)) != 0 ||
      (rc = opt_string(cx, o, "packageVersion", &pv, err)) != 0)
    return rc;
  /* The wire refuses an empty URN too; the checkpoint keeps what it has. */
  if (urn == NULL || (!cx->o->checkpoint && urn[0] == '\0'))
    return fail(cx, err, "resource reference has no 'urn'");
  if (id != NULL && strcmp(id, MP_UNKNOWN_SENTINEL) == 0) id = "";
  *out = mp_value_new_ref(urn, id, pv);
  return 0;
}

/* ---- output values ---- */

static int decode_deps(sig_ctx *cx, const mp_value *d, mp_strv *deps,
                       mp_err *err) {
  if (d == NULL || d->kind == MP_VALUE_NULL) return 0;
  if (d->kind != MP_VALUE_ARRAY)
    return fail(cx, err, "output 'dependencies' must be a list of URNs");
  for (size_t i = 0; i < d->u.arr.len; i++) {
    const mp_value *e = d->u.arr.items[i];
    if (e->kind != MP_VALUE_STRING)
      return fail(cx, err, "output 'dependencies' must be a list of URNs");
    mp_strv_push(deps, e->u.str.ptr);
  }
  return 0;
}

static int decode_output(sig_ctx *cx, mp_value *o, mp_value **out,
                         mp_err *err) {
  const mp_value *s = mp_value_object_get(o, "secret");
  if (s != NULL && s->kind != MP_VALUE_BOOL && s->kind != MP_VALUE_NULL)
    return fail(cx, err, "output field 'secret' must be a boolean");
  int secret = s != NULL && s->kind == MP_VALUE_BOOL && s->u.boolean;
  mp_strv deps;
  mp_strv_init(&deps);
  mp_value *val = NULL;
  int rc = decode_deps(cx, mp_value_object_get(o, "dependencies"), &deps, err);
  if (rc == 0) rc = decode_member(cx, o, "value", &val, err);
  if (rc != 0) {
    mp_strv_destroy(&deps);
    return rc;
  }
  if (val != NULL && val->kind == MP_VALUE_UNKNOWN) {
    mp_value_free(val);
    val = NULL;
  }
  if (val != NULL && val->kind == MP_VALUE_SECRET) {
    /* A secret output's value is written as a secret (the checkpoint
     * encrypts it like any other): the output is secret. */
    mp_value *inner = val->u.secret;
    val->u.secret = NULL;
    mp_value_free(val);
    val = inner;
    secret = 1;
  }
  *out = mp_value_new_output(val, secret, &deps);
  mp_strv_destroy(&deps);
  return 0;
}

/* ---- the checkpoint's own encodings ---- */

static int decode_nonfinite(sig_ctx *cx, const mp_value *o, mp_value **out,
                            mp_err *err) {
  const char *hex;
  int rc = opt_string(cx, o, "value", &hex, err);
  if (rc != 0) return rc;
  char *end = NULL;
  if (hex == NULL || strlen(hex) != 16)
    return fail(cx, err, "number encoding needs 16 hex digits in 'value'");
  unsigned long long bits = strtoull(hex, &end, 16);
  if (*end != '\0')
    return fail(cx, err, "number encoding needs 16 hex digits in 'value'");
  uint64_t b64 = bits;
  double d;
  memcpy(&d, &b64, sizeof(d));
  *out = mp_value_new_number(d);
  return 0;
}

static int b64_digit(int c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+' || c == '-') return 62;
  if (c == '/' || c == '_') return 63;
  return -1;
}

static int decode_byte_string(sig_ctx *cx, const mp_value *o, mp_value **out,
                              mp_err *err) {
  const char *s;
  int rc = opt_string(cx, o, "value", &s, err);
  if (rc != 0) return rc;
  if (s == NULL) return fail(cx, err, "byte string has no 'value'");
  mp_buf b;
  mp_buf_init(&b);
  unsigned acc = 0;
  int nbits = 0;
  for (const char *p = s; *p && *p != '='; p++) {
    int d = b64_digit((unsigned char)*p);
    if (d < 0) {
      mp_buf_destroy(&b);
      return fail(cx, err, "byte string 'value' is not valid base64");
    }
    acc = (acc << 6) | (unsigned)d;
    nbits += 6;
    if (nbits >= 8) {
      nbits -= 8;
      mp_buf_putc(&b, (char)((acc >> nbits) & 0xff));
    }
  }
  *out = mp_value_new_string(b.data ? b.data : "", b.len);
  mp_buf_destroy(&b);
  return 0;
}

/* ---- the walk ---- */

static int decode_signature(sig_ctx *cx, mp_value *o, const char *sig,
                            mp_value **out, mp_err *err) {
  if (strcmp(sig, MP_SIG_SECRET) == 0) return decode_secret(cx, o, out, err);
  if (strcmp(sig, MP_SIG_ASSET) == 0) return decode_asset(cx, o, out, err);
  if (strcmp(sig, MP_SIG_ARCHIVE) == 0) return decode_archive(cx, o, out, err);
  if (strcmp(sig, MP_SIG_RESOURCE_REF) == 0)
    return decode_ref(cx, o, out, err);
  if (strcmp(sig, MP_SIG_OUTPUT) == 0) return decode_output(cx, o, out, err);
  if (cx->o->checkpoint && strcmp(sig, MP__SIG_NONFINITE) == 0)
    return decode_nonfinite(cx, o, out, err);
  if (strcmp(sig, MP_SIG_BYTE_STRING) == 0)
    return decode_byte_string(cx, o, out, err);
  return fail(cx, err, "unrecognized signature '%s'%s", sig,
              cx->o->checkpoint ? "; the state may come from a newer Pulumi "
                                  "version"
                                : "");
}

/* Decodes the child |*slot| (taken and replaced) named |key| (an object's)
 * or at |index| (an array's). On failure the slot holds a null. */
static int decode_child(sig_ctx *cx, mp_value **slot, const char *key,
                        size_t index, mp_err *err) {
  size_t saved = cx->path.len;
  if (key != NULL && saved > 0) mp_buf_putc(&cx->path, '.');
  if (key != NULL) mp_buf_puts(&cx->path, key);
  else mp_buf_printf(&cx->path, "[%zu]", index);
  mp_value *child = *slot;
  *slot = NULL;
  int rc = decode(cx, child, slot, err);
  if (rc != 0) *slot = mp_value_new_null();
  cx->path.len = saved;
  cx->path.data[saved] = '\0';
  return rc;
}

/* Decodes every member of OBJECT |obj| in place. */
static int decode_fields(sig_ctx *cx, mp_value *obj, mp_err *err) {
  for (size_t i = 0; i < obj->u.obj.len; i++) {
    mp_value_entry *e = &obj->u.obj.items[i];
    int rc = decode_child(cx, &e->value, e->key, 0, err);
    if (rc != 0) return rc;
  }
  return 0;
}

static int decode_node(sig_ctx *cx, mp_value *v, mp_value **out,
                       mp_err *err) {
  int rc = 0;
  switch (v->kind) {
  case MP_VALUE_STRING:
    if (strcmp(v->u.str.ptr, MP_UNKNOWN_SENTINEL) == 0) {
      mp_value_free(v);
      v = mp_value_new_unknown();
    }
    break;
  case MP_VALUE_ARRAY:
    for (size_t i = 0; i < v->u.arr.len && rc == 0; i++)
      rc = decode_child(cx, &v->u.arr.items[i], NULL, i, err);
    break;
  case MP_VALUE_OBJECT: {
    const mp_value *sig = mp_value_object_get(v, MP_SIG_KEY);
    if (sig == NULL) {
      rc = decode_fields(cx, v, err);
      break;
    }
    if (sig->kind != MP_VALUE_STRING) {
      rc = fail(cx, err, "the signature key's value must be a string");
      break;
    }
    mp_value *r = NULL;
    rc = decode_signature(cx, v, sig->u.str.ptr, &r, err);
    mp_value_free(v);
    v = r;
    break;
  }
  default:
    break;
  }
  if (rc != 0) {
    mp_value_free(v);
    return rc;
  }
  *out = v;
  return 0;
}

static int decode(sig_ctx *cx, mp_value *v, mp_value **out, mp_err *err) {
  if (cx->depth >= MP_VALUE_MAX_DEPTH) {
    mp_value_free(v);
    return fail(cx, err, "nested more than %d levels deep",
                MP_VALUE_MAX_DEPTH);
  }
  cx->depth++;
  int rc = decode_node(cx, v, out, err);
  cx->depth--;
  return rc;
}

int mp__value_decode_sigs(mp_value *plain, const mp__sig_opts *o,
                          mp_value **out, mp_err *err) {
  *out = NULL;
  sig_ctx cx = {.o = o};
  mp_buf_init(&cx.path);
  mp_buf_puts(&cx.path, ""); /* allocate so that truncation can write */
  int rc;
  if (o->top_fields && plain->kind == MP_VALUE_OBJECT) {
    rc = decode_fields(&cx, plain, err);
    if (rc == 0) *out = plain;
    else mp_value_free(plain);
  } else {
    rc = decode(&cx, plain, out, err);
  }
  mp_buf_destroy(&cx.path);
  return rc;
}
