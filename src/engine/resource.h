/* Resource state: one entry of a checkpoint's `resources` and a pending
 * operation (tests/conformance/scenarios/S52-pending-operations.scn). */
#ifndef MP_RESOURCE_H
#define MP_RESOURCE_H

#include <stdint.h>

#include "engine/mem.h"
#include "engine/value.h"

/* One input key and the URNs its value came from. */
typedef struct mp_propdep {
  char *key;
  mp_strv urns;
} mp_propdep;

typedef struct mp_propdeps {
  mp_propdep *items; /* sorted by key, unique keys */
  size_t len, cap;
} mp_propdeps;

void mp_propdeps_init(mp_propdeps *p);
void mp_propdeps_destroy(mp_propdeps *p);
void mp_propdeps_copy(mp_propdeps *dst, const mp_propdeps *src); /* dst empty */
/* Returns the entry for |key|, creating it (with no URNs) if needed. */
mp_propdep *mp_propdeps_get(mp_propdeps *p, const char *key);
const mp_propdep *mp_propdeps_find(const mp_propdeps *p, const char *key);
int mp_propdeps_equal(const mp_propdeps *a, const mp_propdeps *b);

/* customTimeouts in seconds; a value < 0 means "not set". */
typedef struct mp_timeouts {
  double create, update, del, read;
} mp_timeouts;

/* When a resource hook runs (RegisterResourceRequest.ResourceHooksBinding):
 * the program's functions around a step, named by the hooks it
 * registered; MP_HOOK_ON_ERROR names the error hooks, asked whether a
 * failed create, update or delete is tried again. */
enum mp_hook_kind {
  MP_HOOK_BEFORE_CREATE,
  MP_HOOK_AFTER_CREATE,
  MP_HOOK_BEFORE_UPDATE,
  MP_HOOK_AFTER_UPDATE,
  MP_HOOK_BEFORE_DELETE,
  MP_HOOK_AFTER_DELETE,
  MP_HOOK_ON_ERROR,
  MP_HOOK_KINDS
};
/* "beforeCreate", ... "afterDelete", "onError": the SDK's names. */
extern const char *const mp_hook_kind_names[MP_HOOK_KINDS];
/* "BeforeCreate", ... "OnError": the keys of a state's "resourceHooks"
 * (Pulumi's HookType). */
extern const char *const mp_hook_state_keys[MP_HOOK_KINDS];

typedef struct mp_resource {
  char *urn;  /* never NULL */
  char *type; /* never NULL */
  int custom;
  int delete_; /* `delete`: an old copy awaiting deletion */
  char *id;    /* NULL for components */
  mp_value *inputs;  /* OBJECT or NULL (= empty) */
  mp_value *outputs; /* OBJECT or NULL (= empty) */
  char *parent;      /* URN or NULL */
  int protect;
  int taint;
  int external;
  mp_strv dependencies;
  mp_strv init_errors;
  char *provider; /* "<urn>::<id>" or NULL */
  mp_propdeps property_dependencies;
  int pending_replacement;
  mp_strv additional_secret_outputs;
  mp_strv aliases; /* the URN it was found under, when an alias matched */
  int has_custom_timeouts;
  mp_timeouts custom_timeouts;
  char *import_id;
  int retain_on_delete;
  char *deleted_with;
  mp_strv replace_with;
  char *created; /* RFC 3339 UTC, or NULL */
  char *modified;
  char *source_position;
  mp_strv ignore_changes;
  mp_strv replace_on_changes;
  mp_strv hide_diffs;
  /* replacementTrigger: any value, NULL when none; a change replaces. */
  mp_value *replacement_trigger;
  int refresh_before_update;
  /* Hook names by kind (MP_HOOK_KINDS lists), or NULL when it has none:
   * kept so that the delete hooks run when the program no longer declares
   * the resource. A pointer, as few resources have hooks and every
   * resource of a large stack is held two or three times
   * (mp_resource_hooks). */
  mp_strv *hooks;
  /* extensionRef: the extension (a key of the snapshot's `extensions`)
   * its provider must be parameterized with to serve it, or NULL. */
  char *extension_ref;

  /* Not part of the checkpoint: the state store's identity of this entry,
   * 0 when it is not (yet) stored. Owned by the store's owner thread. */
  int64_t row;
} mp_resource;

/* The kinds of reference a resource makes to other resources. */
enum mp_ref_kinds {
  MP_REF_PARENT = 1 << 0,
  MP_REF_DELETED_WITH = 1 << 1,
  MP_REF_DEPENDENCY = 1 << 2,
  MP_REF_PROPERTY = 1 << 3, /* property dependencies */
  MP_REF_PROVIDER = 1 << 4, /* the URN of its provider reference */
  MP_REF_REPLACE_WITH = 1 << 5, /* replaceWith (Pulumi's GetAllDependencies
                                   counts them as dependencies too) */
  MP_REF_ALL = (1 << 6) - 1
};

/* Appends to |out| (copies) every URN |r| refers to whose kind is in
 * |kinds| (enum mp_ref_kinds), in this order: parent, deletedWith,
 * dependencies, property dependencies by key, provider, replaceWith.
 * Repeats are kept.
 * A provider reference is read with mp_provider_ref_parse; one that does
 * not parse adds nothing. */
void mp_resource_refs(const mp_resource *r, unsigned kinds, mp_strv *out);
/* The same over the parts, for what is not yet a resource (a goal); the
 * caller adds replaceWith. */
void mp_refs_append(const char *parent, const char *deleted_with,
                    const mp_strv *dependencies,
                    const mp_propdeps *property_dependencies,
                    const char *provider, unsigned kinds, mp_strv *out);

/* Allocates a zeroed resource with copies of |urn| and |type|. */
mp_resource *mp_resource_new(const char *urn, const char *type, int custom);
void mp_resource_free(mp_resource *r); /* NULL is fine */
/* Deep copy (row included). */
mp_resource *mp_resource_dup(const mp_resource *r);
/* |r|'s hook names of |kind|: an empty list when it has none. */
const mp_strv *mp_resource_hooks(const mp_resource *r, int kind);
/* |r|'s hook names of |kind| to fill, its lists made when it had none. */
mp_strv *mp_resource_hooks_mut(mp_resource *r, int kind);
/* 1 if the two are equal in every checkpoint field (row ignored). */
int mp_resource_equal(const mp_resource *a, const mp_resource *b);
/* Rewrites |r|'s references to URN |from| (parent, deletedWith,
 * dependencies, replaceWith, property dependencies, provider) to |to|;
 * returns 1 if any was rewritten. */
int mp_resource_rewrite_refs(mp_resource *r, const char *from, const char *to);

typedef enum mp_pending_type {
  MP_PENDING_CREATING = 0,
  MP_PENDING_UPDATING,
  MP_PENDING_DELETING,
  MP_PENDING_READING,
  MP_PENDING_IMPORTING
} mp_pending_type;

/* "creating", "updating", ... */
const char *mp_pending_type_name(mp_pending_type t);
/* Parses a name; returns 0 or MP_EINVAL. */
int mp_pending_type_parse(const char *s, mp_pending_type *out);

typedef struct mp_pending_op {
  mp_resource *res; /* owned */
  mp_pending_type type;
  int64_t row; /* store identity, 0 if not stored */
} mp_pending_op;

/* Current UTC time as RFC 3339 with seconds ("2025-01-02T03:04:05Z").
 * Owned result. */
char *mp_now_rfc3339(void);

#endif
