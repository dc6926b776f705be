/* Internals of the deployment (src/deploy/). One file per job:
 *   lifecycle.c  setup (options settled, the executor and the monitor
 *                created), the run of the loop, teardown, the summary
 *   machine.c    the phases as one state machine, and what it decides
 *   hooks.c      what the monitor and the executor report, turned into
 *                events and machine inputs; answers deferred to the loop
 *   invoke.c     provider functions (fn::invoke) on the worker pool
 *   ahead.c      the calls ahead: registrations' Check and Diff on the
 *                worker pool before the generator thread decides them
 *   generator.c  the step generator's thread and its hand-off: the only
 *                code of the deployment that crosses threads
 *   refresh.c    the refresh steps and the refreshed snapshot's write
 *   policy.c     the policy packs' analyses and their events
 * Everything runs on the loop thread, except the generator thread's loop
 * in generator.c and the pool works of ahead.c and invoke.c. */
#ifndef MP_DEPLOY_INT_H
#define MP_DEPLOY_INT_H

#include <uv.h>

#include "deploy/deploy.h"
#include "engine/map.h"
#include "engine/queue.h"
#include "engine/registry.h"
#include "monitor/monitor.h"
#include "stepexec/stepexec.h"
#include "stepgen/stepgen.h"

/* The phases of a deployment (machine.c). Each says what runs and what the
 * deployment waits for before it moves on; the machine moves only when
 * nothing is in flight (no step, no registration at the generator, no
 * deferred answer, no provider function). */
typedef enum deploy_state {
  DS_PROGRAM = 0,      /* the program runs; its registrations become steps */
  DS_PROGRAM_EXITED,   /* it exited: its last steps finish, then the
                          deletions are planned */
  DS_PLANNING_DELETES, /* the generator computes the deletions */
  DS_DELETING,         /* delete layers run, one after another */
  DS_REFRESHING,       /* the refresh steps run */
  DS_STOPPING,         /* cancelled, or a failure stops the run: new
                          registrations are refused, what runs drains */
  DS_ENDING,           /* nothing more to decide (the program failed, the
                          deletions could not be planned): what runs drains */
  DS_FINISHED          /* handles closed; the loop is ending */
} deploy_state;

/* A registration's place in the calls-ahead schedule (ahead.c): loop
 * thread, except |work|'s pool thread, which sets |ran| and |ns|. */
typedef struct ahead_slot {
  uv_work_t work;             /* of the first job of a batch */
  struct gen_job *batch_next; /* the next job of the same pool work */
  uint64_t ns;                /* how long its calls ahead took */
  uint64_t seq;               /* arrival order */
  int ran;                    /* its pool work reached it */
  int ready;                  /* its calls ahead are over */
  int counted;                /* in ahead.live until answered */
  mp_queue call_link;         /* in ahead.calls while waiting for room */
} ahead_slot;

/* The calls-ahead schedule (ahead.c), loop thread only: registrations in
 * arrival order until their calls ahead are over (they go to the
 * generator thread in that order), the ones waiting for room to make a
 * call, and how many calls run. */
typedef struct ahead {
  mp_queue arrived;   /* gen_job.link */
  mp_queue calls;     /* ahead_slot.call_link */
  int running;        /* pool works under way (at most d->parallel) */
  int live;           /* jobs whose calls were started, not yet answered */
  int live_max;       /* the most |live| may reach */
  uint64_t avg_ns;    /* moving average of a job's calls ahead */
  int timed;          /* jobs in that average, up to 8 */
  uint64_t arrivals;  /* registrations so far (their seq) */
  mp_map seen;        /* URNs registered so far: a repeat is not called ahead */
} ahead;

/* Work for the generator thread, and its answer (generator.c). */
enum gen_kind {
  GEN_REGISTER, /* decide the steps of one registration */
  GEN_DELETES,  /* plan the deletions after the program */
  GEN_QUIT      /* end the thread (the last job) */
};

