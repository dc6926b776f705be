/* --target and --exclude (with --target-dependents and
 * --exclude-dependents): which resources an operation touches. One module
 * for the step generator (registrations and deletions), refresh and
 * destroy. Every walk is linear in the number of resources (the state is
 * in dependency order, so what a resource depends on comes before it);
 * patterns are matched with mp_urn_glob. Scenarios:
 * tests/conformance/scenarios/S60-* to S64-*, X21-*.
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

/* Refresh: sets sel[i] to 1 for each resource of |s| that is refreshed
 * and 0 for the others. A resource is left out when it, or with
 * exclude_dependents an ancestor (by parent), matches an exclude; it is
 * refreshed when there are no targets, or it, or with target_dependents
 * an ancestor, matches a target. */
void mp_targets_select_tree(const mp_targets *t, const mp_snapshot *s,
                            unsigned char *sel);

/* The deletions after the program, walked in prior order. Owner: the
 * caller's thread. */
typedef struct mp_targets_walk {
  const mp_targets *t;
  mp_map excluded; /* URNs excluded, with their dependents */
  mp_map deleted;  /* URNs of targeted deletions so far */
} mp_targets_walk;

/* Prepares a walk over |s|: with exclude_dependents, finds everything
 * that depends (by any reference) on an excluded resource. */
void mp_targets_walk_init(mp_targets_walk *w, const mp_targets *t,
                          const mp_snapshot *s);
void mp_targets_walk_destroy(mp_targets_walk *w);
/* Whether the condemned prior resource |r| is deleted: not excluded (nor
 * a dependent of an excluded one), and, when there are targets, a target
 * or (with target_dependents) a dependent of a deletion met earlier in the
 * walk. */
int mp_targets_walk_deletes(const mp_targets_walk *w, const mp_resource *r);
/* Records that |urn| is deleted (its dependents may follow it). */
void mp_targets_walk_deleted(mp_targets_walk *w, const char *urn);

#endif
