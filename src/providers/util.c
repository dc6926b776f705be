/* Shared helpers of the built-in providers: base header, typed input
 * readers, key diffs and the CSPRNG. */
#include "providers/providers_int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#define DEFAULT_VERSION "0.1.0"

void mp__prov_base_init(mp__prov_base *b, const mp_provider_vtable *vt,
                        const char *pkg, const char *version) {
  b->hdr.vt = vt;
  b->hdr.pkg = mp_xstrdup(pkg);
  b->version = mp_xstrdup(version && *version ? version : DEFAULT_VERSION);
}

void mp__prov_base_destroy(mp__prov_base *b) {
  free(b->hdr.pkg);
  free(b->version);
  b->hdr.pkg = NULL;
  b->version = NULL;
}

int mp__prov_plugin_info(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                         mp_err *err) {
  mp__prov_base *b = (mp__prov_base *)p;
  (void)q;
  (void)err;
  free(r->version);
  r->version = mp_xstrdup(b->version);
  return 0;
}

int mp__prov_configure_plain(mp_provider *p, const mp_prov_req *q,
                             mp_prov_resp *r, mp_err *err) {
  (void)p;
  (void)q;
  (void)err;
  r->accept_secrets = 1;
  r->accept_resources = 1;
  r->supports_preview = 1;
  return 0;
}

/* ---- values ---- */

const mp_value *mp__prov_plain(const mp_value *v) {
  while (v != NULL) {
    if (v->kind == MP_VALUE_SECRET)
      v = v->u.secret;
    else if (v->kind == MP_VALUE_OUTPUT)
      v = v->u.output.value;
    else
      break;
  }
  return v;
}

static const mp_value *raw_get(const mp_value *obj, const char *key) {
  obj = mp__prov_plain(obj);
  if (obj == NULL || obj->kind != MP_VALUE_OBJECT)
    return NULL;
  return mp_value_object_get(obj, key);
}

const mp_value *mp__prov_get(const mp_value *obj, const char *key) {
  const mp_value *v = mp__prov_plain(raw_get(obj, key));
  if (v == NULL || v->kind == MP_VALUE_NULL)
    return NULL;
  return v;
}

int mp__prov_is_unknown(const mp_value *obj, const char *key) {
  const mp_value *v = raw_get(obj, key);
  while (v != NULL && v->kind == MP_VALUE_SECRET)
    v = v->u.secret;
  if (v == NULL)
    return 0;
  if (v->kind == MP_VALUE_UNKNOWN)
    return 1;
  return v->kind == MP_VALUE_OUTPUT && v->u.output.value == NULL;
}

const char *mp__prov_get_str(const mp_value *obj, const char *key) {
  const mp_value *v = mp__prov_get(obj, key);
  return v != NULL && v->kind == MP_VALUE_STRING ? v->u.str.ptr : NULL;
}

mp_value *mp__prov_obj_dup(const mp_value *v) {
  if (v != NULL && v->kind == MP_VALUE_OBJECT)
    return mp_value_dup(v);
  return mp_value_new_object();
}

/* Looks |key| up and classifies it; *v is the plain value when OK. */
static mp__prov_field lookup(const mp_value *obj, const char *key,
                             mp_value_kind want, const mp_value **v,
                             mp_prov_resp *r) {
  char reason[128];
  if (mp__prov_is_unknown(obj, key))
    return MP_PROV_FIELD_UNKNOWN;
  *v = mp__prov_get(obj, key);
  if (*v == NULL)
    return MP_PROV_FIELD_MISSING;
  if ((*v)->kind == want)
    return MP_PROV_FIELD_OK;
  snprintf(reason, sizeof(reason), "expected a %s, got a %s",
           mp_value_kind_name(want), mp_value_kind_name((*v)->kind));
  if (r != NULL)
    mp_prov_resp_add_failure(r, key, reason);
  return MP_PROV_FIELD_BAD;
}

mp__prov_field mp__prov_int(const mp_value *obj, const char *key, int64_t *out,
                            mp_prov_resp *r) {
  const mp_value *v = NULL;
  mp__prov_field f = lookup(obj, key, MP_VALUE_NUMBER, &v, r);
  double n;
  if (f != MP_PROV_FIELD_OK)
    return f;
  n = v->u.number;
  if (!isfinite(n) || n != floor(n) || fabs(n) > 9007199254740992.0) {
    if (r != NULL)
      mp_prov_resp_add_failure(r, key, "expected a whole number");
    return MP_PROV_FIELD_BAD;
  }
  *out = (int64_t)n;
  return MP_PROV_FIELD_OK;
}

