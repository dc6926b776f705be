/* Construct and Call of a component provider, started on the host's loop
 * thread and answered from it: no thread waits for them. A Construct
 * lasts as long as its children's registrations, whose provider calls
 * need the deployment's worker pool; a Construct that held a pool thread
 * could take the last one its children need (docs/plugins.md,
 * "Components, methods and packages"). The monitor made the request and
 * reads the answer; the plugin only carries the bytes, and diagnostics it
 * sends meanwhile go to the display as the plugin's own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/log.h"
#include "plugin/plugin_int.h"

#define SVC "/pulumirpc.ResourceProvider/"

typedef struct mp__relay {
  mp__plugin *p;
  mp_rpc_call *call;       /* while the RPC is in flight */
  struct mp__relay *next;  /* in p->relays */
  char path[96];
  mp_buf req; /* borrowed by the call until it ends */
  mp__inflight in;
  mp_provider_answer_cb done;
  void *ud;
  uint64_t t0, span;
} relay_call;

static void unlink_relay(relay_call *c) {
  for (relay_call **at = &c->p->relays; *at; at = &(*at)->next)
    if (*at == c) {
      *at = c->next;
      break;
    }
  c->call = NULL;
}

void mp__plugin_relays_cancel(mp__plugin *p) {
  /* Each cancelled call's callback runs later and unlinks it. */
  for (relay_call *c = p->relays; c; c = c->next)
    if (c->call) mp_rpc_call_cancel(c->call);
}

/* Gives the answer and frees |c|. Host loop thread. */
static void finish(relay_call *c, const mp_buf *resp, const mp_err *err) {
  unlink_relay(c);
  mp__plugin_inflight_remove(c->p, &c->in, NULL);
  c->done(c->ud, resp, err);
  mp_buf_destroy(&c->req);
  free(c);
}

static void answered(int rc, mp_rpc_reply *reply, const mp_err *e,
                     void *arg) {
  relay_call *c = arg;
  mp_log *log = c->p->h->log;
  const char *method = strrchr(c->path, '/') + 1;
  double ms = (double)(mp_log_now_us() - c->t0) / 1000.0;
  mp_span_end(log, c->span, "urn", "");
  if (rc == 0) {
    MP_LOGV(log, 7, "Provider[%s].%s() success (%.3fms)", c->p->name, method,
            ms);
    finish(c, &reply->body, NULL);
    return;
  }
  MP_LOGV(log, 7, "Provider[%s].%s() failed: %s (%.3fms)", c->p->name,
          method, e->msg, ms);
  /* Not waiting for the process to be reaped: that would hold the loop
   * every plugin's calls go through. */
  mp_err err;
  mp_err_clear(&err);
  mp__plugin_call_error(c->p, rc, reply, e, 0, &err);
  finish(c, NULL, &err);
}

static void start(void *arg) {
  relay_call *c = arg;
  mp_err err;
  mp_err_clear(&err);
  mp_rpc_call_opts opts = {.timeout_ms = c->p->h->call_timeout_ms};
  MP_LOGV(c->p->h->log, 7, "Provider[%s].%s() executing", c->p->name,
          strrchr(c->path, '/') + 1);
  c->span = mp_span_begin(c->p->h->log, c->path, 0);
  c->t0 = mp_log_now_us();
  int rc = c->p->client == NULL
               ? mp_err_set(&err, MP_EIO, "plugin [%s] is not running",
                            c->p->name)
               : mp_rpc_call_start(c->p->client, c->path, c->req.data,
                                   c->req.len, &opts, answered, c, &c->call,
                                   &err);
  if (rc < 0) {
    finish(c, NULL, &err);
    return;
  }
  c->next = c->p->relays;
  c->p->relays = c;
}

static int relay(mp_provider *prov, const char *method, const mp_buf *req,
                 mp_provider_answer_cb done, void *ud) {
  mp__plugin *p = (mp__plugin *)prov;
  relay_call *c = mp_xcalloc(1, sizeof(*c));
  c->p = p;
  snprintf(c->path, sizeof(c->path), SVC "%s", method);
  mp_buf_init(&c->req);
  mp_buf_append(&c->req, req->data, req->len);
  c->in.urn = "";
  mp_strv_init(&c->in.diags);
  c->done = done;
  c->ud = ud;
  mp__plugin_inflight_add(p, &c->in);
  mp__host_post(p->h, start, c);
  return 0;
}

int mp__plugin_construct(mp_provider *prov, const mp_buf *req,
                         mp_provider_answer_cb done, void *ud, mp_err *err) {
  (void)err;
  return relay(prov, "Construct", req, done, ud);
}

int mp__plugin_call(mp_provider *prov, const mp_buf *req,
                    mp_provider_answer_cb done, void *ud, mp_err *err) {
  (void)err;
  return relay(prov, "Call", req, done, ud);
}
