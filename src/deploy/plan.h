/* Update plans (pkg/resource/deploy/plan.go): `preview --save-plan`
 * records, per resource, its goal, the steps decided for it and the
 * outputs it is expected to have; `up --plan` refuses any step or input the
 * plan did not allow, before that step runs. The file format is
 * plan_file.c's.
 *
 * Threads: the step generator's thread calls the hook (mp_plan_hook); the
 * loop thread records outputs and makes the end check. The mutex guards
 * the resource plans. */
#ifndef MP_DEPLOY_PLAN_H
#define MP_DEPLOY_PLAN_H

#include <uv.h>

#include "engine/map.h"
#include "engine/snapshot.h"
#include "engine/value.h"
#include "stepgen/stepgen.h"

/* What changes in an object (PlanDiffV1): keys added and updated with
 * their new values, and the keys deleted. */
typedef struct mp_plan_diff {
  mp_value *adds;    /* OBJECT */
  mp_value *updates; /* OBJECT */
  mp_strv deletes;
} mp_plan_diff;

/* A resource's goal as planned (GoalV1). */
typedef struct mp_plan_goal {
  char *type, *name;
  int custom;
  mp_plan_diff input_diff, output_diff;
  char *parent; /* NULL: none */
  int protect;
  mp_strv dependencies;
  char *provider; /* "<urn>::<id>", NULL: none */
  int dbr;        /* deleteBeforeReplace: -1 unset, 0, 1 */
  mp_strv ignore_changes;
  mp_strv additional_secret_outputs;
  char *id; /* the import ID, NULL: none */
  mp_strv aliases;  /* the alias URNs the registration asked for */
  mp_propdeps propdeps;
  double timeouts[3]; /* customTimeouts create, update, delete; 0: none */
} mp_plan_goal;

typedef struct mp_resource_plan {
  mp_plan_goal *goal; /* NULL: the plan deletes the resource */
  mp_strv steps;      /* the op names, in order */
  size_t next;        /* applying: how many steps were met */
  mp_value *outputs;  /* OBJECT, or NULL */
} mp_resource_plan;

typedef struct mp_plan {
  uv_mutex_t mu;
  int applying;     /* 1: check against it; 0: record into it */
  mp_map resources; /* URN -> mp_resource_plan* */
  mp_sg_plan hook;  /* for mp_stepgen_opts.plan */
} mp_plan;

/* An empty plan to record into (|applying| 0) or to fill from a file and
 * apply (1). */
mp_plan *mp_plan_new(int applying);
void mp_plan_free(mp_plan *p);
void mp_plan_diff_init(mp_plan_diff *d);

/* The plan of |urn|, made (with no goal, no steps) when |make|; else NULL
 * when there is none. Caller holds |p->mu| or is its only user. */
mp_resource_plan *mp_plan_resource(mp_plan *p, const char *urn, int make);

/* |r|'s customTimeouts as a plan keeps them: create, update, delete in
 * seconds, 0 for one not set. */
void mp_plan_timeouts_of(const mp_resource *r, double out[3]);

/* Loop thread: a RegisterResourceOutputs of |urn|, |old_outs| its outputs
 * in the prior state (NULL: none). Recording, keeps their change as the
 * goal's outputDiff; applying, checks it (Pulumi's checkOutputs): 0, or an
 * error "resource violates plan: ..." in |err|. */
int mp_plan_outputs(mp_plan *p, const char *urn, const mp_value *old_outs,
                    const mp_value *outs, mp_err *err);

/* Loop thread, recording: the outputs a step gave |urn| in the preview. */
void mp_plan_record_outputs(mp_plan *p, const char *urn,
                            const mp_value *outputs);

/* Loop thread, applying, after a run that did not fail: each resource
 * whose planned steps were not all met is reported into |diags|; returns
 * how many. A lone planned delete of what |prior| does not hold was not
 * needed. */
size_t mp_plan_check_end(mp_plan *p, const mp_snapshot *prior, mp_diags *diags);

#endif
