/* Invoke (functions) and Call (methods): the provider each is sent to,
 * named, a registered package's, or its package's default provider. */
#include "monitor/monitor.h"

#include <stdlib.h>
#include <string.h>

#include "engine/map.h"
#include "engine/registry.h"
#include "engine/urn.h"
#include "engine/value_pb.h"
#include "monitor/marshal.h"
#include "monitor/monitor_int.h"
#include "monitor/resource_hooks.h"

/* What a function's or method's provider is when none is named: the
 * package of |tok| at |version| from |url|, or the package |p| (a
 * packageRef's) as registered. |param| holds a parameterization; the
 * package name in |w| is owned (free it). */
static void want_of(const char *tok, const char *version, const char *url,
                    const mp__package *p, mp_provider_param *param,
                    mp_invoke_pkg *w) {
  memset(w, 0, sizeof(*w));
  w->version = version && version[0] ? version : NULL;
  w->url = url && url[0] ? url : NULL;
  if (p) {
    w->version = p->version;
    w->url = p->download_url;
    if (mp__package_param(p, param)) {
      w->pkg = mp_xstrdup(param->name);
      w->version = param->version;
      w->param = param;
      return;
    }
    if (p->extension) {
      w->pkg = mp_xstrdup(p->name);
      w->ext_ref = p->ref;
      return;
    }
  }
  w->pkg = mp_type_package(tok);
}

/* Runs the invokes that waited for |d|: with its reference, or, when it
 * failed, answered with its error. */
void mp__dp_invokes_resolved(mp_monitor *m, dp *d) {
  dp_invoke *w = d->invokes;
  d->invokes = NULL;
  while (w) {
    dp_invoke *next = w->next;
    mp_monitor_call *c = w->call;
    mp_err e;
    mp_err_clear(&e);
    int rc;
    if (d->failed) {
      e = d->err;
      rc = e.code ? e.code : MP_ECANCELED;
      mp_value_free(w->args);
    } else {
      rc = m->o.hooks.invoke(m->o.hooks.ud, w->tok, w->args, d->ref, w->want, c,
                             &e);
    }
    if (rc < 0) {
      if (c->cb)
        c->cb(c->ud, NULL, &e);
      free(c);
    }
    free(w->tok);
    mp_invoke_pkg_free(w->want);
    free(w);
    w = next;
  }
}

/* An invoke that names no provider uses its package's default provider,
 * which is registered (and so recorded in the state) like a resource's
 * (source_eval.go Invoke → getProviderFromSource → getDefaultProviderRef).
 * The engine's own package `pulumi` (pulumi:pulumi:getResource, which a
 * program or component provider calls to read a resource reference) has
 * the builtin provider, `pulumi:providers:pulumi::default`: no plugin, so
 * no version. Returns the default provider, or NULL with rc 0 when none
 * applies, or NULL with an error. */
static dp *invoke_dp(mp_monitor *m, const Pulumirpc__ResourceInvokeRequest *req,
                     const mp__package *package, const mp_invoke_pkg *want,
                     const mp_provider_param *param, int *rc, mp_err *err) {
  *rc = 0;
  if (req->provider && req->provider[0])
    return NULL;
  if (want->pkg == NULL)
    return NULL;
  if (strcmp(want->pkg, "pulumi") == 0) {
    dp *b = mp__dp_get(m, "pulumi", NULL, NULL, NULL, err);
    if (b == NULL)
      *rc = err->code ? err->code : MP_EINVAL;
    return b;
  }
  if (mp__dp_disabled(m, want->pkg)) {
    *rc = mp_err_set(err, MP_EINVAL,
                     "Default provider for '%s' disabled. '%s' must use an "
                     "explicit provider.",
                     want->pkg, req->tok);
    return NULL;
  }
  /* The plugin's version: the registered package's, else the request's. */
  const char *version = package ? package->version : req->version;
  const char *url = package ? package->download_url : req->plugindownloadurl;
  dp *d =
      mp__dp_get(m, want->pkg, version && version[0] ? version : NULL,
                 url && url[0] ? url : NULL, want->param ? param : NULL, err);
  if (d == NULL)
    *rc = err->code ? err->code : MP_EINVAL;
  return d;
}

