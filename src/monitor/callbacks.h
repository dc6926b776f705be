/* A client of the program's pulumirpc.Callbacks servers: the functions an
 * SDK registers (transforms, hooks) live in the program and are called by
 * their Callback {target, token}. One gRPC client per target, made on the
 * loop thread the first time a target is named; a call is asynchronous on
 * the loop thread, or blocking from a worker (a step's hooks).
 * Owner: the loop thread; the client table is read by workers under its
 * mutex. */
#ifndef MP_MONITOR_CALLBACKS_H
#define MP_MONITOR_CALLBACKS_H

#include <protobuf-c/protobuf-c.h>
#include <uv.h>

#include "engine/err.h"
#include "engine/mem.h"
#include "pulumi/callback.pb-c.h"

typedef struct mp_callbacks mp_callbacks;

mp_callbacks *mp_callbacks_new(uv_loop_t *loop);

/* Makes sure a client of |cb|'s target exists (loop thread). Returns 0, or
 * MP_EINVAL for a target that is not "<host>:<port>" on this machine. */
int mp_callbacks_dial(mp_callbacks *c, const Pulumirpc__Callback *cb,
                      mp_err *err);

/* The response message's bytes (borrowed during the call), or |err|. */
typedef void (*mp_callbacks_done)(void *arg, const uint8_t *resp, size_t len,
                                  const mp_err *err);

/* Calls |cb| with |req| packed (loop thread). Returns 0 (|done| runs later,
 * exactly once) or an MP_E code (|done| never runs). */
int mp_callbacks_call(mp_callbacks *c, const Pulumirpc__Callback *cb,
                      const ProtobufCMessage *req, mp_callbacks_done done,
                      void *arg, mp_err *err);

/* The same from a worker thread, blocking: the response's bytes go to
 * |out|. The target must have been dialled. Returns 0 or an MP_E code. */
int mp_callbacks_call_sync(mp_callbacks *c, const char *target,
                           const char *token, const ProtobufCMessage *req,
                           mp_buf *out, mp_err *err);

/* Ends every call (they finish with MP_ECANCELED) and frees |c| once its
 * clients are closed. Loop thread. */
void mp_callbacks_close(mp_callbacks *c);

#endif
