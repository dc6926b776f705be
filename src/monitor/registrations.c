/* RegisterResource, ReadResource, RegisterResourceOutputs and
 * RegisterPackage: each registration's goal made, its inheritance from its
 * parent, its package, and its answer to the language host. Remote
 * components are sent to their provider's Construct (construct.c). */
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

void mp__reg_link(mp_monitor *m, mp_monitor_reg *r) {
  r->next = m->outstanding;
  if (m->outstanding)
    m->outstanding->prev = r;
  m->outstanding = r;
  m->noutstanding++;
}

void mp__reg_unlink(mp_monitor *m, mp_monitor_reg *r) {
  if (r->prev)
    r->prev->next = r->next;
  else
    m->outstanding = r->next;
  if (r->next)
    r->next->prev = r->prev;
  r->prev = r->next = NULL;
  m->noutstanding--;
}

void mp__heritage_free(heritage *h) {
  if (h == NULL)
    return;
  free(h->deleted_with);
  free(h->provider);
  mp_strv_destroy(&h->providers);
  free(h);
}

void mp__reg_free(mp_monitor_reg *r) {
  mp_goal_free(r->goal);
  mp__heritage_free(r->heir);
  mp_buf_destroy(&r->creq);
  free(r->urn);
  free(r);
}

/* ---- inheritance from the parent ---- */

static const char *providers_get(const mp_strv *pairs, const char *pkg) {
  for (size_t i = 0; i + 1 < pairs->len; i += 2)
    if (strcmp(pairs->items[i], pkg) == 0)
      return pairs->items[i + 1];
  return NULL;
}

/* 1 if the provider reference |ref| is a provider of package |pkg|. */
static int provider_of(const char *ref, const char *pkg) {
  mp_provider_ref pr;
  if (mp_provider_ref_parse(ref, &pr, NULL) < 0)
    return 0;
  size_t tlen = 0;
  const char *t = mp_urn_type(pr.urn, &tlen);
  char *ptype = t ? mp_xstrndup(t, tlen) : NULL;
  char *ppkg = ptype ? mp_type_package(ptype) : NULL;
  int same = ppkg && strcmp(ppkg, pkg) == 0;
  free(ptype);
  free(ppkg);
  mp_provider_ref_destroy(&pr);
  return same;
}

/* Fills |g|'s unset deletedWith, protect and retainOnDelete from its
 * parent's registration, and its provider (source_eval.go
 * inheritFromParent, then resolveProvider): a custom resource takes its
 * parent's provider when that is of its package, else its own providers
 * map's entry for its package, else its parent component's; a component
 * passes its parent's provider on whatever the package. Children name
 * their parent after it registered, so it is known. */
static void inherit(mp_monitor *m, mp_goal *g, const mp_strv *own) {
  const heritage *h = g->parent ? mp_map_get(&m->heritages, g->parent) : NULL;
  if (h) {
    if (g->deleted_with == NULL)
      g->deleted_with = mp_xstrdup(h->deleted_with);
    if (g->protect < 0)
      g->protect = h->protect;
    if (g->retain_on_delete < 0)
      g->retain_on_delete = h->retain_on_delete;
  }
  if (g->provider || !g->custom || mp_type_is_provider(g->type))
    return;
  char *pkg = mp_type_package(g->type);
  if (pkg == NULL)
    return;
  const char *ref = NULL;
  if (h && h->provider && provider_of(h->provider, pkg))
    ref = h->provider;
  if (ref == NULL)
    ref = providers_get(own, pkg);
  if (ref == NULL && h)
    ref = providers_get(&h->providers, pkg);
  if (ref)
    g->provider = mp_xstrdup(ref);
  free(pkg);
}

