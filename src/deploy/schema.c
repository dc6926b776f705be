/* A package's schema for a language host that resolves its program's
 * types itself (Pulumi YAML asks Pulumi's engine through its Loader
 * service): GetSchema on the plugin instance the registry checks the
 * package's provider resources with, on the worker pool. That instance is
 * made for the same plugin version and download URL as the package's
 * default provider, so the question starts no plugin of its own. Loop
 * thread, except schema_work. */
#include <stdlib.h>

#include "deploy/deploy_int.h"

typedef struct schema_job {
  uv_work_t work;
  deploy *d;
  char *pkg;
  mp_value *inputs; /* a default provider's: `version`, the download URL,
                       a parameterization */
  char *sub_version; /* a parameterized package's version, else NULL */
  char *sub_name;    /* an extension's name (|pkg| is its base), else NULL */
  char *ext_ref;     /* an extension's reference, else NULL */
  mp_schema_cb cb;
  void *cbud;
  char *json;
  int rc;
  mp_err err;
} schema_job;

/* Worker thread: touches only the job and the registry. */
static void schema_work(uv_work_t *w) {
  schema_job *j = mp_container_of(w, schema_job, work);
  mp_err_clear(&j->err);
  mp_provider *p =
      mp_registry_unconfigured(j->d->registry, j->pkg, j->inputs, &j->err);
  if (p == NULL) {
    j->rc = j->err.code ? j->err.code : MP_ENOENT;
    return;
  }
  if (p->vt->get_schema == NULL) {
    j->rc = mp_err_set(&j->err, MP_ENOENT,
                       "package '%s' is served by a built-in provider, "
                       "which has no schema",
                       j->pkg);
    return;
  }
  /* An extension's schema: the base plugin loaded with it, asked with the
   * extension's name and version (Pulumi's schema loader). */
  j->rc = mp_registry_extend(j->d->registry, p, j->ext_ref, &j->err);
  if (j->rc == 0)
    j->rc = p->vt->get_schema(
        p, 0, j->sub_name ? j->sub_name : j->sub_version ? j->pkg : NULL,
        j->sub_version, &j->json, &j->err);
}

static void schema_after(uv_work_t *w, int status) {
  schema_job *j = mp_container_of(w, schema_job, work);
  deploy *d = j->d;
  if (status == UV_ECANCELED)
    j->rc = mp_err_set(&j->err, MP_ECANCELED, "the deployment was canceled");
  d->invokes--;
  j->cb(j->cbud, j->rc < 0 ? NULL : j->json, j->rc < 0 ? &j->err : NULL);
  free(j->json);
  free(j->pkg);
  free(j->sub_version);
  free(j->sub_name);
  free(j->ext_ref);
  mp_value_free(j->inputs);
  free(j);
  mp__deploy_advance(d);
}

int mp__deploy_schema(void *ud, const char *pkg, const char *version,
                      const char *url, const mp_provider_param *param,
                      mp_schema_cb cb, void *cbud, mp_err *err) {
  deploy *d = ud;
  schema_job *j = mp_xcalloc(1, sizeof(*j));
  j->d = d;
  j->pkg = mp_xstrdup(param && param->ext_ref ? param->plugin : pkg);
  j->inputs = mp_value_new_object();
  /* A parameterized package: the inputs its default provider would have,
   * so that the instance is its plugin parameterized into |pkg|. */
  if (param && param->ext_ref) {
    if (version) mp_provider_inputs_set_version(j->inputs, version);
    j->sub_name = mp_xstrdup(param->name);
    j->sub_version = mp_xstrdup(param->version ? param->version : "");
    j->ext_ref = mp_xstrdup(param->ext_ref);
  } else if (param) {
    mp_provider_inputs_set_param(j->inputs, param);
    j->sub_version = mp_xstrdup(param->version ? param->version : "");
  } else if (version) {
    mp_provider_inputs_set_version(j->inputs, version);
  }
  if (url) mp_provider_inputs_set_url(j->inputs, url);
  j->cb = cb;
  j->cbud = cbud;
  int rc = uv_queue_work(&d->loop, &j->work, schema_work, schema_after);
  if (rc < 0) {
    free(j->pkg);
    free(j->sub_version);
    free(j->sub_name);
    free(j->ext_ref);
    mp_value_free(j->inputs);
    free(j);
    return mp_err_from_uv(err, rc, "cannot ask package '%s' for its schema",
                          pkg);
  }
  d->invokes++;
  return 0;
}
