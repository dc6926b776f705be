/* GetSchema and GetPackageSchema: the deployment is asked for the
 * package's schema. */
#include "monitor/monitor.h"

#include <stdlib.h>
#include <string.h>

#include "engine/map.h"
#include "engine/registry.h"
#include "engine/urn.h"
#include "engine/value_pb.h"
#include "monitor/marshal.h"
#include "monitor/monitor_int.h"
#include "monitor/resource_hooks.h"

/* Asks the deployment for |pkg|'s schema (|param|: of the plugin
 * parameterized with it, or NULL). */
static int ask_schema(mp_monitor *m, const char *pkg, const char *version,
                      const char *url, const mp_provider_param *param,
                      mp_schema_cb cb, void *ud, mp_err *err) {
  if (m->o.hooks.schema == NULL)
    return mp_err_set(err, MP_ENOENT,
                      "package '%s': this deployment serves no schemas", pkg);
  return m->o.hooks.schema(m->o.hooks.ud, pkg, version, url, param, cb, ud,
                           err);
}

int mp_monitor_get_schema(mp_monitor *m, const char *pkg, const char *version,
                          const char *url, mp_schema_cb cb, void *ud,
                          mp_err *err) {
  if (pkg == NULL || pkg[0] == '\0')
    return mp_err_set(err, MP_EINVAL, "GetSchema: no package named");
  return ask_schema(m, pkg, version && version[0] ? version : NULL,
                    url && url[0] ? url : NULL, NULL, cb, ud, err);
}

int mp_monitor_get_package_schema(mp_monitor *m, const char *ref,
                                  mp_schema_cb cb, void *ud, mp_err *err) {
  const mp__package *p = ref ? mp__packages_find(m->packages, ref) : NULL;
  if (p == NULL)
    return mp_err_set(err, MP_EINVAL, "unknown provider package '%s'",
                      ref ? ref : "");
  mp_provider_param param;
  if (!mp__package_param(p, &param) && !mp__package_ext(p, &param))
    return mp_monitor_get_schema(m, p->name, p->version, p->download_url, cb,
                                 ud, err);
  return ask_schema(m, param.name, p->version, p->download_url, &param, cb, ud,
                    err);
}
