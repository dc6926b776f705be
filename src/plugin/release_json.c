/* A release server's JSON answer (plugin/release_json.h). */
#include "plugin/release_json.h"

#include <string.h>

#include "engine/mem.h"
#include "engine/value.h"

int mp_release_json_decode(const char *body, size_t len, const char *what,
                           mp_value **doc, mp_err *err) {
  *doc = NULL;
  if (mp_value_from_json(body ? body : "", len, NULL, doc, err) < 0)
    return mp_err_prefix(err, "cannot decode %s response len(%zu)", what, len);
  return 0;
}

int mp_release_json_asset(const mp_value *release, const char *asset,
                          char **url, mp_err *err) {
  const mp_value *assets =
      release ? mp_value_object_get(release, "assets") : NULL;
  *url = NULL;
  for (size_t i = 0; assets && assets->kind == MP_VALUE_ARRAY &&
                     i < assets->u.arr.len && !*url;
       i++) {
    const mp_value *a = assets->u.arr.items[i];
    const mp_value *n = mp_value_object_get(a, "name");
    const mp_value *u = mp_value_object_get(a, "url");
    if (n && u && n->kind == MP_VALUE_STRING && u->kind == MP_VALUE_STRING &&
        strcmp(n->u.str.ptr, asset) == 0)
      *url = mp_xstrdup(u->u.str.ptr);
  }
  if (*url == NULL)
    return mp_err_set(err, MP_EIO, "plugin asset '%s' not found", asset);
  return 0;
}

int mp_release_json_tag(const mp_value *release, mp_semver *out, mp_err *err) {
  const mp_value *tag =
      release ? mp_value_object_get(release, "tag_name") : NULL;
  const char *t = tag && tag->kind == MP_VALUE_STRING ? tag->u.str.ptr : "";
  if (mp_semver_parse(t, out, err) < 0)
    return mp_err_prefix(err, "invalid plugin version %s", t);
  return 0;
}
