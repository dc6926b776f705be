/* The packages' schemas in a Pulumi YAML run, as Pulumi YAML uses them
 * (pulumi-yaml pkg/pulumiyaml/packages.go): a resource's type is looked up
 * in its package's schema, written as the schema has it or in the short
 * forms `pkg:Type` (for `pkg:index:Type`) and `pkg:mod:Type` (for
 * `pkg:mod/type:Type`), letters compared without case; the schema's token
 * is the one registered, and a type the schema marks `isComponent` is a
 * component its provider constructs (registered remote). An fn::invoke's
 * function is looked up the same way in the schema's `functions`: when
 * its return type is not an object, the provider's answer of one property
 * is unwrapped (Pulumi YAML's run.go).
 *
 * One question per package, plugin version and download URL, asked once
 * per run. The built-in packages and `pulumi` have their own table
 * (types.c); provider resources need none. A package whose plugin gives no
 * schema with `resources` (no GetSchema, the SDK's empty "{}", no plugin
 * found: the registration reports that) keeps its types as written and
 * registers them custom, where Pulumi YAML would stop. An input property
 * the schema marks `secret` is sent secret (IsResourcePropertySecret), a
 * provider resource's as its schema's `provider` marks them. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lang/prog.h"

/* Whether package |pkg|'s types and functions are resolved through a
 * schema. A parameterized package that was registered (pkgrefs.c) is
 * asked through its packageRef (its plugin parameterized); one replaced by
 * a declaration is left as written. A namespace that extensions share
 * with their base package is asked of each extension and of the base
 * (ext_at). */
static int pkg_needs_schema(const mp__prog *p, const char *pkg) {
  if (strcmp(pkg, "pulumi") == 0 || mp__yaml_builtin_package(pkg))
    return 0;
  if (mp__prog_package_ref(p, pkg)) return 1;
  for (size_t i = 0; i < mp_project_package_count(p->proj); i++) {
    const mp_project_package *k = mp_project_package_at(p->proj, i);
    if (k->param_name && !k->extension &&
        (strcmp(mp_project_package_namespace(k), pkg) == 0 ||
         strcmp(k->name, pkg) == 0))
      return 0;
  }
  return 1;
}

static int needs_schema(const mp__prog *p, const mp__yres *r) {
  return pkg_needs_schema(p, r->pkg);
}

/* A literal string option (`version: 1.2.3`), else NULL: an option that
 * is computed is known only when the resource registers. */
static const char *literal(const mp__yexpr *x) {
  return x && x->kind == MP_X_STR && x->len ? x->str : NULL;
}

/* The plugin |r|'s package is asked of: its own literal `version` and
 * `pluginDownloadURL`, else the package's declaration (owned strings). */
static void plugin_of(const mp__prog *p, const mp__yres *r, char **version,
                      char **url) {
  const char *v = literal(r->version), *u = literal(r->plugin_url);
  *version = v ? mp_xstrdup(v) : NULL;
  *url = u ? mp_xstrdup(u) : NULL;
  mp__pkgdecls_apply(p->proj, r->pkg, version, url);
}

static int same(const char *a, const char *b) {
  return (a == NULL && b == NULL) || (a && b && strcmp(a, b) == 0);
}

/* The question of |pkg| in |q|, or -1. */
static long find(const mp__yschemas *q, const char *pkg, const char *version,
                 const char *url) {
  for (size_t i = 0; i < q->n; i++)
    if (strcmp(q->items[i].pkg, pkg) == 0 && same(q->items[i].version, version) &&
        same(q->items[i].url, url))
      return (long)i;
  return -1;
}

/* Adds the question of |pkg| at |version| and |url| (taken) unless it is
 * asked already. */
