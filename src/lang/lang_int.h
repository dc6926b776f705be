/* Shared between the files of src/lang (not part of the public API). */
#ifndef MP_LANG_INT_H
#define MP_LANG_INT_H

#include "lang/yaml_host.h"
#include "lang/ynode.h"

/* Owner: whoever loaded it. Pulumi.yaml is read once: its document is
 * kept (|doc|) until the host takes the program from it. */
struct mp_project {
  char *dir, *name, *runtime, *description, *main;
  char *path;         /* the project file, as messages of every command name
                         it */
  char *file_name;    /* "Pulumi.yaml" or "Pulumi.yml", as the host's
                         messages name it */
  char *program_dir;  /* folder the program's relative paths start from */
  mp_value *defaults; /* "<ns>:<key>" -> declared default (strings) */
  mp_ynode *doc;      /* the project file's document, or NULL */
  mp_value *runtime_options; /* `runtime: {options: ...}` (strings), or NULL */
  mp_project_plugin *plugins; /* plugins.providers; strings owned */
  size_t nplugins;
  mp_project_package *packages; /* declared packages; strings owned */
  size_t npackages;
  /* The language host's part, loaded once (mp__project_load_program). */
  int program_rc;
  mp_err program_err;
  mp_project_config *config; /* declared keys; strings and defaults owned */
  size_t nconfig;
  char *program_file; /* display name of the program file ("Pulumi.yaml") */
  mp_ynode *program;  /* the program document (runtime yaml), or NULL */
};

/* Checks what the Pulumi YAML host reads of |p| (runtime, description,
 * main, the declared config) and takes the program (Main.yaml, else the
 * project file's own document). Done once; a later call gives the first
 * outcome. Returns 0 or MP_EINVAL ("<file>:<line>:<col>: ..."). */
int mp__project_load_program(mp_project *p, mp_err *err);
/* Frees the program document after its last use; a later
 * mp__project_load_program fails and says so. */
void mp__project_drop_program(mp_project *p);

/* Finds the declared packages (packages.c): Pulumi.yaml's `packages:`
 * and the package declarations under the program folder. Returns 0 or
 * MP_EINVAL (a declaration that is not valid, naming its file). */
int mp__pkgdecls_load(mp_project *p, mp_err *err);
void mp__pkgdecls_free(mp_project *p);
/* A request of package |pkg| that names no version (*version; NULL or
 * "") or no download URL (*url) asks for what the package's declaration
 * says, each on its own, as the engine normalizes a default provider
 * request (sets owned strings over them). */
void mp__pkgdecls_apply(const mp_project *p, const char *pkg, char **version,
                        char **url);

/* Whether the types of package |pkg| are the built-in packages' (types.c:
 * random, command, local, test), resolved without a schema. */
int mp__yaml_builtin_package(const char *pkg);

/* "string", "integer", ... for a Pulumi config type as written in
 * `config:` ("string") or `configuration:` ("String", "List<String>");
 * NULL for an unknown type. */
const char *mp__lang_config_type(const char *declared);
/* The config type name of |v| (integer for whole numbers). */
const char *mp__lang_value_type(const mp_value *v);

/* The number of user-perceived characters (extended grapheme clusters)
 * of the UTF-8 text |s| of |n| bytes (grapheme.c). */
size_t mp__grapheme_count(const char *s, size_t n);

#endif
