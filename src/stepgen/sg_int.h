/* Internals shared by the step generator's files. Owner: the generator's
 * thread. */
#ifndef MP_SG_INT_H
#define MP_SG_INT_H

#include "engine/map.h"
#include "engine/res_diff.h"
#include "stepgen/stepgen.h"
#include "stepgen/targets.h"

/* What happened to a prior resource in this deployment. */
enum old_status {
  OLD_UNTOUCHED = 0,
  OLD_CLAIMED,      /* registered: its row is replaced by the new state */
  OLD_REPLACED_CBD, /* replaced create-before-delete: delete at the end */
  OLD_DBR_DELETED,  /* deleted by a delete-before-replace chain */
  OLD_RECREATED,    /* deleted by DBR and created again */
  OLD_GONE          /* a `delete` copy deleted in a DBR chain: done */
};

/* A resource registered in this deployment, as the generator remembers
 * it (no outputs). */
typedef struct sg_new {
  mp_resource *state; /* owned copy */
  int targeted;
  int replaced; /* being replaced in this deployment */
  int skipped_create; /* untargeted and new: it does not exist */
  int carried; /* carried forward for an untargeted dependent before the
                  program registered it */
} sg_new;

struct mp_stepgen {
  char *stack, *project;
  int preview;
  mp_targets t;     /* --target, --exclude */
  mp_strv replaces; /* --replace */
  int ignore_protect;
  int import_only;
  const mp_strv *(*import_properties)(void *ud, const char *urn);
  void *import_properties_ud;
  const mp_sg_plan *plan;
  int (*analyze)(void *ud, mp_resource *st, const struct mp_sg_analyzed *x,
                 struct mp_diags *diags, mp_err *err);
  void *analyze_ud;
  const mp_snapshot *olds;
  mp_registry *registry;
  unsigned char *status;   /* enum old_status per prior resource */
  mp_map old_live;         /* URN -> index + 1 of the live prior entry */
  mp_map news;             /* URN -> sg_new* */
  mp_map alias_claims;     /* prior URN -> new URN that claimed it */
  mp_map aliases;          /* new URN -> the prior URN it matched (owned) */
  mp_resource **cur;       /* per prior resource: its references rewritten
                              after an alias matched, or NULL (owned) */
  /* refresh --run-program: per prior resource, 1 when its registration
   * is answered by a read (NULL: none is). */
  unsigned char *read_sel;
  int refresh_mode; /* opts.refresh_reads */
  /* opts.refresh_before_diff with its read (NULL: not this mode) */
  int (*refresh)(void *ud, mp_step *s, mp_err *err);
  void *refresh_ud;
  int64_t gone_row; /* the row the refresh of the registration being
                       decided found gone (register_one hands it on) */
  int preview_failed;
  int plain;           /* no --target, no --exclude: calls may run ahead */
  mp_sg_ahead *ahead;  /* the calls made ahead for the registration being
                          decided (borrowed), or NULL */
};

/* The prior resource |i| as the store now holds it (references to
 * aliased URNs rewritten). */
const mp_resource *mp__sg_old_at(const mp_stepgen *sg, size_t i);

/* Whether a resource (|st|, being registered or prior) is targeted. */
int mp__sg_targeted(mp_stepgen *sg, const mp_resource *st);
/* Index of the live prior entry with |urn|, or -1. */
long mp__sg_old_index(const mp_stepgen *sg, const char *urn);

/* The provider calls that may be made ahead (sg_ahead.c). */
enum { MP__SG_CALL_CHECK = 1, MP__SG_CALL_DIFF };

/* If |a| holds an answer to a call of |kind| to |p| with a request equal
 * to |q|, moves it into |r| (and *rc, |err|) and returns 1; else 0 (the
 * caller calls the provider). */
int mp__sg_ahead_take(mp_sg_ahead *a, int kind, const mp_provider *p,
                      const mp_prov_req *q, mp_prov_resp *r, mp_err *err,
                      int *rc);

/* The outcome of diffing one resource. */
typedef mp_res_diff sg_diff;

/* Provider Check (or CheckConfig for provider resources) of |st|'s
 * inputs against |olds| (may be NULL). Replaces st->inputs with the
 * checked inputs. */
int mp__sg_check(mp_stepgen *sg, mp_resource *st, const mp_value *olds,
                 mp_err *err);
/* Diff of prior |old| against new |st| (provider Diff, DiffConfig, or the
 * engine's comparison). */
int mp__sg_diff(mp_stepgen *sg, const mp_resource *old, const mp_resource *st,
                sg_diff *out, mp_err *err);
/* The prior resources that must be deleted before |old| is replaced
 * delete-before-replace, in reverse dependency order, appended as indexes
 * into the prior snapshot. */
int mp__sg_dbr_dependents(mp_stepgen *sg, long self, long **out, size_t *n,
                          mp_err *err);

#endif
