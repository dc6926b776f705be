/* Default providers: one per (package, version, download URL),
 * registered the first time a resource or an invoke without a provider
 * asks for it; the registrations and invokes that wait for it. */
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

void mp__dp_resolved(mp_monitor *m, dp *d) {
  mp__dp_invokes_resolved(m, d);
  mp_monitor_reg *w = d->waiters;
  d->waiters = NULL;
  while (w) {
    mp_monitor_reg *next = w->wnext;
    w->wnext = NULL;
    if (d->failed) {
      mp__reg_answer_error(m, w, &d->err, 0);
    } else {
      mp_goal *g = w->goal;
      w->goal = NULL;
      free(g->provider);
      g->provider = mp_xstrdup(d->ref);
      mp__reg_submit(m, g, w);
    }
    w = next;
  }
}

/* ---- default providers ---- */
/* Shown by tests/conformance/scenarios/S02-default-provider-first.scn, S74,
 * S77. */

/* 1 if |pkg| (or "*") is an item of the text list |s|: JSON or a bare
 * `[a, b]` as shells leave it after eating the quotes. */
static int listed(const char *s, const char *pkg) {
  size_t n = strlen(pkg);
  for (const char *p = s; *p; p++) {
    if (!(p == s || strchr("[, \"", p[-1])))
      continue;
    if (strncmp(p, pkg, n) == 0 && (p[n] == '\0' || strchr("], \"", p[n])))
      return 1;
    if (p[0] == '*' && (p[1] == '\0' || strchr("], \"", p[1])))
      return 1;
  }
  return 0;
}

int mp__dp_disabled(mp_monitor *m, const char *pkg) {
  const mp_value *v =
      mp_value_object_get(m->config, "pulumi:disable-default-providers");
  if (v && v->kind == MP_VALUE_STRING) {
    mp_value *parsed = NULL;
    if (mp_value_from_json(v->u.str.ptr, v->u.str.len, NULL, &parsed, NULL) ==
        0) {
      int d = 0;
      if (parsed->kind == MP_VALUE_ARRAY)
        for (size_t i = 0; i < parsed->u.arr.len; i++) {
          const mp_value *e = parsed->u.arr.items[i];
          if (e->kind == MP_VALUE_STRING && (strcmp(e->u.str.ptr, pkg) == 0 ||
                                             strcmp(e->u.str.ptr, "*") == 0))
            d = 1;
        }
      mp_value_free(parsed);
      return d;
    }
    return listed(v->u.str.ptr, pkg);
  }
  if (v && v->kind == MP_VALUE_ARRAY)
    for (size_t i = 0; i < v->u.arr.len; i++) {
      const mp_value *e = v->u.arr.items[i];
      if (e->kind == MP_VALUE_STRING &&
          (strcmp(e->u.str.ptr, pkg) == 0 || strcmp(e->u.str.ptr, "*") == 0))
        return 1;
    }
  return 0;
}

/* The key of a default provider: Pulumi's provider request string (the
 * package, its version and the plugin's download URL). */
char *mp__dp_key(const char *pkg, const char *version, const char *url) {
  return mp_xasprintf("%s@%s@%s", pkg, version ? version : "", url ? url : "");
}

/* The default provider of |pkg| for plugin |version| from |url|; a
 * parameterized package (|param|) is named after its own version. */
static mp_goal *dp_goal(mp_monitor *m, const char *pkg, const char *version,
                        const char *url, const mp_provider_param *param,
                        mp_err *err) {
  char *name =
      mp_default_provider_name(param ? param->version : version, url, err);
  if (name == NULL)
    return NULL;
  char *type = mp_xasprintf("%s%s", MP_PROVIDER_TYPE_PREFIX, pkg);
  mp_goal *g = mp_goal_new(type, name, 1);
  free(type);
  free(name);
  size_t plen = strlen(pkg);
  /* A dynamic provider gets the whole stack config, keys with their
   * namespace (as Pulumi's engine gives it); others their package's keys. */
  int whole = strcmp(pkg, "pulumi-nodejs") == 0;
  for (size_t i = 0; i < m->config->u.obj.len; i++) {
    const mp_value_entry *e = &m->config->u.obj.items[i];
    if (whole)
      mp_value_object_set(g->inputs, e->key, mp_value_dup(e->value));
    else if (strncmp(e->key, pkg, plen) == 0 && e->key[plen] == ':')
      mp_value_object_set(g->inputs, e->key + plen + 1, mp_value_dup(e->value));
  }
  if (version && version[0])
    mp_provider_inputs_set_version(g->inputs, version);
  /* As Pulumi's default providers: where their plugin is downloaded from. */
  if (url && url[0])
    mp_provider_inputs_set_url(g->inputs, url);
  if (param)
    mp_provider_inputs_set_param(g->inputs, param);
  return g;
}

