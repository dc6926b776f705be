/* Registrations, default providers and answers to the language host. */
#include "monitor/monitor.h"

#include <stdlib.h>
#include <string.h>

#include "engine/map.h"
#include "engine/registry.h"
#include "engine/urn.h"
#include "engine/value_pb.h"
#include "monitor/marshal.h"
#include "monitor/resource_hooks.h"
#include "monitor/monitor_int.h"

enum reg_kind { REG_RESOURCE, REG_READ, REG_DEFAULT_PROVIDER };

/* What a registered resource passes on to its children
 * (source_eval.go inheritFromParent): its options as registered, after its
 * own inheritance and provider resolution. */
typedef struct heritage {
  int protect, retain_on_delete; /* -1 unset */
  char *deleted_with;            /* or NULL */
  char *provider;                /* "<urn>::<id>" or NULL */
  /* A component's providers map (its own entries over its component
   * parent's), as pairs: package, reference, package, reference... */
  mp_strv providers;
} heritage;

struct mp_monitor_reg {
  enum reg_kind kind;
  mp_register_cb cb;
  mp_read_cb rcb;
  void *ud;
  unsigned pb_flags;
  struct dp *dp;        /* REG_DEFAULT_PROVIDER: the provider it makes */
  mp_goal *goal;        /* while waiting for a default provider */
  mp_monitor_reg *prev, *next; /* outstanding or answered list */
  mp_monitor_reg *wnext;       /* a default provider's waiters */
  int answered; /* the host has its answer (cancelled); the deployment may
                   still hold |reg| and will hand it back */
  heritage *heir; /* REG_RESOURCE: what its children inherit, once known */
  /* A remote component: its ConstructRequest, sent once its package's
   * provider is known (construct.c). */
  int remote;
  mp_buf creq;
  char *urn; /* the component's URN, for its diagnostics */
  const mp__package *package; /* its packageRef's package, or NULL */
};

/* An invoke that names no provider, waiting for its package's default
 * provider to be registered. */
typedef struct dp_invoke {
  char *tok;
  mp_value *args;
  mp_invoke_pkg *want;
  mp_monitor_call *call;
  struct dp_invoke *next;
} dp_invoke;

/* A default provider for one (package, version). */
typedef struct dp {
  int ready;     /* 1: |ref| is set */
  int failed;
  char *ref;
  mp_err err;
  mp_monitor_reg *waiters;
  dp_invoke *invokes; /* waiting invokes, in no particular order */
} dp;

typedef struct mp__hashing mp__hashing;

/* A registration whose assets or archives need files read or downloads
 * for their hashes: that runs on libuv's worker pool (Pulumi computes it
 * in the registration's own goroutine), so that the loop goes on with the
 * other registrations and the answers; the request waits packed. */
struct mp__hashing {
  uv_work_t work;
  mp_monitor *m;
  mp_goal *g;
  mp_buf req; /* the packed RegisterResourceRequest */
  mp_register_cb cb;
  void *ud;
  int rc;
  int answered; /* cancelled: the host has its answer */
  mp_err err;
  mp__hashing *prev, *next;
};

struct mp_monitor { /* Owner: loop thread. */
  mp_monitor_opts o;
  char *stack, *project;
  mp_value *config;
  mp_map dps; /* "pkg@version" -> dp* */
  mp_monitor_reg *outstanding;
  size_t noutstanding;
  mp_map heritages; /* URN of a registered resource -> heritage* */
  /* Registrations cancelled while the deployment still holds them (at the
   * generator or in a chain): freed when handed back, or at the end. */
  mp_monitor_reg *answered;
  mp_hook_table *hooks; /* the program's resource hooks */
  char *organization;
  mp__package *packages; /* RegisterPackage (packages.c) */
  /* Where the hashes of the assets sent come from: the program's folder
   * (mp_monitor_set_program_dir) and the downloads of |o|. */
  char *program_dir;
  mp_asset_hash_opts assets;
  mp__hashing *hashing; /* registrations whose assets are being hashed */
  size_t nhashing;      /* of those, the ones not answered yet */
};