/* What |g|'s children inherit from it. */
static heritage *heritage_of(mp_monitor *m, const mp_goal *g,
                             const mp_strv *own) {
  heritage *h = mp_xcalloc(1, sizeof(*h));
  h->protect = g->protect;
  h->retain_on_delete = g->retain_on_delete;
  h->deleted_with = mp_xstrdup(g->deleted_with);
  h->provider = mp_xstrdup(g->provider);
  if (g->custom)
    return h;
  const heritage *p = g->parent ? mp_map_get(&m->heritages, g->parent) : NULL;
  if (h->provider == NULL && p)
    h->provider = mp_xstrdup(p->provider);
  mp_strv_copy(&h->providers, own);
  if (p)
    for (size_t i = 0; i + 1 < p->providers.len; i += 2)
      if (providers_get(own, p->providers.items[i]) == NULL) {
        mp_strv_push(&h->providers, p->providers.items[i]);
        mp_strv_push(&h->providers, p->providers.items[i + 1]);
      }
  return h;
}

/* Hands |g| to the deployment; a resource registration first notes what
 * its children will inherit. */
static void construct(mp_monitor *m, mp_goal *g, mp_monitor_reg *r);

void mp__reg_submit(mp_monitor *m, mp_goal *g, mp_monitor_reg *r) {
  if (r->remote) {
    construct(m, g, r);
    return;
  }
  if (r->kind == REG_RESOURCE && r->heir == NULL) {
    mp_strv none = {0};
    r->heir = heritage_of(m, g, &none);
  } else if (r->kind == REG_RESOURCE && r->heir->provider == NULL) {
    r->heir->provider = mp_xstrdup(g->provider); /* its default provider */
  }
  m->o.hooks.submit(m->o.hooks.ud, g, r);
}

/* A registration the host already got its answer for is only freed when
 * the deployment hands it back. */
static int handed_back(mp_monitor *m, mp_monitor_reg *r) {
  if (!r->answered)
    return 0;
  if (r->prev)
    r->prev->next = r->next;
  else
    m->answered = r->next;
  if (r->next)
    r->next->prev = r->prev;
  mp__reg_free(r);
  return 1;
}

void mp__reg_answer_error(mp_monitor *m, mp_monitor_reg *r, const mp_err *err,
                          int skipped) {
  if (handed_back(m, r))
    return;
  mp__reg_unlink(m, r);
  if (r->kind == REG_DEFAULT_PROVIDER) {
    r->dp->failed = 1;
    r->dp->err = *err;
    mp__dp_resolved(m, r->dp);
  } else if (skipped && r->kind == REG_RESOURCE && r->cb) {
    Pulumirpc__RegisterResourceResponse resp =
        PULUMIRPC__REGISTER_RESOURCE_RESPONSE__INIT;
    resp.result = skipped == MP_MONITOR_SKIPPED ? PULUMIRPC__RESULT__SKIP
                                                : PULUMIRPC__RESULT__FAIL;
    r->cb(r->ud, &resp, NULL);
  } else if (r->kind == REG_RESOURCE && r->cb) {
    r->cb(r->ud, NULL, err);
  } else if (r->kind == REG_READ && r->rcb) {
    r->rcb(r->ud, NULL, err);
  }
  mp__reg_free(r);
}

void mp_monitor_fail(mp_monitor *m, mp_monitor_reg *reg, const mp_err *err,
                     int how) {
  mp__reg_answer_error(m, reg, err, how);
}

void mp_monitor_complete(mp_monitor *m, mp_monitor_reg *r,
                         const mp_resource *st) {
  if (handed_back(m, r))
    return;
  mp__reg_unlink(m, r);
  if (r->kind == REG_DEFAULT_PROVIDER) {
    r->dp->ready = 1;
    r->dp->ref = mp_provider_ref_format(st->urn, st->id);
    mp__dp_resolved(m, r->dp);
  } else if (r->kind == REG_RESOURCE && r->cb) {
    if (r->heir && st->urn) {
      mp__heritage_free(mp_map_put(&m->heritages, st->urn, r->heir));
      r->heir = NULL;
    }
    Pulumirpc__RegisterResourceResponse *resp =
        mp__monitor_register_response(st, r->pb_flags, m->o.preview);
    r->cb(r->ud, resp, NULL);
    mp__monitor_register_response_free(resp);
  } else if (r->kind == REG_READ && r->rcb) {
    Pulumirpc__ReadResourceResponse *resp =
        mp__monitor_read_response(st, r->pb_flags);
    r->rcb(r->ud, resp, NULL);
    mp__monitor_read_response_free(resp);
  }
  mp__reg_free(r);
}

