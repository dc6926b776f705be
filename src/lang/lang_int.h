/* Shared between the files of src/lang (not part of the public API). */
#ifndef MP_LANG_INT_H
#define MP_LANG_INT_H

#include "lang/yaml.h"
#include "lang/ynode.h"

/* Owner: whoever loaded it; read-only afterwards. */
struct mp_project {
  char *dir, *name, *runtime, *description, *main;
  mp_project_config *config; /* declared keys; strings and defaults owned */
  size_t nconfig;
  char *program_dir;  /* folder the program's relative paths start from */
  char *program_file; /* display name of the program file ("Pulumi.yaml") */
  mp__ynode *program; /* the program document (runtime yaml), or NULL */
};

/* Converts a scalar or a tree of YAML nodes to a plain value (numbers,
 * booleans and null from plain scalars, strings otherwise). Owned. */
mp_value *mp__lang_node_value(const mp__ynode *n);

/* "string", "integer", ... for a Pulumi config type as written in
 * `config:` ("string") or `configuration:` ("String", "List<String>");
 * NULL for an unknown type. */
const char *mp__lang_config_type(const char *declared);
/* The config type name of |v| (integer for whole numbers). */
const char *mp__lang_value_type(const mp_value *v);

#endif
