/* The step executor (docs/architecture.md, "From the program to the
 * state", step 6): runs chains of steps, at most |parallel| of them in
 * a step's provider call at once (a step whose result is still being
 * written gives its slot back). Provider calls run on the libuv worker pool;
 * everything else — the scheduling, the state writes (a pending operation
 * before a world-changing call, the result after it, each one short
 * transaction) and the callbacks — runs on the loop thread, which owns the
 * store. */
#ifndef MP_STEPEXEC_H
#define MP_STEPEXEC_H

#include <uv.h>

#include "engine/events.h"
#include "engine/registry.h"
#include "engine/step.h"
#include "state/store.h"

typedef struct mp_stepexec mp_stepexec;

typedef struct mp_stepexec_hooks {
  void *ud;
  /* A step starts (MP_EVENT_RESOURCE_PRE), finished (RES_OUTPUTS) or
   * failed (RES_OP_FAILED, |msg| = the error); DIAGNOSTIC: the provider
   * warned about the step's resource (|msg|), before it ends. */
  void (*on_step)(void *ud, mp_event_kind kind, const mp_step *s,
                  const char *msg);
  /* The step that answers a registration finished; s->new_ is the new
   * state (the hook may take it, setting s->new_ = NULL). */
  void (*on_reply)(void *ud, mp_chain *c, mp_step *s);
  /* A chain ended: |failed| 1 if a step failed, 0 if all ran, -1 if it was
   * dropped by cancellation before finishing. The chain is freed after the
   * hook returns. */
  void (*on_chain_done)(void *ud, mp_chain *c, int failed);
  /* May be NULL. Runs the program's resource hooks before (|after| 0) or
   * after a step's provider call, on the step's worker thread: 0, or an
   * MP_E code that fails the step (a "before" hook failed). */
  int (*resource_hooks)(void *ud, mp_step *s, int after, mp_err *err);
  /* May be NULL. Runs the program's error hooks (the resource's "onError"
   * names) after a step's provider call |op| ("create", "update",
   * "delete") failed with |errors|, newest first, on the step's worker
   * thread: 0 and *retry (1: call the provider again), or an MP_E code
   * and |err| when a hook failed, which fails the step. */
  int (*error_hooks)(void *ud, const mp_step *s, const char *op,
                     const mp_strv *errors, int *retry, mp_err *err);
} mp_stepexec_hooks;

typedef struct mp_stepexec_opts {
  uv_loop_t *loop;
  int parallel;          /* >= 1 */
  int preview;           /* no writes; Create/Update with preview=true */
  int ignore_protect;
  mp_store_update *store; /* NULL in preview */
  mp_registry *registry;
  mp_stepexec_hooks hooks;
} mp_stepexec_opts;

/* An executor on |o->loop| (it owns an idle handle there). Loop thread. */
mp_stepexec *mp_stepexec_new(const mp_stepexec_opts *o);
/* Queues |c| and returns; takes ownership. The chain's steps start, and
 * every hook runs, on a later turn of the loop, never inside this call (as
 * libuv never runs a callback inside the call that started it). Loop
 * thread. */
void mp_stepexec_submit(mp_stepexec *ex, mp_chain *c);
/* Number of chains queued or running (ended ones whose hooks have not run
 * yet included). */
size_t mp_stepexec_busy(const mp_stepexec *ex);
/* Stops starting steps: queued chains are dropped (each gets
 * on_chain_done -1 on a later turn of the loop), running chains stop after
 * their current step. */
void mp_stepexec_cancel(mp_stepexec *ex);
/* up --refresh --run-program: reads refresh step |s| now, on the calling
 * thread (the step generator's, which then diffs against the result, as
 * Pulumi's continueStepsFromRefresh does): s->new_ becomes the refreshed
 * state, or NULL when the read found the resource gone, and
 * s->refresh_result what the read found. Touches only |s| and
 * |registry|. 0 or an MP_E code with |err|. */
int mp_stepexec_refresh_now(mp_registry *registry, mp_step *s, mp_err *err);
/* Closes |ex|'s handle; its memory is freed in the close callback, so the
 * loop must run once more. It must not be busy. NULL is fine. */
void mp_stepexec_close(mp_stepexec *ex);

#endif