/* ---- entry points (monitor/api.h) ---- */

/* Routes the goal of a RegisterResource or ReadResource request; the
 * registration answers through |cb| or |rcb|. On error nothing is kept. */
static mp_monitor_reg *new_reg(enum reg_kind kind, mp_register_cb cb,
                               mp_read_cb rcb, void *ud, int accept_secrets,
                               int accept_resources) {
  mp_monitor_reg *r = mp_xcalloc(1, sizeof(*r));
  r->kind = kind;
  r->cb = cb;
  r->rcb = rcb;
  r->ud = ud;
  r->pb_flags = (accept_secrets ? MP_PB_KEEP_SECRETS : 0) |
                (accept_resources ? MP_PB_KEEP_RESOURCES : 0);
  return r;
}

static int enqueue(mp_monitor *m, mp_goal *g, mp_monitor_reg *r, mp_err *err) {
  int rc = mp__dp_route(m, g, r, err);
  if (rc < 0) {
    mp_goal_free(g);
    mp__reg_free(r);
  }
  return rc;
}

/* A packageRef names a package RegisterPackage registered (*out; NULL
 * without a packageRef): its version and download URL decide the provider
 * (source_eval.go: the registered package replaces what the request
 * says), and an explicit provider of the package records them in its
 * inputs as a default provider does, with the parameterization. */
int mp__monitor_apply_package(mp_monitor *m, const char *ref, mp_goal *g,
                              const mp__package **out, mp_err *err) {
  *out = NULL;
  if (ref == NULL || ref[0] == '\0')
    return 0;
  const mp__package *p = mp__packages_find(m->packages, ref);
  if (p == NULL)
    return mp_err_set(err, MP_EINVAL, "unknown provider package '%s'", ref);
  *out = p;
  if (g == NULL)
    return 0;
  /* An extension's resource (not a provider of the base package, which
   * is the base package's own) records the extension. */
  if (p->extension && !mp_type_is_provider(g->type)) {
    free(g->extension_ref);
    g->extension_ref = mp_xstrdup(p->ref);
  }
  free(g->version);
  g->version = mp_xstrdup(p->version);
  free(g->plugin_download_url);
  g->plugin_download_url = mp_xstrdup(p->download_url);
  if (!mp_type_is_provider(g->type) || g->inputs == NULL ||
      g->inputs->kind != MP_VALUE_OBJECT)
    return 0;
  if (p->version)
    mp_provider_inputs_set_version(g->inputs, p->version);
  if (p->download_url)
    mp_provider_inputs_set_url(g->inputs, p->download_url);
  mp_provider_param param;
  if (mp__package_param(p, &param))
    mp_provider_inputs_set_param(g->inputs, &param);
  return 0;
}

/* A remote component (construct.c): its provider is the explicit one, or
 * its providers map's entry for its package (its own entries over its
 * component parent's), or the package's default (source_eval.go
 * resolveProvider); that provider's Construct makes it. */
