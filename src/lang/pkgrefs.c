/* The parameterized packages a Pulumi YAML program declares, registered
 * with the engine before the program runs, as Pulumi YAML's findPackageRefs
 * does (pulumi-yaml pkg/pulumiyaml/run.go): RegisterPackage names the base
 * plugin and the parameterization, and the reference it answers goes with
 * every resource, read and fn::invoke of the package (their packageRef),
 * so that the engine serves them with the plugin parameterized into the
 * package. An extension (`extension:`) is registered as one
 * (RegisterPackage's `extension`), under its own name: its resources are
 * told from the base package's by the schema that has their type
 * (schemas.c), as Pulumi YAML routes them (packages.go loadPackages,
 * run.go distinctName). Loop thread. */
#include <stdlib.h>
#include <string.h>

#include "engine/crypto.h"
#include "lang/prog.h"

static int register_one(mp__prog *p, mp_monitor *m,
                        const mp_project_package *k, mp_err *err) {
  /* An extension is known by its own name; it shares its namespace with
   * the base package. */
  const char *ns = k->extension ? k->param_name : mp_project_package_namespace(k);
  if (mp__prog_package_ref(p, ns)) return 0; /* the first declaration wins */
  mp_buf value;
  mp_buf_init(&value);
  int rc = k->param_value ? mp_base64_decode(k->param_value,
                                             strlen(k->param_value), &value,
                                             err)
                          : 0;
  Pulumirpc__Parameterization z = PULUMIRPC__PARAMETERIZATION__INIT;
  z.name = (char *)k->param_name;
  z.version = (char *)(k->param_version ? k->param_version : "");
  z.value.data = (uint8_t *)value.data;
  z.value.len = value.len;
  Pulumirpc__RegisterPackageRequest req =
      PULUMIRPC__REGISTER_PACKAGE_REQUEST__INIT;
  req.name = (char *)k->name;
  req.version = (char *)(k->version ? k->version : "");
  req.download_url = (char *)(k->download_url ? k->download_url : "");
  if (k->extension)
    req.extension = &z;
  else
    req.parameterization = &z;
  char *ref = NULL;
  if (rc == 0) rc = mp_monitor_register_package(m, &req, &ref, err);
  mp_buf_destroy(&value);
  if (rc < 0) {
    mp_err_prefix(err, "registering package %s", k->name);
    return rc;
  }
  mp_strv_push(&p->pkg_refs, ns);
  mp_strv_push_take(&p->pkg_refs, ref);
  return 0;
}

int mp__prog_register_packages(mp__prog *p, mp_monitor *m, mp_err *err) {
  for (size_t i = 0; i < mp_project_package_count(p->proj); i++) {
    const mp_project_package *k = mp_project_package_at(p->proj, i);
    if (k->param_name == NULL) continue;
    int rc = register_one(p, m, k, err);
    if (rc < 0) return rc;
  }
  return 0;
}

const char *mp__prog_package_ref(const mp__prog *p, const char *ns) {
  for (size_t i = 0; ns && i + 1 < p->pkg_refs.len; i += 2)
    if (strcmp(p->pkg_refs.items[i], ns) == 0) return p->pkg_refs.items[i + 1];
  return NULL;
}
