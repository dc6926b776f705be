/* preview --import-file: the resources a preview would create, written as
 * the import file that `minipulumi import --file` reads (Pulumi's
 * {"resources": [{"type", "name", "id"}]}), each ID left empty for the
 * user to fill in. */
#ifndef MP_CLI_IMPORT_FILE_OUT_H
#define MP_CLI_IMPORT_FILE_OUT_H

#include "engine/err.h"
#include "engine/events.h"

typedef struct mp_import_file_out mp_import_file_out;

mp_import_file_out *mp_import_file_out_new(void);
/* Notes a planned create of a custom resource (other events are left). */
void mp_import_file_out_add(mp_import_file_out *o, const mp_event *ev);
/* Writes the file at |path|. Returns 0 or an MP_E code. */
int mp_import_file_out_write(mp_import_file_out *o, const char *path,
                             mp_err *err);
void mp_import_file_out_free(mp_import_file_out *o);

#endif
