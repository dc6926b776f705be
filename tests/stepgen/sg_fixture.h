/* A step generator with no deployment around it: a prior snapshot the
 * test builds, a registry over the scripted provider, and helpers that
 * register goals and describe the steps decided as text
 * ("create-replacement:a replace:a"). */
#ifndef MP_SG_FIXTURE_H
#define MP_SG_FIXTURE_H

#include "engine/goal.h"
#include "engine/registry.h"
#include "engine/snapshot.h"
#include "scripted_provider.h"
#include "stepgen/stepgen.h"

#define FX_TYPE "pkgA:m:T"
#define FX_URN(n) "urn:pulumi:s::p::pkgA:m:T::" n
#define FX_PROV_URN "urn:pulumi:s::p::pulumi:providers:pkgA::default"
#define FX_PROV_REF FX_PROV_URN "::p1"

typedef struct fx {
  sp_world w;
  mp_snapshot *olds;
  mp_registry *reg;
  mp_stepgen *sg;
  mp_stepgen_opts o; /* stack "s", project "p"; set fields before fx_start */
  mp_diags diags;
  mp_err err;     /* the last registration's error */
  mp_chain *last; /* the last registration's chain, owned */
  char *text;     /* the last description, owned */
} fx;

/* A prior snapshot holding only the default provider of pkgA (id p1). */
void fx_init(fx *f);
/* Appends a prior custom resource |name| of FX_TYPE with id "id-<name>",
 * the default provider and |inputs_json| as inputs and outputs. */
mp_resource *fx_old(fx *f, const char *name, const char *inputs_json);
/* Appends a prior component |name| of type |type| (parent may be NULL). */
mp_resource *fx_old_component(fx *f, const char *type, const char *name,
                              const char *parent);
/* Makes the registry and the generator, then registers the default
 * provider (it is the same as before). */
void fx_start(fx *f);
/* A custom goal of FX_TYPE on the default provider. */
mp_goal *fx_goal(const char *name, const char *inputs_json);
/* Registers |g| (taken). Returns the steps as "op:name ..." or
 * "error: <message>"; valid until the next call. */
const char *fx_reg(fx *f, mp_goal *g);
/* The deletions after the program, layers separated by " | ", or
 * "error: ..."; the untargeted `same` steps are not shown. */
const char *fx_deletes(fx *f);
/* The first step of the last chain with op |op|; when there is none the
 * test stops (abort) naming the op and the chain. */
const mp_step *fx_step(const fx *f, mp_step_op op);
/* The diagnostics so far, "severity: message" joined by "\n". */
const char *fx_diags(fx *f);
void fx_destroy(fx *f);

#endif
