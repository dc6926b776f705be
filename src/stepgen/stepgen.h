/* The step generator (docs/architecture.md, "Where each rule lives"): turns
 * each registration into a chain of steps, and, when the program is done,
 * the deletions as layers.
 *
 * Threads: a generator is owned by one thread (the deployment's step
 * generator thread); it takes the answers of Checks and Diffs made ahead
 * on other threads (mp_sg_ahead) when their requests match, and calls
 * providers (Check, Diff, DiffConfig) synchronously through the registry
 * otherwise. The prior snapshot it is given is read-only and may be
 * shared with other threads. */
#ifndef MP_STEPGEN_H
#define MP_STEPGEN_H

#include "engine/err.h"
#include "engine/goal.h"
#include "engine/registry.h"
#include "engine/snapshot.h"
#include "engine/step.h"

typedef struct mp_stepgen mp_stepgen;

/* An update plan's hook (deploy/plan.c): told each decision before its
 * steps run; a non-zero answer (with |err| set) refuses them. */
typedef struct mp_sg_plan {
  /* The chain decided for a registration: |old| the prior state (NULL
   * for a new resource), |st| the new state, |inputs| the checked inputs
   * the plan holds it to (st->inputs; for a custom resource the targets
   * leave out, its prior inputs, or none), |aliases| the old URNs its own
   * aliases name (|st| keeps only the one that matched). */
  int (*registered)(void *ctx, const mp_goal *g, const mp_resource *old,
                    const mp_resource *st, const mp_value *inputs,
                    const mp_strv *aliases, const mp_chain *c, mp_err *err);
  /* A step decided apart from a registration (a delete). */
  int (*step)(void *ctx, const mp_step *s, mp_err *err);
  void *ctx;
} mp_sg_plan;
struct mp_diags;

/* What the analyze hook gets beside the resource's state: its provider
 * resource (this deployment's registration, else the prior one; NULL when
 * unknown) and its deleteBeforeReplace option (-1 unset, 0, 1). */
typedef struct mp_sg_analyzed {
  const mp_resource *provider;
  int delete_before_replace;
} mp_sg_analyzed;

typedef struct mp_stepgen_opts {
  const char *stack;
  const char *project;
  int preview;
  const mp_strv *targets;  /* NULL or empty: everything is targeted */
  const mp_strv *excludes;
  const mp_strv *replaces;
  int target_dependents;
  int exclude_dependents;
  int ignore_protect;
  /* The `import` command: an import's program gives no inputs, so the
   * imported object keeps those it read (no update after it). */
  int import_only;
  /* May be NULL. The properties to keep of what an import of |urn| reads
   * (`import --properties`); NULL or empty: all of them. */
  const mp_strv *(*import_properties)(void *ud, const char *urn);
  void *import_properties_ud;
  const mp_sg_plan *plan; /* NULL: no plan to keep or to record */
  /* refresh --run-program (deploy/run_program.c): the program's one run
   * refreshes as it registers. A registered custom resource (not a
   * provider) whose prior state the refresh selects (these targets and
   * excludes, as mp_targets_select_refresh) gets a refresh step, whose
   * read answers the program (step_generator.go generateSteps with
   * sg.refresh: NewRefreshStep, then continueStepsFromRefresh). */
  int refresh_reads;
  const mp_strv *refresh_targets, *refresh_excludes;
  int refresh_target_dependents, refresh_exclude_dependents;
  /* up --refresh --run-program (deploy/lifecycle.c): the update's one
   * run of the program refreshes each registered custom resource (not a
   * provider) that has a prior state before deciding its step, and
   * decides against what the read found (step_generator.go generateSteps
   * with refresh = Refresh && RefreshProgram in updateMode, then
   * continueStepsFromRefresh): a resource the read found gone is
   * created. |refresh| reads the refresh step it is given now, on the
   * generator's thread (stepexec.h mp_stepexec_refresh_now). */
  int refresh_before_diff;
  int (*refresh)(void *ud, mp_step *s, mp_err *err);
  void *refresh_ud;
  /* Policy packs (the deployment's analysis, deploy/policy.c): called on
   * the generator's thread after a resource's Check and before its step
   * is decided. It may replace
   * st->inputs (a remediation), add diagnostics, and fail the
   * registration (an MP_E code, with |err|) so that no step of the
   * resource runs. It returns 1 (with |err|) for a mandatory violation,
   * which, as in Pulumi's analyzeResource, makes the resource invalid in
   * an update (the registration fails, as a bail: with an empty message,
   * the policy event having told why) but not in a preview:
   * there the step goes on and the preview fails at its end. |x| is what
   * Pulumi's AnalyzerResource carries beside the state. NULL: no policy
   * packs. */
  int (*analyze)(void *ud, mp_resource *st, const struct mp_sg_analyzed *x,
                 struct mp_diags *diags, mp_err *err);
  void *analyze_ud;
} mp_stepgen_opts;