static int register_remote(mp_monitor *m,
                           const Pulumirpc__RegisterResourceRequest *req,
                           mp_goal *g, const mp__package *package, mp_strv *own,
                           mp_register_cb cb, void *ud, mp_err *err) {
  int rc = 0;
  char *pkg = package && package->extension ? mp_xstrdup(package->name)
                                            : mp_type_package(g->type);
  if (pkg == NULL || m->o.hooks.construct == NULL) {
    rc = pkg ? mp_err_set(err, MP_EINVAL,
                          "remote component '%s' of type %s: this "
                          "deployment cannot construct components",
                          g->name, g->type)
             : mp_err_set(err, MP_EINVAL,
                          "remote component '%s': invalid type '%s' (a "
                          "component made by a provider needs a "
                          "package:module:type token)",
                          g->name, g->type);
    free(pkg);
    mp_goal_free(g);
    return rc;
  }
  const heritage *h = g->parent ? mp_map_get(&m->heritages, g->parent) : NULL;
  if (h)
    for (size_t i = 0; i + 1 < h->providers.len; i += 2)
      if (providers_get(own, h->providers.items[i]) == NULL) {
        mp_strv_push(own, h->providers.items[i]);
        mp_strv_push(own, h->providers.items[i + 1]);
      }
  if (g->provider == NULL && providers_get(own, pkg))
    g->provider = mp_xstrdup(providers_get(own, pkg));
  free(pkg);
  mp_monitor_reg *r = new_reg(REG_RESOURCE, cb, NULL, ud, req->acceptsecrets,
                              req->acceptresources);
  r->remote = 1;
  r->package = package;
  r->urn = mp_urn_new(m->stack, m->project, g->parent, g->type, g->name, NULL);
  rc = mp__monitor_construct_request(&m->o, req, own, &r->creq, err);
  if (rc < 0) {
    mp_goal_free(g);
    mp__reg_free(r);
    return rc;
  }
  return enqueue(m, g, r, err);
}

static void construct(mp_monitor *m, mp_goal *g, mp_monitor_reg *r) {
  mp_err e;
  mp_err_clear(&e);
  char *ref = mp_xstrdup(g->provider);
  char *ext = g->extension_ref;
  g->extension_ref = NULL;
  mp_goal_free(g);
  if (m->o.hooks.construct(m->o.hooks.ud, ref, ext, &r->creq, r, &e) < 0)
    mp__reg_answer_error(m, r, &e, 0);
  free(ext);
  free(ref);
}

void mp_monitor_construct_done(mp_monitor *m, mp_monitor_reg *r,
                               const mp_buf *resp, const mp_err *err) {
  if (handed_back(m, r))
    return;
  mp_err e;
  mp_err_clear(&e);
  Pulumirpc__RegisterResourceResponse *a = NULL;
  if (err == NULL || err->code == 0) {
    a = mp__monitor_construct_answer(resp, r->pb_flags, &e);
    err = &e;
  }
  if (a == NULL) {
    /* Reported on the component, as the engine reports a resource's
     * failure; the program is told to stop (as for a default provider
     * that is disabled), so that it does not wait on the component. */
    if (m->o.hooks.log)
      m->o.hooks.log(m->o.hooks.ud, MP_LOG_ERROR, r->urn, err->msg);
    mp_err_set(&e, MP_ECANCELED, "%s", err->msg);
    mp__reg_answer_error(m, r, &e, 0);
    return;
  }
  mp__reg_unlink(m, r);
  if (r->cb)
    r->cb(r->ud, a, NULL);
  mp__monitor_construct_answer_free(a);
  mp__reg_free(r);
}

/* A registration after its goal is made (and its assets hashed): takes
 * |g|; 0, or an MP_E code (then |cb| is not called). */
int mp__monitor_register_goal(mp_monitor *m,
                              const Pulumirpc__RegisterResourceRequest *req,
                              mp_goal *g, mp_register_cb cb, void *ud,
                              mp_err *err) {
  const mp__package *package = NULL;
  int rc = mp__monitor_apply_package(m, req->packageref, g, &package, err);
  if (rc < 0) {
    mp_goal_free(g);
    return rc;
  }
  mp_strv own;
  mp_strv_init(&own);
  for (size_t i = 0; i < req->n_providers; i++) {
    const char *pkg = req->providers[i]->key, *ref = req->providers[i]->value;
    if (pkg && pkg[0] && ref && ref[0] && providers_get(&own, pkg) == NULL) {
      mp_strv_push(&own, pkg);
      mp_strv_push(&own, ref);
    }
  }
  if (req->remote) {
    rc = register_remote(m, req, g, package, &own, cb, ud, err);
    mp_strv_destroy(&own);
    return rc;
  }
  inherit(m, g, &own);
  mp_monitor_reg *r = new_reg(REG_RESOURCE, cb, NULL, ud, req->acceptsecrets,
                              req->acceptresources);
  r->package = package;
  /* The heritage is noted now: it needs the providers map. */
  r->heir = heritage_of(m, g, &own);
  mp_strv_destroy(&own);
  return enqueue(m, g, r, err);
}