typedef struct gen_job {
  enum gen_kind kind;
  mp_goal *goal;                 /* REGISTER, owned */
  mp_monitor_reg *registration; /* REGISTER */
  mp_sg_ahead *ahead; /* REGISTER: the calls made ahead; NULL: none */
  /* The answer, filled on the generator thread. */
  char *urn;         /* REGISTER: the URN it names, for messages */
  int rc;
  mp_err err;
  mp_diags diags;
  mp_policy_diags policy; /* REGISTER: what the policy packs found */
  mp_chain *chain;   /* REGISTER: the chain */
  mp_chain **layers; /* DELETES */
  size_t nlayers;
  int late_fail; /* DELETES: run them, then fail (an unknown --target) */
  ahead_slot sched; /* REGISTER, before the thread takes it */
  mp_queue link; /* in ahead.arrived, then gen.in, then gen.out */
} gen_job;

/* The generator thread and its two queues. */
typedef struct gen {
  uv_thread_t thread;
  int started;
  uv_mutex_t mu;   /* guards |in| and |out| */
  uv_cond_t cv;    /* signals the thread that |in| has work */
  mp_queue in;     /* loop -> generator */
  mp_queue out;    /* generator -> loop */
  uv_async_t wake; /* the loop's side: |out| has answers */
  gen_job *current; /* generator thread only: the job it runs */
} gen;

/* A registration answered with a failure on a later loop iteration rather
 * than inside the language host's call (hooks.c). */
typedef struct deferred {
  mp_monitor_reg *registration;
  mp_err err;
  int how; /* enum mp_monitor_fail_how */
  struct deferred *next;
} deferred;

/* The steps a program's preview gave the stack and the providers it
 * registered (program_ordinary.c). */
typedef struct mp_program_steps {
  mp_step **items;
  size_t len;
} mp_program_steps;

/* The events of the update waiting to go to the store together. */
typedef struct kept_events {
  mp_update_event *items;
  size_t len, cap;
  int stopped; /* a write failed, or the update ended: no more are kept */
} kept_events;

typedef struct deploy { /* Owner: the loop thread, except |gen|'s queues. */
  const mp_deploy_opts *o;
  mp_deploy_result *res;
  uv_loop_t loop;
  uv_timer_t tick;      /* polls o->interrupt */
  uv_async_t answers;   /* |defer| has answers to give */
  gen gen;
  ahead ahead;
  int parallel; /* o->parallel, or its default: settled once, in setup */
  mp_snapshot *snap;
  mp_registry *registry;
  mp_stepgen *sg; /* used only on the generator thread once it runs */
  mp_stepexec *ex;
  mp_store_update *upd;
  kept_events kept; /* the update's events not yet in the store (record.c) */
  mp_monitor *mon;
  deploy_state state;
  /* What is in flight; the machine moves when all are zero. */
  int at_generator; /* jobs the generator has not answered */
  int invokes;      /* provider functions on the worker pool */
  deferred *defer;  /* answers waiting for |answers| (last in, first out) */
  /* Chains waiting for URNs in their |waits| to be written. */
  mp_chain **parked;
  size_t nparked;
  mp_map news;      /* URN -> mp_resource* produced here (owned) */
  mp_map done_urns; /* URNs whose new state is written (values unused) */
  /* URN -> the registration's deleteBeforeReplace, for the stack's
   * policy analysis (values point into mp__deploy_dbr_values: -1, 0, 1) */
  mp_map goal_dbrs;
  mp_strv failed_urns;
  mp_strv withheld;     /* delete phase: URNs that live entries which failed
                           or were withheld refer to */
  mp_strv withheld_old; /* ... that `delete: true` copies refer to */
  mp_strv injected; /* URNs given an injected default provider (S76) */
  mp_strv from_program; /* providers whose inputs --run-program changed */
  /* refresh --run-program: the new providers that replace recorded ones
   * the program's run replaced (program_ordinary.c; owned). */
  mp_resource **replacements;
  size_t nreplacements;
  /* refresh --run-program: recorded providers the program registered
   * under an alias, as served under the new URN (run_program.c; owned). */
  mp_resource **renamed_providers;
  size_t nrenamed_providers;
  /* --run-program: the program's preview records the URNs it produced, in
   * order (its own run); the run after it looks them up by URN (values
   * point into o->program_news). */
  mp_strv news_order;
  mp_map program_by_urn;
  mp_map program_by_alias; /* the alias it matched -> the same */
  /* refresh --run-program: whether the program's own steps were
   * submitted. */
  int program_steps_sent;
  mp_value *stack_outputs;
  mp_chain **layers; /* the planned delete layers, deepest first */
  size_t nlayers, next_layer;
  uint64_t seq;
  double start;
  /* Refresh: the read state by snapshot index (NULL = gone) and whether
   * the index was read at all; NULL until the refresh starts. */
  mp_resource **refreshed;
  unsigned char *refresh_done;
  /* The monitor endpoint of component providers (components.c), or NULL. */
  struct mp__deploy_endpoint *endpoint;
  /* Construct and Call answers from the plugins' thread (components.c):
   * |relay_inbox| guarded by |relay_mu|, |relayed| wakes the loop. */
  uv_async_t relayed;
  uv_mutex_t relay_mu;
  struct relay_job *relay_inbox;
  /* A registration bailed (machine.c registered): the run fails with no
   * "update failed", as Pulumi's executor returns a bail before it. */
  int bailed;
} deploy;

