/* Shared between the files of src/monitor (not part of its API). */
#ifndef MP_MONITOR_INT_H
#define MP_MONITOR_INT_H

#include "engine/asset_hash.h"
#include "engine/map.h"
#include "engine/registry.h"
#include "monitor/monitor.h"
#include "monitor/resource_hooks.h"

/* What Construct and Call requests carry about the deployment: the
 * monitor endpoint, the stack config as strings ("<ns>:<key>" -> value,
 * secrets decrypted, other values as JSON) and which keys are secret. */
typedef struct mp__monitor_info {
  const char *endpoint;
  mp_strv keys, values, secret_keys;
} mp__monitor_info;

/* Fails (naming |what| the request was for) when there is no endpoint;
 * destroy |i| only after a success. */
int mp__monitor_info_init(mp__monitor_info *i, const mp_monitor_opts *o,
                          const char *what, mp_err *err);
void mp__monitor_info_destroy(mp__monitor_info *i);

/* construct.c: the packed ConstructRequest for the remote registration
 * |q|, whose providers map (own entries over its component parent's) is
 * |providers| (package, reference pairs). */
int mp__monitor_construct_request(const mp_monitor_opts *o,
                                  const Pulumirpc__RegisterResourceRequest *q,
                                  const mp_strv *providers, mp_buf *out,
                                  mp_err *err);
/* The registration's answer from the packed ConstructResponse |resp|;
 * |flags| (MP_PB_KEEP_*) say what the caller accepts. NULL with |err|. */
Pulumirpc__RegisterResourceResponse *
mp__monitor_construct_answer(const mp_buf *resp, unsigned flags, mp_err *err);
void mp__monitor_construct_answer_free(Pulumirpc__RegisterResourceResponse *r);

/* call.c: the packed CallRequest for |q|. */
int mp__monitor_call_request(const mp_monitor_opts *o,
                             const Pulumirpc__ResourceCallRequest *q,
                             mp_buf *out, mp_err *err);

/* packages.c: the packages registered by RegisterPackage. */
typedef struct mp__package {
  char *ref;
  char *name, *version, *download_url;
  /* Parameterized: the package's own name, version and parameter value;
   * |name| and |version| are then the base plugin's. */
  char *param_name, *param_version;
  mp_buf param_value;
  /* An extension (RegisterPackage's `extension`): the param_* fields are
   * the extension's, |name| and |version| the base package's, and |ref|
   * is the extension's reference (mp_extension_ref). */
  int extension;
  struct mp__package *next;
} mp__package;

/* The reference of the package |q| describes, registered if new. */
const char *mp__packages_register(mp__package **list,
                                  const Pulumirpc__RegisterPackageRequest *q);
const mp__package *mp__packages_find(const mp__package *list, const char *ref);
/* 1 with |out| filled (borrowing from |p|) when |p| is parameterized
 * (a replacement, not an extension). */
int mp__package_param(const mp__package *p, mp_provider_param *out);
/* 1 with |out| filled (ext_ref set) when |p| is an extension. */
int mp__package_ext(const mp__package *p, mp_provider_param *out);
void mp__packages_free(mp__package *list);

/* ==== the monitor's state (monitor.c and the files of its requests) ==== */

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

struct mp_monitor_call {
  mp_invoke_cb cb;
  mp_call_cb ccb; /* a method's (Call) */
  void *ud;
  unsigned pb_flags;
};

/* ---- registrations.c ---- */

/* The outstanding list (registrations the host waits on). */
void mp__reg_link(mp_monitor *m, mp_monitor_reg *r);
void mp__reg_unlink(mp_monitor *m, mp_monitor_reg *r);
void mp__reg_free(mp_monitor_reg *r);
void mp__heritage_free(heritage *h);
/* Hands |g| (taken) to the deployment; a resource registration first
 * notes what its children will inherit, a remote one goes to Construct. */
void mp__reg_submit(mp_monitor *m, mp_goal *g, mp_monitor_reg *r);
/* Answers |r| with |err| (|skipped|: MP_MONITOR_SKIPPED or _FAILED as a
 * result instead) and frees it; a default provider's fails its waiters. */
void mp__reg_answer_error(mp_monitor *m, mp_monitor_reg *r, const mp_err *err,
                          int skipped);
/* The package a packageRef |ref| names (*out; NULL without one), applied
 * to |g| (NULL: an invoke's) as the registered package says. */
int mp__monitor_apply_package(mp_monitor *m, const char *ref, mp_goal *g,
                              const mp__package **out, mp_err *err);
/* A registration after its goal is made (and its assets hashed): takes
 * |g|; 0, or an MP_E code (then |cb| is not called). */
int mp__monitor_register_goal(mp_monitor *m,
                              const Pulumirpc__RegisterResourceRequest *req,
                              mp_goal *g, mp_register_cb cb, void *ud,
                              mp_err *err);

/* ---- default_providers.c ---- */

/* Gives |g| a provider, now or once its default provider is registered.
 * Returns 0, or an MP_E code (then |r| and |g| are still the caller's). */
int mp__dp_route(mp_monitor *m, mp_goal *g, mp_monitor_reg *r, mp_err *err);
/* The default provider of |pkg| (registered the first time it is asked
 * for), or NULL with |err|. */
dp *mp__dp_get(mp_monitor *m, const char *pkg, const char *version,
               const char *url, const mp_provider_param *param, mp_err *err);
/* 1 if the config's pulumi:disable-default-providers names |pkg| or *. */
int mp__dp_disabled(mp_monitor *m, const char *pkg);
/* The key of a default provider in m->dps (owned). */
char *mp__dp_key(const char *pkg, const char *version, const char *url);
/* |d| is ready or failed: its waiting registrations and invokes go on. */
void mp__dp_resolved(mp_monitor *m, dp *d);

/* ---- invokes.c ---- */

/* Runs the invokes that waited for |d|: with its reference, or, when it
 * failed, answered with its error. */
void mp__dp_invokes_resolved(mp_monitor *m, dp *d);

/* ---- asset_hashing.c ---- */

/* Registers |g| (taken) once its assets are hashed on the worker pool. */
int mp__monitor_hash_then_register(
    mp_monitor *m, const Pulumirpc__RegisterResourceRequest *req, mp_goal *g,
    mp_register_cb cb, void *ud, mp_err *err);

#endif
