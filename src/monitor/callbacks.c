/* Calls into the program's pulumirpc.Callbacks servers. */
#include "monitor/callbacks.h"

#include <stdlib.h>
#include <string.h>

#include "engine/map.h"
#include "rpc/client.h"

#define INVOKE "/pulumirpc.Callbacks/Invoke"

struct mp_callbacks {
  uv_loop_t *loop;
  uv_mutex_t mu; /* guards |clients| against workers' look-ups */
  mp_map clients; /* target -> mp_rpc_client* */
  size_t closing; /* clients not yet closed, after mp_callbacks_close */
};

mp_callbacks *mp_callbacks_new(uv_loop_t *loop) {
  mp_callbacks *c = mp_xcalloc(1, sizeof(*c));
  c->loop = loop;
  uv_mutex_init(&c->mu);
  mp_map_init(&c->clients);
  return c;
}

/* The port of a target the SDK names "127.0.0.1:<port>" (or localhost). */
static int target_port(const char *t) {
  const char *colon = t ? strrchr(t, ':') : NULL;
  if (colon == NULL) return -1;
  size_t hl = (size_t)(colon - t);
  if (!(hl == 9 && strncmp(t, "127.0.0.1", 9) == 0) &&
      !(hl == 9 && strncmp(t, "localhost", 9) == 0) &&
      !(hl == 6 && strncmp(t, "[::1]", 5) == 0))
    return -1;
  char *end = NULL;
  long p = strtol(colon + 1, &end, 10);
  if (end == colon + 1 || *end || p <= 0 || p > 65535) return -1;
  return (int)p;
}

static mp_rpc_client *lookup(mp_callbacks *c, const char *target) {
  uv_mutex_lock(&c->mu);
  mp_rpc_client *cl = mp_map_get(&c->clients, target);
  uv_mutex_unlock(&c->mu);
  return cl;
}

int mp_callbacks_dial(mp_callbacks *c, const Pulumirpc__Callback *cb,
                      mp_err *err) {
  const char *target = cb ? cb->target : NULL;
  if (target == NULL || target[0] == '\0')
    return mp_err_set(err, MP_EINVAL, "target must be specified");
  if (lookup(c, target)) return 0;
  int port = target_port(target);
  if (port < 0)
    return mp_err_set(err, MP_EINVAL,
                      "callback target '%s' is not <host>:<port> on this "
                      "machine",
                      target);
  mp_rpc_client *cl = NULL;
  int rc = mp_rpc_client_new(c->loop, "the program's callbacks", port, 0, &cl,
                             err);
  if (rc < 0) return rc;
  uv_mutex_lock(&c->mu);
  mp_map_put(&c->clients, target, cl);
  uv_mutex_unlock(&c->mu);
  return 0;
}

static uint8_t *pack_invoke(const char *token, const ProtobufCMessage *req,
                            size_t *len) {
  size_t n = protobuf_c_message_get_packed_size(req);
  uint8_t *inner = mp_xmalloc(n ? n : 1);
  protobuf_c_message_pack(req, inner);
  Pulumirpc__CallbackInvokeRequest q = PULUMIRPC__CALLBACK_INVOKE_REQUEST__INIT;
  q.token = (char *)token;
  q.request.data = inner;
  q.request.len = n;
  *len = pulumirpc__callback_invoke_request__get_packed_size(&q);
  uint8_t *b = mp_xmalloc(*len ? *len : 1);
  pulumirpc__callback_invoke_request__pack(&q, b);
  free(inner);
  return b;
}

/* The inner response of a CallbackInvokeResponse, handed to |done|. */
static int unwrap(const mp_buf *body, mp_buf *out, mp_err *err) {
  Pulumirpc__CallbackInvokeResponse *r =
      pulumirpc__callback_invoke_response__unpack(NULL, body->len,
                                                  (const uint8_t *)body->data);
  if (r == NULL)
    return mp_err_set(err, MP_EPROTO,
                      "the program's callback answered a message that is not "
                      "a CallbackInvokeResponse");
  mp_buf_append(out, r->response.data, r->response.len);
  pulumirpc__callback_invoke_response__free_unpacked(r, NULL);
  return 0;
}

/* The program's own words when its callback failed (the SDK puts the
 * function's error in the status message). */
static void failed(mp_err *err, int rc, const mp_rpc_reply *reply) {
  if (reply->status.message && reply->status.message[0])
    mp_err_set(err, rc, "%s", reply->status.message);
}

typedef struct pending {
  mp_callbacks_done done;
  void *arg;
  uint8_t *req; /* borrowed by the call until it ends */
} pending;

static void on_done(int rc, mp_rpc_reply *reply, const mp_err *err,
                    void *arg) {
  pending *p = arg;
  mp_err e = *err;
  mp_buf out;
  mp_buf_init(&out);
  if (rc == 0) rc = unwrap(&reply->body, &out, &e);
  else failed(&e, rc, reply);
  if (rc < 0) p->done(p->arg, NULL, 0, &e);
  else p->done(p->arg, (const uint8_t *)out.data, out.len, NULL);
  mp_buf_destroy(&out);
  free(p->req);
  free(p);
}

int mp_callbacks_call(mp_callbacks *c, const Pulumirpc__Callback *cb,
                      const ProtobufCMessage *req, mp_callbacks_done done,
                      void *arg, mp_err *err) {
  int rc = mp_callbacks_dial(c, cb, err);
  if (rc < 0) return rc;
  size_t len = 0;
  uint8_t *b = pack_invoke(cb->token ? cb->token : "", req, &len);
  pending *p = mp_xcalloc(1, sizeof(*p));
  p->done = done;
  p->arg = arg;
  p->req = b;
  rc = mp_rpc_call_start(lookup(c, cb->target), INVOKE, b, len, NULL, on_done,
                         p, NULL, err);
  if (rc < 0) {
    free(b);
    free(p);
  }
  return rc;
}

int mp_callbacks_call_sync(mp_callbacks *c, const char *target,
                           const char *token, const ProtobufCMessage *req,
                           mp_buf *out, mp_err *err) {
  mp_rpc_client *cl = target ? lookup(c, target) : NULL;
  if (cl == NULL)
    return mp_err_set(err, MP_EINVAL, "no callback server at '%s'",
                      target ? target : "");
  size_t len = 0;
  uint8_t *b = pack_invoke(token ? token : "", req, &len);
  mp_rpc_reply reply;
  mp_rpc_reply_init(&reply);
  int rc = mp_rpc_call_sync(cl, INVOKE, b, len, NULL, &reply, err);
  free(b);
  if (rc == 0) rc = unwrap(&reply.body, out, err);
  else failed(err, rc, &reply);
  mp_rpc_reply_destroy(&reply);
  return rc;
}

static void free_callbacks(mp_callbacks *c) {
  mp_map_destroy(&c->clients);
  uv_mutex_destroy(&c->mu);
  free(c);
}

static void on_client_closed(void *arg) {
  mp_callbacks *c = arg;
  if (--c->closing == 0) free_callbacks(c);
}

void mp_callbacks_close(mp_callbacks *c) {
  if (c == NULL) return;
  c->closing = 1; /* held until every close is started */
  for (size_t i = 0; i < c->clients.cap; i++)
    if (c->clients.slots[i].key) {
      c->closing++;
      mp_rpc_client_close(c->clients.slots[i].value, on_client_closed, c);
    }
  on_client_closed(c);
}
