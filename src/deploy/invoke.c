/* Provider functions (fn::invoke) on the worker pool: the provider is
 * found in the registry and called on a worker; the answer goes back to
 * the program from the loop. Loop thread, except invoke_work. */
#include <stdlib.h>
#include <string.h>

#include "deploy/deploy_int.h"
#include "engine/urn.h"

typedef struct invoke_job {
  uv_work_t work;
  deploy *d;
  char *tok, *ref;
  mp_invoke_pkg *want; /* the package's default instance */
  mp_value *args, *ret;
  mp_monitor_call *call;
  int rc;
  mp_err err;
} invoke_job;

mp_provider *mp__deploy_provider_for(deploy *d, const char *ref,
                                     const mp_invoke_pkg *want, mp_err *err) {
  mp_provider *p;
  if (ref) {
    p = mp_registry_get(d->registry, ref, err);
  } else if (want == NULL || want->pkg == NULL) {
    mp_err_set(err, MP_EINVAL, "no package to call");
    return NULL;
  } else {
    p = mp_registry_for_invoke(d->registry, want, d->o->config, err);
  }
  /* An extension's function: the instance loaded with it first. */
  if (p && want && mp_registry_extend(d->registry, p, want->ext_ref, err) < 0)
    return NULL;
  return p;
}

/* Worker thread: touches only the job and the registry. */
static void invoke_work(uv_work_t *w) {
  invoke_job *j = mp_container_of(w, invoke_job, work);
  mp_err_clear(&j->err);
  mp_provider *p = mp__deploy_provider_for(j->d, j->ref, j->want, &j->err);
  if (p == NULL) {
    j->rc = j->err.code ? j->err.code : MP_ENOENT;
    return;
  }
  if (p->vt->invoke == NULL) {
    j->rc = mp_err_set(&j->err, MP_EPLUGIN, "unknown function %s", j->tok);
    return;
  }
  mp_prov_req q = {0};
  mp_prov_resp r;
  mp_prov_resp_init(&r);
  q.tok = j->tok;
  q.news = j->args;
  q.preview = j->d->o->dry_run;
  j->rc = p->vt->invoke(p, &q, &r, &j->err);
  if (j->rc == 0) {
    j->ret = r.outputs;
    r.outputs = NULL;
  }
  mp_prov_resp_destroy(&r);
}

static void invoke_job_free(invoke_job *j) {
  mp_value_free(j->args);
  free(j->tok);
  free(j->ref);
  mp_invoke_pkg_free(j->want);
  free(j);
}

static void invoke_after(uv_work_t *w, int status) {
  invoke_job *j = mp_container_of(w, invoke_job, work);
  deploy *d = j->d;
  if (status == UV_ECANCELED)
    j->rc = mp_err_set(&j->err, MP_ECANCELED, "the deployment was canceled");
  d->invokes--;
  mp_monitor_call_done(d->mon, j->call, j->rc < 0 ? NULL : j->ret,
                       j->rc < 0 ? &j->err : NULL);
  if (j->rc < 0) mp_value_free(j->ret);
  invoke_job_free(j);
  mp__deploy_advance(d);
}

/* The engine's own function pulumi:pulumi:getResource (what the SDK
 * calls for a resource given by `urn`): the resource as registered in this
 * deployment, {urn, id, provider, state}. Computed on the loop; the worker
 * only carries the answer to a later loop iteration. */
static void get_resource(deploy *d, invoke_job *j) {
  const mp_value *u = mp_value_object_get(j->args, "urn");
  const char *urn = u && u->kind == MP_VALUE_STRING ? u->u.str.ptr : NULL;
  const mp_resource *st = urn ? mp_map_get(&d->news, urn) : NULL;
  if (st == NULL) {
    j->rc = mp_err_set(&j->err, MP_EINVAL, "unknown resource %s",
                       urn ? urn : "(no urn given)");
    return;
  }
  mp_value *r = mp_value_new_object();
  mp_value_object_set(r, "urn", mp_value_new_cstring(st->urn));
  mp_value_object_set(r, "id", mp_value_new_cstring(st->id ? st->id : ""));
  mp_value_object_set(r, "provider",
                      mp_value_new_cstring(st->provider ? st->provider : ""));
  mp_value_object_set(r, "state", st->outputs ? mp_value_dup(st->outputs)
                                              : mp_value_new_object());
  j->ret = r;
}

static void answer_only(uv_work_t *w) { (void)w; }

int mp__deploy_invoke(void *ud, const char *tok, mp_value *args,
                      const char *ref, const mp_invoke_pkg *want,
                      mp_monitor_call *call, mp_err *err) {
  deploy *d = ud;
  invoke_job *j = mp_xcalloc(1, sizeof(*j));
  j->d = d;
  j->tok = mp_xstrdup(tok);
  j->ref = mp_xstrdup(ref);
  j->want = mp_invoke_pkg_dup(want);
  j->args = args;
  j->call = call;
  int builtin = strcmp(tok, "pulumi:pulumi:getResource") == 0;
  if (builtin) get_resource(d, j);
  int rc = uv_queue_work(&d->loop, &j->work, builtin ? answer_only : invoke_work,
                         invoke_after);
  if (rc < 0) {
    invoke_job_free(j);
    return mp_err_from_uv(err, rc, "cannot call function '%s'", tok);
  }
  d->invokes++;
  return 0;
}
