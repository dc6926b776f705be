/* The provider response's lifetime and mp_provider_free (provider.h). */
#include "engine/provider.h"

#include <stdlib.h>
#include <string.h>

void mp_prov_resp_init(mp_prov_resp *r) {
  memset(r, 0, sizeof(*r));
  mp_strv_init(&r->replaces);
  mp_strv_init(&r->stables);
  mp_strv_init(&r->diffs);
  mp_strv_init(&r->init_errors);
  mp_strv_init(&r->warnings);
  mp_diff_init(&r->detailed_diff);
  r->changes = MP_DIFF_CHANGES_UNKNOWN;
}

void mp_prov_resp_destroy(mp_prov_resp *r) {
  size_t i;
  mp_value_free(r->inputs);
  for (i = 0; i < r->nfailures; i++) {
    free(r->failures[i].property);
    free(r->failures[i].reason);
  }
  free(r->failures);
  mp_strv_destroy(&r->replaces);
  mp_strv_destroy(&r->stables);
  mp_strv_destroy(&r->diffs);
  mp_strv_destroy(&r->init_errors);
  mp_strv_destroy(&r->warnings);
  mp_diff_destroy(&r->detailed_diff);
  free(r->id);
  mp_value_free(r->outputs);
  free(r->version);
  mp_prov_resp_init(r);
}

void mp_prov_resp_add_failure(mp_prov_resp *r, const char *property,
                              const char *reason) {
  mp_check_failure *f;
  r->failures =
      mp_xreallocarray(r->failures, r->nfailures + 1, sizeof(*r->failures));
  f = &r->failures[r->nfailures++];
  f->property = mp_xstrdup(property);
  f->reason = mp_xstrdup(reason ? reason : "");
}

void mp_provider_free(mp_provider *p) {
  if (p == NULL)
    return;
  if (p->vt != NULL && p->vt->free != NULL) {
    p->vt->free(p);
    return;
  }
  free(p->pkg);
  free(p);
}