mp_monitor *mp_monitor_new(const mp_monitor_opts *o) {
  mp_monitor *m = mp_xcalloc(1, sizeof(*m));
  m->o = *o;
  m->stack = mp_xstrdup(o->stack);
  m->project = mp_xstrdup(o->project);
  m->config = o->config ? mp_value_dup(o->config) : mp_value_new_object();
  m->o.config = m->config;
  m->o.stack = m->stack;
  m->o.project = m->project;
  m->organization = mp_xstrdup(o->organization);
  m->o.organization = m->organization;
  mp_map_init(&m->dps);
  mp_map_init(&m->heritages);
  m->hooks = mp_hook_table_new(o->preview);
  m->assets.fetch = o->asset_fetch;
  m->assets.fetch_ud = o->asset_fetch_ud;
  return m;
}

static void link_reg(mp_monitor *m, mp_monitor_reg *r) {
  r->next = m->outstanding;
  if (m->outstanding) m->outstanding->prev = r;
  m->outstanding = r;
  m->noutstanding++;
}

static void unlink_reg(mp_monitor *m, mp_monitor_reg *r) {
  if (r->prev) r->prev->next = r->next;
  else m->outstanding = r->next;
  if (r->next) r->next->prev = r->prev;
  r->prev = r->next = NULL;
  m->noutstanding--;
}

size_t mp_monitor_outstanding(const mp_monitor *m) {
  return m->noutstanding + m->nhashing;
}

static void heritage_free(heritage *h) {
  if (h == NULL) return;
  free(h->deleted_with);
  free(h->provider);
  mp_strv_destroy(&h->providers);
  free(h);
}

static void reg_free(mp_monitor_reg *r) {
  mp_goal_free(r->goal);
  heritage_free(r->heir);
  mp_buf_destroy(&r->creq);
  free(r->urn);
  free(r);
}

/* ---- inheritance from the parent ---- */

static const char *providers_get(const mp_strv *pairs, const char *pkg) {
  for (size_t i = 0; i + 1 < pairs->len; i += 2)
    if (strcmp(pairs->items[i], pkg) == 0) return pairs->items[i + 1];
  return NULL;
}

/* 1 if the provider reference |ref| is a provider of package |pkg|. */
static int provider_of(const char *ref, const char *pkg) {
  mp_provider_ref pr;
  if (mp_provider_ref_parse(ref, &pr, NULL) < 0) return 0;
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
    if (g->deleted_with == NULL) g->deleted_with = mp_xstrdup(h->deleted_with);
    if (g->protect < 0) g->protect = h->protect;
    if (g->retain_on_delete < 0) g->retain_on_delete = h->retain_on_delete;
  }
  if (g->provider || !g->custom || mp_type_is_provider(g->type)) return;
  char *pkg = mp_type_package(g->type);
  if (pkg == NULL) return;
  const char *ref = NULL;
  if (h && h->provider && provider_of(h->provider, pkg)) ref = h->provider;
  if (ref == NULL) ref = providers_get(own, pkg);
  if (ref == NULL && h) ref = providers_get(&h->providers, pkg);
  if (ref) g->provider = mp_xstrdup(ref);
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
  if (g->custom) return h;
  const heritage *p = g->parent ? mp_map_get(&m->heritages, g->parent) : NULL;
  if (h->provider == NULL && p) h->provider = mp_xstrdup(p->provider);
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

