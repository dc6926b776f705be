#include "engine/extension.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "engine/crypto.h"

char *mp_extension_ref(const char *name, const char *version,
                       const void *value, size_t len) {
  mp_buf b;
  mp_buf_init(&b);
  mp_buf_puts(&b, name ? name : "");
  mp_buf_putc(&b, '\0');
  mp_buf_puts(&b, version ? version : "");
  mp_buf_putc(&b, '\0');
  if (len) mp_buf_append(&b, value, len);
  char hex[65];
  mp_sha256_hex(b.data, b.len, hex);
  mp_buf_destroy(&b);
  return mp_xstrdup(hex);
}

void mp_extensions_init(mp_extensions *x) { memset(x, 0, sizeof(*x)); }

void mp_extension_destroy(mp_extension *e) {
  free(e->ref);
  free(e->name);
  free(e->version);
  mp_buf_destroy(&e->value);
  memset(e, 0, sizeof(*e));
}

void mp_extensions_destroy(mp_extensions *x) {
  for (size_t i = 0; i < x->len; i++) mp_extension_destroy(&x->items[i]);
  free(x->items);
  mp_extensions_init(x);
}

const mp_extension *mp_extensions_find(const mp_extensions *x,
                                       const char *ref) {
  for (size_t i = 0; ref && i < x->len; i++)
    if (strcmp(x->items[i].ref, ref) == 0) return &x->items[i];
  return NULL;
}

int mp_extensions_put(mp_extensions *x, const mp_extension *e) {
  if (mp_extensions_find(x, e->ref)) return 0;
  if (x->len == x->cap) {
    x->cap = x->cap ? x->cap * 2 : 4;
    x->items = mp_xreallocarray(x->items, x->cap, sizeof(*x->items));
  }
  mp_extension *c = &x->items[x->len++];
  c->ref = mp_xstrdup(e->ref);
  c->name = mp_xstrdup(e->name);
  c->version = mp_xstrdup(e->version);
  mp_buf_init(&c->value);
  if (e->value.len) mp_buf_append(&c->value, e->value.data, e->value.len);
  return 1;
}

void mp_extensions_merge(mp_extensions *dst, const mp_extensions *src) {
  for (size_t i = 0; i < src->len; i++) mp_extensions_put(dst, &src->items[i]);
}

void mp_extension_to_json(const mp_extension *e, mp_buf *out) {
  mp_buf b64;
  mp_buf_init(&b64);
  mp_base64_encode((const unsigned char *)e->value.data, e->value.len, &b64);
  cJSON *o = cJSON_CreateObject();
  cJSON_AddStringToObject(o, "name", e->name ? e->name : "");
  cJSON_AddStringToObject(o, "version", e->version ? e->version : "");
  cJSON_AddStringToObject(o, "value", b64.data ? b64.data : "");
  char *text = cJSON_PrintUnformatted(o);
  mp_buf_puts(out, text);
  cJSON_free(text);
  cJSON_Delete(o);
  mp_buf_destroy(&b64);
}

int mp_extension_from_json(const char *ref, const char *text, size_t len,
                           mp_extension *e, mp_err *err) {
  memset(e, 0, sizeof(*e));
  mp_buf_init(&e->value);
  cJSON *o = cJSON_ParseWithLength(text, len);
  const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, "name");
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "version");
  const cJSON *b = cJSON_GetObjectItemCaseSensitive(o, "value");
  int rc = 0;
  if (!cJSON_IsObject(o) || !cJSON_IsString(n) ||
      (v && !cJSON_IsString(v)) || (b && !cJSON_IsString(b) && !cJSON_IsNull(b)))
    rc = mp_err_set(err, MP_ESTATE,
                    "extension '%s' of the snapshot is not an object with a "
                    "string 'name', 'version' and base64 'value'",
                    ref);
  if (rc == 0 && cJSON_IsString(b))
    rc = mp_base64_decode(b->valuestring, strlen(b->valuestring), &e->value,
                          err);
  if (rc == 0) {
    e->ref = mp_xstrdup(ref);
    e->name = mp_xstrdup(n->valuestring);
    e->version = mp_xstrdup(v ? v->valuestring : "");
  } else {
    if (err->code != MP_ESTATE)
      mp_err_prefix(err, "the value of extension '%s' of the snapshot", ref);
    mp_buf_destroy(&e->value);
  }
  cJSON_Delete(o);
  return rc;
}
