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
  mp_err err;
  mp_err_clear(&err);
  int rc = d->o->analyze_stack(d->o->analyze_stack_ud, rs, n, &err);
  free(rs);
  if (rc == 0) return 0;
  if (err.msg[0]) mp__deploy_diag(d, "error", NULL, err.msg);
  mp__deploy_fail(d, 0);
  return 1;
}
