/* The resource monitor's API for language hosts, and the language host
 * interface the deployment runs.
 *
 * The monitor owns this header: a language host (embedded Pulumi YAML, a
 * test source, later the gRPC server for external programs) includes it,
 * hands the monitor the same protobuf request messages a real SDK sends,
 * and gets the response messages back through a callback. Everything here
 * runs on the deployment's loop thread. */
#ifndef MP_MONITOR_API_H
#define MP_MONITOR_API_H

#include <uv.h>

#include "engine/err.h"
#include "engine/value.h"
#include "pulumi/resource.pb-c.h"

typedef struct mp_monitor mp_monitor;

/* Called once with the response (borrowed, valid during the call) or, when
 * the registration failed, resp NULL and |err| set. When the deployment is
 * cancelled after a failure, outstanding registrations get MP_ECANCELED. */
typedef void (*mp_register_cb)(void *ud,
                               const Pulumirpc__RegisterResourceResponse *resp,
                               const mp_err *err);
typedef void (*mp_read_cb)(void *ud,
                           const Pulumirpc__ReadResourceResponse *resp,
                           const mp_err *err);
typedef void (*mp_invoke_cb)(void *ud,
                             const Pulumirpc__ResourceInvokeResponse *resp,
                             const mp_err *err);

typedef void (*mp_call_cb)(void *ud, const Pulumirpc__CallResponse *resp,
                           const mp_err *err);

/* Registers a resource. |req| is borrowed for the call (copied as needed).
 * Returns 0 (the callback will run later, never inside this call) or an
 * MP_E code (the callback never runs). Loop thread. */
int mp_monitor_register_resource(mp_monitor *m,
                                 const Pulumirpc__RegisterResourceRequest *req,
                                 mp_register_cb cb, void *ud, mp_err *err);
/* Reads an external resource (ReadResource). Same contract. */
int mp_monitor_read_resource(mp_monitor *m,
                             const Pulumirpc__ReadResourceRequest *req,
                             mp_read_cb cb, void *ud, mp_err *err);
/* The folder the program's relative asset and archive paths start from
 * (Pulumi's runinfo.Pwd: the project's `main` folder, or the project's);
 * copied. Unset: the process's working directory. A language host sets it
 * before its first registration. */
void mp_monitor_set_program_dir(mp_monitor *m, const char *dir);
/* Records a component's (or the root stack's) outputs. Synchronous. */
int mp_monitor_register_outputs(
    mp_monitor *m, const Pulumirpc__RegisterResourceOutputsRequest *req,
    mp_err *err);
/* Calls a provider function. Same contract as register. */
int mp_monitor_invoke(mp_monitor *m,
                      const Pulumirpc__ResourceInvokeRequest *req,
                      mp_invoke_cb cb, void *ud, mp_err *err);

/* A resource hook the program registered (RegisterResourceHook). |call|
 * runs it with a ResourceHookRequest and fills |resp| with the packed
 * ResourceHookResponse; it is called from worker threads, with |ud|, until
 * the deployment ends. */
/* A package's schema (the text its plugin's GetSchema answers), asked by
 * a language host that resolves its program's types itself, as Pulumi
 * YAML asks the engine's Loader service. Called once with |json|
 * (borrowed, valid during the call) or, on failure, NULL and |err| set. */
typedef void (*mp_schema_cb)(void *ud, const char *json, const mp_err *err);
/* Asks the schema of package |pkg| from its plugin at |version|, fetched
 * from |url| if need be (both may be NULL: as the package's default
 * provider would find it). The instance that answers is the one the
 * package's provider resources are checked with, so that no plugin is
 * started for the question alone. Returns 0 (the callback runs later,
 * never inside this call) or an MP_E code (the callback never runs;
 * MP_ENOENT when this deployment serves no schemas). Loop thread. */
int mp_monitor_get_schema(mp_monitor *m, const char *pkg, const char *version,
                          const char *url, mp_schema_cb cb, void *ud,
                          mp_err *err);
/* The same for the package a RegisterPackage answered |ref| for: a
 * parameterized package's schema is its plugin's, asked after Parameterize
 * with the package's name and version, as Pulumi's schema loader asks
 * (pkg/codegen/schema/loader.go). MP_EINVAL for an unknown reference. */
