/* Internals of the step executor. */
#ifndef MP_EXEC_INT_H
#define MP_EXEC_INT_H

#include "engine/registry.h"
#include "engine/step.h"
#include "stepexec/stepexec.h"

/* How many times a failed create, update or delete is tried in all when
 * its error hooks keep asking for more (Pulumi's maxErrorHookRetries). */
#define MP_ERROR_HOOK_MAX_TRIES 100

/* 1 if |s| makes a provider call (or loads a provider) and so runs on the
 * worker pool. */
int mp__exec_needs_worker(const mp_step *s);

/* Carries out |s|'s provider call and fills s->new_ (id, outputs,
 * timestamps). Worker thread (or the loop thread when no call is needed);
 * touches only |s|, the registry and, when a create, update or delete
 * fails, the error hooks of |h| (which may have it tried again). Returns
 * 0 or an MP_E code; *partial is set when the call failed but a resource
 * exists (init errors). */
int mp__exec_call(mp_registry *registry, const mp_stepexec_hooks *h,
                  mp_step *s, int preview, int ignore_protect, int *partial,
                  mp_err *err);

#endif
