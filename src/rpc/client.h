/* gRPC client: unary calls to one peer (a plugin, a language host) over one
 * plaintext HTTP/2 connection to 127.0.0.1:<port> (h2c, prior knowledge),
 * many calls at once as concurrent streams.
 *
 * Two ways to call:
 *  - mp_rpc_call_start, on the loop thread, with a completion callback;
 *  - mp_rpc_call_sync, from any other thread (a libuv worker running a
 *    step), which blocks until the loop has the answer (docs/rpc.md).
 *
 * Outcome of a call, in both ways: 0 and the reply's message when the peer
 * answered grpc-status 0; otherwise a negative code, an mp_err naming the
 * method and the peer, and the reply's status holding the gRPC code:
 *   MP_EPLUGIN    the peer answered a non-OK gRPC status (code, message and
 *                 details as sent, e.g. UNIMPLEMENTED, or UNKNOWN with a
 *                 pulumirpc.ErrorResourceInitFailed detail);
 *   MP_EIO        connection refused or lost mid-call (UNAVAILABLE), or the
 *                 deadline passed (DEADLINE_EXCEEDED);
 *   MP_EPROTO     the peer broke HTTP/2 or gRPC: malformed frames, a bad
 *                 message prefix (INTERNAL), a reply over the receive limit
 *                 (RESOURCE_EXHAUSTED), a non-gRPC HTTP reply (404 ->
 *                 UNIMPLEMENTED, else the code gRPC maps it to), a missing
 *                 grpc-status (UNKNOWN);
 *   MP_ECANCELED  cancelled by us (CANCELLED). */
#ifndef MP_RPC_CLIENT_H
#define MP_RPC_CLIENT_H

#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "engine/err.h"
#include "engine/mem.h"
#include "rpc/status.h"

typedef struct mp_rpc_client mp_rpc_client; /* opaque; rpc/client.c */
typedef struct mp_rpc_call mp_rpc_call;     /* opaque; one call in flight */
typedef struct mp_rpc_cancel mp_rpc_cancel; /* opaque; rpc/cancel.c */

/* What a call brings back. Caller storage. */
typedef struct mp_rpc_reply {
  mp_buf body;          /* the reply message (protobuf bytes) when OK */
  mp_rpc_status status; /* OK, or the gRPC status of the failure */
} mp_rpc_reply;

void mp_rpc_reply_init(mp_rpc_reply *r);
void mp_rpc_reply_destroy(mp_rpc_reply *r);

/* Per-call options; a NULL pointer means all defaults. */
typedef struct mp_rpc_call_opts {
  uint64_t timeout_ms;   /* deadline from the start of the call; 0: none */
  mp_rpc_cancel *cancel; /* cancels the call when fired; may be NULL */
  /* 1: a client-streaming call whose messages are sent one by one as they
   * come, with mp_rpc_call_send, and ended by mp_rpc_call_close_send;
   * the call's |req| must be NULL and |len| 0. */
  int open;
} mp_rpc_call_opts;

/* Called once on the loop thread when a call ends. |rc| is 0 or one of the
 * codes above, |err| says why when rc < 0. |reply| belongs to the library
 * and lives until the callback returns; take what you keep (e.g. swap
 * reply->body out, or mp_rpc_status_move). */
typedef void (*mp_rpc_done_cb)(int rc, mp_rpc_reply *reply, const mp_err *err,
                               void *arg);

/* Creates a client of the peer listening on 127.0.0.1:|port|; |peer_name|
 * (e.g. "pulumi-resource-aws") is used in error messages. |max_recv| is the
 * largest reply accepted, in bytes (0: MP_RPC_DEFAULT_MAX_RECV). Nothing is
 * dialled until the first call. Loop thread. Returns 0 and sets |*out|, or
 * MP_EINVAL (bad port) / MP_EIO. */
int mp_rpc_client_new(uv_loop_t *loop, const char *peer_name, int port,
                      size_t max_recv, mp_rpc_client **out, mp_err *err);

/* Ends every call in flight with MP_ECANCELED ("client closed"), including
 * blocking callers still queued, drops the connection, and frees |c| once
 * its handles are closed; then calls |cb|(|arg|) if not NULL. No thread may
 * start a call on |c| once this is called. Loop thread. */
void mp_rpc_client_close(mp_rpc_client *c, void (*cb)(void *arg), void *arg);

/* "'<peer_name>' (127.0.0.1:<port>)": how errors name the peer. Borrowed,
 * valid while |c| lives. Any thread. */
const char *mp_rpc_client_peer(const mp_rpc_client *c);

/* Starts the unary call |method| ("/pkg.Service/Method") with the request
 * message |req|[0..len), which is borrowed until |cb| runs. Sets |*out| (if
 * not NULL) to a handle valid until |cb| runs. Loop thread. Returns 0 (|cb|
 * will run exactly once, never from inside this function), or MP_EINVAL
 * (bad method, message over 4 GiB) / MP_ECANCELED (client closing), in
 * which case |cb| never runs. */
int mp_rpc_call_start(mp_rpc_client *c, const char *method, const void *req,
                      size_t len, const mp_rpc_call_opts *opts,
                      mp_rpc_done_cb cb, void *arg, mp_rpc_call **out,
                      mp_err *err);

/* Cancels |call|: its stream is reset and its callback runs soon with
 * MP_ECANCELED. No effect once the call has ended but before its callback
 * ran. Loop thread. */
void mp_rpc_call_cancel(mp_rpc_call *call);

/* Sends the message |msg|[0..len) on the open call |call| (see
 * mp_rpc_call_opts.open); the bytes are copied. No effect once the call
 * has ended. Loop thread, before |call|'s callback has run. */
void mp_rpc_call_send(mp_rpc_call *call, const void *msg, size_t len);

/* Ends the requests of the open call |call|: the peer sees the end of
 * the stream and answers; the callback runs then. Loop thread, before
 * |call|'s callback has run. */
void mp_rpc_call_close_send(mp_rpc_call *call);

/* Makes the unary call |method| and waits for its end; |req| is borrowed
 * for the call. For any thread except the loop thread (the loop must keep
 * running). |reply| (initialised by the caller) receives the message and
 * status. Returns 0 or the codes above; MP_EINVAL also when called on the
 * loop thread, where waiting would deadlock. */
int mp_rpc_call_sync(mp_rpc_client *c, const char *method, const void *req,
                     size_t len, const mp_rpc_call_opts *opts,
                     mp_rpc_reply *reply, mp_err *err);

/* A cancellation token: firing it cancels every call started with it that
 * has not ended, and every later call started with it. Created and closed
 * on the loop thread; fired from any thread. */
int mp_rpc_cancel_new(uv_loop_t *loop, mp_rpc_cancel **out, mp_err *err);
/* Fires |t|. Any thread; idempotent. */
void mp_rpc_cancel_fire(mp_rpc_cancel *t);
/* 1 once |t| has been fired. Any thread. */
int mp_rpc_cancel_fired(const mp_rpc_cancel *t);
/* Frees |t| (asynchronously). No call may still use it. Loop thread. */
void mp_rpc_cancel_close(mp_rpc_cancel *t);

#endif