int mp_monitor_get_package_schema(mp_monitor *m, const char *ref,
                                  mp_schema_cb cb, void *ud, mp_err *err);

typedef struct mp_resource_hook {
  const char *name;
  int on_dry_run, ignore_errors;
  /* An error hook (RegisterErrorHook): |call| takes an ErrorHookRequest
   * and answers an ErrorHookResponse. It shares the names of the resource
   * hooks, as in Pulumi, but runs only as an error hook. */
  int error_hook;
  int (*call)(void *ud, const ProtobufCMessage *req, mp_buf *resp,
              mp_err *err);
  void *ud;
} mp_resource_hook;
/* Registers |h| (copied). Loop thread. */
void mp_monitor_register_hook(mp_monitor *m, const mp_resource_hook *h);
/* Calls a component's method (ResourceMonitor.Call). Same contract. */
int mp_monitor_call_method(mp_monitor *m, const Pulumirpc__ResourceCallRequest *req,
                    mp_call_cb cb, void *ud, mp_err *err);
/* Registers a package (ResourceMonitor.RegisterPackage): |*ref| (malloc'd)
 * names it in later packageRef fields; the same package gets the same
 * reference. Synchronous. */
int mp_monitor_register_package(mp_monitor *m,
                                const Pulumirpc__RegisterPackageRequest *req,
                                char **ref, mp_err *err);

typedef enum mp_log_severity {
  MP_LOG_DEBUG = 0,
  MP_LOG_INFO = 1,
  MP_LOG_WARNING = 2,
  MP_LOG_ERROR = 3
} mp_log_severity;

/* A diagnostic from the program about |urn| (may be NULL). */
void mp_monitor_log(mp_monitor *m, mp_log_severity sev, const char *urn,
                    const char *msg);

/* The program finished. |failed| with |message| (the error text the user
 * sees, e.g. "Pulumi.yaml:3:5: unknown resource 'x'") ends the deployment
 * as failed without running deletes. Call exactly once. */
void mp_monitor_program_done(mp_monitor *m, int failed, const char *message);

/* What a language host needs to run a program. Borrowed. */
typedef struct mp_source_info {
  uv_loop_t *loop;
  const char *project;
  const char *stack;
  const char *organization;
  const char *root_dir; /* the project folder */
  int dry_run;          /* preview */
  int parallel;
  /* Stack config: an OBJECT of "<ns>:<key>" → value (secrets wrapped). */
  const mp_value *config;
  /* The Pulumi CLI version the engine claims ("3.206.0+minipulumi.0.1.0"),
   * that a program's required version range is checked against; NULL: no
   * check (as Pulumi when its CLI version is unknown). */
  const char *pulumi_version;
  /* Whether |version| is in the version range |range| (Pulumi's syntax,
   * ">=3.0.0 <4.0.0 || =3.1.2"): 1, 0, or MP_EINVAL with |err| set. Set
   * with |pulumi_version|. */
  int (*version_in_range)(const char *range, const char *version,
                          mp_err *err);
} mp_source_info;

typedef struct mp_source mp_source;

typedef struct mp_source_vtable {
  /* Starts the program: it registers resources through |m| and finally
   * calls mp_monitor_program_done. Returns 0 or an MP_E code (then the
   * program never started). */
  int (*start)(mp_source *s, mp_monitor *m, const mp_source_info *info,
               mp_err *err);
  /* The deployment is stopping: stop registering (outstanding callbacks
   * still arrive with MP_ECANCELED). */
  void (*cancel)(mp_source *s);
  void (*free)(mp_source *s);
  /* May be NULL. The deployment is over (every step done, the monitor
   * answers nothing more): an out-of-process program gets its last answer
   * and is let go. The source must close its loop handles soon after,
   * since the deployment's loop runs until they are closed. */
  void (*finish)(mp_source *s);
  /* May be NULL. Work that needs no monitor (the YAML host analyses its
   * program), done while the deployment waits on its own set-up (the
   * passphrase's key), with the |info| start will get. A failure is kept
   * and reported by start, so the order of errors does not change. */
  void (*prepare)(mp_source *s, const mp_source_info *info);
} mp_source_vtable;

struct mp_source {
  const mp_source_vtable *vt;
};

#endif
