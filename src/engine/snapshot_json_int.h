/* Shared between resource_json.c, snapshot_json.c and the state store: the
 * cJSON form of checkpoint resources (ResourceV3). Internal; the
 * engine sees only snapshot.h. */
#ifndef MP_SNAPSHOT_JSON_INT_H
#define MP_SNAPSHOT_JSON_INT_H

#include <cjson/cJSON.h>

#include "engine/snapshot.h"

enum mp__resource_json_flags {
  /* Reading: leave inputs/outputs NULL instead of decoding them (no
   * decryption needed); for integrity checks that only need references. */
  MP__RES_SKIP_VALUES = 1 << 8
};

/* Builds the ResourceV3 object of |r| (keys in Pulumi's order, empty values
 * omitted). |flags|: mp_deployment_json_flags. Secrets go through |c|.
 * Sets *out (owned, cJSON_Delete) and returns 0, or an MP_E code. */
int mp__resource_to_cjson(const mp_resource *r, const mp_crypter *c,
                          unsigned flags, cJSON **out, mp_err *err);
/* Reads a ResourceV3 object. |flags|: mp__resource_json_flags. Unknown keys
 * are ignored. Sets *out on success; MP_EINVAL names the bad field. */
int mp__resource_from_cjson(const cJSON *j, const mp_crypter *c, unsigned flags,
                            mp_resource **out, mp_err *err);
/* Appends the JSON text of |j| to |out|: compact, or with two-space
 * indentation when |flags| (mp_deployment_json_flags) has
 * MP_DEPLOY_JSON_PRETTY. A thin wrapper over mp__cjson_print. */
void mp__json_print(const cJSON *j, unsigned flags, mp_buf *out);

#endif
