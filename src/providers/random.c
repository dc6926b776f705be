/* The built-in `random` provider: the resource types of Pulumi's random
 * provider (pulumi-random, bridged from terraform-provider-random) with
 * the same tokens, inputs and outputs. Every input change replaces; the
 * results come from the kernel CSPRNG (RandomInteger with `seed` is
 * deterministic). Read (refresh and import) is in random_import.c. */
#include "providers/random_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/crypto.h"

#define MAX_ID_BYTES 4096

typedef int (*check_fn)(const mp_value *news, mp_value *out, mp_prov_resp *r);
typedef int (*gen_fn)(const mp_value *in, const char *type, mp_value *outputs,
                      char **id, mp_err *err);

typedef struct rtype {
  const char *token;
  check_fn check;
  gen_fn gen;
  const char *const *results; /* output-only keys, NULL-terminated */
  int secret;                 /* results are secret */
  int id_is_result;           /* the id spells the result out */
} rtype;

/* ---- RandomInteger ---- */

static int check_integer(const mp_value *news, mp_value *out, mp_prov_resp *r) {
  int64_t lo = 0, hi = 0;
  const char *seed;
  mp__prov_field fl = mp__prov_int(news, "min", &lo, r);
  mp__prov_field fh = mp__prov_int(news, "max", &hi, r);
  (void)out;
  if (fl == MP_PROV_FIELD_MISSING)
    mp_prov_resp_add_failure(r, "min", "missing required property");
  if (fh == MP_PROV_FIELD_MISSING)
    mp_prov_resp_add_failure(r, "max", "missing required property");
  if (fl == MP_PROV_FIELD_OK && fh == MP_PROV_FIELD_OK && hi < lo)
    mp_prov_resp_add_failure(r, "max", "must be greater than or equal to min");
  (void)mp__prov_str(news, "seed", &seed, r);
  return 0;
}

/* A value in [0, span) derived from |seed| alone, so a seed always gives
 * the same result for the same range. */
static uint64_t seeded(const char *seed, uint64_t span) {
  char hex[65];
  uint64_t x;
  mp_sha256_hex(seed, strlen(seed), hex);
  hex[16] = '\0';
  x = strtoull(hex, NULL, 16);
  return span ? x % span : 0;
}

static int gen_integer(const mp_value *in, const char *type, mp_value *outputs,
                       char **id, mp_err *err) {
  mp_prov_resp tmp;
  int64_t lo = 0, hi = 0, v;
  uint64_t span, k = 0;
  const char *seed = NULL;
  int rc;
  mp_prov_resp_init(&tmp);
  check_integer(in, outputs, &tmp);
  (void)mp__prov_int(in, "min", &lo, NULL);
  (void)mp__prov_int(in, "max", &hi, NULL);
  (void)mp__prov_str(in, "seed", &seed, NULL);
  rc = mp__prov_failures_to_err(&tmp, type, err);
  mp_prov_resp_destroy(&tmp);
  if (rc < 0)
    return rc;
  span = (uint64_t)(hi - lo) + 1;
  if (seed != NULL)
    k = seeded(seed, span);
  else if ((rc = mp__prov_random_below(span, &k, err)) < 0)
    return rc;
  v = lo + (int64_t)k;
  mp_value_object_set(outputs, "result", mp_value_new_number((double)v));
  *id = mp_xasprintf("%lld", (long long)v);
  return 0;
}

/* ---- RandomId ---- */

static int check_id(const mp_value *news, mp_value *out, mp_prov_resp *r) {
  int64_t n = 0;
  const char *prefix;
  mp__prov_field f = mp__prov_int(news, "byteLength", &n, r);
  (void)out;
  if (f == MP_PROV_FIELD_MISSING)
    mp_prov_resp_add_failure(r, "byteLength", "missing required property");
  else if (f == MP_PROV_FIELD_OK && (n < 1 || n > MAX_ID_BYTES))
    mp_prov_resp_add_failure(r, "byteLength", "must be between 1 and 4096");
  (void)mp__prov_str(news, "prefix", &prefix, r);
  return 0;
}

