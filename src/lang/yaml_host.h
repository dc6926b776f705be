/* The embedded Pulumi YAML language host (`runtime: yaml`), which runs the
 * project of lang/project.h. The host evaluates the program inside the
 * engine and talks to it only through the monitor entry points of
 * monitor/api.h. */
#ifndef MP_LANG_YAML_HOST_H
#define MP_LANG_YAML_HOST_H

#include <stddef.h>

#include "engine/err.h"
#include "monitor/api.h"
#include "engine/value.h"
#include "lang/project.h"

/* Creates the Pulumi YAML language host for |p| (runtime yaml; |p| must
 * outlive the source). The first host made for |p| checks what the host
 * reads of the project file (runtime, description, main, the declared
 * config) and takes the program: Main.yaml in the program folder when it
 * exists, else the project file's own document. The program itself is
 * checked when the source starts: start() returns MP_EINVAL with
 * "<file>:<line>:<col>: ..." for a missing reference, a cycle, an unknown
 * type or function, a bad option or bad config, before anything is
 * registered. Sets |*out| (free with s->vt->free). Returns 0 or MP_EINVAL
 * (another runtime, or the checks above; the message names the file,
 * line and column). */
int mp_yaml_source_new(mp_project *p, mp_source **out, mp_err *err);
/* |s| (from mp_yaml_source_new; another source is left alone) is the last
 * run of its project's program: the program's document, every node of a
 * large program, is freed once analysed, since the analysis keeps what it
 * needs. The project cannot run its program again. Returns 1 for a YAML
 * source (whose state is memory only), 0 for another or NULL. */
int mp_yaml_source_last_use(mp_source *s);
/* Resolves a Pulumi YAML type token the way Pulumi YAML does for the
 * built-in packages (random, command, local, test): `pkg:Type` means
 * `pkg:index:Type`, then the package's real token (e.g.
 * `random:index/randomPet:RandomPet`). Tokens of other packages come back
 * as `pkg:module:Type` (owned string in |*out|); the host resolves them
 * through their package's schema when the program starts (schemas.c). A
 * type of a built-in package that its built-in provider lacks
 * (command:remote:Command) comes back as written: its plugin serves it.
 * Returns 0 or MP_EINVAL for a malformed token or a type the package
 * lacks. */
int mp_yaml_resolve_type(const char *token, char **out, mp_err *err);
/* The schema's properties of the resolved built-in type |token|
 * (NULL-terminated, static), or NULL when its schema is not known (no
 * check is made then). */
const char *const *mp_yaml_type_properties(const char *token);

#endif
