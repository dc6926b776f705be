/* A recording stand-in for the resource monitor (tests only): it keeps a
 * copy of every request and answers each on a later loop iteration, with
 * urn computed from type/name/parent, id "id-<name>" and outputs = inputs. */
#ifndef MP_TESTS_FAKE_MONITOR_H
#define MP_TESTS_FAKE_MONITOR_H

#include <uv.h>

#include "engine/mem.h"
#include "monitor/api.h"

typedef struct fake_pending fake_pending;

struct mp_monitor {
  uv_loop_t *loop;
  uv_timer_t timer;
  char *project, *stack;
  /* Behaviour. */
  int preview;            /* answer id "" (unknown) */
  const char *fail_name;  /* fail the registration of this name */
  const char *unknown_name; /* answer this one with unknown outputs */
  /* The schema of package |schema_pkg| (GetSchema); another package has
   * none (MP_ENOENT, at once). */
  const char *schema_pkg, *schema_json;
  /* The schema of every extension package registered (RegisterPackage's
   * `extension`, reference "ref-<extension>"), asked through its
   * reference; NULL: none. */
  const char *ext_schema_json;
  /* Records (copies). */
  Pulumirpc__RegisterResourceRequest **regs;
  size_t nregs;
  Pulumirpc__ReadResourceRequest **reads;
  size_t nreads;
  Pulumirpc__ResourceInvokeRequest **invokes;
  size_t ninvokes;
  Pulumirpc__RegisterResourceOutputsRequest *outputs;
  int outputs_calls;
  mp_strv events; /* "reg:<name>", "ans:<name>", "inv:<tok>",
                     "schema:<pkg>", "pkg:<pkg>", "ext:<extension>",
                     "done" */
  int done_calls, done_failed;
  char *done_msg;
  fake_pending *queue;
  size_t nqueue;
};

void fake_monitor_init(mp_monitor *m, uv_loop_t *loop, const char *project,
                       const char *stack);
/* Closes the timer; run the loop once more afterwards. */
void fake_monitor_destroy(mp_monitor *m);
/* The recorded registration of |name| or NULL. */
const Pulumirpc__RegisterResourceRequest *fake_monitor_reg(
    const mp_monitor *m, const char *name);
/* Index of |event| in the event list, or -1. */
long fake_monitor_event(const mp_monitor *m, const char *event);

#endif