mp__prov_field mp__prov_bool(const mp_value *obj, const char *key, int *out,
                             mp_prov_resp *r) {
  const mp_value *v = NULL;
  mp__prov_field f = lookup(obj, key, MP_VALUE_BOOL, &v, r);
  if (f == MP_PROV_FIELD_OK)
    *out = v->u.boolean != 0;
  return f;
}

mp__prov_field mp__prov_str(const mp_value *obj, const char *key,
                            const char **out, mp_prov_resp *r) {
  const mp_value *v = NULL;
  mp__prov_field f = lookup(obj, key, MP_VALUE_STRING, &v, r);
  if (f == MP_PROV_FIELD_OK)
    *out = v->u.str.ptr;
  return f;
}

static int skipped(const char *const *skip, const char *key) {
  for (; skip != NULL && *skip != NULL; skip++)
    if (strcmp(*skip, key) == 0)
      return 1;
  return 0;
}

static size_t diff_side(const mp_value *a, const mp_value *b,
                        const char *const *skip, mp_strv *out) {
  size_t i, n = 0;
  if (a == NULL || a->kind != MP_VALUE_OBJECT)
    return 0;
  for (i = 0; i < a->u.obj.len; i++) {
    const char *key = a->u.obj.items[i].key;
    const mp_value *other = NULL;
    if (skipped(skip, key) || mp_strv_contains(out, key))
      continue;
    if (b != NULL && b->kind == MP_VALUE_OBJECT)
      other = mp_value_object_get(b, key);
    if (other == NULL || !mp_value_equal(a->u.obj.items[i].value, other,
                                         MP_VALUE_EQ_IGNORE_SECRETS)) {
      mp_strv_push(out, key);
      n++;
    }
  }
  return n;
}

size_t mp__prov_changed_keys(const mp_value *olds, const mp_value *news,
                             const char *const *skip, mp_strv *out) {
  return diff_side(news, olds, skip, out) + diff_side(olds, news, skip, out);
}

int mp__prov_failures_to_err(const mp_prov_resp *r, const char *type,
                             mp_err *err) {
  const mp_check_failure *f;
  if (r->nfailures == 0)
    return 0;
  f = &r->failures[0];
  return mp_err_set(err, MP_EINVAL, "invalid inputs for '%s': %s%s%s%s",
                    type ? type : "?", f->property ? "'" : "",
                    f->property ? f->property : "", f->property ? "': " : "",
                    f->reason ? f->reason : "invalid");
}

/* ---- randomness ---- */

int mp__prov_random_bytes(void *buf, size_t n, mp_err *err) {
  unsigned char *p = buf;
  while (n > 0) {
    ssize_t got = getrandom(p, n, 0);
    if (got < 0) {
      if (errno == EINTR)
        continue;
      return mp_err_set(err, MP_EIO, "cannot read random bytes: %s",
                        strerror(errno));
    }
    p += got;
    n -= (size_t)got;
  }
  return 0;
}

int mp__prov_random_below(uint64_t n, uint64_t *out, mp_err *err) {
  /* Reject draws from the incomplete top bucket so every value in [0, n)
   * is equally likely. */
  uint64_t limit, x;
  int rc;
  if (n <= 1) {
    *out = 0;
    return 0;
  }
  limit = UINT64_MAX - (UINT64_MAX % n);
  do {
    if ((rc = mp__prov_random_bytes(&x, sizeof(x), err)) < 0)
      return rc;
  } while (x >= limit);
  *out = x % n;
  return 0;
}

void mp__prov_hex(const unsigned char *p, size_t n, char *out) {
  static const char digits[] = "0123456789abcdef";
  size_t i;
  for (i = 0; i < n; i++) {
    out[2 * i] = digits[p[i] >> 4];
    out[2 * i + 1] = digits[p[i] & 15];
  }
  out[2 * n] = '\0';
}

int mp__prov_random_hex(size_t nbytes, char **out, mp_err *err) {
  unsigned char *raw = mp_xmalloc(nbytes);
  char *hex = mp_xmalloc(2 * nbytes + 1);
  int rc = mp__prov_random_bytes(raw, nbytes, err);
  *out = NULL;
  if (rc == 0) {
    mp__prov_hex(raw, nbytes, hex);
    *out = hex;
  } else {
    free(hex);
  }
  free(raw);
  return rc;
}

char *mp__prov_tmp_beside(const char *path) {
  const char *slash = strrchr(path, '/');
  mp_buf b;
  mp_buf_init(&b);
  if (slash == NULL)
    mp_buf_printf(&b, ".%s.tmp-", path);
  else
    mp_buf_printf(&b, "%.*s/.%s.tmp-", (int)(slash - path), path, slash + 1);
  for (int i = 0; i < 6; i++) mp_buf_putc(&b, 'X'); /* mkostemp's slots */
  return mp_buf_detach(&b, NULL);
}
