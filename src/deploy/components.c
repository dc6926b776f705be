/* Component providers (docs/plugins.md, "Components, methods and
 * packages"): the monitor endpoint they register children through, and
 * their Construct and Call, which wait on the loop. The endpoint is a second
 * ResourceMonitor server on the deployment's loop, made on the first
 * Construct or Call, so that a program that runs in-process (Pulumi YAML)
 * has one too; it is closed when the deployment finishes. A provider that
 * constructs in-process (construct_here: a Pulumi YAML plugin folder) is
 * found on the worker but asked on the loop, and registers through the
 * monitor itself, with no endpoint. Loop thread, except relay_work and
 * answered. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deploy/deploy_int.h"
#include "engine/urn.h"
#include "monitor/service.h"

struct mp__deploy_endpoint {
  mp_rpc_server *srv;
  mp_monitor_service *svc;
  char addr[32];
  int closing;
};

static void endpoint_closed(void *arg) {
  struct mp__deploy_endpoint *e = arg;
  mp_monitor_service_free(e->svc);
  free(e);
}

void mp__deploy_endpoint_close(deploy *d) {
  struct mp__deploy_endpoint *e = d->endpoint;
  if (e == NULL) return;
  d->endpoint = NULL;
  mp_monitor_service_release(e->svc);
  mp_rpc_server_close(e->srv, endpoint_closed, e);
}

const char *mp__deploy_endpoint(void *ud, mp_err *err) {
  deploy *d = ud;
  if (d->endpoint) return d->endpoint->addr;
  if (d->state == DS_FINISHED) {
    mp_err_set(err, MP_ECANCELED, "the deployment is over");
    return NULL;
  }
  struct mp__deploy_endpoint *e = mp_xcalloc(1, sizeof(*e));
  mp_source_info si = {0};
  si.loop = &d->loop;
  si.project = d->o->stack.project;
  si.stack = d->o->stack.name;
  si.organization = d->o->organization ? d->o->organization : "organization";
  si.dry_run = d->o->dry_run;
  si.parallel = d->parallel;
  si.config = d->o->config;
  mp_monitor_service_opts so = {.monitor = d->mon, .info = &si};
  int port = 0;
  int rc = mp_rpc_server_new(&d->loop, 0, &e->srv, err);
  if (rc == 0) rc = mp_monitor_service_new(e->srv, &so, &e->svc, err);
  if (rc == 0) rc = mp_rpc_server_listen(e->srv, &port, err);
  if (rc < 0) {
    if (e->srv) mp_rpc_server_close(e->srv, endpoint_closed, e);
    else free(e);
    return NULL;
  }
  snprintf(e->addr, sizeof(e->addr), "127.0.0.1:%d", port);
  d->endpoint = e;
  return e->addr;
}

/* One Construct or Call: its provider found on a worker (which may
 * start the plugin), then asked from the loop; the provider answers on
 * its own thread, and the answer comes back to the loop through
 * d->relayed. No thread waits while the provider works. */
typedef struct relay_job {
  uv_work_t work;
  deploy *d;
  int is_call;
  char *tok, *ref;
  mp_invoke_pkg *want; /* Call without a provider: whose instance */
  mp_buf req, resp;
  mp_monitor_reg *reg;   /* Construct */
  char *ext_ref;         /* Construct of an extension's component */
  mp_monitor_call *call; /* Call */
  mp_provider *p;        /* found on the worker */
  int rc;
  mp_err err;
  struct relay_job *next; /* in d->relay_inbox */
} relay_job;

static void relay_job_free(relay_job *j) {
  free(j->tok);
  free(j->ref);
  free(j->ext_ref);
  mp_invoke_pkg_free(j->want);
  free(j);
}

/* Worker thread: touches only the job and the registry. */
static void relay_work(uv_work_t *w) {
  relay_job *j = mp_container_of(w, relay_job, work);
  mp_err_clear(&j->err);
  mp_provider *p = mp__deploy_provider_for(j->d, j->ref, j->want, &j->err);
  if (p == NULL) {
    j->rc = j->err.code ? j->err.code : MP_ENOENT;
    return;
  }
  j->p = p;
  if (!j->is_call && p->vt->construct_here) return;
  if ((j->is_call ? p->vt->call : p->vt->construct) == NULL) {
    j->rc = mp_err_set(&j->err, MP_EPLUGIN,
                       "the provider of package '%s' has no %s: it serves "
                       "no %s",
                       p->pkg, j->is_call ? "Call" : "Construct",
                       j->is_call ? "methods" : "components");
    return;
  }
  /* An extension's component: its provider loaded with the extension
   * first (source_eval.go ensureExtensionParameterizedForConstruct). */
  j->rc = mp_registry_extend(j->d->registry, p, j->ext_ref, &j->err);
}