int mp_monitor_register_resource(mp_monitor *m,
                                 const Pulumirpc__RegisterResourceRequest *req,
                                 mp_register_cb cb, void *ud, mp_err *err) {
  mp_goal *g = NULL;
  /* With a loop, only the text assets are hashed here (no file, no
   * download): the rest on the pool. */
  int pool = m->o.loop != NULL;
  int rc =
      mp__monitor_goal_from_register(req, pool ? NULL : &m->assets, &g, err);
  if (rc < 0)
    return rc;
  if (pool && (mp_value_assets_need_io(g->inputs) ||
               mp_value_assets_need_io(g->replacement_trigger)))
    return mp__monitor_hash_then_register(m, req, g, cb, ud, err);
  return mp__monitor_register_goal(m, req, g, cb, ud, err);
}

int mp_monitor_read_resource(mp_monitor *m,
                             const Pulumirpc__ReadResourceRequest *req,
                             mp_read_cb cb, void *ud, mp_err *err) {
  mp_goal *g = NULL;
  const mp__package *package = NULL;
  int rc = mp__monitor_goal_from_read(req, &g, err);
  if (rc == 0)
    rc = mp__monitor_apply_package(m, req->packageref, g, &package, err);
  if (rc < 0) {
    mp_goal_free(g);
    return rc;
  }
  mp_monitor_reg *r =
      new_reg(REG_READ, NULL, cb, ud, req->acceptsecrets, req->acceptresources);
  r->package = package;
  return enqueue(m, g, r, err);
}

int mp_monitor_register_outputs(
    mp_monitor *m, const Pulumirpc__RegisterResourceOutputsRequest *req,
    mp_err *err) {
  mp_value *outs = NULL;
  int rc = mp_value_from_pb_struct(req->outputs, &outs, err);
  /* Pulumi computes the hashes of the outputs' assets too. */
  if (rc == 0)
    rc = mp_value_hash_assets(outs, &m->assets, err);
  if (rc < 0) {
    mp_value_free(outs);
    return mp_err_prefix(err, "RegisterResourceOutputs(%s)",
                         req->urn ? req->urn : "");
  }
  return m->o.hooks.outputs(m->o.hooks.ud, req->urn, outs, err);
}

int mp_monitor_register_package(mp_monitor *m,
                                const Pulumirpc__RegisterPackageRequest *req,
                                char **ref, mp_err *err) {
  *ref = NULL;
  if (req->name == NULL || req->name[0] == '\0')
    return mp_err_set(err, MP_EINVAL, "RegisterPackage: package name is empty");
  if (req->parameterization && (req->parameterization->name == NULL ||
                                req->parameterization->name[0] == '\0'))
    return mp_err_set(err, MP_EINVAL,
                      "RegisterPackage of '%s': the parameterization has no "
                      "package name",
                      req->name);
  if (req->extension && req->parameterization)
    return mp_err_set(err, MP_EINVAL,
                      "RegisterPackage of '%s': a package is either an "
                      "extension or a parameterization, not both",
                      req->name);
  if (req->extension &&
      (req->extension->name == NULL || req->extension->name[0] == '\0'))
    return mp_err_set(err, MP_EINVAL,
                      "RegisterPackage of '%s': the extension has no package "
                      "name",
                      req->name);
  const char *r = mp__packages_register(&m->packages, req);
  const mp__package *p = mp__packages_find(m->packages, r);
  /* The deployment learns the extension, to load it into the base
   * package's providers and to record it in the snapshot. */
  if (p->extension && m->o.hooks.extension) {
    mp_extension e = {.ref = p->ref,
                      .name = p->param_name,
                      .version = p->param_version ? p->param_version : "",
                      .value = p->param_value};
    int rc = m->o.hooks.extension(m->o.hooks.ud, &e, err);
    if (rc < 0)
      return rc;
  }
  *ref = mp_xstrdup(r);
  return 0;
}
