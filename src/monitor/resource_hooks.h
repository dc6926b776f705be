/* The resource hooks the program registered, by name, and running them
 * around a step (Pulumi's resource hooks): the program's functions called
 * with the step's URN, ID, name, type, inputs and outputs. The table is
 * written on the loop thread and read by the workers that run steps,
 * under its mutex. */
#ifndef MP_MONITOR_RESOURCE_HOOKS_H
#define MP_MONITOR_RESOURCE_HOOKS_H

#include "engine/step.h"
#include "monitor/api.h"

typedef struct mp_hook_table mp_hook_table;

mp_hook_table *mp_hook_table_new(int preview);
void mp_hook_table_free(mp_hook_table *t);
/* Adds or replaces the hook |h->name| (copied). */
void mp_hook_table_put(mp_hook_table *t, const mp_resource_hook *h);

/* Runs the "before" (|after| 0) or "after" hooks of step |s| (worker
 * thread). A "before" hook that fails (unless it ignores errors) fails the
 * step: an MP_E code and |err|. An "after" hook's failure is a warning on
 * the step (s->warnings). In a preview only hooks registered onDryRun
 * run. */
int mp_hook_table_run(mp_hook_table *t, mp_step *s, int after, mp_err *err);

/* Runs the error hooks of step |s| (its resource's "onError" names) after
 * its provider call |op| ("create", "update" or "delete") failed with
 * |errors|, newest first (worker thread). Every hook runs, in order;
 * *retry is 1 if any of them asked to try again. A hook that throws, or
 * a name the program did not register as an error hook, stops there: an
 * MP_E code and |err| ('error hook "<name>" failed: <message>'). */
int mp_hook_table_run_error(mp_hook_table *t, const mp_step *s,
                            const char *op, const mp_strv *errors, int *retry,
                            mp_err *err);

#endif
