/* What a provider resource records of its plugin under `__internal`
 * (engine/registry.h): the version and download URL, and for a
 * parameterized package (mp_provider_param) the plugin that serves it;
 * and the Parameterize call that turns a new instance of that plugin into
 * the package (pkg/resource/deploy/providers/registry.go,
 * loadParameterizedProvider). */
#include <stdlib.h>
#include <string.h>

#include "engine/crypto.h"
#include "engine/registry.h"
#include "pulumi/provider.pb-c.h"

static mp_value *internal_of(mp_value *inputs) {
  mp_value *in = mp_value_object_get(inputs, MP_PROVIDER_INTERNAL_KEY);
  if (in == NULL || in->kind != MP_VALUE_OBJECT) {
    in = mp_value_new_object();
    mp_value_object_set(inputs, MP_PROVIDER_INTERNAL_KEY, in);
  }
  return in;
}

void mp_provider_inputs_set_version(mp_value *inputs, const char *version) {
  internal_of(inputs);
  mp_value_object_set(inputs, "version", mp_value_new_cstring(version));
}

void mp_provider_inputs_set_url(mp_value *inputs, const char *url) {
  mp_value_object_set(internal_of(inputs), "pluginDownloadURL",
                      mp_value_new_cstring(url));
}

void mp_provider_inputs_set_env_vars(mp_value *inputs, mp_value *mappings) {
  mp_value_object_set(internal_of(inputs), "envVarMappings", mappings);
}

void mp_provider_env_map(const mp_value *inputs, mp_strv *out) {
  const mp_value *in = mp_value_object_get(inputs, MP_PROVIDER_INTERNAL_KEY);
  const mp_value *m =
      in && in->kind == MP_VALUE_OBJECT ? mp_value_object_get(in, "envVarMappings")
                                        : NULL;
  for (size_t i = 0; m && m->kind == MP_VALUE_OBJECT && i < m->u.obj.len; i++) {
    const mp_value *v = m->u.obj.items[i].value;
    if (v == NULL || v->kind != MP_VALUE_STRING) continue;
    mp_strv_push(out, m->u.obj.items[i].key);
    mp_strv_push(out, v->u.str.ptr);
  }
}

void mp_provider_inputs_set_param(mp_value *inputs,
                                  const mp_provider_param *p) {
  mp_value *in = internal_of(inputs);
  mp_value_object_set(in, "name", mp_value_new_cstring(p->plugin));
  if (p->plugin_version && p->plugin_version[0])
    mp_value_object_set(in, "version", mp_value_new_cstring(p->plugin_version));
  else
    mp_value_object_del(in, "version");
  mp_buf b64;
  mp_buf_init(&b64);
  mp_base64_encode(p->value, p->len, &b64);
  mp_value_object_set(in, "parameterization",
                      mp_value_new_cstring(b64.data ? b64.data : ""));
  mp_buf_destroy(&b64);
  mp_value_object_set(inputs, "version",
                      mp_value_new_cstring(p->version ? p->version : ""));
}

/* `__internal.<key>` as a string, or NULL. */
static const char *internal_str(const mp_value *inputs, const char *key) {
  if (inputs == NULL || inputs->kind != MP_VALUE_OBJECT) return NULL;
  const mp_value *in = mp_value_object_get(inputs, MP_PROVIDER_INTERNAL_KEY);
  const mp_value *v =
      in && in->kind == MP_VALUE_OBJECT ? mp_value_object_get(in, key) : NULL;
  return v && v->kind == MP_VALUE_STRING ? v->u.str.ptr : NULL;
}

const char *mp_provider_version(const mp_value *inputs) {
  if (internal_str(inputs, "parameterization")) {
    const char *v = internal_str(inputs, "version");
    return v && v[0] ? v : NULL;
  }
  const mp_value *v = inputs ? mp_value_object_get(inputs, "version") : NULL;
  return v && v->kind == MP_VALUE_STRING && v->u.str.ptr[0] ? v->u.str.ptr
                                                            : NULL;
}

const char *mp_provider_plugin(const char *pkg, const mp_value *inputs) {
  const char *name = internal_str(inputs, "name");
  return name && name[0] ? name : pkg;
}

