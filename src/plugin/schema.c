/* ResourceProvider/GetSchema on a launched plugin (`package get-schema`,
 * and the Pulumi YAML host's look-up of a package's types): the package
 * schema a provider describes itself with. */
#include <stdlib.h>
#include <string.h>

#include "plugin/plugin_int.h"
#include "pulumi/provider.pb-c.h"

int mp__plugin_get_schema(mp_provider *prov, int version, const char *sub_name,
                          const char *sub_version, char **json, mp_err *err) {
  *json = NULL;
  mp__plugin *p = (mp__plugin *)prov;
  Pulumirpc__GetSchemaRequest req = PULUMIRPC__GET_SCHEMA_REQUEST__INIT;
  req.version = version;
  if (sub_name) req.subpackage_name = (char *)sub_name;
  if (sub_version) req.subpackage_version = (char *)sub_version;
  Pulumirpc__GetSchemaResponse *resp = NULL;
  mp_prov_resp r;
  mp_prov_resp_init(&r);
  int unimpl = 0;
  int rc = mp__plugin_rpc(p, "/pulumirpc.ResourceProvider/GetSchema",
                          &req.base, &pulumirpc__get_schema_response__descriptor,
                          &resp, p->h->setup_timeout_ms, &r, &unimpl, err);
  mp_prov_resp_destroy(&r);
  if (unimpl)
    return mp_err_set(err, MP_ENOENT,
                      "plugin '%s' does not implement GetSchema", p->name);
  if (rc < 0) {
    mp_err_prefix(err, "plugin '%s': GetSchema failed", p->name);
    return rc;
  }
  *json = mp_xstrdup(resp->schema ? resp->schema : "");
  protobuf_c_message_free_unpacked(&resp->base, NULL);
  return 0;
}