static void submit(mp_monitor *m, mp_goal *g, mp_monitor_reg *r) {
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

/* ---- answers ---- */

static void answer_error(mp_monitor *m, mp_monitor_reg *r, const mp_err *err,
                         int skipped);

static void dp_invokes_resolved(mp_monitor *m, dp *d);

static void dp_resolved(mp_monitor *m, dp *d) {
  dp_invokes_resolved(m, d);
  mp_monitor_reg *w = d->waiters;
  d->waiters = NULL;
  while (w) {
    mp_monitor_reg *next = w->wnext;
    w->wnext = NULL;
    if (d->failed) {
      answer_error(m, w, &d->err, 0);
    } else {
      mp_goal *g = w->goal;
      w->goal = NULL;
      free(g->provider);
      g->provider = mp_xstrdup(d->ref);
      submit(m, g, w);
    }
    w = next;
  }
}

/* A registration the host already got its answer for is only freed when
 * the deployment hands it back. */
static int handed_back(mp_monitor *m, mp_monitor_reg *r) {
  if (!r->answered) return 0;
  if (r->prev) r->prev->next = r->next;
  else m->answered = r->next;
  if (r->next) r->next->prev = r->prev;
  reg_free(r);
  return 1;
}

static void answer_error(mp_monitor *m, mp_monitor_reg *r, const mp_err *err,
                         int skipped) {
  if (handed_back(m, r)) return;
  unlink_reg(m, r);
  if (r->kind == REG_DEFAULT_PROVIDER) {
    r->dp->failed = 1;
    r->dp->err = *err;
    dp_resolved(m, r->dp);
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
  reg_free(r);
}

void mp_monitor_fail(mp_monitor *m, mp_monitor_reg *reg, const mp_err *err,
                     int how) {
  answer_error(m, reg, err, how);
}

void mp_monitor_complete(mp_monitor *m, mp_monitor_reg *r,
                         const mp_resource *st) {
  if (handed_back(m, r)) return;
  unlink_reg(m, r);
  if (r->kind == REG_DEFAULT_PROVIDER) {
    r->dp->ready = 1;
    r->dp->ref = mp_provider_ref_format(st->urn, st->id);
    dp_resolved(m, r->dp);
  } else if (r->kind == REG_RESOURCE && r->cb) {
    if (r->heir && st->urn) {
      heritage_free(mp_map_put(&m->heritages, st->urn, r->heir));
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
  reg_free(r);
}

void mp_monitor_cancel_all(mp_monitor *m) {
  mp_err e;
  mp_err_set(&e, MP_ECANCELED, "the deployment was canceled");
  /* Waiters are on the outstanding list too; forget the provider lists so
   * that answering a provider does not resubmit them. */
  for (size_t i = 0; i < m->dps.cap; i++) {
    dp *d = m->dps.slots[i].key ? m->dps.slots[i].value : NULL;
    if (d) {
      d->waiters = NULL;
      /* Waiting invokes are not on the outstanding list: answer them. */
      mp_err saved = d->err;
      int failed = d->failed;
      d->failed = 1;
      d->err = e;
      dp_invokes_resolved(m, d);
      d->failed = failed;
      d->err = saved;
    }
  }
  /* Those still hashing are answered now; the pool's work, when it ends,
   * only frees them. */
  for (mp__hashing *h = m->hashing; h; h = h->next) {
    if (h->answered) continue;
    h->answered = 1;
    m->nhashing--;
    h->cb(h->ud, NULL, &e);
  }
  while (m->outstanding) {
    mp_monitor_reg *r = m->outstanding;
    unlink_reg(m, r);
    /* The deployment may still hold |r| (at the generator, in a chain):
     * park it on the answered list before the host's callback runs, since
     * that callback can end the program and hand |r| back right away. */
    mp_register_cb cb = r->cb;
    mp_read_cb rcb = r->rcb;
    void *ud = r->ud;
    enum reg_kind kind = r->kind;
    if (kind == REG_DEFAULT_PROVIDER) {
      r->dp->failed = 1;
      r->dp->err = e;
    }
    r->answered = 1;
    r->cb = NULL;
    r->rcb = NULL;
    r->next = m->answered;
    r->prev = NULL;
    if (m->answered) m->answered->prev = r;
    m->answered = r;
    if (kind == REG_RESOURCE && cb) cb(ud, NULL, &e);
    else if (kind == REG_READ && rcb) rcb(ud, NULL, &e);
  }
}

void mp_monitor_set_program_dir(mp_monitor *m, const char *dir) {
  free(m->program_dir);
  m->program_dir = mp_xstrdup(dir);
  m->assets.wd = m->program_dir;
}

void mp_monitor_free(mp_monitor *m) {
  if (m == NULL) return;
  free(m->program_dir);
  mp_monitor_cancel_all(m);
  /* None is left once the loop has run out; should one be, its work ends
   * without the monitor. */
  for (mp__hashing *h = m->hashing; h; h = h->next) h->m = NULL;
  while (m->answered) {
    mp_monitor_reg *r = m->answered;
    m->answered = r->next;
    reg_free(r);
  }
  for (size_t i = 0; i < m->dps.cap; i++) {
    dp *d = m->dps.slots[i].key ? m->dps.slots[i].value : NULL;
    if (d) {
      free(d->ref);
      free(d);
    }
  }
  mp_map_destroy(&m->dps);
  for (size_t i = 0; i < m->heritages.cap; i++)
    if (m->heritages.slots[i].key) heritage_free(m->heritages.slots[i].value);
  mp_map_destroy(&m->heritages);
  mp_hook_table_free(m->hooks);
  mp_value_free(m->config);
  mp__packages_free(m->packages);
  free(m->organization);
  free(m->stack);
  free(m->project);
  free(m);
}

/* ---- default providers ---- */
/* Shown by tests/conformance/scenarios/S02-default-provider-first.scn, S74,
 * S77. */

/* 1 if |pkg| (or "*") is an item of the text list |s|: JSON or a bare
 * `[a, b]` as shells leave it after eating the quotes. */
static int listed(const char *s, const char *pkg) {
  size_t n = strlen(pkg);
  for (const char *p = s; *p; p++) {
    if (!(p == s || strchr("[, \"", p[-1]))) continue;
    if (strncmp(p, pkg, n) == 0 && (p[n] == '\0' || strchr("], \"", p[n])))
      return 1;
    if (p[0] == '*' && (p[1] == '\0' || strchr("], \"", p[1]))) return 1;
  }
  return 0;
}

static int dp_disabled(mp_monitor *m, const char *pkg) {
  const mp_value *v =
      mp_value_object_get(m->config, "pulumi:disable-default-providers");
  if (v && v->kind == MP_VALUE_STRING) {
    mp_value *parsed = NULL;
    if (mp_value_from_json(v->u.str.ptr, v->u.str.len, NULL, &parsed, NULL) == 0) {
      int d = 0;
      if (parsed->kind == MP_VALUE_ARRAY)
        for (size_t i = 0; i < parsed->u.arr.len; i++) {
          const mp_value *e = parsed->u.arr.items[i];
          if (e->kind == MP_VALUE_STRING &&
              (strcmp(e->u.str.ptr, pkg) == 0 || strcmp(e->u.str.ptr, "*") == 0))
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
static char *dp_key(const char *pkg, const char *version, const char *url) {
  return mp_xasprintf("%s@%s@%s", pkg, version ? version : "",
                      url ? url : "");
}

/* The default provider of |pkg| for plugin |version| from |url|; a
 * parameterized package (|param|) is named after its own version. */
static mp_goal *dp_goal(mp_monitor *m, const char *pkg, const char *version,
                        const char *url, const mp_provider_param *param,
                        mp_err *err) {
  char *name =
      mp_default_provider_name(param ? param->version : version, url, err);
  if (name == NULL) return NULL;
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
  if (version && version[0]) mp_provider_inputs_set_version(g->inputs, version);
  /* As Pulumi's default providers: where their plugin is downloaded from. */
  if (url && url[0]) mp_provider_inputs_set_url(g->inputs, url);
  if (param) mp_provider_inputs_set_param(g->inputs, param);
  return g;
}

/* The default provider of |pkg| for plugin |version| from |url| (and
 * |param|): registered the first time it is asked for, by a resource or
 * an invoke alike (source_eval.go: one default provider per provider
 * request). NULL with |err| set when its goal cannot be made. */
static dp *dp_get(mp_monitor *m, const char *pkg, const char *version,
                  const char *url, const mp_provider_param *param,
                  mp_err *err) {
  char *key = dp_key(pkg, param ? param->version : version, url);
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
    link_reg(m, pr);
    m->o.hooks.submit(m->o.hooks.ud, pg, pr);
  }
  free(key);
  return d;
}

/* Gives |g| a provider, now or once its default provider is registered.
 * Returns 0, or an MP_E code (then |r| and |g| are still the caller's). */
static int route(mp_monitor *m, mp_goal *g, mp_monitor_reg *r, mp_err *err) {
  int needs_dp = (g->custom || r->remote) && g->provider == NULL &&
                 !mp_type_is_provider(g->type);
  if (!needs_dp) {
    link_reg(m, r);
    submit(m, g, r);
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
  if (dp_disabled(m, pkg)) {
    char *urn = mp_urn_new(m->stack, m->project, g->parent, g->type, g->name, NULL);
    mp_err_set(err, MP_EINVAL,
               "Default provider for '%s' disabled. '%s' must use an explicit "
               "provider.",
               pkg, urn ? urn : g->name);
    /* Reported on the resource by the engine; the host just stops. */
    if (m->o.hooks.log) m->o.hooks.log(m->o.hooks.ud, MP_LOG_ERROR, urn, err->msg);
    err->code = MP_ECANCELED;
    free(urn);
    free(pkg);
    return MP_ECANCELED;
  }
  int rc = 0;
  dp *d = dp_get(m, pkg, g->version, g->plugin_download_url,
                 parameterized ? &param : NULL, err);
  if (d == NULL) {
    rc = err->code ? err->code : MP_EINVAL;
    goto out;
  }
  link_reg(m, r);
  if (d->ready) {
    g->provider = mp_xstrdup(d->ref);
    submit(m, g, r);
  } else if (d->failed) {
    unlink_reg(m, r);
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
  int rc = route(m, g, r, err);
  if (rc < 0) {
    mp_goal_free(g);
    reg_free(r);
  }
  return rc;
}

/* A packageRef names a package RegisterPackage registered (*out; NULL
 * without a packageRef): its version and download URL decide the provider
 * (source_eval.go: the registered package replaces what the request
 * says), and an explicit provider of the package records them in its
 * inputs as a default provider does, with the parameterization. */
static int apply_package(mp_monitor *m, const char *ref, mp_goal *g,
                         const mp__package **out, mp_err *err) {
  *out = NULL;
  if (ref == NULL || ref[0] == '\0') return 0;
  const mp__package *p = mp__packages_find(m->packages, ref);
  if (p == NULL)
    return mp_err_set(err, MP_EINVAL, "unknown provider package '%s'", ref);
  *out = p;
  if (g == NULL) return 0;
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
  if (p->version) mp_provider_inputs_set_version(g->inputs, p->version);
  if (p->download_url) mp_provider_inputs_set_url(g->inputs, p->download_url);
  mp_provider_param param;
  if (mp__package_param(p, &param))
    mp_provider_inputs_set_param(g->inputs, &param);
  return 0;
}

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

/* A remote component (construct.c): its provider is the explicit one, or
 * its providers map's entry for its package (its own entries over its
 * component parent's), or the package's default (source_eval.go
 * resolveProvider); that provider's Construct makes it. */
static int register_remote(mp_monitor *m,
                           const Pulumirpc__RegisterResourceRequest *req,
                           mp_goal *g, const mp__package *package,
                           mp_strv *own, mp_register_cb cb, void *ud,
                           mp_err *err) {
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
    reg_free(r);
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
    answer_error(m, r, &e, 0);
  free(ext);
  free(ref);
}

void mp_monitor_construct_done(mp_monitor *m, mp_monitor_reg *r,
                               const mp_buf *resp, const mp_err *err) {
  if (handed_back(m, r)) return;
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
    answer_error(m, r, &e, 0);
    return;
  }
  unlink_reg(m, r);
  if (r->cb) r->cb(r->ud, a, NULL);
  mp__monitor_construct_answer_free(a);
  reg_free(r);
}

/* A registration after its goal is made (and its assets hashed): takes
 * |g|; 0, or an MP_E code (then |cb| is not called). */
static int register_goal(mp_monitor *m,
                         const Pulumirpc__RegisterResourceRequest *req,
                         mp_goal *g, mp_register_cb cb, void *ud,
                         mp_err *err) {
  const mp__package *package = NULL;
  int rc = apply_package(m, req->packageref, g, &package, err);
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

/* ---- assets hashed on the worker pool (struct mp__hashing) ---- */

static void hashing_unlink(mp_monitor *m, mp__hashing *h) {
  if (h->prev) h->prev->next = h->next;
  else m->hashing = h->next;
  if (h->next) h->next->prev = h->prev;
}

static void hashing_free(mp__hashing *h) {
  mp_goal_free(h->g);
  mp_buf_destroy(&h->req);
  free(h);
}

/* On a worker thread: |h| is its own, and the monitor's |assets| are
 * only read (set before the program's first registration). */
static void hash_work(uv_work_t *w) {
  mp__hashing *h = w->data;
  mp_err_clear(&h->err);
  h->rc = mp_value_hash_assets(h->g->inputs, &h->m->assets, &h->err);
  if (h->rc == 0)
    h->rc = mp_value_hash_assets(h->g->replacement_trigger, &h->m->assets,
                                 &h->err);
}

static void hash_done(uv_work_t *w, int status) {
  mp__hashing *h = w->data;
  mp_monitor *m = h->m;
  if (m) hashing_unlink(m, h);
  if (m == NULL || h->answered) {
    hashing_free(h);
    return;
  }
  m->nhashing--;
  if (status < 0 && h->rc == 0)
    h->rc = mp_err_from_uv(&h->err, status, "hashing the assets");
  Pulumirpc__RegisterResourceRequest *q =
      h->rc < 0 ? NULL
                : pulumirpc__register_resource_request__unpack(
                      NULL, h->req.len, (const uint8_t *)h->req.data);
  if (h->rc == 0 && q == NULL)
    h->rc = mp_err_set(&h->err, MP_EIO, "cannot unpack the request again");
  if (h->rc < 0) {
    mp_err_prefix(&h->err, "RegisterResource '%s'", h->g->name);
  } else {
    mp_goal *g = h->g;
    h->g = NULL;
    h->rc = register_goal(m, q, g, h->cb, h->ud, &h->err);
  }
  if (q) pulumirpc__register_resource_request__free_unpacked(q, NULL);
  if (h->rc < 0) h->cb(h->ud, NULL, &h->err);
  hashing_free(h);
}

/* Starts hashing |g|'s assets on the pool; the registration goes on in
 * hash_done. Takes |g|. */
static int hash_then_register(mp_monitor *m,
                              const Pulumirpc__RegisterResourceRequest *req,
                              mp_goal *g, mp_register_cb cb, void *ud,
                              mp_err *err) {
  mp__hashing *h = mp_xcalloc(1, sizeof(*h));
  h->m = m;
  h->g = g;
  h->cb = cb;
  h->ud = ud;
  mp_buf_init(&h->req);
  mp_pb_pack(&req->base, &h->req);
  h->work.data = h;
  int uvrc = uv_queue_work(m->o.loop, &h->work, hash_work, hash_done);
  if (uvrc < 0) {
    hashing_free(h);
    return mp_err_from_uv(err, uvrc, "RegisterResource '%s': cannot hash "
                          "its assets", req->name);
  }
  h->next = m->hashing;
  if (m->hashing) m->hashing->prev = h;
  m->hashing = h;
  m->nhashing++;
  return 0;
}

int mp_monitor_register_resource(mp_monitor *m,
                                 const Pulumirpc__RegisterResourceRequest *req,
                                 mp_register_cb cb, void *ud, mp_err *err) {
  mp_goal *g = NULL;
  /* With a loop, only the text assets are hashed here (no file, no
   * download): the rest on the pool. */
  int pool = m->o.loop != NULL;
  int rc = mp__monitor_goal_from_register(req, pool ? NULL : &m->assets, &g,
                                          err);
  if (rc < 0) return rc;
  if (pool && (mp_value_assets_need_io(g->inputs) ||
               mp_value_assets_need_io(g->replacement_trigger)))
    return hash_then_register(m, req, g, cb, ud, err);
  return register_goal(m, req, g, cb, ud, err);
}

int mp_monitor_read_resource(mp_monitor *m,
                             const Pulumirpc__ReadResourceRequest *req,
                             mp_read_cb cb, void *ud, mp_err *err) {
  mp_goal *g = NULL;
  const mp__package *package = NULL;
  int rc = mp__monitor_goal_from_read(req, &g, err);
  if (rc == 0) rc = apply_package(m, req->packageref, g, &package, err);
  if (rc < 0) {
    mp_goal_free(g);
    return rc;
  }
  mp_monitor_reg *r = new_reg(REG_READ, NULL, cb, ud, req->acceptsecrets,
                              req->acceptresources);
  r->package = package;
  return enqueue(m, g, r, err);
}

int mp_monitor_register_outputs(
    mp_monitor *m, const Pulumirpc__RegisterResourceOutputsRequest *req,
    mp_err *err) {
  mp_value *outs = NULL;
  int rc = mp_value_from_pb_struct(req->outputs, &outs, err);
  /* Pulumi computes the hashes of the outputs' assets too. */
  if (rc == 0) rc = mp_value_hash_assets(outs, &m->assets, err);
  if (rc < 0) {
    mp_value_free(outs);
    return mp_err_prefix(err, "RegisterResourceOutputs(%s)",
                         req->urn ? req->urn : "");
  }
  return m->o.hooks.outputs(m->o.hooks.ud, req->urn, outs, err);
}

struct mp_monitor_call {
  mp_invoke_cb cb;
  mp_call_cb ccb; /* a method's (Call) */
  void *ud;
  unsigned pb_flags;
};

/* Runs the invokes that waited for |d|: with its reference, or, when it
 * failed, answered with its error. */
static void dp_invokes_resolved(mp_monitor *m, dp *d) {
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
      rc = m->o.hooks.invoke(m->o.hooks.ud, w->tok, w->args, d->ref, w->want,
                             c, &e);
    }
    if (rc < 0) {
      if (c->cb) c->cb(c->ud, NULL, &e);
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
  if (req->provider && req->provider[0]) return NULL;
  if (want->pkg == NULL) return NULL;
  if (strcmp(want->pkg, "pulumi") == 0) {
    dp *b = dp_get(m, "pulumi", NULL, NULL, NULL, err);
    if (b == NULL) *rc = err->code ? err->code : MP_EINVAL;
    return b;
  }
  if (dp_disabled(m, want->pkg)) {
    *rc = mp_err_set(err, MP_EINVAL,
                     "Default provider for '%s' disabled. '%s' must use an "
                     "explicit provider.",
                     want->pkg, req->tok);
    return NULL;
  }
  /* The plugin's version: the registered package's, else the request's. */
  const char *version = package ? package->version : req->version;
  const char *url = package ? package->download_url : req->plugindownloadurl;
  dp *d = dp_get(m, want->pkg, version && version[0] ? version : NULL,
                 url && url[0] ? url : NULL, want->param ? param : NULL, err);
  if (d == NULL) *rc = err->code ? err->code : MP_EINVAL;
  return d;
}

int mp_monitor_invoke(mp_monitor *m, const Pulumirpc__ResourceInvokeRequest *req,
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
                      req->n_dependson > 0   ? "dependsOn"
                      : req->n_pluginchecksums ? "pluginChecksums"
                                               : "parent");
  mp_value *args = NULL;
  const mp__package *package = NULL;
  int rc = apply_package(m, req->packageref, NULL, &package, err);
  if (rc < 0) return rc;
  mp_provider_param param;
  mp_invoke_pkg want;
  want_of(req->tok, req->version, req->plugindownloadurl, package, &param,
          &want);
  dp *d = invoke_dp(m, req, package, &want, &param, &rc, err);
  if (rc == 0) rc = mp_value_from_pb_struct(req->args, &args, err);
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
  c->pb_flags = MP_PB_KEEP_SECRETS |
                (req->acceptresources ? MP_PB_KEEP_RESOURCES : 0);
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
  const char *ref = d ? d->ref
                      : (req->provider && req->provider[0] ? req->provider : NULL);
  rc = m->o.hooks.invoke(m->o.hooks.ud, req->tok, args, ref, &want, c, err);
  free((char *)want.pkg);
  if (rc < 0) free(c);
  return rc;
}

void mp_monitor_call_done(mp_monitor *m, mp_monitor_call *c, mp_value *ret,
                          const mp_err *err) {
  (void)m;
  if (err && err->code) {
    if (c->cb) c->cb(c->ud, NULL, err);
  } else {
    Pulumirpc__ResourceInvokeResponse resp =
        PULUMIRPC__RESOURCE_INVOKE_RESPONSE__INIT;
    if (mp_value_to_pb_struct(ret, c->pb_flags, &resp.return_, NULL) < 0)
      resp.return_ = NULL;
    if (c->cb) c->cb(c->ud, &resp, NULL);
    mp_value_pb_struct_free(resp.return_);
  }
  mp_value_free(ret);
  free(c);
}

/* Asks the deployment for |pkg|'s schema (|param|: of the plugin
 * parameterized with it, or NULL). */
static int ask_schema(mp_monitor *m, const char *pkg, const char *version,
                      const char *url, const mp_provider_param *param,
                      mp_schema_cb cb, void *ud, mp_err *err) {
  if (m->o.hooks.schema == NULL)
    return mp_err_set(err, MP_ENOENT,
                      "package '%s': this deployment serves no schemas", pkg);
  return m->o.hooks.schema(m->o.hooks.ud, pkg, version, url, param, cb, ud,
                           err);
}

int mp_monitor_get_schema(mp_monitor *m, const char *pkg, const char *version,
                          const char *url, mp_schema_cb cb, void *ud,
                          mp_err *err) {
  if (pkg == NULL || pkg[0] == '\0')
    return mp_err_set(err, MP_EINVAL, "GetSchema: no package named");
  return ask_schema(m, pkg, version && version[0] ? version : NULL,
                    url && url[0] ? url : NULL, NULL, cb, ud, err);
}

int mp_monitor_get_package_schema(mp_monitor *m, const char *ref,
                                  mp_schema_cb cb, void *ud, mp_err *err) {
  const mp__package *p = ref ? mp__packages_find(m->packages, ref) : NULL;
  if (p == NULL)
    return mp_err_set(err, MP_EINVAL, "unknown provider package '%s'",
                      ref ? ref : "");
  mp_provider_param param;
  if (!mp__package_param(p, &param) && !mp__package_ext(p, &param))
    return mp_monitor_get_schema(m, p->name, p->version, p->download_url, cb,
                                 ud, err);
  return ask_schema(m, param.name, p->version, p->download_url, &param, cb,
                    ud, err);
}

void mp_monitor_log(mp_monitor *m, mp_log_severity sev, const char *urn,
                    const char *msg) {
  if (m->o.hooks.log) m->o.hooks.log(m->o.hooks.ud, sev, urn, msg);
}

void mp_monitor_program_done(mp_monitor *m, int failed, const char *message) {
  m->o.hooks.program_done(m->o.hooks.ud, failed, message);
}

void mp_monitor_register_hook(mp_monitor *m, const mp_resource_hook *h) {
  mp_hook_table_put(m->hooks, h);
}

int mp_monitor_run_hooks(mp_monitor *m, mp_step *s, int after, mp_err *err) {
  return mp_hook_table_run(m->hooks, s, after, err);
}

int mp_monitor_run_error_hooks(mp_monitor *m, const mp_step *s,
                               const char *op, const mp_strv *errors,
                               int *retry, mp_err *err) {
  return mp_hook_table_run_error(m->hooks, s, op, errors, retry, err);
}

/* ---- methods and packages ---- */

/* The provider of a method: the explicit one, else the package's default
 * provider as registered (the one that constructed the component; Pulumi
 * asks its default providers the same way), else NULL: the deployment's
 * pick for functions. */
static const char *method_provider(mp_monitor *m,
                                   const Pulumirpc__ResourceCallRequest *req,
                                   const mp_invoke_pkg *want) {
  if (req->provider && req->provider[0]) return req->provider;
  if (want->pkg == NULL) return NULL;
  char *key = dp_key(want->pkg, want->version, want->url);
  const dp *d = mp_map_get(&m->dps, key);
  free(key);
  return d && d->ready ? d->ref : NULL;
}

int mp_monitor_call_method(mp_monitor *m, const Pulumirpc__ResourceCallRequest *req,
                    mp_call_cb cb, void *ud, mp_err *err) {
  if (req->tok == NULL || req->tok[0] == '\0')
    return mp_err_set(err, MP_EINVAL, "Call: missing method token");
  if (m->o.hooks.call == NULL)
    return mp_err_set(err, MP_EINVAL, "cannot call %s here", req->tok);
  const mp__package *package = NULL;
  int rc = apply_package(m, req->packageref, NULL, &package, err);
  if (rc < 0) return rc;
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
  if (rc < 0) free(c);
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
  if (c->ccb) c->ccb(c->ud, a, a ? NULL : err);
  if (a) pulumirpc__call_response__free_unpacked(a, NULL);
  free(c);
}

int mp_monitor_register_package(mp_monitor *m,
                                const Pulumirpc__RegisterPackageRequest *req,
                                char **ref, mp_err *err) {
  *ref = NULL;
  if (req->name == NULL || req->name[0] == '\0')
    return mp_err_set(err, MP_EINVAL, "RegisterPackage: package name is empty");
  if (req->parameterization &&
      (req->parameterization->name == NULL ||
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
    if (rc < 0) return rc;
  }
  *ref = mp_xstrdup(r);
  return 0;
}
