/* The program of the `import` command: registers the stack and each
 * resource to import (its type, name and ID given as they are, with the
 * `import` and `protect` options) straight to the monitor. No program
 * text is written, so nothing in a name or an ID is ever read as YAML or
 * as a ${...} expression. */
#ifndef MP_DEPLOY_IMPORT_SOURCE_H
#define MP_DEPLOY_IMPORT_SOURCE_H

#include <stddef.h>

#include "engine/mem.h"
#include "engine/snapshot.h"
#include "monitor/api.h"

/* One resource to import: its type token (resolved: `random:index/...`),
 * name and provider ID. */
typedef struct mp_import_item {
  char *type, *name, *id;
  char *urn;     /* set once the stack is known */
  mp_strv props; /* the read inputs to keep (Pulumi's import properties);
                    empty: all */
} mp_import_item;

typedef struct mp_import_list {
  mp_import_item *items;
  size_t len;
  int protect; /* mark the imported resources protected */
  /* import --parent and --provider (Pulumi's name=urn, resolved): the
   * parent's URN and the provider's reference `<urn>::<id>`; NULL: the
   * stack, the default provider. */
  const char *parent, *provider;
  /* With a parent or a provider: the stack's prior state, whose resources
   * are registered first, in order and unchanged, as Pulumi's import
   * registers every existing one (borrowed; NULL: none). */
  const mp_snapshot *existing;
} mp_import_list;

/* A source that imports |l| (borrowed; it must outlive the source). Free
 * through its vtable. */
mp_source *mp_import_source_new(const mp_import_list *l);

/* The properties to keep of the import of |urn| in list |ud| (an
 * mp_import_list), for mp_stepgen_opts.import_properties; NULL: all. */
const mp_strv *mp_import_properties_of(void *ud, const char *urn);

#endif
