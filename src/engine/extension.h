/* Extension packages (Pulumi's apitype.Extension and ExtensionRef): a
 * package that a base plugin serves once Parameterize gave it the
 * extension's name, version and value, on the base package's own provider
 * instance. A resource of it keeps the extension's reference in its state
 * (`extensionRef`) and the snapshot keeps each referenced extension under
 * `extensions` (its value in base64), so that a later run can
 * parameterize the provider again without the program
 * (docs/plugins.md). */
#ifndef MP_EXTENSION_H
#define MP_EXTENSION_H

#include <stddef.h>

#include "engine/err.h"
#include "engine/mem.h"

typedef struct mp_extension {
  char *ref;     /* its key: mp_extension_ref of the three below */
  char *name;    /* the extension package's name */
  char *version; /* its version */
  mp_buf value;  /* the parameter's bytes */
} mp_extension;

typedef struct mp_extensions {
  mp_extension *items;
  size_t len, cap;
} mp_extensions;

/* The reference of an extension, as Pulumi's RegisterPackage makes it
 * (source_eval.go hashExtension): the SHA-256, in lower-case hex, of the
 * name, a NUL byte, the version, a NUL byte and the value. Owned. */
char *mp_extension_ref(const char *name, const char *version,
                       const void *value, size_t len);

void mp_extensions_init(mp_extensions *x);
void mp_extensions_destroy(mp_extensions *x);
/* The extension under |ref|, or NULL. Borrowed. */
const mp_extension *mp_extensions_find(const mp_extensions *x,
                                       const char *ref);
/* Adds a copy of |e| unless its ref is there already; 1 if added. */
int mp_extensions_put(mp_extensions *x, const mp_extension *e);
/* Adds copies of every extension of |src| not in |dst|. */
void mp_extensions_merge(mp_extensions *dst, const mp_extensions *src);

/* One extension as JSON text, `{"name":..,"version":..,"value":<base64>}`
 * (apitype.Extension), appended to |out|. */
void mp_extension_to_json(const mp_extension *e, mp_buf *out);
/* Parses that text (|len| bytes) into |e| (owned fields), keyed |ref|;
 * MP_ESTATE naming |ref| when it is not of that shape. */
int mp_extension_from_json(const char *ref, const char *text, size_t len,
                           mp_extension *e, mp_err *err);
void mp_extension_destroy(mp_extension *e);

#endif