/* Records a failed deployment; |step|: a resource operation failed. */
static inline void mp__deploy_fail(deploy *d, int step) {
  d->res->failed = 1;
  if (step) d->res->step_failed = 1;
}

/* What goal_dbrs' values point at: -1 (unset), 0, 1. */
extern const int mp__deploy_dbr_values[3];

/* ---- policy packs (policy.c) ---- */
/* The step generator's analyze hook (|ud| is the deployment; generator
 * thread): every pack's Remediate, then every pack's Analyze, of |st|;
 * the findings go to the current job's |policy|. 1 (with |err|) for a
 * mandatory violation, an MP_E code when a pack's call failed. */
int mp__deploy_analyze(void *ud, mp_resource *st, const mp_sg_analyzed *x,
                       mp_diags *diags, mp_err *err);
/* Emits |found| as policy events (loop thread). */
void mp__deploy_policy_events(deploy *d, const mp_policy_diags *found);
/* The packs' stack analysis, if any, its findings emitted; on a failure
 * (a mandatory violation, a pack's error) records it and returns 1. */
int mp__deploy_analyze_stack(deploy *d);

/* ---- events and the parts' hooks (hooks.c) ---- */
/* Stamps |ev| (sequence, time, preview) and hands it to the sink. */
void mp__deploy_emit(deploy *d, mp_event *ev);
/* The same, and the update keeps it (mp__deploy_record) only if |keep|. */
void mp__deploy_emit_kept(deploy *d, mp_event *ev, int keep);
/* Keeps |ev| with the update (record.c): the store's events of the
 * update, emitted at |time_ms|. They are written in batches: when enough
 * wait, at every tick of the loop (100 ms: the console's live pages) and
 * at the end (mp__deploy_record_end, before the history's end). */
void mp__deploy_record(deploy *d, const mp_event *ev, int64_t time_ms);
void mp__deploy_record_flush(deploy *d);
void mp__deploy_record_end(deploy *d);
/* A diagnostic event; |urn| may be NULL. */
void mp__deploy_diag(deploy *d, const char *severity, const char *urn,
                     const char *msg);
/* The executor's hooks, and the monitor's (their |ud| is |d|). */
mp_stepexec_hooks mp__deploy_exec_hooks(deploy *d);
mp_monitor_hooks mp__deploy_monitor_hooks(deploy *d);
/* d->answers' callback: gives the deferred answers. */
void mp__deploy_on_answers(uv_async_t *h);

/* ---- provider functions (invoke.c) ---- */
/* The monitor's invoke hook: runs fn::invoke on the worker pool (|ud| is
 * the deployment). */
int mp__deploy_invoke(void *ud, const char *tok, mp_value *args,
                      const char *ref, const mp_invoke_pkg *want,
                      mp_monitor_call *call, mp_err *err);
/* The provider |ref| ("<urn>::<id>"), or without one the instance that
 * serves functions of the package |want| describes. Any thread. */
mp_provider *mp__deploy_provider_for(deploy *d, const char *ref,
                                     const mp_invoke_pkg *want, mp_err *err);

