/* Helpers for the built-in provider tests: make a provider, build values
 * from JSON, call a method through the table. */
#ifndef MP_TEST_PROV_TEST_H
#define MP_TEST_PROV_TEST_H

#include <stdlib.h>
#include <string.h>

#include "engine/provider.h"
#include "engine/value.h"
#include "providers/builtin.h"
#include "testutil.h"

/* A built-in provider of |pkg| made with the factory options |o| (may be
 * NULL), or NULL. */
static inline mp_provider *prov_make_with(const char *pkg,
                                          const mp_builtin_opts *o) {
  mp_provider *p = NULL;
  mp_err e;
  mp_provider_factory f = mp_builtin_providers(o);
  mp_err_clear(&e);
  if (f.make(f.ud, pkg, NULL, &p, &e) != 0)
    return NULL;
  return p;
}

static inline mp_provider *prov_make(const char *pkg) {
  return prov_make_with(pkg, NULL);
}

/* Parses |json| (the checkpoint encoding); aborts the test on bad text. */
static inline mp_value *J(const char *json) {
  mp_value *v = NULL;
  mp_err e;
  if (mp_value_from_json(json, strlen(json), NULL, &v, &e) != 0) {
    fprintf(stderr, "bad test JSON %s: %s\n", json, e.msg);
    abort();
  }
  return v;
}

/* JSON text of |v| (secrets shown), owned. */
static inline char *to_json(const mp_value *v) {
  mp_buf b;
  mp_err e;
  mp_buf_init(&b);
  if (v == NULL)
    return mp_xstrdup("null");
  if (mp_value_to_json(v, NULL, MP_JSON_SHOW_SECRETS, &b, &e) != 0) {
    mp_buf_destroy(&b);
    return mp_xstrdup("(unencodable)");
  }
  return mp_buf_detach(&b, NULL);
}

static inline const mp_value *get(const mp_value *obj, const char *key) {
  if (obj == NULL || obj->kind != MP_VALUE_OBJECT)
    return NULL;
  return mp_value_object_get(obj, key);
}

static inline const char *get_str(const mp_value *obj, const char *key) {
  const mp_value *v = get(obj, key);
  return v && v->kind == MP_VALUE_STRING ? v->u.str.ptr : NULL;
}

typedef enum {
  OP_CHECK,
  OP_DIFF,
  OP_CREATE,
  OP_UPDATE,
  OP_DELETE,
  OP_READ,
  OP_CONFIGURE,
  OP_CHECK_CONFIG,
  OP_DIFF_CONFIG,
  OP_INFO
} prov_op;

/* Calls |op| on |p|; |r| must be initialised by the caller. */
static inline int call(mp_provider *p, prov_op op, const mp_prov_req *q,
                       mp_prov_resp *r, mp_err *e) {
  const mp_provider_vtable *vt = p->vt;
  mp_err_clear(e);
  switch (op) {
  case OP_CHECK:
    return vt->check(p, q, r, e);
  case OP_DIFF:
    return vt->diff(p, q, r, e);
  case OP_CREATE:
    return vt->create(p, q, r, e);
  case OP_UPDATE:
    return vt->update(p, q, r, e);
  case OP_DELETE:
    return vt->del(p, q, r, e);
  case OP_READ:
    return vt->read(p, q, r, e);
  case OP_CONFIGURE:
    return vt->configure(p, q, r, e);
  case OP_CHECK_CONFIG:
    return vt->check_config(p, q, r, e);
  case OP_DIFF_CONFIG:
    return vt->diff_config(p, q, r, e);
  case OP_INFO:
    return vt->get_plugin_info(p, q, r, e);
  }
  return -1;
}

/* 1 if |r| has a failure on |prop| (NULL: any) whose reason contains
 * |reason|. */
static inline int has_failure(const mp_prov_resp *r, const char *prop,
                              const char *reason) {
  size_t i;
  for (i = 0; i < r->nfailures; i++) {
    const mp_check_failure *f = &r->failures[i];
    if (prop != NULL && (f->property == NULL || strcmp(f->property, prop)))
      continue;
    if (strstr(f->reason, reason) != NULL)
      return 1;
  }
  return 0;
}

#endif
