#include "engine/registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "engine/map.h"
#include "engine/urn.h"

typedef struct entry {
  mp_provider *prov;   /* configured instance, or NULL until loaded */
  mp_resource *state;  /* the provider resource it was configured from */
} entry;

struct mp_registry {
  uv_mutex_t mu; /* guards the maps and the entries */
  mp_map by_ref;  /* ref -> entry* */
  mp_map unconf;  /* "pkg@version" -> mp_provider* */
  mp_map checked; /* provider URN -> mp_provider* its CheckConfig went to
                   * (NULL once loaded) */
  int preview;
  mp_provider_factory factory;
  /* Extensions: the known ones (under mu) and which instance has which
   * loaded ("<instance address>|<ref>"); ext_mu is held across the
   * Parameterize call so that two users of one instance load it once. */
  mp_extensions exts;
  uv_mutex_t ext_mu;
  mp_strv extended;
};

mp_registry *mp_registry_new(int preview, mp_provider_factory factory) {
  mp_registry *r = mp_xcalloc(1, sizeof(*r));
  r->factory = factory;
  uv_mutex_init(&r->mu);
  uv_mutex_init(&r->ext_mu);
  mp_extensions_init(&r->exts);
  mp_strv_init(&r->extended);
  mp_map_init(&r->by_ref);
  mp_map_init(&r->unconf);
  mp_map_init(&r->checked);
  r->preview = preview;
  return r;
}

static void entry_free(entry *e) {
  if (e == NULL) return;
  mp_provider_free(e->prov);
  mp_resource_free(e->state);
  free(e);
}

void mp_registry_free(mp_registry *r) {
  if (r == NULL) return;
  for (size_t i = 0; i < r->by_ref.cap; i++)
    if (r->by_ref.slots[i].key && r->by_ref.slots[i].value)
      entry_free(r->by_ref.slots[i].value);
  for (size_t i = 0; i < r->unconf.cap; i++)
    if (r->unconf.slots[i].key && r->unconf.slots[i].value)
      mp_provider_free(r->unconf.slots[i].value);
  for (size_t i = 0; i < r->checked.cap; i++)
    if (r->checked.slots[i].key && r->checked.slots[i].value)
      mp_provider_free(r->checked.slots[i].value);
  mp_map_destroy(&r->by_ref);
  mp_map_destroy(&r->unconf);
  mp_map_destroy(&r->checked);
  uv_mutex_destroy(&r->mu);
  uv_mutex_destroy(&r->ext_mu);
  mp_extensions_destroy(&r->exts);
  mp_strv_destroy(&r->extended);
  free(r);
}

int mp_registry_add_extension(mp_registry *r, const mp_extension *e) {
  uv_mutex_lock(&r->mu);
  int added = mp_extensions_put(&r->exts, e);
  uv_mutex_unlock(&r->mu);
  return added;
}

mp_provider *mp_registry_get_for(mp_registry *r, const char *ref,
                                 const char *ext_ref, mp_err *err) {
  mp_provider *p = mp_registry_get(r, ref, err);
  if (p && mp_registry_extend(r, p, ext_ref, err) < 0) return NULL;
  return p;
}

int mp_registry_extend(mp_registry *r, mp_provider *p, const char *ext_ref,
                       mp_err *err) {
  if (ext_ref == NULL || ext_ref[0] == '\0') return 0;
  char *name = NULL, *version = NULL;
  mp_buf value;
  mp_buf_init(&value);
  uv_mutex_lock(&r->mu);
  const mp_extension *e = mp_extensions_find(&r->exts, ext_ref);
  if (e) {
    name = mp_xstrdup(e->name);
    version = mp_xstrdup(e->version);
    mp_buf_append(&value, e->value.data ? e->value.data : "", e->value.len);
  }
  uv_mutex_unlock(&r->mu);
  if (name == NULL)
    return mp_err_set(err, MP_ESTATE,
                      "extension blob for %s not found in snapshot", ext_ref);
  char *key = mp_xasprintf("%p|%s", (void *)p, ext_ref);
  int rc = 0;
  uv_mutex_lock(&r->ext_mu);
  if (!mp_strv_contains(&r->extended, key)) {
    rc = mp_provider_parameterize_value(p, name, version, value.data,
                                        value.len, err);
    if (rc == 0) mp_strv_push(&r->extended, key);
  }
  uv_mutex_unlock(&r->ext_mu);
  if (rc < 0) mp_err_prefix(err, "loading extension %s (package %s)", ext_ref, name);
  free(key);
  free(name);
  free(version);
  mp_buf_destroy(&value);
  return rc;
}

static char *ref_of(const mp_resource *res) {
  return mp_provider_ref_format(res->urn, res->id);
}

void mp_registry_add_known(mp_registry *r, const mp_resource *st) {
  char *ref = ref_of(st);
  uv_mutex_lock(&r->mu);
  if (!mp_map_has(&r->by_ref, ref)) {
    entry *e = mp_xcalloc(1, sizeof(*e));
    e->state = mp_resource_dup(st);
    mp_map_put(&r->by_ref, ref, e);
  }
  uv_mutex_unlock(&r->mu);
  free(ref);
}

