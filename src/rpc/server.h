/* gRPC server on the libuv loop: several services on one ephemeral port of
 * 127.0.0.1, plaintext HTTP/2 (h2c, prior knowledge), unary methods.
 * A method table maps a full method path ("/pulumirpc.Engine/Log") to a
 * handler; a handler answers at once or later, always on the loop thread,
 * exactly once. Unknown methods get a trailers-only UNIMPLEMENTED.
 * Owner of everything here: the loop thread. */
#ifndef MP_RPC_SERVER_H
#define MP_RPC_SERVER_H

#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "engine/err.h"
#include "rpc/status.h"

typedef struct mp_rpc_server mp_rpc_server;     /* opaque; rpc/server.c */
typedef struct mp_rpc_srv_call mp_rpc_srv_call; /* one request to answer */

/* Handles one request. |req|[0..len) is the request message, borrowed
 * until the handler returns (copy what a later answer needs). The handler
 * owns |call| until it passes it to mp_rpc_srv_reply or mp_rpc_srv_fail. */
typedef void (*mp_rpc_handler)(mp_rpc_srv_call *call, const uint8_t *req,
                               size_t len, void *arg);

/* Creates a server on |loop| accepting requests of at most |max_recv|
 * bytes (0: MP_RPC_DEFAULT_MAX_RECV; larger ones are answered
 * RESOURCE_EXHAUSTED). Returns 0 and sets |*out|, or MP_EIO. */
int mp_rpc_server_new(uv_loop_t *loop, size_t max_recv, mp_rpc_server **out,
                      mp_err *err);

/* Serves |path| ("/package.Service/Method") with |handler|(..., |arg|).
 * |path| is copied. Returns 0, or MP_EINVAL for a bad or duplicate path. */
int mp_rpc_server_add(mp_rpc_server *s, const char *path,
                      mp_rpc_handler handler, void *arg, mp_err *err);

/* Listens on 127.0.0.1 on a port the OS picks and stores it in |*port|.
 * Returns 0 or MP_EIO. */
int mp_rpc_server_listen(mp_rpc_server *s, int *port, mp_err *err);

/* The port listened on, or 0. */
int mp_rpc_server_port(const mp_rpc_server *s);

/* Stops listening, drops every connection, and frees |s| once its handles
 * are closed; then calls |cb|(|arg|) if not NULL. Requests still with their
 * handlers stay valid until then (answering them just frees them); those
 * never answered are freed with the server, so a handler must forget the
 * calls it holds no later than |cb|. */
void mp_rpc_server_close(mp_rpc_server *s, void (*cb)(void *arg), void *arg);

/* The method path of |call|. Borrowed; valid until |call| is answered. */
const char *mp_rpc_srv_call_method(const mp_rpc_srv_call *call);

/* Answers |call| with the reply message |msg|[0..len) (copied; an empty
 * message is still sent as a 5-byte frame, as clients require) and
 * grpc-status 0. Frees |call|. When the client has gone, only frees it. */
void mp_rpc_srv_reply(mp_rpc_srv_call *call, const void *msg, size_t len);

/* Answers |call| with the error |code| (not MP_RPC_OK), the message |msg|
 * (may be NULL; percent-encoded on the wire) and, when |n| > 0, the
 * details |details|[0..n) packed as google.rpc.Status in
 * grpc-status-details-bin; trailers only. Frees |call|. */
void mp_rpc_srv_fail(mp_rpc_srv_call *call, int code, const char *msg,
                     const mp_rpc_detail *details, size_t n);

#endif