/* The default provider of |pkg| for plugin |version| from |url| (and
 * |param|): registered the first time it is asked for, by a resource or
 * an invoke alike (source_eval.go: one default provider per provider
 * request). NULL with |err| set when its goal cannot be made. */
dp *mp__dp_get(mp_monitor *m, const char *pkg, const char *version,
               const char *url, const mp_provider_param *param, mp_err *err) {
  char *key = mp__dp_key(pkg, param ? param->version : version, url);
  dp *d = mp_map_get(&m->dps, key);
  if (d == NULL) {
    mp_goal *pg = dp_goal(m, pkg, version, url, param, err);
    if (pg == NULL) {
      free(key);
      return NULL;
    }
    d = mp_xcalloc(1, sizeof(*d));
    mp_map_put(&m->dps, key, d);
    mp_monitor_reg *pr = mp_xcalloc(1, sizeof(*pr));
    pr->kind = REG_DEFAULT_PROVIDER;
    pr->dp = d;
    mp__reg_link(m, pr);
    m->o.hooks.submit(m->o.hooks.ud, pg, pr);
  }
  free(key);
  return d;
}

/* Gives |g| a provider, now or once its default provider is registered.
 * Returns 0, or an MP_E code (then |r| and |g| are still the caller's). */
int mp__dp_route(mp_monitor *m, mp_goal *g, mp_monitor_reg *r, mp_err *err) {
  int needs_dp = (g->custom || r->remote) && g->provider == NULL &&
                 !mp_type_is_provider(g->type);
  if (!needs_dp) {
    mp__reg_link(m, r);
    mp__reg_submit(m, g, r);
    return 0;
  }
  /* A parameterized package's resources are served by its own default
   * provider: the plugin, parameterized (source_eval.go, its packageRef's
   * provider request). */
  mp_provider_param param;
  int parameterized = mp__package_param(r->package, &param);
  /* An extension's resources are served by the base package's default
   * provider, loaded with the extension (source_eval.go: its packageRef's
   * provider request is the base package's). */
  char *pkg = parameterized ? mp_xstrdup(param.name)
              : r->package && r->package->extension
                  ? mp_xstrdup(r->package->name)
                  : mp_type_package(g->type);
  if (pkg == NULL)
    return mp_err_set(err, MP_EINVAL, "invalid resource type '%s'", g->type);
  if (mp__dp_disabled(m, pkg)) {
    char *urn =
        mp_urn_new(m->stack, m->project, g->parent, g->type, g->name, NULL);
    mp_err_set(err, MP_EINVAL,
               "Default provider for '%s' disabled. '%s' must use an explicit "
               "provider.",
               pkg, urn ? urn : g->name);
    /* Reported on the resource by the engine; the host just stops. */
    if (m->o.hooks.log)
      m->o.hooks.log(m->o.hooks.ud, MP_LOG_ERROR, urn, err->msg);
    err->code = MP_ECANCELED;
    free(urn);
    free(pkg);
    return MP_ECANCELED;
  }
  int rc = 0;
  dp *d = mp__dp_get(m, pkg, g->version, g->plugin_download_url,
                     parameterized ? &param : NULL, err);
  if (d == NULL) {
    rc = err->code ? err->code : MP_EINVAL;
    goto out;
  }
  mp__reg_link(m, r);
  if (d->ready) {
    g->provider = mp_xstrdup(d->ref);
    mp__reg_submit(m, g, r);
  } else if (d->failed) {
    mp__reg_unlink(m, r);
    rc = mp_err_set(err, d->err.code, "%s", d->err.msg);
  } else {
    r->goal = g;
    r->wnext = d->waiters;
    d->waiters = r;
  }
out:
  free(pkg);
  return rc;
}
