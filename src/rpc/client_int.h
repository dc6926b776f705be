/* The client's structures, shared by client.c (calls on the loop),
 * client_sync.c (blocking calls from other threads) and cancel.c. */
#ifndef MP_RPC_CLIENT_INT_H
#define MP_RPC_CLIENT_INT_H

#include <netinet/in.h>
#include <stdatomic.h>

#include "rpc/client.h"
#include "rpc/rpc_int.h"

/* One connection of a client. A client has one usable connection at a
 * time; an older one lingers only until its calls end. */
typedef struct mp__rpc_cconn {
  mp__rpc_conn base; /* first: nghttp2 user data and TCP data */
  mp_rpc_client *client;
  uv_connect_t connect_req;
  int connected;      /* TCP connected and reading */
  int usable;         /* new calls may start here (no GOAWAY, no error) */
  mp__rpc_link calls; /* calls whose stream is open or not yet opened */
  mp__rpc_link link;  /* in client->conns */
} mp__rpc_cconn;

struct mp_rpc_client { /* Owner: loop thread, except the inbox fields. */
  uv_loop_t *loop;
  uv_thread_t loop_thread;
  struct sockaddr_in addr;
  int port;
  char *peer;         /* "'<name>' (127.0.0.1:<port>)" */
  char authority[32]; /* "127.0.0.1:<port>" */
  size_t max_recv;
  mp__rpc_cconn *current; /* connection for new calls, or NULL */
  mp__rpc_link conns;     /* every connection not yet freed */
  mp__rpc_link done;      /* ended calls whose callbacks are due */
  int dispatching;        /* inside client_dispatch (no re-entry) */
  int closing;
  void (*close_cb)(void *arg);
  void *close_arg;
  uv_async_t wake; /* runs the inbox and the done list */
  /* Blocking calls handed over by other threads (guarded by inbox_mu). */
  uv_mutex_t inbox_mu;
  mp__rpc_link inbox;
  int inbox_closed;
};

struct mp_rpc_call { /* Owner: loop thread. */
  mp_rpc_client *client;
  mp__rpc_cconn *conn;      /* while linked in conn->calls */
  mp__rpc_link link;        /* in conn->calls */
  mp__rpc_link done_link;   /* in client->done */
  mp__rpc_link cancel_link; /* in cancel->calls */
  mp_rpc_cancel *cancel;
  char *method;
  mp__rpc_out out;   /* the request; |stopped| once the call ended */
  int32_t stream_id; /* 0 until submitted */
  int stream_open;   /* nghttp2 knows the stream (until it closes) */
  mp_rpc_reader reader;
  int http_status;    /* 0 until the response headers */
  int grpc_status;    /* -1 until seen, -2 when unparseable */
  char *content_type; /* when it is not application/grpc* */
  char *grpc_message; /* percent-decoded */
  char *details_b64;  /* grpc-status-details-bin as received */
  int ended;          /* outcome fixed; callback queued or run */
  int cb_done;        /* callback has run */
  int rc;
  mp_err err;
  mp_rpc_reply reply;
  int has_timer;
  uint64_t timeout_ms; /* the deadline, ms after the start */
  uv_timer_t timer;    /* the deadline, when has_timer */
  mp_rpc_done_cb cb;
  void *arg;
};

struct mp_rpc_cancel { /* Owner: loop thread, except |fired|. */
  uv_async_t async;
  atomic_int fired;
  mp__rpc_link calls; /* calls to cancel when fired */
};

/* Ends |call| with |rc| (< 0), the gRPC code |code| and a message; the
 * error names the method and the peer. Resets the stream if it is open.
 * No effect on a call that has ended. */
void mp__rpc_call_end(mp_rpc_call *call, int rc, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Runs the callbacks of ended calls. */
void mp__rpc_client_dispatch(mp_rpc_client *c);
/* Starts the blocking calls queued by other threads (wake callback). */
void mp__rpc_client_drain_inbox(mp_rpc_client *c);
/* Ends the queued blocking calls with MP_ECANCELED and refuses new ones. */
void mp__rpc_client_close_inbox(mp_rpc_client *c);
/* Links |call| to |t| (loop thread); ends it at once if |t| has fired. */
void mp__rpc_cancel_attach(mp_rpc_cancel *t, mp_rpc_call *call);

#endif
