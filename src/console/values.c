/* Property values as the console shows them: plain JSON, with secrets
 * masked and the engine's special values (assets, references, unknowns)
 * as small objects. */
#include "console/model.h"

#define SECRET_TEXT "[secret]"

static cJSON *strings(const char *const *kv, size_t n) {
  cJSON *o = cJSON_CreateObject();
  for (size_t i = 0; i + 1 < n; i += 2)
    if (kv[i + 1])
      cJSON_AddStringToObject(o, kv[i], kv[i + 1]);
  return o;
}

cJSON *mp_console_value_json(const mp_value *v, int show) {
  if (v == NULL)
    return cJSON_CreateNull();
  switch (v->kind) {
  case MP_VALUE_NULL:
    return cJSON_CreateNull();
  case MP_VALUE_BOOL:
    return cJSON_CreateBool(v->u.boolean);
  case MP_VALUE_NUMBER:
    return cJSON_CreateNumber(v->u.number);
  case MP_VALUE_STRING:
    return cJSON_CreateString(v->u.str.ptr);
  case MP_VALUE_ARRAY: {
    cJSON *a = cJSON_CreateArray();
    for (size_t i = 0; i < v->u.arr.len; i++)
      cJSON_AddItemToArray(a, mp_console_value_json(v->u.arr.items[i], show));
    return a;
  }
  case MP_VALUE_OBJECT: {
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; i < v->u.obj.len; i++)
      cJSON_AddItemToObject(
          o, v->u.obj.items[i].key,
          mp_console_value_json(v->u.obj.items[i].value, show));
    return o;
  }
  case MP_VALUE_ASSET: {
    const char *kv[] = {"hash", v->u.asset.hash, "path", v->u.asset.path,
                        "uri",  v->u.asset.uri,  "text", v->u.asset.text};
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "asset", strings(kv, MP_ARRAY_LEN(kv)));
    return o;
  }
  case MP_VALUE_ARCHIVE: {
    const char *kv[] = {"hash", v->u.archive.hash, "path", v->u.archive.path,
                        "uri",  v->u.archive.uri};
    cJSON *a = strings(kv, MP_ARRAY_LEN(kv));
    if (v->u.archive.assets)
      cJSON_AddItemToObject(a, "assets",
                            mp_console_value_json(v->u.archive.assets, show));
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "archive", a);
    return o;
  }
  case MP_VALUE_RESOURCE_REF: {
    const char *kv[] = {"urn", v->u.ref.urn, "id", v->u.ref.id};
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "resourceRef", strings(kv, MP_ARRAY_LEN(kv)));
    return o;
  }
  case MP_VALUE_UNKNOWN:
    return cJSON_CreateString("[unknown]");
  case MP_VALUE_SECRET:
    return show ? mp_console_value_json(v->u.secret, show)
                : cJSON_CreateString(SECRET_TEXT);
  case MP_VALUE_OUTPUT:
    if (v->u.output.secret && !show)
      return cJSON_CreateString(SECRET_TEXT);
    return v->u.output.value ? mp_console_value_json(v->u.output.value, show)
                             : cJSON_CreateString("[unknown]");
  }
  return cJSON_CreateNull();
}
