/* The update plan file of `preview --save-plan` and `up --plan`, in
 * Pulumi's format (sdk/go/common/apitype/plan.go DeploymentPlanV1, with
 * its manifest and a ResourcePlanV1 per URN). Values are encoded as in the
 * checkpoint: secrets are encrypted with the stack's secrets provider
 * (|c|), unknowns are the unknown sentinel. */
#ifndef MP_DEPLOY_PLAN_FILE_H
#define MP_DEPLOY_PLAN_FILE_H

#include "deploy/plan.h"
#include "engine/err.h"
#include "engine/value.h"

/* Writes |p| at |path|, with |config| (the stack's config mapping as JSON
 * text, secrets as their ciphertext; NULL or empty: none) as its `config`.
 * `up --plan` does not compare it, as Pulumi does not (docs/behaviour.md,
 * "Update plans"). Returns 0 or an MP_E code. */
int mp_plan_file_write(mp_plan *p, const char *path, const char *config,
                       const mp_crypter *c, mp_err *err);

/* Reads the plan at |path| into a new plan to apply (*out). Returns 0, or
 * MP_EINVAL naming the file and what is wrong in it. */
int mp_plan_file_read(const char *path, const mp_crypter *c, mp_plan **out,
                      mp_err *err);

#endif
