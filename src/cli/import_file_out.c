#include "cli/import_file_out.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/backend.h"
#include "engine/mem.h"
#include "engine/urn.h"

struct mp_import_file_out {
  cJSON *resources;
};

mp_import_file_out *mp_import_file_out_new(void) {
  mp_import_file_out *o = mp_xcalloc(1, sizeof(*o));
  o->resources = cJSON_CreateArray();
  return o;
}

void mp_import_file_out_add(mp_import_file_out *o, const mp_event *ev) {
  if (ev->kind != MP_EVENT_RESOURCE_PRE || ev->meta.op != MP_OP_CREATE ||
      !ev->meta.type || !ev->meta.urn)
    return;
  /* the stack and the providers are made by the import itself */
  if (!strncmp(ev->meta.type, "pulumi:", 7)) return;
  size_t n = 0;
  const char *name = mp_urn_name(ev->meta.urn, &n);
  if (!name) return;
  cJSON *r = cJSON_CreateObject();
  cJSON_AddStringToObject(r, "type", ev->meta.type);
  char *nm = mp_xstrndup(name, n);
  cJSON_AddStringToObject(r, "name", nm);
  free(nm);
  cJSON_AddStringToObject(r, "id", "");
  cJSON_AddItemToArray(o->resources, r);
}

int mp_import_file_out_write(mp_import_file_out *o, const char *path,
                             mp_err *err) {
  cJSON *doc = cJSON_CreateObject();
  cJSON_AddItemReferenceToObject(doc, "resources", o->resources);
  char *text = cJSON_Print(doc);
  cJSON_Delete(doc);
  int rc = mp_cli_write_text_file(path, text, "import file", err);
  free(text);
  return rc;
}

void mp_import_file_out_free(mp_import_file_out *o) {
  if (!o) return;
  cJSON_Delete(o->resources);
  free(o);
}