static void plan_one(const mp__prog *p, mp__yschemas *q, const char *pkg,
                     char *version, char *url) {
  if (find(q, pkg, version, url) >= 0) {
    free(version);
    free(url);
    return;
  }
  q->items = mp_xreallocarray(q->items, q->n + 1, sizeof(*q->items));
  mp__yschema *s = &q->items[q->n++];
  memset(s, 0, sizeof(*s));
  s->pkg = mp_xstrdup(pkg);
  s->version = version;
  s->url = url;
  /* Asked through the package's reference, unless the program names a
   * plugin version or URL of its own. */
  const char *ref = mp__prog_package_ref(p, pkg);
  if (ref && version == NULL && url == NULL) s->ref = mp_xstrdup(ref);
}

/* ---- fn::invoke: the function's return type ---- */

/* The value of key |k| of the OBJECT expression |x|, or NULL. */
static const mp__yexpr *xfield(const mp__yexpr *x, const char *k) {
  if (x == NULL || x->kind != MP_X_OBJECT) return NULL;
  for (size_t i = 0; i < x->n; i++)
    if (strcmp(x->keys[i], k) == 0) return x->items[i];
  return NULL;
}

/* The package of fn::invoke |x|'s function (owned), and the plugin it is
 * asked of: the invoke's literal `version` and `pluginDownloadURL`
 * options, else the package's declaration. NULL: no literal function. */
static char *invoke_plugin(const mp__prog *p, const mp__yexpr *x,
                           char **version, char **url) {
  const char *fn = literal(xfield(x->arg, "function"));
  if (fn == NULL || strchr(fn, ':') == NULL) return NULL;
  char *pkg = mp_xstrndup(fn, strcspn(fn, ":"));
  const mp__yexpr *o = xfield(x->arg, "options");
  const char *v = literal(xfield(o, "version"));
  const char *u = literal(xfield(o, "pluginDownloadURL"));
  *version = v ? mp_xstrdup(v) : NULL;
  *url = u ? mp_xstrdup(u) : NULL;
  mp__pkgdecls_apply(p->proj, pkg, version, url);
  return pkg;
}

/* Calls |fn| on every fn::invoke under |x|, nested ones included. */
static void each_invoke_in(mp__yexpr *x, void (*fn)(void *, mp__yexpr *),
                           void *ud) {
  if (x == NULL) return;
  if (x->kind == MP_X_FN && x->fn == MP_FN_INVOKE) fn(ud, x);
  for (size_t i = 0; i < x->n; i++) each_invoke_in(x->items[i], fn, ud);
  each_invoke_in(x->arg, fn, ud);
}

/* ... in the whole program: resources (properties, `get:`, options),
 * variables and outputs. */
static void each_invoke(const mp__prog *p, void (*fn)(void *, mp__yexpr *),
                        void *ud) {
  for (size_t i = 0; i < p->nres; i++) {
    mp__yres *r = &p->res[i];
    mp__yexpr *xs[] = {r->props,   r->get_id,   r->get_state, r->protect,
                       r->retain,  r->dbr,      r->version,   r->import_id,
                       r->ignore,  r->replace_on, r->aso,     r->timeouts,
                       r->aliases, r->plugin_url, r->hide_diffs,
                       r->env_vars, r->trigger};
    for (size_t k = 0; k < sizeof(xs) / sizeof(xs[0]); k++)
      each_invoke_in(xs[k], fn, ud);
  }
  for (size_t i = 0; i < p->nvars; i++) each_invoke_in(p->vars[i].expr, fn, ud);
  for (size_t i = 0; i < p->nouts; i++) each_invoke_in(p->outs[i].expr, fn, ud);
}

typedef struct {
  const mp__prog *p;
  mp__yschemas *q;
} invoke_ctx;

/* The |i|th extension (its own name) declared on namespace |pkg| that was
 * registered, or NULL past the last. Pulumi YAML tries a namespace's
 * extensions and then its base package (packages.go loadPackages). */
static const char *ext_at(const mp__prog *p, const char *pkg, size_t i) {
  for (size_t j = 0; pkg && j < mp_project_package_count(p->proj); j++) {
    const mp_project_package *k = mp_project_package_at(p->proj, j);
    if (!k->extension || k->param_name == NULL || strcmp(k->name, pkg) != 0 ||
        mp__prog_package_ref(p, k->param_name) == NULL)
      continue;
    if (i-- == 0) return k->param_name;
  }
  return NULL;
}