const char *mp_provider_download_url(const mp_value *inputs) {
  if (inputs == NULL || inputs->kind != MP_VALUE_OBJECT) return NULL;
  const mp_value *in = mp_value_object_get(inputs, MP_PROVIDER_INTERNAL_KEY);
  if (in && in->kind != MP_VALUE_OBJECT) return NULL;
  const mp_value *url =
      mp_value_object_get(in ? in : inputs, "pluginDownloadURL");
  return url && url->kind == MP_VALUE_STRING && url->u.str.ptr[0]
             ? url->u.str.ptr
             : NULL;
}

mp_value *mp_provider_config(const mp_value *inputs) {
  if (inputs == NULL) return NULL;
  mp_value *c = mp_value_dup(inputs);
  if (c->kind == MP_VALUE_OBJECT)
    mp_value_object_del(c, MP_PROVIDER_INTERNAL_KEY);
  return c;
}

/* An unconfigured instance of |pkg| for what the provider |inputs| ask:
 * their plugin at their version, fetched from their pluginDownloadURL if
 * need be, and parameterized into |pkg| when they say so. */
static int make_for(const mp_registry *r, const char *pkg,
                    const mp_value *inputs, mp_provider **out, mp_err *err) {
  const char *plugin = mp_provider_plugin(pkg, inputs);
  const char *version = mp_provider_version(inputs);
  const char *url = mp_provider_download_url(inputs);
  if (r->factory.download_url && version && url)
    r->factory.download_url(r->factory.ud, plugin, version, url);
  mp_strv env_map;
  mp_strv_init(&env_map);
  mp_provider_env_map(inputs, &env_map);
  int rc;
  if (env_map.len == 0)
    rc = r->factory.make(r->factory.ud, plugin, version, out, err);
  else if (r->factory.make_env)
    rc = r->factory.make_env(r->factory.ud, plugin, version, &env_map, out,
                             err);
  else
    rc = mp_err_set(err, MP_EINVAL,
                    "provider of package '%s': envVarMappings cannot be "
                    "applied here (no plugin process to give them to)",
                    pkg);
  mp_strv_destroy(&env_map);
  if (rc == 0 && (rc = mp_provider_parameterize(*out, pkg, inputs, err)) < 0) {
    mp_provider_free(*out);
    *out = NULL;
  }
  return rc;
}

/* |res|'s instance, configured: |checked| (the instance its CheckConfig
 * went to, taken) or a new one. */
static int make_instance(const mp_registry *r, const mp_resource *res,
                         mp_provider *checked, mp_provider **out,
                         mp_err *err) {
  char *pkg = mp_type_package(res->type);
  if (pkg == NULL) {
    mp_provider_free(checked);
    return mp_err_set(err, MP_EINVAL, "bad provider type '%s'", res->type);
  }
  mp_provider *p = checked;
  int rc = p ? 0 : make_for(r, pkg, res->inputs, &p, err);
  free(pkg);
  if (rc < 0) return rc;
  if (p->vt->configure) {
    mp_prov_req q = {0};
    mp_prov_resp resp;
    mp_prov_resp_init(&resp);
    mp_value *config = mp_provider_config(res->inputs);
    q.urn = res->urn;
    q.type = res->type;
    q.news = config;
    q.preview = r->preview;
    rc = p->vt->configure(p, &q, &resp, err);
    mp_prov_resp_destroy(&resp);
    mp_value_free(config);
    if (rc < 0) {
      mp_err_prefix(err, "configuring provider '%s'", res->urn);
      mp_provider_free(p);
      return rc;
    }
  }
  *out = p;
  return 0;
}

/* Forgets which extensions instance |p| had loaded. */
static void forget_extended(mp_registry *r, const mp_provider *p) {
  char prefix[32];
  int n = snprintf(prefix, sizeof(prefix), "%p|", (const void *)p);
  uv_mutex_lock(&r->ext_mu);
  for (size_t i = r->extended.len; i-- > 0;)
    if (n > 0 && strncmp(r->extended.items[i], prefix, (size_t)n) == 0)
      mp_strv_remove_at(&r->extended, i);
  uv_mutex_unlock(&r->ext_mu);
}

int mp_registry_load(mp_registry *r, const mp_resource *res, mp_err *err) {
  mp_provider *p = NULL;
  uv_mutex_lock(&r->mu);
  mp_provider *checked = mp_map_has(&r->checked, res->urn)
                             ? mp_map_put(&r->checked, res->urn, NULL)
                             : NULL;
  uv_mutex_unlock(&r->mu);
  int rc = make_instance(r, res, checked, &p, err);
  if (rc < 0) return rc;
  char *ref = ref_of(res);
  entry *e = mp_xcalloc(1, sizeof(*e));
  e->prov = p;
  e->state = mp_resource_dup(res);
  uv_mutex_lock(&r->mu);
  entry *old = mp_map_put(&r->by_ref, ref, e);
  uv_mutex_unlock(&r->mu);
  /* An instance that is replaced under the same ref may still be used by
   * a call in flight only if the same provider resource was loaded twice,
   * which the step generator never does; free it, and forget the
   * extensions loaded into it (a new instance may get its address). */
  if (old && old->prov) forget_extended(r, old->prov);
  entry_free(old);
  free(ref);
  return 0;
}

