/* The policy packs' stack analysis (issue 27): what the program
 * registered, handed to the CLI's analyzers before the deletes. */
#include <stdlib.h>
#include <string.h>

#include "deploy/deploy_int.h"
#include "engine/urn.h"

static int by_urn(const void *a, const void *b) {
  const mp_resource *x = *(const mp_resource *const *)a;
  const mp_resource *y = *(const mp_resource *const *)b;
  return strcmp(x->urn, y->urn);
}

/* The provider resource |ref| ("<urn>::<id>") names, as registered. */
static const mp_resource *provider_of(deploy *d, const char *ref) {
  mp_provider_ref pr;
  if (ref == NULL || mp_provider_ref_parse(ref, &pr, NULL) < 0) return NULL;
  const mp_resource *p = mp_map_get(&d->news, pr.urn);
  mp_provider_ref_destroy(&pr);
  return p;
}

const int mp__deploy_dbr_values[3] = {-1, 0, 1};

int mp__deploy_analyze_stack(deploy *d) {
  if (d->o->analyze_stack == NULL) return 0;
  const mp_resource **rs = mp_xcalloc(d->news.len + 1, sizeof(*rs));
  size_t n = 0;
  for (size_t i = 0; i < d->news.cap; i++) {
    const mp_resource *r = d->news.slots[i].key ? d->news.slots[i].value
                                                : NULL;
    if (r && !mp_type_is_provider(r->type)) rs[n++] = r;
  }
  if (n > 1) qsort(rs, n, sizeof(*rs), by_urn);
  const mp_resource **provs = mp_xcalloc(n + 1, sizeof(*provs));
  /* the registration's deleteBeforeReplace; unset for what the program
   * did not register (Pulumi: no goal) */
  int *dbrs = mp_xcalloc(n + 1, sizeof(*dbrs));
  for (size_t i = 0; i < n; i++) {
    provs[i] = provider_of(d, rs[i]->provider);
    const int *v = mp_map_get(&d->goal_dbrs, rs[i]->urn);
    dbrs[i] = v ? *v : -1;
  }
  mp_err err;
  mp_err_clear(&err);
  int rc = d->o->analyze_stack(d->o->analyze_stack_ud, rs, provs, dbrs, n,
                               &err);
  free(dbrs);
  free(provs);
  free(rs);
  if (rc == 0) return 0;
  if (err.msg[0]) mp__deploy_diag(d, "error", NULL, err.msg);
  mp__deploy_fail(d, 0);
  return 1;
}