/* Plans the question of each extension of namespace |pkg|. */
static void plan_exts(const mp__prog *p, mp__yschemas *q, const char *pkg) {
  const char *e;
  for (size_t i = 0; (e = ext_at(p, pkg, i)) != NULL; i++)
    plan_one(p, q, e, NULL, NULL);
}

static void plan_invoke(void *ud, mp__yexpr *x) {
  invoke_ctx *c = ud;
  char *version = NULL, *url = NULL;
  char *pkg = invoke_plugin(c->p, x, &version, &url);
  if (pkg && pkg_needs_schema(c->p, pkg)) {
    plan_exts(c->p, c->q, pkg);
    plan_one(c->p, c->q, pkg, version, url);
  } else {
    free(version);
    free(url);
  }
  free(pkg);
}

void mp__schemas_plan(const mp__prog *p, mp__yschemas *q) {
  memset(q, 0, sizeof(*q));
  for (size_t i = 0; i < p->nres; i++) {
    const mp__yres *r = &p->res[i];
    if (!needs_schema(p, r)) continue;
    char *version, *url;
    plugin_of(p, r, &version, &url);
    if (!r->is_provider) plan_exts(p, q, r->pkg);
    plan_one(p, q, r->pkg, version, url);
  }
  invoke_ctx c = {p, q};
  each_invoke(p, plan_invoke, &c);
}

void mp__schemas_answer(mp__yschemas *q, size_t i, const char *json) {
  if (i >= q->n || json == NULL) return;
  mp__yschema *s = &q->items[i];
  mp_value *doc = NULL;
  if (mp_value_from_json(json, strlen(json), NULL, &doc, NULL) < 0) return;
  mp_value *res = doc->kind == MP_VALUE_OBJECT
                      ? mp_value_object_take(doc, "resources")
                      : NULL;
  mp_value *prov = doc->kind == MP_VALUE_OBJECT
                       ? mp_value_object_take(doc, "provider")
                       : NULL;
  mp_value *fns = doc->kind == MP_VALUE_OBJECT
                      ? mp_value_object_take(doc, "functions")
                      : NULL;
  mp_value_free(doc);
  if (fns && fns->kind != MP_VALUE_OBJECT) {
    mp_value_free(fns);
    fns = NULL;
  }
  mp_value_free(s->functions);
  s->functions = fns;
  if (res && res->kind != MP_VALUE_OBJECT) {
    mp_value_free(res);
    res = NULL;
  }
  if (prov && prov->kind != MP_VALUE_OBJECT) {
    mp_value_free(prov);
    prov = NULL;
  }
  mp_value_free(s->resources);
  s->resources = res;
  mp_value_free(s->provider);
  s->provider = prov;
}

/* The schema's entry whose token is |tok| up to case, and the token. */
static const mp_value_entry *lookup(const mp_value *res, const char *tok) {
  for (size_t i = 0; i < res->u.obj.len; i++)
    if (strcmp(res->u.obj.items[i].key, tok) == 0) return &res->u.obj.items[i];
  for (size_t i = 0; i < res->u.obj.len; i++)
    if (strcasecmp(res->u.obj.items[i].key, tok) == 0)
      return &res->u.obj.items[i];
  return NULL;
}

/* Pulumi YAML's resolveToken: as written, then `pkg:index:Type` for
 * `pkg:Type`, then `pkg:mod/type:Type` for `pkg:mod:Type`. */
static const mp_value_entry *resolve(const mp_value *res, const char *written) {
  const mp_value_entry *e = lookup(res, written);
  if (e) return e;
  const char *c1 = strchr(written, ':');
  const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
  if (c1 == NULL) return NULL;
  int plen = (int)(c1 - written);
  char *mod = c2 ? mp_xstrndup(c1 + 1, (size_t)(c2 - c1 - 1))
                 : mp_xstrdup("index");
  const char *name = c2 ? c2 + 1 : c1 + 1;
  if (c2 == NULL) {
    char *alt = mp_xasprintf("%.*s:index:%s", plen, written, name);
    e = lookup(res, alt);
    free(alt);
  }
  if (e == NULL) {
    /* The schema's module segment differs from the name only in case, and
     * the lookup ignores case. */
    char *alt = mp_xasprintf("%.*s:%s/%s:%s", plen, written, mod, name, name);
    e = lookup(res, alt);
    free(alt);
  }
  free(mod);
  return e;
}