mp_provider *mp_registry_get(mp_registry *r, const char *ref, mp_err *err) {
  mp_provider *p = NULL;
  uv_mutex_lock(&r->mu);
  entry *e = mp_map_get(&r->by_ref, ref);
  if (e && e->prov == NULL) {
    /* First use of a provider known only from the prior snapshot. */
    if (make_instance(r, e->state, NULL, &e->prov, err) < 0) {
      uv_mutex_unlock(&r->mu);
      return NULL;
    }
  }
  if (e) p = e->prov;
  uv_mutex_unlock(&r->mu);
  if (p == NULL) mp_err_set(err, MP_ENOENT, "unknown provider '%s'", ref);
  return p;
}

mp_provider *mp_registry_unconfigured(mp_registry *r, const char *pkg,
                                      const mp_value *inputs, mp_err *err) {
  /* The plugin's version, and the package's (they differ when the
   * package is parameterized). */
  const mp_value *pv = inputs ? mp_value_object_get(inputs, "version") : NULL;
  char *key = mp_xasprintf(
      "%s@%s@%s", pkg,
      mp_provider_version(inputs) ? mp_provider_version(inputs) : "",
      pv && pv->kind == MP_VALUE_STRING ? pv->u.str.ptr : "");
  uv_mutex_lock(&r->mu);
  mp_provider *p = mp_map_get(&r->unconf, key);
  if (p == NULL && make_for(r, pkg, inputs, &p, err) == 0)
    mp_map_put(&r->unconf, key, p);
  uv_mutex_unlock(&r->mu);
  free(key);
  return p;
}

mp_provider *mp_registry_for_check(mp_registry *r, const char *urn,
                                   const char *pkg, const mp_value *inputs,
                                   mp_err *err) {
  mp_provider *p = NULL;
  if (make_for(r, pkg, inputs, &p, err) < 0) return NULL;
  uv_mutex_lock(&r->mu);
  /* A resource is checked once per deployment; a second check replaces
   * the first instance, which no call uses any more. */
  mp_provider *old = mp_map_put(&r->checked, urn, p);
  uv_mutex_unlock(&r->mu);
  mp_provider_free(old);
  return p;
}

mp_provider *mp_registry_for_invoke(mp_registry *r, const mp_invoke_pkg *want,
                                    const mp_value *config, mp_err *err) {
  const char *pkg = want->pkg;
  char *ref = mp_xasprintf("invoke::%s@%s@%s", pkg,
                           want->version ? want->version : "",
                           want->url ? want->url : "");
  uv_mutex_lock(&r->mu);
  entry *e = mp_map_get(&r->by_ref, ref);
  if (e == NULL) {
    char *type = mp_xasprintf("%s%s", MP_PROVIDER_TYPE_PREFIX, pkg);
    char *urn = mp_xasprintf("invoke::%s", pkg);
    e = mp_xcalloc(1, sizeof(*e));
    e->state = mp_resource_new(urn, type, 1);
    e->state->inputs = mp_value_new_object();
    size_t plen = strlen(pkg);
    for (size_t i = 0; config && i < config->u.obj.len; i++) {
      const mp_value_entry *c = &config->u.obj.items[i];
      if (strncmp(c->key, pkg, plen) == 0 && c->key[plen] == ':')
        mp_value_object_set(e->state->inputs, c->key + plen + 1,
                            mp_value_dup(c->value));
    }
    if (want->version)
      mp_provider_inputs_set_version(e->state->inputs, want->version);
    if (want->url) mp_provider_inputs_set_url(e->state->inputs, want->url);
    if (want->param)
      mp_provider_inputs_set_param(e->state->inputs, want->param);
    mp_map_put(&r->by_ref, ref, e);
    free(type);
    free(urn);
  }
  mp_provider *p = e->prov;
  if (p == NULL && make_instance(r, e->state, NULL, &e->prov, err) == 0)
    p = e->prov;
  uv_mutex_unlock(&r->mu);
  free(ref);
  return p;
}

void mp_registry_cancel(mp_registry *r) {
  uv_mutex_lock(&r->mu);
  for (size_t i = 0; i < r->by_ref.cap; i++) {
    entry *e = r->by_ref.slots[i].key ? r->by_ref.slots[i].value : NULL;
    if (e && e->prov && e->prov->vt->cancel) e->prov->vt->cancel(e->prov);
  }
  uv_mutex_unlock(&r->mu);
}
