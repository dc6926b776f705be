#include "cli/import_refs.h"

#include <stdlib.h>
#include <string.h>

#include "cli/messages.h"
#include "cli/workspace.h"
#include "engine/snapshot.h"
#include "engine/urn.h"

/* The URN of `name=urn` (the name is the variable the generated code
 * gives the resource; minipulumi's YAML names it by its own name). */
static const char *spec_urn(mp_ctx *ctx, const char *flag, const char *spec,
                            int *status) {
  const char *eq = strchr(spec, '=');
  if (!eq || eq == spec || !mp_urn_valid(eq + 1)) {
    *status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                           "--%s '%s': expected name=urn, the variable name "
                           "and the URN of a resource of the stack",
                           flag, spec);
    return NULL;
  }
  return eq + 1;
}

static const mp_resource *find(const mp_snapshot *s, const char *urn) {
  for (size_t i = 0; s && i < s->nres; i++)
    if (!strcmp(s->res[i]->urn, urn) && !s->res[i]->delete_)
      return s->res[i];
  return NULL;
}

int mp_cli_import_refs(mp_ctx *ctx, const char *stack, const char *parent_spec,
                       const char *provider_spec, char **parent,
                       char **provider, mp_snapshot **out) {
  *parent = *provider = NULL;
  *out = NULL;
  if (!parent_spec && !provider_spec)
    return 0;
  int status = 0;
  const char *purn =
      parent_spec ? spec_urn(ctx, "parent", parent_spec, &status) : NULL;
  const char *vurn = !status && provider_spec
                         ? spec_urn(ctx, "provider", provider_spec, &status)
                         : NULL;
  if (status)
    return status;
  mp_snapshot *snap = NULL;
  mp_err err;
  mp_err_clear(&err);
  if (mp_store_load(ctx->store, mp_cli_ref(ctx, stack), NULL, &snap, &err))
    return mp_cli_fail(ctx, MP_EXIT_ERROR, &err);
  const mp_resource *p = purn ? find(snap, purn) : NULL;
  const mp_resource *v = vurn ? find(snap, vurn) : NULL;
  if (purn && !p)
    status =
        mp_cli_error(ctx, MP_EXIT_CONFIG,
                     "--parent: no resource '%s' in stack '%s'", purn, stack);
  else if (vurn && (!v || !mp_type_is_provider(v->type) || !v->id))
    status = mp_cli_error(ctx, MP_EXIT_CONFIG,
                          "--provider: no provider resource '%s' in stack "
                          "'%s'",
                          vurn, stack);
  if (!status) {
    *parent = purn ? mp_xstrdup(purn) : NULL;
    *provider = vurn ? mp_provider_ref_format(vurn, v->id) : NULL;
    *out = snap;
  } else {
    mp_snapshot_free(snap);
  }
  return status;
}
