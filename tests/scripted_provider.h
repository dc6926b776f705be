/* A scripted in-memory provider for unit tests of the step generator and
 * the step executor: each test says, per resource name, what Check, Diff,
 * Create, Update and Delete answer, and reads back the calls made, in
 * order. No plugin, no deployment: the test hands sp_factory(world) to
 * mp_registry_new.
 *
 * Threads: provider methods may run on worker threads; the world's mutex
 * guards its call log and counters. Scripts are set before the calls. */
#ifndef MP_SCRIPTED_PROVIDER_H
#define MP_SCRIPTED_PROVIDER_H

#include <uv.h>

#include "engine/mem.h"
#include "engine/provider.h"

/* What the provider answers for one resource (by the name in its URN).
 * Zeroed means: Check returns the inputs unchanged, Diff has no opinion
 * (the engine compares inputs), Create/Update/Delete succeed. */
typedef struct sp_answer {
  char name[64];
  /* Check: one failure on |check_fail_prop| (NULL: on the resource). */
  const char *check_fail_reason;
  const char *check_fail_prop;
  /* Diff: used when |diff_set|. */
  int diff_set;
  mp_diff_changes changes;
  const char *replaces; /* comma-separated replace keys, or NULL */
  int dbr;              /* the provider asks for delete-before-replace */
  /* Diff: keys whose new value is unknown are replace keys (what a
   * provider says when a ForceNew input is not known yet). */
  int replace_if_unknown;
  /* Create/Update/Delete: fail with MP_EPLUGIN and this text. */
  const char *fail;
} sp_answer;

typedef struct sp_world {
  uv_mutex_t mu;
  uv_cond_t cv;
  sp_answer answers[32];
  size_t nanswers;
  mp_strv calls; /* "check a", "check a +olds", "diff a", "create a", ... */
  /* Create/Update/Delete in progress now, and the most seen at once. */
  int in_flight, max_in_flight;
  /* > 0: Creates meet in rounds of |gate|: each waits until |gate| are
   * in flight together (a rendezvous that only parallel execution
   * passes). At most 10 s: then |gate_timeouts| counts it and the call
   * goes on. */
  int gate;
  int gate_timeouts;
  int gate_arrived; /* in the current round */
  unsigned gate_round;
  /* Called (on the worker, outside the mutex) in each Create, Update and
   * Delete before it answers: a test can look at the world mid-call. */
  void (*on_call)(void *ud, const char *method, const char *urn);
  void *on_call_ud;
} sp_world;

void sp_world_init(sp_world *w);
void sp_world_destroy(sp_world *w);
/* The answer for resource |name|, created zeroed on first use. */
sp_answer *sp_script(sp_world *w, const char *name);
/* A factory making providers of any package that answer from |w|. */
mp_provider_factory sp_factory(sp_world *w);
/* The calls so far joined by "; " (owned), and forgetting them. */
char *sp_calls(sp_world *w);
void sp_calls_clear(sp_world *w);

#endif
