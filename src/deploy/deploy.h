/* A deployment: prior snapshot + a program (source) + an operation →
 * steps generated and executed, state written step by step, engine events
 * emitted. The one entry point the CLI uses for up/preview/refresh/destroy.
 * Runs its own libuv loop on the calling thread and returns when done. */
#ifndef MP_DEPLOY_H
#define MP_DEPLOY_H

#include "engine/asset_hash.h"
#include "engine/err.h"
#include "engine/events.h"
#include "engine/log.h"
#include "engine/mem.h"
#include "engine/provider.h"
#include "engine/value.h"
#include "monitor/api.h"
#include "plugin/analyzer.h"
#include "state/store.h"
#include "stepgen/stepgen.h"

typedef enum mp_deploy_kind {
  MP_DEPLOY_UPDATE = 0, /* up (or its preview with dry_run) */
  MP_DEPLOY_REFRESH,
  MP_DEPLOY_DESTROY
} mp_deploy_kind;

typedef struct mp_deploy_opts {
  mp_deploy_kind kind;
  int dry_run;          /* preview: no world-changing call, no state write */
  mp_store *store;      /* borrowed */
  mp_stack_ref stack;
  const mp_crypter *crypter; /* for secrets in state; may be NULL */
  mp_source *source;    /* the program; required for UPDATE, else NULL */
  mp_provider_factory providers; /* makes the provider instances */
  const mp_value *config; /* OBJECT "<ns>:<key>" → value; may be NULL */
  const char *root_dir; /* project folder */
  const char *organization;
  /* How the monitor fetches the http(s) assets and archives a program
   * sends, for their hashes (engine/asset_hash.h); NULL: they fail. */
  mp_asset_fetch_fn asset_fetch;
  void *asset_fetch_ud;
  /* The Pulumi CLI version the program's required version range is
   * checked against, and the check (mp_source_info); NULL: none. */
  const char *pulumi_version;
  int (*version_in_range)(const char *range, const char *version,
                          mp_err *err);
  /* Chains run at once, pool works of calls ahead at once, and what the
   * language host is told; <= 0: mp_deploy_default_parallel, settled once
   * when the deployment is set up. Provider calls run on libuv's worker
   * pool, whose size the caller sets before the process's first libuv call
   * (UV_THREADPOOL_SIZE). */
  int parallel;
  /* The step generator's options (--target, --exclude, --replace, their
   * dependents, --ignore-protect, import): its stack, project and preview
   * are left unset here, the deployment takes them from |stack| and
   * |dry_run|, and its analyze hook is the deployment's own (see
   * |policy_packs|). */
  mp_stepgen_opts steps;
  /* An update plan (deploy/plan.h) to record into or to apply, or NULL. */
  struct mp_plan *plan;
  int continue_on_error;
  int debug; /* -d/--debug: the programs' debug-level logs become events */
  int serial_stepgen;    /* Check and Diff one registration at a time, on
                            the generator's thread (to compare) */
  int refresh_first;     /* up --refresh (with run_program: each resource
                            is refreshed before its diff, in the update's
                            one run of the program) */
  /* refresh and destroy --run-program (run_program.c): |source| runs first,
   * as a preview, and the providers it registers (their inputs) stand in
   * for the recorded ones during the refresh or destroy. */
  int run_program;
  /* Internal to run_program.c: where the preview leaves the states the
   * program registered, in registration order, and those for the run. */
  mp_snapshot **program_news_out;
  const mp_snapshot *program_news;
  /* Internal to run_program.c: with tell_program_dry_run, whether the
   * program is told that it runs in a preview (the refresh's or destroy's
   * own dry_run; the run itself is a preview). */
  int tell_program_dry_run;
  int program_dry_run;
  /* Likewise the program's stack outputs (NULL: none, or not all known). */
  mp_value **program_outputs_out;
  const mp_value *program_outputs;
  /* Likewise the steps the preview gave the stack and the providers it
   * registered (their op and diff), for the refresh to show them as
   * Pulumi's refresh with a program does (program_ordinary.c). */
  struct mp_program_steps **program_steps_out;
  const struct mp_program_steps *program_steps;
  /* Internal to run_program.c: where a program's preview sends the
   * program's own log messages (NULL: only the errors are shown, as its
   * other diagnostics). */
  mp_event_sink program_log_sink;
  void *program_log_sink_ud;
  int clear_pending_creates; /* refresh */
  int skip_pending_creates;  /* refresh */
  const char *message;   /* -m */
  /* Pulumi's UpdateInfo environment and config (JSON objects' text; NULL:
   * none), recorded with the update's history entry. */
  const char *update_environment, *update_config;
  mp_event_sink sink;
  void *sink_ud;
  /* The text of an event as kept with the update (mp_store_update_event:
   * the console's update page), owned; NULL: no events are kept. Called
   * on the loop thread for every event of an update that holds the
   * stack's lock (not a preview). */
  char *(*event_text)(const mp_event *ev);
  /* Set to 1 by a signal handler to ask for a graceful stop; 2 = now. The
   * deployment polls it from its loop. May be NULL. */
  volatile int *interrupt;
  /* The process exits right after this run: the teardown leaves the
   * memory that only memory holds (the snapshot, the resources, the
   * steps, the generator's maps) to the exit, as git's UNLEAK does, and
   * still joins its threads and closes its handles. The CLI sets it on
   * its last run, except in sanitizer builds, which check every free. */
  int leave_memory;
  /* The snapshot loaded must pass the integrity check (mp_snapshot_verify)
   * or nothing runs, as Pulumi refuses a checkpoint that fails it; 0
   * with --disable-integrity-checking. */
  int verify_snapshot;
  /* Leveled logs (the step generator's decisions) and trace spans;
   * borrowed, may be NULL. */
  mp_log *log;
  /* The policy packs to analyse with (started and stopped by the caller;
   * borrowed; none when |n_policy_packs| is 0). As Pulumi's step
   * generator runs its analyzers (policy.c): every custom resource after
   * its Check, on the generator thread (remediations, then analyses: the
   * deployment sets |steps|' analyze hook itself), and the stack once the
   * program has exited and its steps are done, before the deletes. What
   * they find goes to |sink| as MP_EVENT_POLICY_VIOLATION and
   * MP_EVENT_POLICY_REMEDIATION events: a resource's before its steps'
   * events, the stack's before the deletes'. A mandatory violation makes
   * the resource invalid in an update (no step of it runs, the run
   * fails) and fails a preview at its end. */
  mp_analyzer *const *policy_packs;
  size_t n_policy_packs;
} mp_deploy_opts;

typedef struct mp_deploy_result {
  int failed;        /* the operation failed */
  int step_failed;   /* ... because a resource operation failed (exit 4) */
  int canceled;      /* interrupted (exit 8) */
  int64_t counts[MP_OP__COUNT];
  int64_t changes;   /* steps that are changes (MP_OP_NOT_A_CHANGE) */
} mp_deploy_result;

/* Runs the deployment described by |o|. Returns 0 when it ran (the outcome
 * is in |res|: a failed deployment is not an error of this function), or an
 * MP_E code when it could not run (store or lock problems, bad options);
 * |err| says why. The stack's lock is held for the duration. */
int mp_deploy_run(const mp_deploy_opts *o, mp_deploy_result *res,
                  mp_err *err);

/* The default parallelism: 4 x the CPUs online. */
int mp_deploy_default_parallel(void);

#endif