int mp_provider_parameterize_value(mp_provider *p, const char *pkg,
                                   const char *version, const void *value,
                                   size_t len, mp_err *err) {
  if (p->vt->parameterize == NULL)
    return mp_err_set(err, MP_EPLUGIN,
                      "the plugin '%s' cannot be parameterized (package '%s')",
                      p->pkg, pkg);
  mp_buf req, resp;
  mp_buf_init(&req);
  mp_buf_init(&resp);
  Pulumirpc__ParameterizeRequest__ParametersValue v =
      PULUMIRPC__PARAMETERIZE_REQUEST__PARAMETERS_VALUE__INIT;
  v.name = (char *)pkg;
  v.version = (char *)(version ? version : "");
  v.value.data = (uint8_t *)value;
  v.value.len = len;
  Pulumirpc__ParameterizeRequest q = PULUMIRPC__PARAMETERIZE_REQUEST__INIT;
  q.parameters_case = PULUMIRPC__PARAMETERIZE_REQUEST__PARAMETERS_VALUE;
  q.value = &v;
  uint8_t *packed =
      mp_xmalloc(pulumirpc__parameterize_request__get_packed_size(&q) + 1);
  mp_buf_append(&req, packed,
                pulumirpc__parameterize_request__pack(&q, packed));
  free(packed);
  int rc = p->vt->parameterize(p, &req, &resp, err);
  if (rc < 0) {
    mp_err_prefix(err, "parameterizing plugin '%s' into package '%s'",
                  p->pkg, pkg);
    goto out;
  }
  Pulumirpc__ParameterizeResponse *a = pulumirpc__parameterize_response__unpack(
      NULL, resp.len, (const uint8_t *)resp.data);
  if (a == NULL)
    rc = mp_err_set(err, MP_EPROTO,
                    "the plugin '%s' answered Parameterize with bytes that "
                    "are not a ParameterizeResponse",
                    p->pkg);
  else if (a->name == NULL || strcmp(a->name, pkg) != 0)
    rc = mp_err_set(err, MP_EPLUGIN,
                    "parameterize response name \"%s\" does not match "
                    "expected package \"%s\"",
                    a->name ? a->name : "", pkg);
  if (a) pulumirpc__parameterize_response__free_unpacked(a, NULL);
out:
  mp_buf_destroy(&req);
  mp_buf_destroy(&resp);
  return rc;
}

int mp_provider_parameterize(mp_provider *p, const char *pkg,
                             const mp_value *inputs, mp_err *err) {
  const char *b64 = internal_str(inputs, "parameterization");
  if (b64 == NULL) return 0;
  const mp_value *ver = mp_value_object_get(inputs, "version");
  if (ver == NULL || ver->kind != MP_VALUE_STRING)
    return mp_err_set(err, MP_EINVAL,
                      "the provider of parameterized package '%s' has no "
                      "'version' (the package's version)",
                      pkg);
  mp_buf value;
  mp_buf_init(&value);
  int rc = mp_base64_decode(b64, strlen(b64), &value, err);
  if (rc < 0)
    mp_err_prefix(err, "the parameter of package '%s'", pkg);
  else
    rc = mp_provider_parameterize_value(p, pkg, ver->u.str.ptr, value.data,
                                        value.len, err);
  mp_buf_destroy(&value);
  return rc;
}

mp_invoke_pkg *mp_invoke_pkg_dup(const mp_invoke_pkg *w) {
  if (w == NULL) return NULL;
  mp_invoke_pkg *c = mp_xcalloc(1, sizeof(*c));
  c->pkg = mp_xstrdup(w->pkg);
  c->version = mp_xstrdup(w->version);
  c->url = mp_xstrdup(w->url);
  c->ext_ref = mp_xstrdup(w->ext_ref);
  if (w->param) {
    mp_provider_param *p = mp_xcalloc(1, sizeof(*p));
    p->name = mp_xstrdup(w->param->name);
    p->version = mp_xstrdup(w->param->version);
    p->plugin = mp_xstrdup(w->param->plugin);
    p->plugin_version = mp_xstrdup(w->param->plugin_version);
    void *value = mp_xmalloc(w->param->len + 1);
    if (w->param->len) memcpy(value, w->param->value, w->param->len);
    p->value = value;
    p->len = w->param->len;
    c->param = p;
  }
  return c;
}

void mp_invoke_pkg_free(mp_invoke_pkg *w) {
  if (w == NULL) return;
  if (w->param) {
    mp_provider_param *p = (mp_provider_param *)w->param;
    free((char *)p->name);
    free((char *)p->version);
    free((char *)p->plugin);
    free((char *)p->plugin_version);
    free((void *)p->value);
    free(p);
  }
  free((char *)w->pkg);
  free((char *)w->version);
  free((char *)w->url);
  free((char *)w->ext_ref);
  free(w);
}
