/* Internals of the step executor. */
#ifndef MP_EXEC_INT_H
#define MP_EXEC_INT_H

#include "engine/registry.h"
#include "engine/step.h"

/* 1 if |s| makes a provider call (or loads a provider) and so runs on the
 * worker pool. */
int mp__exec_needs_worker(const mp_step *s);

/* Carries out |s|'s provider call and fills s->new_ (id, outputs,
 * timestamps). Worker thread (or the loop thread when no call is needed);
 * touches only |s| and the registry. Returns 0 or an MP_E code; *partial
 * is set when the call failed but a resource exists (init errors). */
int mp__exec_call(mp_registry *registry, mp_step *s, int preview,
                  int ignore_protect, int *partial, mp_err *err);

#endif