/* The answer of a Construct or Call, on the loop. */
static void relay_done(relay_job *j) {
  deploy *d = j->d;
  d->invokes--;
  const mp_err *err = j->rc < 0 ? &j->err : NULL;
  if (j->is_call) {
    mp_monitor_method_done(d->mon, j->call, &j->resp, err);
  } else {
    /* A failed Construct fails the run like a failed registration: the
     * monitor reports it on the component and tells the program to stop;
     * nothing is deleted. */
    int stop = err && err->code != MP_ECANCELED && d->state != DS_STOPPING;
    if (stop) mp__deploy_fail(d, 0);
    mp_monitor_construct_done(d->mon, j->reg, &j->resp, err);
    if (stop) mp__deploy_cancel(d, 0);
  }
  mp_buf_destroy(&j->req);
  mp_buf_destroy(&j->resp);
  relay_job_free(j);
  mp__deploy_advance(d);
}

/* Keeps the provider's answer in the job: on the provider's thread for a
 * plugin (then handed to the loop), on the loop for construct_here. */
static void keep_answer(relay_job *j, const mp_buf *resp, const mp_err *err) {
  if (resp) {
    mp_buf_append(&j->resp, resp->data, resp->len);
  } else {
    j->rc = err && err->code ? err->code : MP_EPLUGIN;
    mp_err_set(&j->err, j->rc, "%s",
               err && err->msg[0] ? err->msg
                                  : j->is_call ? "Call failed"
                                               : "Construct failed");
  }
}

static void here_done(void *ud, const mp_buf *resp, const mp_err *err) {
  relay_job *j = ud;
  keep_answer(j, resp, err);
  relay_done(j);
}

/* The provider's thread: the answer goes to the loop. */
static void answered(void *ud, const mp_buf *resp, const mp_err *err) {
  relay_job *j = ud;
  keep_answer(j, resp, err);
  deploy *d = j->d;
  uv_mutex_lock(&d->relay_mu);
  j->next = d->relay_inbox;
  d->relay_inbox = j;
  uv_mutex_unlock(&d->relay_mu);
  uv_async_send(&d->relayed);
}

static void on_relayed(uv_async_t *h) {
  deploy *d = h->data;
  uv_mutex_lock(&d->relay_mu);
  relay_job *j = d->relay_inbox;
  d->relay_inbox = NULL;
  uv_mutex_unlock(&d->relay_mu);
  while (j) {
    relay_job *next = j->next;
    relay_done(j);
    j = next;
  }
}

void mp__deploy_relays_init(deploy *d) {
  uv_async_init(&d->loop, &d->relayed, on_relayed);
  d->relayed.data = d;
}

static void relay_after(uv_work_t *w, int status) {
  relay_job *j = mp_container_of(w, relay_job, work);
  if (status == UV_ECANCELED)
    j->rc = mp_err_set(&j->err, MP_ECANCELED, "the deployment was canceled");
  if (j->rc == 0) {
    mp_provider *p = j->p;
    mp_err_clear(&j->err);
    if (!j->is_call && p->vt->construct_here) {
      /* The provider registers the component's body itself, on this
       * loop; the job stays in flight (d->invokes) until it answers. */
      j->rc = p->vt->construct_here(p, j->d->mon, &j->req, here_done, j,
                                    &j->err);
    } else {
      j->rc = (j->is_call ? p->vt->call : p->vt->construct)(
          p, &j->req, answered, j, &j->err);
    }
    if (j->rc == 0) return;
  }
  relay_done(j);
}

static int relay(deploy *d, relay_job *j, mp_buf *req, mp_err *err) {
  j->d = d;
  j->req = *req;
  mp_buf_init(req);
  mp_buf_init(&j->resp);
  int rc = uv_queue_work(&d->loop, &j->work, relay_work, relay_after);
  if (rc < 0) {
    *req = j->req;
    relay_job_free(j);
    return mp_err_from_uv(err, rc, "cannot reach the component provider");
  }
  d->invokes++;
  return 0;
}

int mp__deploy_construct(void *ud, const char *ref, const char *ext_ref,
                         mp_buf *req, mp_monitor_reg *reg, mp_err *err) {
  relay_job *j = mp_xcalloc(1, sizeof(*j));
  j->ref = mp_xstrdup(ref);
  j->ext_ref = mp_xstrdup(ext_ref);
  j->reg = reg;
  return relay(ud, j, req, err);
}

int mp__deploy_call(void *ud, const char *tok, const char *ref,
                    const mp_invoke_pkg *want, mp_buf *req,
                    mp_monitor_call *call, mp_err *err) {
  relay_job *j = mp_xcalloc(1, sizeof(*j));
  j->is_call = 1;
  j->tok = mp_xstrdup(tok);
  j->ref = mp_xstrdup(ref);
  j->want = mp_invoke_pkg_dup(want);
  j->call = call;
  return relay(ud, j, req, err);
}
