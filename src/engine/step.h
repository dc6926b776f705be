/* Steps and chains: what the step generator decides and the step executor
 * carries out (tests/conformance/scenarios/S17-cbd-replacement.scn shows one
 * chain). A chain's steps run one after another; chains run in parallel. */
#ifndef MP_STEP_H
#define MP_STEP_H

#include <stdint.h>

#include "engine/events.h"
#include "engine/mem.h"
#include "engine/res_diff.h"
#include "engine/resource.h"
#include "engine/value.h"

enum mp_step_flags {
  /* Do not call the provider (retainOnDelete, deletedWith, a component,
   * a skipped create). */
  MP_STEP_NO_CALL = 1 << 0,
  /* The step is about a provider resource: load/configure the plugin. */
  MP_STEP_PROVIDER_RES = 1 << 1,
  /* The step's completion answers the resource's registration. */
  MP_STEP_REPLY = 1 << 2,
  /* An untargeted create: nothing is created or written. */
  MP_STEP_SKIPPED_CREATE = 1 << 3,
  /* CBD create-replacement: the old row is kept, marked `delete`. */
  MP_STEP_MARK_OLD_DELETE = 1 << 4,
  /* DBR delete-replaced: the old row is kept, marked pendingReplacement,
   * until its re-creation. */
  MP_STEP_MARK_OLD_PENDING = 1 << 5,
  /* The old state is carried forward verbatim (untargeted same). */
  MP_STEP_VERBATIM = 1 << 6,
  /* Refresh/read of an external resource. */
  MP_STEP_EXTERNAL = 1 << 7,
  /* Nothing to write: the state was already carried forward. */
  MP_STEP_NO_WRITE = 1 << 8,
  /* up --refresh --run-program: a refresh read before the resource's
   * diff, its result given; it writes the refreshed state over the old
   * row (the next step removes it when the read found it gone). */
  MP_STEP_REFRESH_WRITES = 1 << 9
};

typedef struct mp_step {
  mp_step_op op;
  char *urn;          /* the URN shown (the old URN for delete-replaced) */
  mp_resource *old;   /* owned copy of the prior state, or NULL */
  mp_resource *new_;  /* owned new state, or NULL */
  char *provider;     /* provider reference to call, or NULL */
  unsigned flags;     /* enum mp_step_flags */
  mp_strv keys;       /* replace keys */
  mp_strv diffs;      /* changed keys */
  mp_diff detailed;
  int has_detailed;
  /* up --refresh --run-program: the row of the prior state that the
   * refresh before this step found gone, removed with this step's write
   * (so the snapshot never lacks what others refer to); 0: none. */
  int64_t gone_row;
  /* Filled by the executor. */
  int64_t pending_row;
  /* Refresh: what the read found (MP_OP_SAME, MP_OP_UPDATE, MP_OP_DELETE
   * when the resource is gone). */
  mp_step_op refresh_result;
  long snap_index; /* refresh: position in the prior snapshot */
  /* Prior entries that referred to this resource's prior URN, rewritten to
   * its new URN (an alias matched); written with the step's result so the
   * snapshot never refers to a URN that is gone. Owned. */
  mp_resource **rewrites;
  size_t nrewrites;
  /* Import: the program's inputs, checked against what was read once the
   * import's Read is done; NULL for `minipulumi import`. Owned. */
  mp_value *goal_inputs;
  /* Import: the provider's Diff of the imported state with goal_inputs,
   * which decides what follows the import in its chain (nothing, an
   * update, or for a replacement an error); NULL until made. Owned. */
  mp_res_diff *import_diff;
  /* Import: the only inputs of what was read to keep (`import
   * --properties`, Pulumi's import spec's properties); empty: all. */
  mp_strv import_keep;
  int failed;
  char *error;
  /* Warnings about the resource (the provider's, or a refresh that found
   * it unhealthy), shown when the step ends (filled on the worker, read
   * on the loop thread). */
  mp_strv warnings;
} mp_step;

mp_step *mp_step_new(mp_step_op op, const char *urn);
void mp_step_free(mp_step *s);

typedef struct mp_chain {
  mp_step **steps; /* owned */
  size_t len, cap;
  void *reg; /* the registration this chain answers (deploy-owned), or NULL */
  /* URNs whose steps must have finished before this chain starts (prior
   * references of states carried forward verbatim, which the program does
   * not order). */
  mp_strv waits;
  /* The registration's deleteBeforeReplace (-1 unset, 0, 1): the stack's
   * policy analysis sends it, as Pulumi's AnalyzeResources does from the
   * goal. */
  int dbr;
  /* Why the chain stopped when no step of it failed (a step that ended
   * well but cannot be followed, as an import whose program asks for a
   * replacement), and on which URN; NULL otherwise. Owned. */
  char *error;
  char *error_urn;
} mp_chain;

mp_chain *mp_chain_new(void *reg);
/* Takes ownership of |s|. */
void mp_chain_push(mp_chain *c, mp_step *s);
/* Takes ownership of |s| and inserts it at |pos| (<= len). */
void mp_chain_insert(mp_chain *c, size_t pos, mp_step *s);
void mp_chain_free(mp_chain *c);

/* A random version-4 UUID, for the ids of provider resources. Owned. */
char *mp_uuid_new(void);

/* The resource hooks (enum mp_hook_kind) a step of |op| runs before
 * (|after| 0) or after its provider call, or -1 for none. */
int mp_step_hook_kind(mp_step_op op, int after);
/* The names of |s|'s hooks of |kind|: the new state's, or the old one's
 * for deletions and a delete's error hooks (so that they run when the
 * program no longer declares the resource); NULL when there is none. */
const mp_strv *mp_step_hook_names(const mp_step *s, int kind);
/* 1 if |s| runs any resource hook. */
int mp_step_has_hooks(const mp_step *s);

#endif