/* ---- component providers (components.c) ---- */
/* Opens d->relayed (the loop's side of Construct and Call answers). */
void mp__deploy_relays_init(deploy *d);
/* The monitor's endpoint, construct and call hooks (|ud| is the
 * deployment). */
const char *mp__deploy_endpoint(void *ud, mp_err *err);
int mp__deploy_construct(void *ud, const char *ref, const char *ext_ref,
                         mp_buf *req, mp_monitor_reg *reg, mp_err *err);
int mp__deploy_call(void *ud, const char *tok, const char *ref,
                    const mp_invoke_pkg *want, mp_buf *req,
                    mp_monitor_call *call, mp_err *err);
/* The monitor's schema hook (schema.c): GetSchema of a package's plugin
 * on the worker pool (|ud| is the deployment). */
int mp__deploy_schema(void *ud, const char *pkg, const char *version,
                      const char *url, const mp_provider_param *param,
                      mp_schema_cb cb, void *cbud,
                      mp_err *err);
/* Closes the endpoint, if any (the deployment finishes). */
void mp__deploy_endpoint_close(deploy *d);

/* ---- the state machine (machine.c) ---- */
/* Moves through the phases as far as what is in flight allows. Call it
 * whenever something in flight ended or an input changed the state. */
void mp__deploy_advance(deploy *d);
/* Stops the deployment (DS_STOPPING): cancels the executor, the providers,
 * the program and the registrations waiting for answers. |interrupted|:
 * the user asked (the result is "canceled"). */
void mp__deploy_cancel(deploy *d, int interrupted);
/* Submits |c| (taken) to the executor, or parks it until the URNs it
 * waits for are written. */
void mp__deploy_submit(deploy *d, mp_chain *c);
/* The new state of |urn| is written: parked chains may go. */
void mp__deploy_written(deploy *d, const char *urn);
/* The executor's hook for a chain's end (stepexec.h): a failure fails the
 * run, withholds what the failed resource refers to from the deletions,
 * answers its registration and, without --continue-on-error, stops. */
void mp__deploy_chain_ended(void *ud, mp_chain *c, int failed);
/* Handles one answer of the generator thread. Takes what it uses out of
 * |j| (the caller frees the rest). */
void mp__deploy_on_answer(deploy *d, gen_job *j);

/* ---- lifecycle (lifecycle.c) ---- */
/* Ends the run: the last writes, then closes every handle so that the
 * loop returns. Called once, by the machine. */
void mp__deploy_finish(deploy *d);

/* ---- the generator thread (generator.c) ---- */
/* Starts the thread and the loop's wake-up handle. 0 or an MP_E code. */
int mp__deploy_gen_start(deploy *d, mp_err *err);
/* Queues |j| for the thread (loop thread; takes |j|). A GEN_QUIT job ends
 * it; mp__deploy_finish sends that and closes d->gen.wake. */
void mp__deploy_gen_push(deploy *d, gen_job *j);
/* Waits for the thread to end and frees what its queues still hold (after
 * the loop has ended). */
void mp__deploy_gen_join(deploy *d);
void mp__deploy_gen_job_free(gen_job *j);

/* ---- the calls ahead (ahead.c) ---- */
void mp__deploy_ahead_init(deploy *d);
/* A registration arrived (takes |j|, a GEN_REGISTER job): its Check and
 * Diff are made ahead on the worker pool where they can be predicted,
 * then it is queued for the generator thread in arrival order. */
void mp__deploy_ahead_arrive(deploy *d, gen_job *j);
/* The generator thread answered |j|: its calls ahead no longer count. */
void mp__deploy_ahead_answered(deploy *d, gen_job *j);
/* Starts the waiting calls there is room for (after answers came back,
 * or the deployment stopped). */
void mp__deploy_ahead_resume(deploy *d);
/* Frees the registrations still waiting (after the loop has ended). */
void mp__deploy_ahead_destroy(deploy *d);

/* ---- refresh (refresh.c) ---- */
/* Submits one refresh step per targeted resource (DS_REFRESHING). */
void mp__deploy_refresh_start(deploy *d);

