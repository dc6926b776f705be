/* Blocking calls from worker threads. The caller's request lives on its
 * own stack; it crosses to the loop through the client's inbox (a
 * mutex-guarded list plus uv_async_send), runs there as an ordinary
 * asynchronous call, and comes back through a per-call condition variable.
 * The loop never waits for a worker, and each lock is held only to link or
 * unlink one request or to set one flag (docs/rpc.md). */
#include "rpc/client_int.h"

typedef struct sync_req {
  mp__rpc_link link;  /* in client->inbox (inbox_mu) */
  const char *method; /* borrowed from the waiting caller */
  const void *req;
  size_t len;
  const mp_rpc_call_opts *opts;
  uv_mutex_t mu; /* guards |done| */
  uv_cond_t cv;
  int done;
  int rc; /* written by the loop before |done| */
  mp_rpc_reply *reply;
  mp_err *err;
} sync_req;

/* Hands the outcome back and wakes the caller. Loop thread. |r| belongs to
 * the caller again once |mu| is released: nothing may touch it after. */
static void sync_complete(sync_req *r, int rc, const mp_err *err) {
  r->rc = rc;
  if (rc < 0 && r->err)
    *r->err = *err;
  else
    mp_err_clear(r->err);
  uv_mutex_lock(&r->mu);
  r->done = 1;
  uv_cond_signal(&r->cv);
  uv_mutex_unlock(&r->mu);
}

static void sync_on_done(int rc, mp_rpc_reply *reply, const mp_err *err,
                         void *arg) {
  sync_req *r = arg;
  mp_buf tmp = r->reply->body;
  r->reply->body = reply->body;
  reply->body = tmp;
  mp_rpc_status_move(&r->reply->status, &reply->status);
  sync_complete(r, rc, err);
}

static sync_req *sync_pop(mp__rpc_link *list) {
  if (mp__rpc_list_empty(list)) return NULL;
  sync_req *r = mp_container_of(list->next, sync_req, link);
  mp__rpc_list_remove(&r->link);
  return r;
}

/* Moves the whole inbox to |out| under the lock: sends coalesce, so one
 * wake-up must take everything queued so far. */
static void inbox_take(mp_rpc_client *c, mp__rpc_link *out, int close) {
  mp__rpc_list_init(out);
  uv_mutex_lock(&c->inbox_mu);
  if (!mp__rpc_list_empty(&c->inbox)) {
    out->next = c->inbox.next;
    out->prev = c->inbox.prev;
    out->next->prev = out;
    out->prev->next = out;
    mp__rpc_list_init(&c->inbox);
  }
  if (close) c->inbox_closed = 1;
  uv_mutex_unlock(&c->inbox_mu);
}

void mp__rpc_client_drain_inbox(mp_rpc_client *c) {
  mp__rpc_link batch;
  inbox_take(c, &batch, 0);
  for (sync_req *r; (r = sync_pop(&batch)) != NULL;) {
    mp_err e;
    int rc = mp_rpc_call_start(c, r->method, r->req, r->len, r->opts,
                               sync_on_done, r, NULL, &e);
    if (rc < 0) sync_complete(r, rc, &e);
  }
}

void mp__rpc_client_close_inbox(mp_rpc_client *c) {
  mp__rpc_link batch;
  inbox_take(c, &batch, 1);
  for (sync_req *r; (r = sync_pop(&batch)) != NULL;) {
    mp_err e;
    mp_err_set(&e, MP_ECANCELED, "'%s' on %s: client closed", r->method,
               c->peer);
    mp_rpc_status_set(&r->reply->status, MP_RPC_CANCELLED, "client closed");
    sync_complete(r, MP_ECANCELED, &e);
  }
}

int mp_rpc_call_sync(mp_rpc_client *c, const char *method, const void *req,
                     size_t len, const mp_rpc_call_opts *opts,
                     mp_rpc_reply *reply, mp_err *err) {
  uv_thread_t self = uv_thread_self();
  if (uv_thread_equal(&self, &c->loop_thread))
    return mp_err_set(err, MP_EINVAL,
                      "blocking gRPC call '%s' on %s made on the loop thread, "
                      "which would wait for itself; use mp_rpc_call_start",
                      method ? method : "", c->peer);
  sync_req r = {.method = method,
                .req = req,
                .len = len,
                .opts = opts,
                .reply = reply,
                .err = err};
  mp__rpc_list_init(&r.link);
  uv_mutex_init(&r.mu);
  uv_cond_init(&r.cv);
  uv_mutex_lock(&c->inbox_mu);
  int closed = c->inbox_closed;
  if (!closed) mp__rpc_list_push(&c->inbox, &r.link);
  uv_mutex_unlock(&c->inbox_mu);
  if (closed) {
    r.rc = mp_err_set(err, MP_ECANCELED, "'%s' on %s: client closed",
                      method ? method : "", c->peer);
    mp_rpc_status_set(&reply->status, MP_RPC_CANCELLED, "client closed");
  } else {
    uv_async_send(&c->wake);
    uv_mutex_lock(&r.mu);
    while (!r.done) uv_cond_wait(&r.cv, &r.mu);
    uv_mutex_unlock(&r.mu);
  }
  uv_cond_destroy(&r.cv);
  uv_mutex_destroy(&r.mu);
  return r.rc;
}
