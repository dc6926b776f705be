/* The plugins a Pulumi YAML program names (lang/required.h), read as
 * Pulumi YAML's GetReferencedPlugins reads them: each resource's package
 * (the third part of an explicit provider's `pulumi:providers:<pkg>`,
 * else the type's first part) with its `options.version` and
 * `options.pluginDownloadURL`. */
#include <stdlib.h>
#include <string.h>

#include "engine/mem.h"
#include "lang/lang_int.h"
#include "lang/required.h"

/* The text of a literal scalar (no `${...}`: an option given by an
 * expression is known only when the program runs), else NULL. */
static const char *literal(const mp_ynode *n) {
  if (n == NULL || n->kind != MP_YNODE_SCALAR || mp_ynode_is_null(n))
    return NULL;
  return strstr(n->text, "${") ? NULL : n->text;
}

static char *package_of(const char *type) {
  if (strncmp(type, "pulumi:providers:", 17) == 0 && type[17])
    return mp_xstrdup(type + 17);
  return mp_xstrndup(type, strcspn(type, ":"));
}

void mp__required_yaml(mp_project *p, mp_required_plugins *out) {
  mp_err e;
  mp_err_clear(&e);
  if (mp__project_load_program(p, &e) != 0 || p->program == NULL) return;
  const mp_ynode *res = mp_ynode_get(p->program, "resources");
  if (res == NULL || res->kind != MP_YNODE_MAP) return;
  for (size_t i = 0; i < res->n; i++) {
    const mp_ynode *r = res->vals[i];
    if (r->kind != MP_YNODE_MAP) continue;
    const char *type = literal(mp_ynode_get(r, "type"));
    if (type == NULL || *type == '\0') continue;
    char *pkg = package_of(type);
    const mp_ynode *o = mp_ynode_get(r, "options");
    const mp_ynode *opts = o && o->kind == MP_YNODE_MAP ? o : NULL;
    if (*pkg && strcmp(pkg, "pulumi") != 0)
      mp_required_plugins_add(
          out, "resource", pkg,
          opts ? literal(mp_ynode_get(opts, "version")) : NULL,
          opts ? literal(mp_ynode_get(opts, "pluginDownloadURL")) : NULL);
    free(pkg);
  }
}
