/* Validation of a Pulumi package schema (`schema check`): what Pulumi's
 * schema binder (pkg/codegen/schema/bind.go) rejects before any code is
 * generated, reported with the file position and the schema path. */
#ifndef MP_LANG_SCHEMA_CHECK_H
#define MP_LANG_SCHEMA_CHECK_H

#include <stdio.h>

/* Checks the schema file |path| (JSON or YAML; |file| names it in
 * messages) and prints one "error: <file>:<line>:<col>: #/<path>: ..."
 * line per problem to |err|. Returns the count of errors (a file that
 * cannot be read or parsed is one). */
int mp_schema_check_file(const char *path, const char *file, FILE *err);

#endif
