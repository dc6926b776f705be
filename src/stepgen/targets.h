/* --target and --exclude (with --target-dependents and
 * --exclude-dependents): which resources an operation touches. One module
 * for the step generator (registrations and deletions), refresh and
 * destroy. Every walk is linear in the number of resources (the state is
 * in dependency order, so what a resource depends on comes before it);
 * patterns are matched with mp_urn_glob. Scenarios:
 * tests/conformance/scenarios/S60-* to S64-*, X21-*, X30-* to X36-*.
 *
 * Threads: a targets value is read-only once made; use from any thread. */
#ifndef MP_STEPGEN_TARGETS_H
#define MP_STEPGEN_TARGETS_H

#include "engine/map.h"
#include "engine/mem.h"
#include "engine/resource.h"
#include "engine/snapshot.h"

typedef struct mp_targets {
  mp_strv targets;  /* empty: everything is targeted */
  mp_strv excludes; /* empty: nothing is excluded */
  int target_dependents;
  int exclude_dependents;
} mp_targets;

/* Copies the lists (either may be NULL) into |t| (caller storage). */
void mp_targets_init(mp_targets *t, const mp_strv *targets,
                     const mp_strv *excludes, int target_dependents,
                     int exclude_dependents);
void mp_targets_destroy(mp_targets *t);

/* 1 if |urn| matches one of the patterns |pats|. */
int mp_targets_any(const mp_strv *pats, const char *urn);
/* 1 if |name| is a glob (has a `*`): it may match nothing, so it is never
 * reported as an unknown name. */
int mp_targets_is_glob(const char *name);
/* Adds every URN of |s| (each copy's) to the set |urns| (values unused). */
void mp_targets_known(const mp_snapshot *s, mp_map *urns);
/* The first literal name of |names| (may be NULL) that is not in the set
 * |urns|, or NULL. */
const char *mp_targets_first_unknown(const mp_strv *names, const mp_map *urns);

/* The closure of |pats| over |s|: sets in[i] to 1 when resource |i|
 * matches |pats| or, with |follow|, refers (by one of the mp_ref_kind
 * |kinds|) to a URN that matches |pats| or to a resource marked before
 * it, transitively; to 0 otherwise. */
void mp_targets_closure(const mp_snapshot *s, const mp_strv *pats, int follow,
                        unsigned kinds, unsigned char *in);

/* Refresh (deployment_executor.go refresh): sets sel[i] to 1 for each
 * resource of |s| that is refreshed and 0 for the others. With excludes,
 * a resource is left out when it matches one or, with exclude_dependents,
 * depends on one (parent, dependencies, property dependencies,
 * deletedWith; not the provider), transitively; otherwise, with targets,
 * it is refreshed when it matches one or, with target_dependents,
 * depends on one in the same way. */
void mp_targets_select_refresh(const mp_targets *t, const mp_snapshot *s,
                               unsigned char *sel);

#endif
