/* The pulumirpc.Engine service, which plugins and programs dial to log:
 * Log, GetRootResource and SetRootResource. Log messages go to a callback
 * so that a deployment can turn them into diagnostics.
 * Owner: the loop thread (handlers run there). */
#ifndef MP_RPC_ENGINE_SERVICE_H
#define MP_RPC_ENGINE_SERVICE_H

#include <stdint.h>

#include "engine/err.h"
#include "rpc/server.h"

/* LogRequest's severities (their wire numbers). */
enum mp_rpc_log_severity {
  MP_RPC_LOG_DEBUG = 0,
  MP_RPC_LOG_INFO = 1,
  MP_RPC_LOG_WARNING = 2,
  MP_RPC_LOG_ERROR = 3
};

/* One Engine.Log message; the strings are borrowed for the callback. */
typedef struct mp_rpc_log_entry {
  int severity; /* enum mp_rpc_log_severity */
  const char *message;
  const char *urn;   /* the resource it is about, or "" */
  int32_t stream_id; /* groups messages of one stream, or 0 */
  int ephemeral;     /* status-line text, not kept */
} mp_rpc_log_entry;

typedef void (*mp_rpc_log_cb)(const mp_rpc_log_entry *entry, void *arg);

/* The service's state. Caller storage; must outlive the server. */
typedef struct mp_rpc_engine_service {
  mp_rpc_log_cb log;
  void *log_arg;
  char *root_urn; /* set by SetRootResource; NULL until then */
} mp_rpc_engine_service;

/* Prepares |svc|; each Log request is handed to |log|(entry, |arg|) (may be
 * NULL to drop them). */
void mp_rpc_engine_service_init(mp_rpc_engine_service *svc, mp_rpc_log_cb log,
                                void *arg);
void mp_rpc_engine_service_destroy(mp_rpc_engine_service *svc);

/* Serves /pulumirpc.Engine/{Log,GetRootResource,SetRootResource} from
 * |svc| on |srv|. Returns 0 or MP_EINVAL (already served). */
int mp_rpc_engine_service_register(mp_rpc_engine_service *svc,
                                   mp_rpc_server *srv, mp_err *err);

#endif