/* --run-program (run_program.c): one deployment run (lifecycle.c); the
 * program's preview, leaving the states it registered in *news (in
 * registration order; owned) and its stack outputs in *outputs; at the
 * end of that preview, their collection; at the start of the run after
 * it, the program's inputs put on the snapshot's providers. */
int mp__deploy_run_one(const mp_deploy_opts *o, mp_deploy_result *res,
                       mp_err *err);
int mp__deploy_program_preview(const mp_deploy_opts *o, mp_deploy_result *res,
                               mp_snapshot **news, mp_value **outputs,
                               mp_program_steps **steps, mp_err *err);
void mp__deploy_collect_program(deploy *d);
/* The steps a program's preview gave the stack and the providers
 * (program_ordinary.c): noted as the preview shows them, and the refresh's
 * ordinary step for snapshot entry |r| from them (NULL: a refresh step). */
void mp__deploy_program_note_step(deploy *d, const mp_step *s);
void mp__deploy_program_steps_free(mp_program_steps *l);
/* refresh --run-program: a read the program's run made (its finished
 * refresh step, and the provider's warnings about it), noted for the
 * refresh that follows, which shows it and records its result without
 * reading again; that note for |urn| (NULL: not read in the run). */
void mp__deploy_program_note_read(deploy *d, const mp_step *s);
void mp__deploy_program_note_warning(deploy *d, const mp_step *s,
                                     const char *msg);
const mp_step *mp__deploy_program_read(deploy *d, const char *urn);
mp_step *mp__deploy_program_ordinary(deploy *d, const mp_resource *r);
/* refresh --run-program: the new provider that replaces the recorded
 * provider |urn| (NULL: none); and, when the program named such a
 * provider (|named|, by URN) for a registered resource's state |n|, the
 * new provider's reference put on it. */
const mp_resource *mp__deploy_program_replacement(deploy *d, const char *urn);
/* Setup: 1 when the program's run replaced recorded provider |r| (its
 * inputs |in|): the new provider is made (a new id) and |r| keeps its
 * recorded inputs for what the program does not register. */
int mp__deploy_program_replaces(deploy *d, const mp_resource *r,
                                const mp_value *in);
void mp__deploy_use_replacement_ref(deploy *d, mp_resource *n,
                                    const char *named);
/* The replace step shown after a provider's create-replacement |cr|. */
mp_step *mp__deploy_program_replace_step(const mp_step *cr);
void mp__deploy_use_program_providers(deploy *d);
/* What the program registered: its second preview's, once that ran. */
const mp_snapshot *mp__deploy_program_news(deploy *d);
/* The state the program registered under |urn|, or NULL. */
const mp_resource *mp__deploy_program_state(deploy *d, const char *urn);
/* Likewise for recorded entry |r|, a custom resource also when the
 * program registered it under an alias of its URN (a new URN). */
const mp_resource *mp__deploy_program_match(deploy *d, const mp_resource *r);
/* A refresh with a program: the state of |old| (a live entry the program
 * registered as |prog|) that the refresh starts from, with the program's
 * options and Read's results to come; a new copy. */
mp_resource *mp__deploy_program_goal(const mp_resource *old,
                                     const mp_resource *prog);
/* A refresh with a program: submits the create and update steps of the
 * components and providers the program registered (refresh.c calls it
 * beside the refresh steps). */
int mp__deploy_program_steps(deploy *d, const unsigned char *live_by_index);
/* Once the reads are done (machine.c): runs the program's second preview
 * over the refreshed states, then submits the program's own steps;
 * returns 1 when steps were submitted (wait for them), 0 when the refresh
 * may end. */
int mp__deploy_program_after_reads(deploy *d);
/* 1 if snapshot entry |r| (|live|: not a `delete` copy) gets one of those
 * steps rather than a refresh step. */
int mp__deploy_program_steps_own(deploy *d, const mp_resource *r, int live);
void mp__deploy_use_program_outputs(deploy *d, mp_resource *st);
/* Records a finished refresh step (takes s->new_). */
void mp__deploy_refresh_done(deploy *d, mp_step *s);
/* Writes the refreshed snapshot in one transaction (at the end, when the
 * refresh started and this is not a preview). */
void mp__deploy_refresh_write(deploy *d);

#endif
