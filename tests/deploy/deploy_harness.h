/* A small in-process language host and helpers for deployment tests: a
 * program is a list of registrations, run serially (each waits for the
 * previous answer) or all at once. Resources use the `test` provider whose
 * world is a temp directory. */
#ifndef MP_DEPLOY_HARNESS_H
#define MP_DEPLOY_HARNESS_H

#include "deploy/deploy.h"
#include "engine/mem.h"

#define T_TYPE "test:index:Resource"

typedef struct treg {
  const char *type;   /* default T_TYPE */
  const char *name;
  const char *inputs; /* JSON object text, default {} */
  int component;      /* custom = !component */
  const char *parent; /* name of an earlier registration */
  const char *deps[6]; /* names of earlier registrations */
  int prop_deps;      /* 1: send deps as propertyDependencies of every key */
  int protect;        /* 1 true, -1 false, 0 unset */
  int dbr;            /* 1 true, -1 false, 0 unset */
  int retain;
  const char *deleted_with; /* name */
  const char *import_id;
  const char *ignore[4];
  const char *replace_on[4];
  const char *alias_names[3];
  const char *read_id; /* ReadResource with this id */
  const char *provider; /* name of an earlier provider registration */
  const char *outputs;  /* components: RegisterResourceOutputs JSON */
} treg;

typedef struct tenv {
  char dir[256];
  char world[300];
  char db[300];
  mp_store *store;
  mp_strv steps;   /* "op name" of finished steps, in order */
  mp_strv failed;  /* "op name" of failed steps */
  mp_strv diags;   /* "severity: message" */
  mp_deploy_result res;
  int rc;
} tenv;

/* Creates a temp dir, a store with stack test/test, and the world. */
void tenv_init(tenv *e);
void tenv_destroy(tenv *e);

typedef struct trun_opts {
  int kind; /* MP_DEPLOY_* */
  int preview;
  int parallel;
  int concurrent; /* register everything at once */
  int continue_on_error;
  const char *targets[4];
  int target_dependents;
  const char *replaces[4];
  const char *excludes[4];
  int exclude_dependents;
  const char *config; /* stack config JSON object, e.g. {"test:x":"1"} */
  const char *fail_after; /* the program fails after registering this one */
  int serial_stepgen; /* Check and Diff on the generator's thread only */
} trun_opts;

/* Runs a deployment of |n| registrations; fills e->steps etc. */
void trun(tenv *e, const treg *regs, size_t n, const trun_opts *o);
/* 1 if e->steps equals the NULL-terminated list. Prints both otherwise. */
int steps_are(tenv *e, const char *const *want);
/* Index of |step| in e->steps, or -1. */
int step_index(tenv *e, const char *step);
/* The snapshot's resources as "name[flags]" joined by spaces. */
char *state_names(tenv *e);
/* The number of lines of calls.jsonl with "op":<op>. */
int calls_count(tenv *e, const char *op);
/* The most calls of |op| (outside preview) whose |span_ns| after their
 * logged start overlap, over calls.jsonl lines from |from_line| on. */
int calls_overlap(tenv *e, const char *op, long long span_ns, int from_line);
/* As calls_overlap, over the lines that also contain |needle|. */
int calls_overlap_with(tenv *e, const char *op, const char *needle,
                       long long span_ns, int from_line);
/* The number of lines in calls.jsonl. */
int calls_lines(tenv *e);
/* The world file of a resource id exists. */
int world_has(tenv *e, const char *id);
/* Loads the snapshot (caller frees). */
struct mp_snapshot *tload(tenv *e);

#endif