/* A diagnostic produced while generating. */
typedef struct mp_diag {
  char *severity; /* "info", "warning", "error" */
  char *urn;      /* may be NULL */
  char *message;
} mp_diag;

typedef struct mp_diags {
  mp_diag *items;
  size_t len, cap;
} mp_diags;

void mp_diags_add(mp_diags *d, const char *severity, const char *urn,
                  const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void mp_diags_destroy(mp_diags *d);

/* |olds| and |registry| are borrowed and must outlive the generator. */
mp_stepgen *mp_stepgen_new(const mp_stepgen_opts *o, const mp_snapshot *olds,
                           mp_registry *registry);
void mp_stepgen_free(mp_stepgen *sg);

/* Decides the steps for one registration. Takes ownership of |goal|.
 * On success *out is the chain (its reg = |reg|, the registration it
 * answers, opaque here). Errors (duplicate URN,
 * missing parent, check failure, protect, ...) return MP_EINVAL or
 * MP_EPLUGIN with the Pulumi wording in |err|. Diagnostics that do not fail
 * the registration are appended to |diags|. */
int mp_stepgen_register(mp_stepgen *sg, mp_goal *goal, void *reg,
                        mp_chain **out, mp_diags *diags, mp_err *err);

/* Provider calls made ahead of a registration's decision: Check, then
 * Diff, then (when Diff replaces) the second Check, predicted from the
 * goal and the prior snapshot alone. The decision (mp_stepgen_register_ahead)
 * uses an answer only when its own request is equal to the one made, so
 * the steps are those of the serial generator; a wrong guess costs one
 * spare call. */
typedef struct mp_sg_ahead mp_sg_ahead;

/* The first call to make ahead for |g|, or NULL when the generator's
 * calls for it cannot be predicted surely (aliases, targets, reads,
 * imports, provider resources, forced replacements). Reads only what does
 * not change once the generator exists (options, prior snapshot): may run
 * on another thread than the generator's while it works. |g| is only
 * read. */
mp_sg_ahead *mp_stepgen_ahead_new(const mp_stepgen *sg, const mp_goal *g);
/* Makes the latest planned call (blocks in the provider; any thread, one
 * at a time per |a|). */
void mp_sg_ahead_run(mp_sg_ahead *a);
/* After a run: plans the next call from the answer; 1 if there is one to
 * run, 0 when the calls ahead are over. */
int mp_sg_ahead_next(mp_sg_ahead *a);
void mp_sg_ahead_free(mp_sg_ahead *a);

/* mp_stepgen_register, taking the answers of |ahead| (borrowed, may be
 * NULL; its calls must have ended) where its requests match. */
int mp_stepgen_register_ahead(mp_stepgen *sg, mp_goal *goal, void *reg,
                              mp_sg_ahead *ahead, mp_chain **out,
                              mp_diags *diags, mp_err *err);

/* 1 if some error was reported as a diagnostic in preview (the preview
 * goes on and fails at the end). */
int mp_stepgen_preview_failed(const mp_stepgen *sg);

/* `up`'s check of its names (deployment_executor.go checkTargets): each
 * literal --target (with |replaces|, --replace) that names neither a prior
 * resource nor one registered so far is reported as an error diagnostic in
 * |diags|; returns how many. A name with `*` is a glob and may match
 * nothing; --exclude is not checked. Reads only: safe before the
 * generator's thread has work. */
size_t mp_stepgen_check_targets(const mp_stepgen *sg, int replaces,
                                mp_diags *diags);

/* After the program: the deletions as antichains, dependents first
 * (*layers, *nlayers); what the targets or excludes leave gets no step.
 * Returns 0 or MP_EINVAL (an untargeted delete is needed, or a delete
 * would leave a kept resource referring to a deleted one: all such errors
 * are listed; a preview lists them, plans the deletes and marks itself
 * failed). */
int mp_stepgen_deletes(mp_stepgen *sg, mp_chain ***layers, size_t *nlayers,
                       mp_diags *diags, mp_err *err);

#endif
