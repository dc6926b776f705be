/* pulumirpc.ResourceMonitor over gRPC: what an out-of-process program (a
 * Node.js program on @pulumi/pulumi) calls. Each request is decoded and
 * handed to the same monitor entry points the embedded YAML host uses
 * (monitor/api.h); each answer is encoded back. Answers follow the SDK's
 * contract (docs/sdk-contract.md, "Errors the SDK treats specially"): a
 * registration refused because the deployment is stopping is answered
 * UNAVAILABLE (the engine has already reported why), other errors UNKNOWN
 * with the message.
 * Owner: the loop thread. */
#ifndef MP_MONITOR_SERVICE_H
#define MP_MONITOR_SERVICE_H

#include "monitor/api.h"
#include "rpc/server.h"

typedef struct mp_monitor_service mp_monitor_service;

typedef struct mp_monitor_service_opts {
  mp_monitor *monitor;     /* borrowed; outlives the service's use */
  const mp_source_info *info; /* copied what is needed */
  /* The program called SignalAndWaitForShutdown: it finished without
   * errors. The call is held until mp_monitor_service_release. */
  void (*program_finished)(void *ud);
  void *ud;
} mp_monitor_service_opts;

/* Serves every pulumirpc.ResourceMonitor method on |srv| (not yet listening).
 * Returns 0 and sets |*out|, or MP_EINVAL when already served there. */
int mp_monitor_service_new(mp_rpc_server *srv,
                           const mp_monitor_service_opts *o,
                           mp_monitor_service **out, mp_err *err);

/* The deployment is over: answers a held SignalAndWaitForShutdown, and
 * from now on answers every request UNAVAILABLE without touching the
 * monitor (which may be gone). */
void mp_monitor_service_release(mp_monitor_service *s);

/* Frees |s| (after its server is closed; calls still held by the monitor
 * answer on their own). */
void mp_monitor_service_free(mp_monitor_service *s);

/* The feature names the service advertises (SupportsFeature ids), for
 * tests and diagnostics: 1 if |id| is supported. */
int mp_monitor_service_supports(const char *id);

#endif