/* The top-level properties the resource's schema |spec| marks
 * `replaceOnChanges: true` (pulumi-yaml: the resource schema's
 * ReplaceOnChanges, given as a replaceOnChanges option). */
static void schema_replace_on(mp__yres *r, const mp_value *spec) {
  mp_strv_destroy(&r->schema_replace_on);
  mp_strv_init(&r->schema_replace_on);
  const mp_value *props = spec && spec->kind == MP_VALUE_OBJECT
                              ? mp_value_object_get(spec, "properties")
                              : NULL;
  if (props == NULL || props->kind != MP_VALUE_OBJECT) return;
  for (size_t i = 0; i < props->u.obj.len; i++) {
    const mp_value *ps = props->u.obj.items[i].value;
    const mp_value *roc = ps && ps->kind == MP_VALUE_OBJECT
                              ? mp_value_object_get(ps, "replaceOnChanges")
                              : NULL;
    if (roc && roc->kind == MP_VALUE_BOOL && roc->u.boolean)
      mp_strv_push(&r->schema_replace_on, props->u.obj.items[i].key);
  }
}

/* The output properties of a resource's schema entry that have a constant
 * value, as Pulumi YAML's ResourceConstants finds them; NULL: none. */
static mp_value *constants_of(const mp_value *entry) {
  const mp_value *props = entry->kind == MP_VALUE_OBJECT
                              ? mp_value_object_get(entry, "properties")
                              : NULL;
  if (props == NULL || props->kind != MP_VALUE_OBJECT) return NULL;
  mp_value *out = NULL;
  for (size_t i = 0; i < props->u.obj.len; i++) {
    const mp_value *p = props->u.obj.items[i].value;
    const mp_value *k =
        p->kind == MP_VALUE_OBJECT ? mp_value_object_get(p, "const") : NULL;
    if (k == NULL) continue;
    if (out == NULL) out = mp_value_new_object();
    mp_value_object_set(out, props->u.obj.items[i].key, mp_value_dup(k));
  }
  return out;
}

/* The names of the `inputProperties` of |spec| marked `secret`. */
static void secret_inputs(const mp_value *spec, mp_strv *out) {
  const mp_value *in = spec->kind == MP_VALUE_OBJECT
                           ? mp_value_object_get(spec, "inputProperties")
                           : NULL;
  for (size_t i = 0; in && in->kind == MP_VALUE_OBJECT && i < in->u.obj.len;
       i++) {
    const mp_value *prop = in->u.obj.items[i].value;
    const mp_value *s = prop->kind == MP_VALUE_OBJECT
                            ? mp_value_object_get(prop, "secret")
                            : NULL;
    if (s && s->kind == MP_VALUE_BOOL && s->u.boolean)
      mp_strv_push(out, in->u.obj.items[i].key);
  }
}

/* Whether a function's schema entry |spec| has a return type that is not
 * an object: its `outputs` is a type (`{"type": "number"}`, an array, a
 * map) rather than an object type with `properties` (Pulumi's
 * ReturnTypeSpec). The provider answers such a function with an object of
 * one property, which Pulumi YAML unwraps. */
static int returns_non_object(const mp_value *spec) {
  const mp_value *out = spec->kind == MP_VALUE_OBJECT
                            ? mp_value_object_get(spec, "outputs")
                            : NULL;
  return out && out->kind == MP_VALUE_OBJECT &&
         mp_value_object_get(out, "properties") == NULL;
}

