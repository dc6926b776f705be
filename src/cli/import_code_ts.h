/* The TypeScript that `import` prints for a Node.js project, as Pulumi's
 * import prints it there (pkg/codegen/nodejs through the import's PCL):
 * one `const` per resource, `new pkg.module.Type(name, {inputs},
 * {protect: true})`, after the package imports. */
#ifndef MP_CLI_IMPORT_CODE_TS_H
#define MP_CLI_IMPORT_CODE_TS_H

#include "engine/mem.h"
#include "engine/value.h"

typedef struct mp_import_code_res {
  const char *name;     /* the resource's name */
  const char *type;     /* its type token, e.g. random:index/randomPet:RandomPet */
  const mp_value *props; /* its inputs (an OBJECT, secrets stripped) or NULL */
} mp_import_code_res;

/* Appends the program text for |res|[0..n) to |out|; |protect|: each
 * carries `protect: true`. */
void mp_import_code_ts(const mp_import_code_res *res, size_t n, int protect,
                       mp_buf *out);

#endif