int mp_monitor_invoke(mp_monitor *m,
                      const Pulumirpc__ResourceInvokeRequest *req,
                      mp_invoke_cb cb, void *ud, mp_err *err) {
  if (req->tok == NULL || req->tok[0] == '\0')
    return mp_err_set(err, MP_EINVAL, "Invoke: missing function token");
  if (m->o.hooks.invoke == NULL)
    return mp_err_set(err, MP_EPLUGIN, "unknown function %s", req->tok);
  /* Options of features we do not advertise (invokeDependsOn,
   * invokeParent): the SDK then waits for the dependencies itself; one
   * that sends them anyway is told, not ignored. */
  if (req->n_dependson > 0 || (req->parent && req->parent[0]) ||
      req->n_pluginchecksums > 0)
    return mp_err_set(err, MP_EINVAL,
                      "Invoke %s: the %s option is not supported by this "
                      "engine; remove it from the call",
                      req->tok,
                      req->n_dependson > 0     ? "dependsOn"
                      : req->n_pluginchecksums ? "pluginChecksums"
                                               : "parent");
  mp_value *args = NULL;
  const mp__package *package = NULL;
  int rc = mp__monitor_apply_package(m, req->packageref, NULL, &package, err);
  if (rc < 0)
    return rc;
  mp_provider_param param;
  mp_invoke_pkg want;
  want_of(req->tok, req->version, req->plugindownloadurl, package, &param,
          &want);
  dp *d = invoke_dp(m, req, package, &want, &param, &rc, err);
  if (rc == 0)
    rc = mp_value_from_pb_struct(req->args, &args, err);
  if (rc == 0 && d && d->failed)
    rc = mp_err_set(err, d->err.code ? d->err.code : MP_EINVAL, "%s",
                    d->err.msg);
  if (rc < 0) {
    mp_value_free(args);
    free((char *)want.pkg);
    return rc;
  }
  mp_monitor_call *c = mp_xcalloc(1, sizeof(*c));
  c->cb = cb;
  c->ud = ud;
  /* Function results keep their secrets marked (as Pulumi's engine does). */
  c->pb_flags =
      MP_PB_KEEP_SECRETS | (req->acceptresources ? MP_PB_KEEP_RESOURCES : 0);
  if (d && !d->ready) {
    dp_invoke *w = mp_xcalloc(1, sizeof(*w));
    w->tok = mp_xstrdup(req->tok);
    w->args = args;
    w->want = mp_invoke_pkg_dup(&want);
    w->call = c;
    w->next = d->invokes;
    d->invokes = w;
    free((char *)want.pkg);
    return 0;
  }
  const char *ref =
      d ? d->ref : (req->provider && req->provider[0] ? req->provider : NULL);
  rc = m->o.hooks.invoke(m->o.hooks.ud, req->tok, args, ref, &want, c, err);
  free((char *)want.pkg);
  if (rc < 0)
    free(c);
  return rc;
}

void mp_monitor_call_done(mp_monitor *m, mp_monitor_call *c, mp_value *ret,
                          const mp_err *err) {
  (void)m;
  if (err && err->code) {
    if (c->cb)
      c->cb(c->ud, NULL, err);
  } else {
    Pulumirpc__ResourceInvokeResponse resp =
        PULUMIRPC__RESOURCE_INVOKE_RESPONSE__INIT;
    if (mp_value_to_pb_struct(ret, c->pb_flags, &resp.return_, NULL) < 0)
      resp.return_ = NULL;
    if (c->cb)
      c->cb(c->ud, &resp, NULL);
    mp_value_pb_struct_free(resp.return_);
  }
  mp_value_free(ret);
  free(c);
}

/* ---- methods and packages ---- */

/* The provider of a method: the explicit one, else the package's default
 * provider as registered (the one that constructed the component; Pulumi
 * asks its default providers the same way), else NULL: the deployment's
 * pick for functions. */
static const char *method_provider(mp_monitor *m,
                                   const Pulumirpc__ResourceCallRequest *req,
                                   const mp_invoke_pkg *want) {
  if (req->provider && req->provider[0])
    return req->provider;
  if (want->pkg == NULL)
    return NULL;
  char *key = mp__dp_key(want->pkg, want->version, want->url);
  const dp *d = mp_map_get(&m->dps, key);
  free(key);
  return d && d->ready ? d->ref : NULL;
}

int mp_monitor_call_method(mp_monitor *m,
                           const Pulumirpc__ResourceCallRequest *req,
                           mp_call_cb cb, void *ud, mp_err *err) {
  if (req->tok == NULL || req->tok[0] == '\0')
    return mp_err_set(err, MP_EINVAL, "Call: missing method token");
  if (m->o.hooks.call == NULL)
    return mp_err_set(err, MP_EINVAL, "cannot call %s here", req->tok);
  const mp__package *package = NULL;
  int rc = mp__monitor_apply_package(m, req->packageref, NULL, &package, err);
  if (rc < 0)
    return rc;
  mp_buf b;
  mp_buf_init(&b);
  rc = mp__monitor_call_request(&m->o, req, &b, err);
  mp_monitor_call *c = NULL;
  mp_provider_param param;
  mp_invoke_pkg want;
  want_of(req->tok, req->version, req->plugindownloadurl, package, &param,
          &want);
  if (rc == 0) {
    c = mp_xcalloc(1, sizeof(*c));
    c->ccb = cb;
    c->ud = ud;
    rc = m->o.hooks.call(m->o.hooks.ud, req->tok,
                         method_provider(m, req, &want), &want, &b, c, err);
  }
  free((char *)want.pkg);
  if (rc < 0)
    free(c);
  mp_buf_destroy(&b);
  return rc;
}

void mp_monitor_method_done(mp_monitor *m, mp_monitor_call *c,
                            const mp_buf *resp, const mp_err *err) {
  (void)m;
  Pulumirpc__CallResponse *a = NULL;
  mp_err e;
  mp_err_clear(&e);
  if (err == NULL || err->code == 0) {
    a = pulumirpc__call_response__unpack(NULL, resp->len,
                                         (const uint8_t *)resp->data);
    if (a == NULL)
      mp_err_set(&e, MP_EPROTO,
                 "the provider answered Call with bytes that are not a "
                 "CallResponse");
    err = &e;
  }
  if (c->ccb)
    c->ccb(c->ud, a, a ? NULL : err);
  if (a)
    pulumirpc__call_response__free_unpacked(a, NULL);
  free(c);
}
