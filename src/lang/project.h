/* A Pulumi project: its Pulumi.yaml read and checked, and what every
 * runtime (the embedded YAML host, the Node.js host, the CLI) asks of it:
 * name, runtime and its options, main, config keys, plugins and packages.
 * Implemented in src/lang/project.c. */
#ifndef MP_LANG_PROJECT_H
#define MP_LANG_PROJECT_H

#include <stddef.h>

#include "engine/err.h"
#include "engine/value.h"

typedef struct mp_project mp_project; /* opaque; src/lang/project.c */

/* One declared project config key (Pulumi.yaml `config:` or the Pulumi
 * YAML `configuration:` section). */
typedef struct mp_project_config {
  const char *key;     /* as declared: "size" or "aws:region"; the program
                          refers to it by this name */
  const char *name;    /* `name:`, the config key read in its place
                          ("instanceSize"), or NULL: the key itself */
  const char *type;    /* "string", "integer", "number", "boolean",
                          "array", "object", or NULL (from the default) */
  const mp_value *def; /* the default, or NULL: the key is required */
  int secret;          /* declared `secret: true` */
  int line, col;       /* where the key is declared */
} mp_project_config;

/* Loads the project in |dir|, reading and parsing its Pulumi.yaml (or
 * Pulumi.yml) once: the fields every command needs are checked and kept
 * (name, runtime, description, main, program folder, config defaults),
 * and so is the document, for the language host. Sets |*out| (owned;
 * mp_project_free). Returns 0, MP_ENOENT (no project file), MP_EIO
 * (unreadable) or MP_EINVAL (YAML syntax error, not a mapping, no name or
 * a name that is not a non-empty string, a runtime that is neither a
 * string nor a mapping with a `name`; the message names the file). */
int mp_project_load(const char *dir, mp_project **out, mp_err *err);
/* Frees |p|; NULL is fine. */
void mp_project_free(mp_project *p);
/* The project's name as the head of its Pulumi.yaml gives it, without
 * loading it (owned), or NULL when `name:` is not among the first keys or
 * the file cannot be read. A guess: mp_project_load has the last word. */
char *mp_project_peek_name(const char *dir);

/* Accessors; the strings are borrowed from |p|. runtime, description and
 * main may be NULL. dir is the project folder as given to mp_project_load;
 * program_dir is dir/<main> when main is set, else dir. defaults maps
 * "<ns>:<key>" to each declared config default, scalars as strings. */
const char *mp_project_name(const mp_project *p);
const char *mp_project_runtime(const mp_project *p);
const char *mp_project_description(const mp_project *p);
const char *mp_project_main(const mp_project *p);
const char *mp_project_dir(const mp_project *p);
const char *mp_project_program_dir(const mp_project *p);
/* The folder the program runs from as Pulumi reckons it (getPwdMain):
 * program_dir when it is a folder, else the folder of the file `main`
 * names (owned). */
char *mp_project_pwd(const mp_project *p);
const mp_value *mp_project_defaults(const mp_project *p);
/* The text of `runtime: {options: {<key>: ...}}` (e.g. "typescript",
 * "nodeargs", "tsconfig"), or NULL when not given or not a scalar. */
const char *mp_project_runtime_option(const mp_project *p, const char *key);
/* The declared config keys (Pulumi.yaml `config:`, Pulumi YAML
 * `configuration:`), known once a YAML host was made for |p|. The |i|th
 * (borrowed), in declaration order. */
size_t mp_project_config_count(const mp_project *p);
const mp_project_config *mp_project_config_at(const mp_project *p, size_t i);

/* A provider plugin the project names (Pulumi.yaml `plugins.providers`:
 * `name` and `path`, the path as written, and `version`, NULL when
 * absent). */
typedef struct mp_project_plugin {
  const char *name;
  const char *path;
  const char *version;
} mp_project_plugin;

/* The project's provider plugins, in file order; entries without a name
 * or a path are skipped. The |i|th is borrowed from |p|. */
size_t mp_project_plugin_count(const mp_project *p);
const mp_project_plugin *mp_project_plugin_at(const mp_project *p, size_t i);
/* Whether a `packages:` source is a folder on disk (`./x`, `../x`, `/x`):
 * Pulumi.yaml `packages: {<name>: ./folder}` makes the folder the plugin
 * of <name>, among the plugins above (last). */
int mp_project_is_local_source(const char *source);

/* A package the program declares: a Pulumi YAML package declaration
 * (any `.yaml` file under the program folder with
 * `packageDeclarationVersion: 1`, `sdks/<pkg>.yaml` by convention) or an
 * entry of Pulumi.yaml's `packages:`. These are the program's required
 * packages: a resource of the package that names no version of its own
 * asks for |version| and |download_url| (its default provider is then
 * default_<version>), and a pass that installs plugins before the
 * deployment can read (name, version, download_url) here. Strings are
 * borrowed from the project; any may be NULL but |name|. */
typedef struct mp_project_package {
  const char *name;          /* the plugin ("simple") */
  const char *version;       /* the plugin's version ("2.0.0") */
  const char *download_url;  /* `downloadUrl` */
  const char *param_name;    /* the package it is parameterized into, or
                                the extension's name */
  const char *param_version;
  const char *param_value;   /* base64, as written */
  int extension;             /* the parameterization is an `extension:` */
} mp_project_package;

/* The declared packages, in the order Pulumi YAML finds them (Pulumi.yaml
 * `packages:`, then the declaration files in path order), known once a
 * YAML host was made for |p|. The |i|th is borrowed. */
size_t mp_project_package_count(const mp_project *p);
const mp_project_package *mp_project_package_at(const mp_project *p,
                                                size_t i);
/* The package whose resource tokens start with |k|'s namespace: the
 * parameterized name, else the plugin's. */
const char *mp_project_package_namespace(const mp_project_package *k);
/* The declaration (not parameterized) of plugin |pkg|, or NULL. */
const mp_project_package *mp_project_package_for(const mp_project *p,
                                                 const char *pkg);

#endif
