/* The hashes of a registration's assets and archives, computed on libuv's
 * worker pool when they need files read or downloads (struct
 * mp__hashing). */
#include "monitor/monitor.h"

#include <stdlib.h>
#include <string.h>

#include "engine/map.h"
#include "engine/registry.h"
#include "engine/urn.h"
#include "engine/value_pb.h"
#include "monitor/marshal.h"
#include "monitor/monitor_int.h"
#include "monitor/resource_hooks.h"

/* ---- assets hashed on the worker pool (struct mp__hashing) ---- */

static void hashing_unlink(mp_monitor *m, mp__hashing *h) {
  if (h->prev)
    h->prev->next = h->next;
  else
    m->hashing = h->next;
  if (h->next)
    h->next->prev = h->prev;
}

static void hashing_free(mp__hashing *h) {
  mp_goal_free(h->g);
  mp_buf_destroy(&h->req);
  free(h);
}

/* On a worker thread: |h| is its own, and the monitor's |assets| are
 * only read (set before the program's first registration). */
static void hash_work(uv_work_t *w) {
  mp__hashing *h = w->data;
  mp_err_clear(&h->err);
  h->rc = mp_value_hash_assets(h->g->inputs, &h->m->assets, &h->err);
  if (h->rc == 0)
    h->rc =
        mp_value_hash_assets(h->g->replacement_trigger, &h->m->assets, &h->err);
}

static void hash_done(uv_work_t *w, int status) {
  mp__hashing *h = w->data;
  mp_monitor *m = h->m;
  if (m)
    hashing_unlink(m, h);
  if (m == NULL || h->answered) {
    hashing_free(h);
    return;
  }
  m->nhashing--;
  if (status < 0 && h->rc == 0)
    h->rc = mp_err_from_uv(&h->err, status, "hashing the assets");
  Pulumirpc__RegisterResourceRequest *q =
      h->rc < 0 ? NULL
                : pulumirpc__register_resource_request__unpack(
                      NULL, h->req.len, (const uint8_t *)h->req.data);
  if (h->rc == 0 && q == NULL)
    h->rc = mp_err_set(&h->err, MP_EIO, "cannot unpack the request again");
  if (h->rc < 0) {
    mp_err_prefix(&h->err, "RegisterResource '%s'", h->g->name);
  } else {
    mp_goal *g = h->g;
    h->g = NULL;
    h->rc = mp__monitor_register_goal(m, q, g, h->cb, h->ud, &h->err);
  }
  if (q)
    pulumirpc__register_resource_request__free_unpacked(q, NULL);
  if (h->rc < 0)
    h->cb(h->ud, NULL, &h->err);
  hashing_free(h);
}

/* Starts hashing |g|'s assets on the pool; the registration goes on in
 * hash_done. Takes |g|. */
int mp__monitor_hash_then_register(
    mp_monitor *m, const Pulumirpc__RegisterResourceRequest *req, mp_goal *g,
    mp_register_cb cb, void *ud, mp_err *err) {
  mp__hashing *h = mp_xcalloc(1, sizeof(*h));
  h->m = m;
  h->g = g;
  h->cb = cb;
  h->ud = ud;
  mp_buf_init(&h->req);
  mp_pb_pack(&req->base, &h->req);
  h->work.data = h;
  int uvrc = uv_queue_work(m->o.loop, &h->work, hash_work, hash_done);
  if (uvrc < 0) {
    hashing_free(h);
    return mp_err_from_uv(err, uvrc,
                          "RegisterResource '%s': cannot hash "
                          "its assets",
                          req->name);
  }
  h->next = m->hashing;
  if (m->hashing)
    m->hashing->prev = h;
  m->hashing = h;
  m->nhashing++;
  return 0;
}
