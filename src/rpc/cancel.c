/* Cancellation tokens: fired from any thread, acted on by the loop. */
#include "rpc/client_int.h"

#include <stdlib.h>

static void cancel_on_fire(uv_async_t *h) {
  mp_rpc_cancel *t = mp_container_of(h, mp_rpc_cancel, async);
  while (!mp__rpc_list_empty(&t->calls))
    mp_rpc_call_cancel(
        mp_container_of(t->calls.next, mp_rpc_call, cancel_link));
}

int mp_rpc_cancel_new(uv_loop_t *loop, mp_rpc_cancel **out, mp_err *err) {
  *out = NULL;
  mp_rpc_cancel *t = mp_xcalloc(1, sizeof(*t));
  int rc = uv_async_init(loop, &t->async, cancel_on_fire);
  if (rc < 0) {
    free(t);
    return mp_err_from_uv(err, rc, "cannot create a cancellation token");
  }
  /* A token alone does not keep the loop running. */
  uv_unref((uv_handle_t *)&t->async);
  atomic_init(&t->fired, 0);
  mp__rpc_list_init(&t->calls);
  *out = t;
  return 0;
}

void mp_rpc_cancel_fire(mp_rpc_cancel *t) {
  if (atomic_exchange(&t->fired, 1) == 0) uv_async_send(&t->async);
}

int mp_rpc_cancel_fired(const mp_rpc_cancel *t) {
  return atomic_load(&t->fired);
}

void mp__rpc_cancel_attach(mp_rpc_cancel *t, mp_rpc_call *call) {
  if (atomic_load(&t->fired)) {
    mp_rpc_call_cancel(call);
    return;
  }
  call->cancel = t;
  mp__rpc_list_push(&t->calls, &call->cancel_link);
}

static void cancel_on_closed(uv_handle_t *h) {
  free(mp_container_of((uv_async_t *)h, mp_rpc_cancel, async));
}

void mp_rpc_cancel_close(mp_rpc_cancel *t) {
  while (!mp__rpc_list_empty(&t->calls)) {
    mp_rpc_call *call =
        mp_container_of(t->calls.next, mp_rpc_call, cancel_link);
    mp__rpc_list_remove(&call->cancel_link);
    call->cancel = NULL;
  }
  uv_close((uv_handle_t *)&t->async, cancel_on_closed);
}
