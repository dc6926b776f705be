/* A resource goal: what the program asked for in one RegisterResource or
 * ReadResource call, after the monitor unmarshalled it. */
#ifndef MP_GOAL_H
#define MP_GOAL_H

#include "engine/mem.h"
#include "engine/resource.h"
#include "engine/value.h"

/* An alias: a full URN, or a spec whose unset parts default to the resource's
 * own (tests/conformance/scenarios/X17-inherited-child-aliases.scn). */
typedef struct mp_alias {
  char *urn; /* set for a URN alias; then the rest is unused */
  char *name, *type, *stack, *project;
  char *parent_urn; /* NULL: the current parent */
  int no_parent;
} mp_alias;

typedef struct mp_goal {
  char *type;
  char *name;
  int custom;
  char *parent;  /* URN or NULL */
  mp_value *inputs; /* OBJECT, owned, never NULL */
  char *provider;   /* explicit "<urn>::<id>" or NULL (default) */
  mp_strv dependencies;
  mp_propdeps propdeps;
  int has_propdeps; /* 0: back-fill from dependencies (S23) */
  int protect;      /* -1 unset */
  int dbr;          /* deleteBeforeReplace: -1 unset, 0, 1 */
  int retain_on_delete; /* -1 unset */
  mp_strv ignore_changes;
  mp_strv replace_on_changes;
  mp_strv additional_secret_outputs;
  mp_strv hide_diffs;
  mp_strv hooks[MP_HOOK_KINDS]; /* resource hook names by kind */
  mp_strv replace_with;
  mp_value *replacement_trigger; /* any value, or NULL: none */
  mp_alias *aliases;
  size_t naliases;
  char *deleted_with;
  char *import_id;
  int has_timeouts;
  mp_timeouts timeouts;
  char *version;
  char *plugin_download_url;
  char *source_position;
  /* The extension its package is (a packageRef of an extension package):
   * its provider is parameterized with it, and its state records it. */
  char *extension_ref;
  /* ReadResource */
  int is_read;
  char *read_id;
} mp_goal;

mp_goal *mp_goal_new(const char *type, const char *name, int custom);
void mp_goal_free(mp_goal *g);
/* Appends a copy of |a|. */
void mp_goal_add_alias(mp_goal *g, const mp_alias *a);
void mp_alias_destroy(mp_alias *a);

#endif