/* Standard base64 (padded); |url| selects the URL alphabet, unpadded. */
static void b64(const unsigned char *p, size_t n, int url, mp_buf *out) {
  static const char std[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  static const char web[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const char *a = url ? web : std;
  size_t i;
  for (i = 0; i < n; i += 3) {
    unsigned v = (unsigned)p[i] << 16;
    size_t left = n - i;
    if (left > 1)
      v |= (unsigned)p[i + 1] << 8;
    if (left > 2)
      v |= p[i + 2];
    mp_buf_putc(out, a[(v >> 18) & 63]);
    mp_buf_putc(out, a[(v >> 12) & 63]);
    if (left > 1)
      mp_buf_putc(out, a[(v >> 6) & 63]);
    else if (!url)
      mp_buf_putc(out, '=');
    if (left > 2)
      mp_buf_putc(out, a[v & 63]);
    else if (!url)
      mp_buf_putc(out, '=');
  }
}

/* The big-endian unsigned integer |p| in decimal, into |out|. */
static void decimal(const unsigned char *p, size_t n, mp_buf *out) {
  unsigned char *num = mp_xmalloc(n ? n : 1);
  char *digits = mp_xmalloc(n * 3 + 2);
  size_t nd = 0, start = 0, i;
  memcpy(num, p, n);
  while (start < n && num[start] == 0)
    start++;
  while (start < n) {
    unsigned rem = 0;
    for (i = start; i < n; i++) {
      unsigned cur = rem * 256 + num[i];
      num[i] = (unsigned char)(cur / 10);
      rem = cur % 10;
    }
    digits[nd++] = (char)('0' + rem);
    while (start < n && num[start] == 0)
      start++;
  }
  if (nd == 0)
    digits[nd++] = '0';
  while (nd > 0)
    mp_buf_putc(out, digits[--nd]);
  free(num);
  free(digits);
}

static void set_prefixed(mp_value *o, const char *key, const char *prefix,
                         mp_buf *b) {
  char *s = mp_xasprintf("%s%s", prefix, b->data ? b->data : "");
  mp_value_object_set(o, key, mp_value_new_cstring(s));
  free(s);
  mp_buf_reset(b);
}

void mp__random_id_outputs(const unsigned char *bytes, size_t n,
                           const char *prefix, mp_value *outputs, char **id) {
  mp_buf b;
  mp_buf_init(&b);
  b64(bytes, n, 1, &b);
  *id = mp_xstrdup(b.data ? b.data : ""); /* the id is unprefixed */
  set_prefixed(outputs, "b64Url", prefix, &b);
  b64(bytes, n, 0, &b);
  set_prefixed(outputs, "b64Std", prefix, &b);
  char *hex = mp_xmalloc(2 * n + 1);
  mp__prov_hex(bytes, n, hex);
  mp_buf_puts(&b, hex);
  free(hex);
  set_prefixed(outputs, "hex", prefix, &b);
  decimal(bytes, n, &b);
  set_prefixed(outputs, "dec", prefix, &b);
  mp_buf_destroy(&b);
}

static int gen_id(const mp_value *in, const char *type, mp_value *outputs,
                  char **id, mp_err *err) {
  mp_prov_resp tmp;
  int64_t n = 0;
  const char *prefix = NULL;
  unsigned char *bytes;
  int rc;
  mp_prov_resp_init(&tmp);
  check_id(in, outputs, &tmp);
  (void)mp__prov_int(in, "byteLength", &n, NULL);
  if (mp__prov_str(in, "prefix", &prefix, NULL) != MP_PROV_FIELD_OK)
    prefix = "";
  rc = mp__prov_failures_to_err(&tmp, type, err);
  mp_prov_resp_destroy(&tmp);
  if (rc < 0)
    return rc;
  bytes = mp_xmalloc((size_t)n);
  if ((rc = mp__prov_random_bytes(bytes, (size_t)n, err)) == 0)
    mp__random_id_outputs(bytes, (size_t)n, prefix, outputs, id);
  free(bytes);
  return rc;
}

/* ---- RandomBytes ---- */

static int check_bytes(const mp_value *news, mp_value *out, mp_prov_resp *r) {
  int64_t n = 0;
  mp__prov_field f = mp__prov_int(news, "length", &n, r);
  (void)out;
  if (f == MP_PROV_FIELD_MISSING)
    mp_prov_resp_add_failure(r, "length", "missing required property");
  else if (f == MP_PROV_FIELD_OK && (n < 1 || n > MAX_ID_BYTES))
    mp_prov_resp_add_failure(r, "length", "must be between 1 and 4096");
  return 0;
}

void mp__random_bytes_outputs(const unsigned char *bytes, size_t n,
                              mp_value *outputs) {
  mp_buf b;
  mp_buf_init(&b);
  b64(bytes, n, 0, &b);
  mp_value_object_set(outputs, "base64",
                      mp_value_new_secret(mp_value_new_cstring(b.data ? b.data : "")));
  mp_buf_destroy(&b);
  char *hex = mp_xmalloc(2 * n + 1);
  mp__prov_hex(bytes, n, hex);
  mp_value_object_set(outputs, "hex", mp_value_new_secret(mp_value_new_cstring(hex)));
  free(hex);
}

static int gen_bytes(const mp_value *in, const char *type, mp_value *outputs,
                     char **id, mp_err *err) {
  mp_prov_resp tmp;
  int64_t n = 0;
  mp_prov_resp_init(&tmp);
  check_bytes(in, outputs, &tmp);
  (void)mp__prov_int(in, "length", &n, NULL);
  int rc = mp__prov_failures_to_err(&tmp, type, err);
  mp_prov_resp_destroy(&tmp);
  if (rc < 0)
    return rc;
  unsigned char *bytes = mp_xmalloc((size_t)n);
  if ((rc = mp__prov_random_bytes(bytes, (size_t)n, err)) == 0) {
    mp__random_bytes_outputs(bytes, (size_t)n, outputs);
    *id = mp_xstrdup("none"); /* as pulumi-random's */
  }
  free(bytes);
  return rc;
}

/* ---- RandomUuid ---- */

static int check_none(const mp_value *news, mp_value *out, mp_prov_resp *r) {
  (void)news;
  (void)out;
  (void)r;
  return 0;
}

/* |u| with the RFC 4122/9562 variant set, as the id and the `result`. */
static void uuid_result(unsigned char u[16], mp_value *outputs, char **id) {
  char hex[33];
  u[8] = (unsigned char)((u[8] & 0x3f) | 0x80);
  mp__prov_hex(u, 16, hex);
  *id = mp_xasprintf("%.8s-%.4s-%.4s-%.4s-%.12s", hex, hex + 8, hex + 12,
                     hex + 16, hex + 20);
  mp_value_object_set(outputs, "result", mp_value_new_cstring(*id));
}

static int gen_uuid(const mp_value *in, const char *type, mp_value *outputs,
                    char **id, mp_err *err) {
  unsigned char u[16];
  int rc = mp__prov_random_bytes(u, sizeof(u), err);
  (void)in;
  (void)type;
  if (rc < 0)
    return rc;
  u[6] = (unsigned char)((u[6] & 0x0f) | 0x40); /* version 4 */
  uuid_result(u, outputs, id);
  return 0;
}

/* RandomUuid7: a version 7 UUID (RFC 9562): the Unix time in
 * milliseconds in its first 48 bits, then random bits. */
static int gen_uuid7(const mp_value *in, const char *type, mp_value *outputs,
                     char **id, mp_err *err) {
  unsigned char u[16];
  int rc = mp__prov_random_bytes(u, sizeof(u), err);
  (void)in;
  (void)type;
  if (rc < 0)
    return rc;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  uint64_t ms = (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
  for (int i = 0; i < 6; i++) u[i] = (unsigned char)(ms >> (8 * (5 - i)));
  u[6] = (unsigned char)((u[6] & 0x0f) | 0x70); /* version 7 */
  uuid_result(u, outputs, id);
  return 0;
}

/* ---- the type table ---- */

static const char *const res_result[] = {"result", NULL};
static const char *const res_none[] = {NULL};
static const char *const res_id[] = {"b64Std", "b64Url", "dec", "hex", NULL};
static const char *const res_bytes[] = {"base64", "hex", NULL};
static const char *const res_results[] = {"results", NULL};

static const rtype types[] = {
    {"random:index/randomString:RandomString", mp__random_check_string,
     mp__random_gen_string, res_result, 0, 1},
    {"random:index/randomPassword:RandomPassword", mp__random_check_string,
     mp__random_gen_password, res_result, 1, 0},
    {"random:index/randomInteger:RandomInteger", check_integer, gen_integer,
     res_result, 0, 1},
    {"random:index/randomPet:RandomPet", mp__random_check_pet,
     mp__random_gen_pet, res_none, 0, 0},
    {"random:index/randomId:RandomId", check_id, gen_id, res_id, 0, 0},
    {"random:index/randomUuid:RandomUuid", check_none, gen_uuid, res_result, 0,
     0},
    {"random:index/randomBytes:RandomBytes", check_bytes, gen_bytes, res_bytes,
     1, 0},
    {"random:index/randomUuid4:RandomUuid4", check_none, gen_uuid, res_result,
     0, 0},
    {"random:index/randomUuid7:RandomUuid7", check_none, gen_uuid7, res_result,
     0, 0},
    {"random:index/randomShuffle:RandomShuffle", mp__random_check_shuffle,
     mp__random_gen_shuffle, res_results, 0, 0},
};

/* 1 if an input the results are computed from is secret. `keepers` only
 * force a replacement: nothing is computed from them. */
static int derived_from_secret(const mp_value *news) {
  news = mp__prov_plain(news);
  if (news == NULL || news->kind != MP_VALUE_OBJECT)
    return 0;
  for (size_t i = 0; i < news->u.obj.len; i++)
    if (strcmp(news->u.obj.items[i].key, "keepers") != 0 &&
        mp_value_contains_secrets(news->u.obj.items[i].value))
      return 1;
  return 0;
}

/* Results computed from a secret input are secret too, and an id that
 * would spell such a result out (ids are never secret) becomes "none",
 * as RandomPassword's always is. */
static void protect_results(const rtype *t, const mp_value *news, mp_value *out,
                            char **id) {
  if (t->secret || !derived_from_secret(news))
    return;
  for (size_t i = 0; i < out->u.obj.len; i++) {
    mp_value_entry *e = &out->u.obj.items[i];
    for (size_t k = 0; t->results[k] != NULL; k++)
      if (strcmp(e->key, t->results[k]) == 0 &&
          e->value->kind != MP_VALUE_SECRET)
        e->value = mp_value_new_secret(e->value);
  }
  if (t->id_is_result && id != NULL && *id != NULL) {
    free(*id);
    *id = mp_xstrdup("none");
  }
}

int mp__prov_random_implements(const char *tok, int function) {
  for (size_t i = 0; !function && tok != NULL && i < MP_ARRAY_LEN(types); i++)
    if (strcmp(types[i].token, tok) == 0) return 1;
  return 0; /* @pulumi/random has no functions */
}

static const rtype *find_type(const char *tok, mp_err *err) {
  size_t i;
  for (i = 0; tok != NULL && i < MP_ARRAY_LEN(types); i++)
    if (strcmp(types[i].token, tok) == 0)
      return &types[i];
  mp_err_set(err, MP_EINVAL,
             "unknown resource type '%s' in the built-in 'random' provider",
             tok ? tok : "(none)");
  return NULL;
}

static int r_check(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                   mp_err *err) {
  const rtype *t = find_type(q->type, err);
  (void)p;
  if (t == NULL)
    return MP_EINVAL;
  mp_value_free(r->inputs);
  r->inputs = mp__prov_obj_dup(q->news);
  if (mp__prov_is_unknown(q->news, "keepers") == 0 &&
      mp__prov_get(q->news, "keepers") != NULL &&
      mp__prov_get(q->news, "keepers")->kind != MP_VALUE_OBJECT)
    mp_prov_resp_add_failure(r, "keepers", "expected an object");
  return t->check(q->news, r->inputs, r);
}

static int r_diff(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                  mp_err *err) {
  const rtype *t = find_type(q->type, err);
  const mp_value *olds = q->old_inputs ? q->old_inputs : q->olds;
  size_t i;
  (void)p;
  if (t == NULL)
    return MP_EINVAL;
  if (mp__prov_changed_keys(olds, q->news, t->results, &r->replaces) == 0) {
    r->changes = MP_DIFF_CHANGES_NONE;
    return 0;
  }
  r->changes = MP_DIFF_CHANGES_SOME;
  for (i = 0; i < r->replaces.len; i++)
    mp_strv_push(&r->diffs, r->replaces.items[i]);
  return 0;
}

static int r_create(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                    mp_err *err) {
  const rtype *t = find_type(q->type, err);
  mp_value *out;
  char *id = NULL;
  size_t i;
  int rc;
  (void)p;
  if (t == NULL)
    return MP_EINVAL;
  out = mp__prov_obj_dup(q->news);
  if (q->preview) {
    for (i = 0; t->results[i] != NULL; i++) {
      mp_value *u = mp_value_new_unknown();
      mp_value_object_set(out, t->results[i],
                          t->secret ? mp_value_new_secret(u) : u);
    }
    protect_results(t, q->news, out, NULL);
    r->outputs = out;
    return 0;
  }
  if ((rc = t->gen(q->news, q->type, out, &id, err)) < 0) {
    mp_value_free(out);
    return mp_err_prefix(err, "cannot create '%s'", q->urn ? q->urn : "?");
  }
  protect_results(t, q->news, out, &id);
  free(r->id);
  r->id = id;
  r->outputs = out;
  return 0;
}

/* Every input change replaces, so an update only refreshes the inputs and
 * keeps the results. */
static int r_update(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                    mp_err *err) {
  const rtype *t = find_type(q->type, err);
  mp_value *out;
  size_t i;
  (void)p;
  if (t == NULL)
    return MP_EINVAL;
  out = mp__prov_obj_dup(q->news);
  for (i = 0; t->results[i] != NULL; i++) {
    const mp_value *old = NULL;
    if (q->olds != NULL && q->olds->kind == MP_VALUE_OBJECT)
      old = mp_value_object_get(q->olds, t->results[i]);
    if (old != NULL)
      mp_value_object_set(out, t->results[i], mp_value_dup(old));
  }
  protect_results(t, q->news, out, NULL);
  r->outputs = out;
  return 0;
}

static int r_delete(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                    mp_err *err) {
  (void)p;
  (void)q;
  (void)r;
  (void)err;
  return 0; /* nothing exists outside the state */
}

static void r_free(mp_provider *p) {
  mp__prov_base *b = (mp__prov_base *)p;
  if (b == NULL)
    return;
  mp__prov_base_destroy(b);
  free(b);
}

static const mp_provider_vtable random_vt = {
    .configure = mp__prov_configure_plain,
    .check = r_check,
    .diff = r_diff,
    .create = r_create,
    .update = r_update,
    .del = r_delete,
    .read = mp__random_read,
    .get_plugin_info = mp__prov_plugin_info,
    .free = r_free,
};

int mp__prov_random_new(const char *pkg, const char *version, mp_provider **out,
                        mp_err *err) {
  mp__prov_base *b = mp_xcalloc(1, sizeof(*b));
  (void)err;
  mp__prov_base_init(b, &random_vt, pkg, version);
  *out = &b->hdr;
  return 0;
}
