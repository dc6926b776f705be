/* The resource monitor (docs/architecture.md, "From the program to
 * the state", step 4): unmarshals the language
 * host's requests into goals, resolves default providers, hands goals to
 * the deployment and answers the host when the deployment reports the
 * result. Implements the entry points of monitor/api.h. Owner: the loop
 * thread. */
#ifndef MP_MONITOR_H
#define MP_MONITOR_H

#include "engine/asset_hash.h"
#include "engine/goal.h"
#include "engine/registry.h"
#include "engine/resource.h"
#include "engine/step.h"
#include "monitor/api.h"

/* One registration waiting for its result. Opaque. */
typedef struct mp_monitor_reg mp_monitor_reg;
/* One provider function call waiting for its result. Opaque. */
typedef struct mp_monitor_call mp_monitor_call;

typedef struct mp_monitor_hooks {
  void *ud;
  /* A goal to generate steps for. Takes ownership of |g|; the deployment
   * answers later with mp_monitor_complete or mp_monitor_fail on |reg|. */
  void (*submit)(void *ud, mp_goal *g, mp_monitor_reg *reg);
  /* A component's or the stack's outputs. Takes ownership of |outs|. */
  int (*outputs)(void *ud, const char *urn, mp_value *outs, mp_err *err);
  void (*log)(void *ud, mp_log_severity sev, const char *urn, const char *msg);
  void (*program_done)(void *ud, int failed, const char *msg);
  /* Calls provider function |tok| with |args| (taken) through the provider
   * |ref| (NULL: the instance that serves functions of the package |want|
   * describes; borrowed for the call); answers later through
   * mp_monitor_call_done. Returns 0 or an MP_E code (then no answer). */
  int (*invoke)(void *ud, const char *tok, mp_value *args, const char *ref,
                const mp_invoke_pkg *want, mp_monitor_call *call,
                mp_err *err);
  /* Components and methods (construct.c, call.c); NULL: refused. The
   * address of a ResourceMonitor server on this monitor, for component
   * providers (made on first use); NULL with |err| when it cannot be. */
  const char *(*endpoint)(void *ud, mp_err *err);
  /* Sends the packed ConstructRequest |req| (taken) to the provider |ref|;
   * answers later through mp_monitor_construct_done. */
  int (*construct)(void *ud, const char *ref, const char *ext_ref,
                   mp_buf *req, mp_monitor_reg *reg, mp_err *err);
  /* Sends the packed CallRequest |req| (taken) to the provider |ref| (NULL:
   * the one Invoke would pick for |want|); answers later through
   * mp_monitor_method_done. */
  int (*call)(void *ud, const char *tok, const char *ref,
              const mp_invoke_pkg *want, mp_buf *req, mp_monitor_call *call,
              mp_err *err);
  /* The schema of package |pkg| (mp_monitor_get_schema): answers later
   * through |cb| with |cbud|. With |param| (else NULL), |pkg| is the
   * package a parameterization of the plugin |param->plugin| makes
   * (mp_monitor_get_package_schema). NULL: no schemas served. */
  int (*schema)(void *ud, const char *pkg, const char *version,
                const char *url, const mp_provider_param *param,
                mp_schema_cb cb, void *cbud, mp_err *err);
  /* An extension package the program registered (RegisterPackage's
   * `extension`; borrowed): the deployment loads it into the base
   * package's instances that serve its resources and records it in the
   * snapshot. NULL: extensions are only routed. */
  int (*extension)(void *ud, const mp_extension *e, mp_err *err);
} mp_monitor_hooks;

typedef struct mp_monitor_opts {
  const char *stack;
  const char *project;
  int preview;
  /* Stack config OBJECT "<pkg>:<key>" -> value, for default providers. */
  const mp_value *config;
  const char *organization; /* for Construct and Call; may be NULL */
  int parallel;
  mp_monitor_hooks hooks;
  /* How the http(s) assets and archives a program sends are fetched for
   * their hashes (engine/asset_hash.h); NULL: they fail to hash. */
  mp_asset_fetch_fn asset_fetch;
  void *asset_fetch_ud;
  /* The deployment's loop: a registration whose assets need files read
   * or downloads for their hashes has them hashed on its worker pool, and
   * the loop is kept running until that ends. NULL: on the calling
   * thread, before mp_monitor_register_resource returns. */
  uv_loop_t *loop;
} mp_monitor_opts;

mp_monitor *mp_monitor_new(const mp_monitor_opts *o);
/* Answers every outstanding registration with MP_ECANCELED and frees. */
void mp_monitor_free(mp_monitor *m);

/* The deployment's answers. |state| is borrowed. */
void mp_monitor_complete(mp_monitor *m, mp_monitor_reg *reg,
                         const mp_resource *state);
/* |how|: MP_MONITOR_ERROR answers with the error; MP_MONITOR_SKIPPED and
 * MP_MONITOR_FAILED answer with result SKIP / FAIL (continue-on-error: the
 * program goes on with its independent resources). */
enum mp_monitor_fail_how {
  MP_MONITOR_ERROR = 0,
  MP_MONITOR_SKIPPED = 1,
  MP_MONITOR_FAILED = 2
};
void mp_monitor_fail(mp_monitor *m, mp_monitor_reg *reg, const mp_err *err,
                     int how);
/* The answer of a provider function call: |ret| (taken) or |err|. */
void mp_monitor_call_done(mp_monitor *m, mp_monitor_call *call, mp_value *ret,
                          const mp_err *err);

/* Runs step |s|'s resource hooks (monitor/resource_hooks.h); from a
 * worker thread. */
int mp_monitor_run_hooks(mp_monitor *m, mp_step *s, int after, mp_err *err);
/* Runs step |s|'s error hooks after its provider call |op| failed with
 * |errors| (monitor/resource_hooks.h); from a worker thread. */
int mp_monitor_run_error_hooks(mp_monitor *m, const mp_step *s,
                               const char *op, const mp_strv *errors,
                               int *retry, mp_err *err);
/* The answer of a Construct: the packed ConstructResponse |resp|, or
 * |err|. */
void mp_monitor_construct_done(mp_monitor *m, mp_monitor_reg *reg,
                               const mp_buf *resp, const mp_err *err);
/* The answer of a Call: the packed CallResponse |resp|, or |err|. */
void mp_monitor_method_done(mp_monitor *m, mp_monitor_call *call,
                            const mp_buf *resp, const mp_err *err);

/* Fails every registration still waiting (after a cancellation). */
void mp_monitor_cancel_all(mp_monitor *m);
/* Number of registrations waiting for an answer (those whose assets are
 * being hashed included). */
size_t mp_monitor_outstanding(const mp_monitor *m);

#endif
