/* Internals of the deployment orchestrator (engine/deploy*.c). */
#ifndef MP_DEPLOY_INT_H
#define MP_DEPLOY_INT_H

#include <uv.h>

#include "engine/deploy.h"
#include "engine/map.h"
#include "engine/registry.h"
#include "monitor/monitor.h"
#include "stepexec/stepexec.h"
#include "stepgen/stepgen.h"

enum work_kind { WORK_REGISTER, WORK_DELETES };

/* Loop thread -> generator thread. */
typedef struct work_item {
  enum work_kind kind;
  mp_goal *goal;
  mp_monitor_reg *reg;
  struct work_item *next;
} work_item;

/* Generator thread -> loop thread. */
typedef struct result_item {
  enum work_kind kind;
  int rc;
  mp_err err;
  mp_diags diags;
  mp_monitor_reg *reg;
  char *urn;
  mp_chain *chain;   /* REGISTER: the chain; DELETES: the leftover sames */
  mp_chain **layers; /* DELETES */
  size_t nlayers;
  int late_fail; /* DELETES: run them, then fail (an unknown --target) */
  struct result_item *next;
} result_item;

/* A registration answered from the loop rather than inside the host's
 * call. */
typedef struct deferred {
  mp_monitor_reg *reg;
  mp_err err;
  int how;
  struct deferred *next;
} deferred;

enum phase {
  PHASE_PROGRAM,
  PHASE_DELETES_WAIT,
  PHASE_LAYERS,
  PHASE_REFRESH,
  PHASE_DONE
};

typedef struct deploy { /* Owner: the loop thread, except where noted. */
  const mp_deploy_opts *o;
  mp_deploy_result *res;
  uv_loop_t loop;
  mp_snapshot *snap;
  mp_registry *reg;
  mp_stepgen *sg; /* used only on the generator thread after start */
  mp_stepexec *ex;
  mp_store_update *upd;
  mp_monitor *mon;
  /* The generator thread and its two queues (guarded by |mu|). */
  uv_thread_t thr;
  int thr_started;
  uv_mutex_t mu;
  uv_cond_t cv;
  work_item *in_head, *in_tail;
  result_item *out_head, *out_tail;
  int quit;
  uv_async_t wake;
  uv_timer_t tick;
  /* Progress. */
  enum phase phase;
  int program_done, program_failed;
  int in_flight;   /* goals at the generator */
  int deferred;    /* answers waiting in |defer| */
  deferred *defer;
  int stopping;
  int submitting; /* a batch is being queued: do not judge progress yet */
  int invokes;    /* provider function calls on the worker pool */
  int finished;
  size_t chains_done;
  mp_map news; /* URN -> mp_resource* produced here (owned) */
  mp_map done_urns; /* URNs whose new state is written (values unused) */
  mp_chain **parked; /* chains waiting for URNs in their |waits| */
  size_t nparked;
  int releasing, release_again; /* release() is on the stack */
  mp_strv failed_urns;
  mp_strv withheld;     /* delete phase: URNs live entries that failed or
                           were withheld refer to */
  mp_strv withheld_old; /* ... that `delete: true` copies refer to */
  mp_strv injected; /* URNs given an injected default provider (S76) */
  mp_value *stack_outputs;
  mp_chain **layers;
  size_t nlayers, next_layer;
  uint64_t seq;
  double start;
  /* Refresh: the read state by snapshot index (NULL = gone) and whether
   * the index was read at all. */
  mp_resource **refreshed;
  unsigned char *refresh_done;
} deploy;

void mp__deploy_emit(deploy *d, mp_event *ev);
void mp__deploy_diag(deploy *d, const char *severity, const char *urn,
                     const char *msg);
void mp__deploy_cancel(deploy *d, int interrupted);
/* Submits parked chains whose waits are satisfied. */
void mp__deploy_release_parked(deploy *d);
void mp__deploy_check_done(deploy *d);
void mp__deploy_finish(deploy *d);
void mp__deploy_on_result(deploy *d, result_item *r);
void mp__deploy_thread_push(deploy *d, enum work_kind k, mp_goal *g,
                            mp_monitor_reg *reg);
void mp__deploy_defer_fail(deploy *d, mp_goal *g, mp_monitor_reg *reg,
                           const mp_err *err, int how);
mp_stepexec_hooks mp__deploy_exec_hooks(deploy *d);
mp_monitor_hooks mp__deploy_monitor_hooks(deploy *d);
/* refresh and destroy check their names before anything runs
 * (engine/deployment.go checkTargets): each literal --target and --exclude
 * must name a resource of the stack; a name with `*` is a glob and may
 * match nothing. Returns 0, or 1 after failing the deployment with the
 * first unknown name. */
int mp__deploy_check_names(deploy *d);
/* Refresh (engine/deploy_refresh.c). */
int mp__deploy_refresh_start(deploy *d, mp_err *err);
/* Records a finished refresh step (takes s->new_). */
void mp__deploy_refresh_done(deploy *d, mp_step *s);
/* Writes the refreshed snapshot in one transaction. */
void mp__deploy_refresh_write(deploy *d);

#endif