static void apply_invoke(void *ud, mp__yexpr *x) {
  invoke_ctx *c = ud;
  char *version = NULL, *url = NULL;
  char *pkg = invoke_plugin(c->p, x, &version, &url);
  int needs = pkg && pkg_needs_schema(c->p, pkg);
  const char *fn = literal(xfield(x->arg, "function"));
  const mp_value_entry *e = NULL;
  /* An extension's function: its schema's token, with its packageRef. */
  const char *ext;
  for (size_t i = 0; needs && e == NULL && (ext = ext_at(c->p, pkg, i)); i++) {
    long k = find(c->q, ext, NULL, NULL);
    const mp_value *fns = k >= 0 ? c->q->items[k].functions : NULL;
    e = fns ? resolve(fns, fn) : NULL;
    if (e) {
      free(x->invoke_token);
      x->invoke_token = mp_xstrdup(e->key);
      x->invoke_ref = mp__prog_package_ref(c->p, ext);
    }
  }
  long k = needs && e == NULL ? find(c->q, pkg, version, url) : -1;
  const mp_value *fns = k >= 0 ? c->q->items[k].functions : NULL;
  /* A function the schema lacks is left to the provider to answer. */
  if (e == NULL) e = fns ? resolve(fns, fn) : NULL;
  x->invoke_unwrap = e && returns_non_object(e->value);
  free(pkg);
  free(version);
  free(url);
}

int mp__schemas_apply(mp__prog *p, const mp__yschemas *q, mp_err *err) {
  invoke_ctx c = {p, (mp__yschemas *)q};
  each_invoke(p, apply_invoke, &c);
  for (size_t i = 0; i < p->nres; i++) {
    mp__yres *r = &p->res[i];
    if (!needs_schema(p, r)) continue;
    char *version, *url;
    plugin_of(p, r, &version, &url);
    long k = find(q, r->pkg, version, url);
    free(version);
    free(url);
    /* A type an extension's schema has is the extension's: registered
     * with its packageRef (Pulumi YAML's resolvedDescriptor). */
    const char *ext;
    r->ext_ref = NULL;
    for (size_t j = 0; !r->is_provider && (ext = ext_at(p, r->pkg, j)); j++) {
      long ek = find(q, ext, NULL, NULL);
      const mp_value *eres = ek >= 0 ? q->items[ek].resources : NULL;
      if (eres && resolve(eres, r->written_type)) {
        k = ek;
        r->ext_ref = mp__prog_package_ref(p, ext);
        break;
      }
    }
    if (r->is_provider) {
      /* Its type is the provider's; only its secret inputs are read. */
      if (k >= 0 && q->items[k].provider)
        secret_inputs(q->items[k].provider, &r->secret_props);
      continue;
    }
    const mp_value *res = k >= 0 ? q->items[k].resources : NULL;
    if (res == NULL) continue;
    const mp_value_entry *e = resolve(res, r->written_type);
    if (e == NULL)
      return mp_err_set(err, MP_EINVAL,
                        "%s:%d:%d: error resolving type of resource %s: "
                        "unable to find resource type \"%s\" in resource "
                        "provider \"%s\"",
                        p->file, r->type_line, r->type_col, r->key,
                        r->written_type, r->pkg);
    free(r->type);
    r->type = mp_xstrdup(e->key);
    const mp_value *c = e->value->kind == MP_VALUE_OBJECT
                            ? mp_value_object_get(e->value, "isComponent")
                            : NULL;
    /* A read (`get:`) stays a read. */
    r->remote = !r->is_get && c && c->kind == MP_VALUE_BOOL && c->u.boolean;
    schema_replace_on(r, e->value);
    mp_value_free(r->constants);
    r->constants = constants_of(e->value);
    secret_inputs(e->value, &r->secret_props);
  }
  return 0;
}

void mp__schemas_free(mp__yschemas *q) {
  for (size_t i = 0; i < q->n; i++) {
    free(q->items[i].pkg);
    free(q->items[i].version);
    free(q->items[i].url);
    free(q->items[i].ref);
    mp_value_free(q->items[i].resources);
    mp_value_free(q->items[i].provider);
    mp_value_free(q->items[i].functions);
  }
  free(q->items);
  memset(q, 0, sizeof(*q));
}
