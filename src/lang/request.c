/* Building the RegisterResource / ReadResource messages of a resource the
 * way the Pulumi SDKs fill them (docs/sdk-contract.md,
 * "RegisterResourceRequest as the SDK fills it"). The messages are
 * heap-built here and freed by mp__request_free. */
#include "lang/prog.h"

#include <stdlib.h>
#include <string.h>

#include "engine/value_pb.h"

/* ---- options ---- */

/* Evaluates option |x| (NULL: unset → *out NULL). Secrets are dropped:
 * options are not secret. Returns 0, 1 (pending) or an MP_E code. */
/* An option's value; |keep_secrets| 0: its secrets unwrapped. */
static int opt_eval_as(mp__evalctx *c, mp__yexpr *x, int keep_secrets,
                       mp_value **out, mp_err *err) {
  *out = NULL;
  if (x == NULL)
    return 0;
  mp__evalctx sub = *c;
  sub.deps = NULL;
  sub.pending = 0;
  mp_value *v = mp__eval(&sub, x, err);
  if (v == NULL)
    return err->code < 0 ? err->code : 1;
  if (keep_secrets) {
    *out = v;
    return 0;
  }
  *out = mp_value_strip_secrets(v);
  mp_value_free(v);
  return 0;
}

static int opt_eval(mp__evalctx *c, mp__yexpr *x, mp_value **out,
                    mp_err *err) {
  return opt_eval_as(c, x, 0, out, err);
}

static int opt_error(mp__evalctx *c, mp__yres *r, mp__yexpr *x,
                     const char *key, const char *want, mp_err *err) {
  return mp_err_set(err, MP_EINVAL,
                    "%s:%d:%d: option '%s' of resource '%s' must be %s",
                    c->p->file, x->line, x->col, key, r->key, want);
}

/* A boolean option: *out -1 unset, else 0/1. */
static int opt_bool(mp__evalctx *c, mp__yres *r, mp__yexpr *x,
                    const char *key, int *out, mp_err *err) {
  mp_value *v;
  *out = -1;
  int rc = opt_eval(c, x, &v, err);
  if (rc != 0 || v == NULL)
    return rc;
  if (v->kind == MP_VALUE_BOOL)
    *out = v->u.boolean;
  else if (v->kind != MP_VALUE_NULL)
    rc = opt_error(c, r, x, key, "a boolean", err);
  mp_value_free(v);
  return rc;
}

static int opt_string(mp__evalctx *c, mp__yres *r, mp__yexpr *x,
                      const char *key, char **out, mp_err *err) {
  mp_value *v;
  int rc = opt_eval(c, x, &v, err);
  if (rc != 0 || v == NULL)
    return rc;
  if (v->kind == MP_VALUE_STRING)
    *out = mp_xstrdup(v->u.str.ptr);
  else if (v->kind != MP_VALUE_NULL)
    rc = opt_error(c, r, x, key, "a string", err);
  mp_value_free(v);
  return rc;
}

/* The plugin a resource asks for: its `version` and `pluginDownloadURL`
 * options, else its package's declaration; with neither option, a
 * registered parameterized package's reference (|*ref|), as Pulumi YAML
 * clears the reference when the resource names a plugin of its own. */
static int opt_plugin(mp__evalctx *c, mp__yres *r, char **version,
                      char **url, char **ref, mp_err *err) {
  int rc = opt_string(c, r, r->version, "version", version, err);
  if (rc == 0)
    rc = opt_string(c, r, r->plugin_url, "pluginDownloadURL", url, err);
  const char *pref = r->ext_ref ? r->ext_ref : mp__prog_package_ref(c->p, r->pkg);
  if (rc == 0 && pref && !(*version && **version) && !(*url && **url))
    *ref = mp_xstrdup(pref);
  if (rc == 0) mp__pkgdecls_apply(c->p->proj, r->pkg, version, url);
  return rc;
}

static int opt_strings(mp__evalctx *c, mp__yres *r, mp__yexpr *x,
                       const char *key, char ***out, size_t *n,
                       mp_err *err) {
  mp_value *v;
  int rc = opt_eval(c, x, &v, err);
  if (rc != 0 || v == NULL)
    return rc;
  if (v->kind != MP_VALUE_ARRAY) {
    mp_value_free(v);
    return opt_error(c, r, x, key, "a list of strings", err);
  }
  *out = mp_xcalloc(v->u.arr.len + 1, sizeof(char *));
  for (size_t i = 0; i < v->u.arr.len; i++) {
    const mp_value *s = v->u.arr.items[i];
    if (s->kind != MP_VALUE_STRING) {
      mp_value_free(v);
      return opt_error(c, r, x, key, "a list of strings", err);
    }
    (*out)[(*n)++] = mp_xstrdup(s->u.str.ptr);
  }
  mp_value_free(v);
  return 0;
}

static int opt_timeouts(mp__evalctx *c, mp__yres *r,
                        Pulumirpc__RegisterResourceRequest *req,
                        mp_err *err) {
  mp_value *v;
  int rc = opt_eval(c, r->timeouts, &v, err);
  if (rc != 0 || v == NULL)
    return rc;
  Pulumirpc__RegisterResourceRequest__CustomTimeouts *t =
      req->customtimeouts;
  struct {
    const char *key;
    char **slot;
  } map[] = {{"create", &t->create},
             {"update", &t->update},
             {"delete", &t->delete_},
             {"read", &t->read}};
  for (size_t i = 0; i < MP_ARRAY_LEN(map) && v->kind == MP_VALUE_OBJECT;
       i++) {
    const mp_value *s = mp_value_object_get(v, map[i].key);
    if (s && s->kind == MP_VALUE_STRING)
      *map[i].slot = mp_xstrdup(s->u.str.ptr);
    else if (s && s->kind != MP_VALUE_NULL)
      rc = opt_error(c, r, r->timeouts, "customTimeouts",
                     "a map of duration strings like \"5m\"", err);
  }
  mp_value_free(v);
  return rc;
}

/* ---- aliases ---- */

static char *spec_string(const mp_value *o, const char *key) {
  const mp_value *s = mp_value_object_get(o, key);
  return s && s->kind == MP_VALUE_STRING ? mp_xstrdup(s->u.str.ptr)
                                         : (char *)protobuf_c_empty_string;
}

/* The alias's parent: `${res}` (a resource) gives its URN. */
static char *alias_parent(mp__evalctx *c, const mp__yexpr *item,
                          const mp_value *o) {
  for (size_t i = 0; item->kind == MP_X_OBJECT && i < item->n; i++) {
    const mp__yexpr *px = item->items[i];
    if (strcmp(item->keys[i], "parent") == 0 && px->kind == MP_X_ACCESS &&
        px->ref == MP_REF_RESOURCE && px->nacc == 0)
      return mp_xstrdup(c->p->res[px->ref_index].urn);
  }
  const mp_value *s = mp_value_object_get(o, "parent");
  return s && s->kind == MP_VALUE_STRING ? mp_xstrdup(s->u.str.ptr) : NULL;
}

static Pulumirpc__Alias *alias_new(mp__evalctx *c, const mp__yexpr *item,
                                   const mp_value *v) {
  Pulumirpc__Alias *a = mp_xmalloc(sizeof(*a));
  pulumirpc__alias__init(a);
  if (v->kind == MP_VALUE_STRING) {
    a->alias_case = PULUMIRPC__ALIAS__ALIAS_URN;
    a->urn = mp_xstrdup(v->u.str.ptr);
    return a;
  }
  Pulumirpc__Alias__Spec *s = mp_xmalloc(sizeof(*s));
  pulumirpc__alias__spec__init(s);
  s->name = spec_string(v, "name");
  s->type = spec_string(v, "type");
  s->stack = spec_string(v, "stack");
  s->project = spec_string(v, "project");
  const mp_value *np = mp_value_object_get(v, "noParent");
  char *parent = alias_parent(c, item, v);
  if (parent) {
    s->parent_case = PULUMIRPC__ALIAS__SPEC__PARENT_PARENT_URN;
    s->parenturn = parent;
  } else if (np && np->kind == MP_VALUE_BOOL && np->u.boolean) {
    s->parent_case = PULUMIRPC__ALIAS__SPEC__PARENT_NO_PARENT;
    s->noparent = 1;
  }
  a->alias_case = PULUMIRPC__ALIAS__ALIAS_SPEC;
  a->spec = s;
  return a;
}

static int opt_aliases(mp__evalctx *c, mp__yres *r,
                       Pulumirpc__RegisterResourceRequest *req,
                       mp_err *err) {
  mp_value *v;
  int rc = opt_eval(c, r->aliases, &v, err);
  if (rc != 0 || v == NULL)
    return rc;
  if (v->kind != MP_VALUE_ARRAY) {
    mp_value_free(v);
    return opt_error(c, r, r->aliases, "aliases",
                     "a list of URNs or {name, type, parent, stack, "
                     "project} maps",
                     err);
  }
  req->aliases = mp_xcalloc(v->u.arr.len + 1, sizeof(*req->aliases));
  for (size_t i = 0; i < v->u.arr.len; i++) {
    const mp_value *a = v->u.arr.items[i];
    const mp__yexpr *item =
        r->aliases->kind == MP_X_LIST ? r->aliases->items[i] : r->aliases;
    if (a->kind != MP_VALUE_STRING && a->kind != MP_VALUE_OBJECT) {
      rc = opt_error(c, r, r->aliases, "aliases",
                     "a list of URNs or maps", err);
      break;
    }
    req->aliases[req->n_aliases++] = alias_new(c, item, a);
  }
  mp_value_free(v);
  return rc;
}

/* ---- the request ---- */

static Pulumirpc__RegisterResourceRequest *request_new(void) {
  Pulumirpc__RegisterResourceRequest *req = mp_xmalloc(sizeof(*req));
  pulumirpc__register_resource_request__init(req);
  req->customtimeouts = mp_xmalloc(sizeof(*req->customtimeouts));
  pulumirpc__register_resource_request__custom_timeouts__init(
      req->customtimeouts);
  req->acceptsecrets = 1;
  req->acceptresources = 1;
  req->supportspartialvalues = 1;
  req->aliasspecs = 1;
  req->supportsresultreporting = 1;
  return req;
}

void mp__request_free(Pulumirpc__RegisterResourceRequest *req) {
  if (req == NULL)
    return;
  mp_value_pb_struct_free(req->object);
  req->object = NULL;
  mp_value_pb_value_free(req->replacement_trigger);
  req->replacement_trigger = NULL;
  protobuf_c_message_free_unpacked(&req->base, NULL);
}

void mp__read_free(Pulumirpc__ReadResourceRequest *req) {
  if (req == NULL)
    return;
  mp_value_pb_struct_free(req->properties);
  req->properties = NULL;
  protobuf_c_message_free_unpacked(&req->base, NULL);
}

Pulumirpc__RegisterResourceRequest *mp__request_stack(const char *project,
                                                      const char *stack) {
  Pulumirpc__RegisterResourceRequest *req = request_new();
  req->type = mp_xstrdup("pulumi:pulumi:Stack");
  req->name = mp_xasprintf("%s-%s", project, stack);
  mp_value *empty = mp_value_new_object();
  mp_value_to_pb_struct(empty, MP_PB_KEEP_SECRETS, &req->object, NULL);
  mp_value_free(empty);
  return req;
}

static char **strv_to_pb(mp_strv *v, size_t *n) {
  *n = v->len;
  char **out = v->items;
  mp_strv_init(v);
  return out;
}

/* Evaluates the properties, one dependency set per key; those named in
 * |secret| (may be NULL) are made secret. */
static int eval_props(mp__evalctx *c, mp__yexpr *props, const mp_strv *secret,
                      mp_value **obj, mp_strv *all,
                      Pulumirpc__RegisterResourceRequest *req, mp_err *err) {
  *obj = mp_value_new_object();
  size_t n = props ? props->n : 0;
  if (req)
    req->propertydependencies =
        mp_xcalloc(n + 1, sizeof(*req->propertydependencies));
  int pending = 0;
  for (size_t i = 0; i < n; i++) {
    mp_strv deps;
    mp_strv_init(&deps);
    mp__evalctx sub = *c;
    sub.deps = &deps;
    sub.pending = 0;
    mp_value *v = mp__eval(&sub, props->items[i], err);
    if (v == NULL) {
      mp_strv_destroy(&deps);
      if (err->code < 0)
        return err->code;
      pending = 1;
      continue;
    }
    if (secret && v->kind != MP_VALUE_SECRET &&
        mp_strv_contains(secret, props->keys[i]))
      v = mp_value_new_secret(v);
    mp_value_object_set(*obj, props->keys[i], v);
    for (size_t j = 0; j < deps.len; j++)
      if (!mp_strv_contains(all, deps.items[j]))
        mp_strv_push(all, deps.items[j]);
    if (req) {
      Pulumirpc__RegisterResourceRequest__PropertyDependenciesEntry *e =
          mp_xmalloc(sizeof(*e));
      pulumirpc__register_resource_request__property_dependencies_entry__init(
          e);
      e->key = mp_xstrdup(props->keys[i]);
      e->value = mp_xmalloc(sizeof(*e->value));
      pulumirpc__register_resource_request__property_dependencies__init(
          e->value);
      e->value->urns = strv_to_pb(&deps, &e->value->n_urns);
      req->propertydependencies[req->n_propertydependencies++] = e;
    }
    mp_strv_destroy(&deps);
  }
  return pending;
}

/* envVarMappings: an object of strings. */
static int opt_env_vars(mp__evalctx *c, mp__yres *r,
                        Pulumirpc__RegisterResourceRequest *req,
                        mp_err *err) {
  mp_value *v;
  int rc = opt_eval(c, r->env_vars, &v, err);
  if (rc != 0 || v == NULL)
    return rc;
  for (size_t i = 0; v->kind == MP_VALUE_OBJECT && i < v->u.obj.len; i++)
    if (v->u.obj.items[i].value->kind != MP_VALUE_STRING) {
      mp_value_free(v);
      return opt_error(c, r, r->env_vars, "envVarMappings",
                       "an object with string values", err);
    }
  if (v->kind != MP_VALUE_OBJECT) {
    mp_value_free(v);
    return opt_error(c, r, r->env_vars, "envVarMappings",
                     "an object with string values", err);
  }
  req->envvarmappings =
      mp_xcalloc(v->u.obj.len + 1, sizeof(*req->envvarmappings));
  for (size_t i = 0; i < v->u.obj.len; i++) {
    Pulumirpc__RegisterResourceRequest__EnvVarMappingsEntry *e =
        mp_xmalloc(sizeof(*e));
    pulumirpc__register_resource_request__env_var_mappings_entry__init(e);
    e->key = mp_xstrdup(v->u.obj.items[i].key);
    e->value = mp_xstrdup(v->u.obj.items[i].value->u.str.ptr);
    req->envvarmappings[req->n_envvarmappings++] = e;
  }
  mp_value_free(v);
  return 0;
}

/* replacementTrigger (any value) and replaceWith (the URNs of resources). */
static int opt_replacement(mp__evalctx *c, mp__yres *r,
                           Pulumirpc__RegisterResourceRequest *req,
                           mp_err *err) {
  mp_value *v;
  /* A secret trigger stays secret in the state (pulumi-yaml). */
  int rc = opt_eval_as(c, r->trigger, 1, &v, err);
  if (rc != 0)
    return rc;
  if (v != NULL) {
    req->replacement_trigger = mp_value_to_pb(v, MP_PB_KEEP_SECRETS);
    mp_value_free(v);
  }
  if (r->nreplace_with == 0)
    return 0;
  req->replace_with = mp_xcalloc(r->nreplace_with + 1, sizeof(char *));
  for (size_t i = 0; i < r->nreplace_with; i++)
    req->replace_with[req->n_replace_with++] =
        mp_xstrdup(c->p->res[r->replace_with[i]].urn);
  return 0;
}

static int fill_options(mp__evalctx *c, mp__yres *r,
                        Pulumirpc__RegisterResourceRequest *req,
                        mp_err *err) {
  int protect, retain, dbr, rc;
  rc = opt_bool(c, r, r->protect, "protect", &protect, err);
  if (rc == 0)
    rc = opt_bool(c, r, r->retain, "retainOnDelete", &retain, err);
  if (rc == 0)
    rc = opt_bool(c, r, r->dbr, "deleteBeforeReplace", &dbr, err);
  if (rc == 0)
    rc = opt_plugin(c, r, &req->version, &req->plugindownloadurl,
                    &req->packageref, err);
  if (rc == 0)
    rc = opt_string(c, r, r->import_id, "import", &req->importid, err);
  if (rc == 0)
    rc = opt_strings(c, r, r->ignore, "ignoreChanges", &req->ignorechanges,
                     &req->n_ignorechanges, err);
  if (rc == 0)
    rc = opt_strings(c, r, r->replace_on, "replaceOnChanges",
                     &req->replaceonchanges, &req->n_replaceonchanges, err);
  if (rc == 0 && r->schema_replace_on.len) {
    /* The schema's, after the program's. */
    size_t n = req->n_replaceonchanges + r->schema_replace_on.len;
    req->replaceonchanges = mp_xreallocarray(req->replaceonchanges, n + 1,
                                             sizeof(char *));
    for (size_t i = 0; i < r->schema_replace_on.len; i++)
      req->replaceonchanges[req->n_replaceonchanges++] =
          mp_xstrdup(r->schema_replace_on.items[i]);
    req->replaceonchanges[n] = NULL;
  }
  if (rc == 0)
    rc = opt_strings(c, r, r->aso, "additionalSecretOutputs",
                     &req->additionalsecretoutputs,
                     &req->n_additionalsecretoutputs, err);
  if (rc == 0)
    rc = opt_strings(c, r, r->hide_diffs, "hideDiffs", &req->hidediffs,
                     &req->n_hidediffs, err);
  if (rc == 0)
    rc = opt_env_vars(c, r, req, err);
  if (rc == 0)
    rc = opt_replacement(c, r, req, err);
  if (rc == 0)
    rc = opt_timeouts(c, r, req, err);
  if (rc == 0)
    rc = opt_aliases(c, r, req, err);
  if (rc != 0)
    return rc;
  if (protect >= 0) {
    req->protect_opt_case = PULUMIRPC__REGISTER_RESOURCE_REQUEST__PROTECT_OPT_PROTECT;
    req->protect = protect;
  }
  if (retain >= 0) {
    req->retain_on_delete_opt_case =
        PULUMIRPC__REGISTER_RESOURCE_REQUEST__RETAIN_ON_DELETE_OPT_RETAIN_ON_DELETE;
    req->retainondelete = retain;
  }
  req->deletebeforereplace = dbr > 0;
  req->deletebeforereplacedefined = dbr >= 0;
  return 0;
}

static char *parent_urn(const mp__prog *p, const mp__yres *r,
                        const char *stack_urn) {
  return mp_xstrdup(r->parent >= 0 ? p->res[r->parent].urn : stack_urn);
}

/* The provider of |r|'s package among the `providers` of |r| and its
 * parents, nearest first (the SDKs' providers map, which a child
 * inherits), or -1. */
static long listed_provider(const mp__prog *p, const mp__yres *r) {
  const char *pkg = r->pkg;
  for (size_t depth = 0; r != NULL && depth <= p->nres; depth++) {
    for (size_t i = 0; i < r->nproviders; i++)
      if (strcmp(p->res[r->providers[i]].pkg, pkg) == 0)
        return r->providers[i];
    r = r->parent >= 0 ? &p->res[r->parent] : NULL;
  }
  return -1;
}

static char *provider_of(const mp__prog *p, size_t idx) {
  const mp__yres *r = &p->res[idx];
  long pi = r->provider;
  if (pi < 0 && !r->is_provider) pi = listed_provider(p, r);
  if (pi < 0) pi = p->default_providers[idx];
  return pi >= 0 ? mp__prog_provider_ref(&p->res[pi]) : NULL;
}

/* The providers map of a component |r| made by its provider (remote):
 * the `providers` of |r| and of its parents, one per package, nearest
 * first, as the SDKs send a component's providers for Construct to hand
 * to its children. */
static void set_providers_map(const mp__prog *p, const mp__yres *r,
                              Pulumirpc__RegisterResourceRequest *req) {
  mp_strv pkgs;
  mp_strv_init(&pkgs);
  for (size_t depth = 0; r != NULL && depth <= p->nres; depth++) {
    for (size_t i = 0; i < r->nproviders; i++) {
      const mp__yres *pr = &p->res[r->providers[i]];
      if (mp_strv_contains(&pkgs, pr->pkg))
        continue;
      mp_strv_push(&pkgs, pr->pkg);
      Pulumirpc__RegisterResourceRequest__ProvidersEntry *e =
          mp_xmalloc(sizeof(*e));
      pulumirpc__register_resource_request__providers_entry__init(e);
      e->key = mp_xstrdup(pr->pkg);
      e->value = mp__prog_provider_ref(pr);
      req->providers = mp_xrealloc(req->providers,
                                   (req->n_providers + 1) * sizeof(e));
      req->providers[req->n_providers++] = e;
    }
    r = r->parent >= 0 ? &p->res[r->parent] : NULL;
  }
  mp_strv_destroy(&pkgs);
}

static void add_depends_on(const mp__prog *p, const mp__yres *r,
                           mp_strv *all) {
  for (size_t i = 0; i < r->ndepends_on; i++) {
    const char *urn = p->res[r->depends_on[i]].urn;
    if (!mp_strv_contains(all, urn))
      mp_strv_push(all, urn);
  }
}

/* A stack reference's properties, `name` the key when absent, and its id,
 * the name (pulumi-yaml pkg/pulumiyaml/run.go registerResource). */
static int stack_ref_args(mp__evalctx *c, mp__yres *r, mp_value **state,
                          mp_value **id, mp_strv *all, mp_err *err) {
  int rc = eval_props(c, r->props, NULL, state, all, NULL, err);
  if (rc != 0) return rc;
  const mp_value *name = mp_value_object_get(*state, "name");
  if (name == NULL)
    mp_value_object_set(*state, "name", mp_value_new_cstring(r->key));
  name = mp_value_object_get(*state, "name");
  const mp_value *plain = name->kind == MP_VALUE_SECRET ? name->u.secret : name;
  if (plain->kind != MP_VALUE_STRING && plain->kind != MP_VALUE_UNKNOWN)
    return mp_err_set(err, MP_EINVAL,
                      "%s:%d:%d: resource '%s': 'name' property must be a "
                      "string, instead got %s",
                      c->p->file, r->line, r->col, r->key,
                      mp_value_kind_name(plain->kind));
  *id = mp_value_dup(name);
  return 0;
}

static int build_read(mp__evalctx *c, size_t idx, const char *stack_urn,
                      Pulumirpc__ReadResourceRequest **out, mp_err *err) {
  mp__yres *r = &c->p->res[idx];
  mp_strv all;
  mp_strv_init(&all);
  mp_value *id = NULL, *state = NULL;
  mp__evalctx sub = *c;
  sub.deps = &all;
  int rc;
  if (r->is_stack_ref) {
    rc = stack_ref_args(&sub, r, &state, &id, &all, err);
  } else {
    rc = eval_props(&sub, r->get_state, NULL, &state, &all, NULL, err);
    if (rc == 0) {
      id = mp__eval(&sub, r->get_id, err);
      rc = id ? 0 : (err->code < 0 ? err->code : 1);
    }
  }
  if (rc == 0 && id->kind != MP_VALUE_STRING &&
      id->kind != MP_VALUE_UNKNOWN && id->kind != MP_VALUE_SECRET)
    rc = opt_error(c, r, r->get_id, "get.id", "a string", err);
  Pulumirpc__ReadResourceRequest *req = NULL;
  if (rc == 0) {
    mp_value *plain = mp_value_strip_secrets(id);
    req = mp_xmalloc(sizeof(*req));
    pulumirpc__read_resource_request__init(req);
    req->id = mp_xstrdup(plain->kind == MP_VALUE_STRING ? plain->u.str.ptr
                                                        : MP_UNKNOWN_SENTINEL);
    mp_value_free(plain);
    free(r->read_id);
    r->read_id = mp_xstrdup(req->id);
    req->type = mp_xstrdup(r->type);
    req->name = mp_xstrdup(r->name);
    req->parent = parent_urn(c->p, r, stack_urn);
    add_depends_on(c->p, r, &all);
    req->dependencies = strv_to_pb(&all, &req->n_dependencies);
    char *prov = provider_of(c->p, idx);
    if (prov)
      req->provider = prov;
    req->acceptsecrets = 1;
    req->acceptresources = 1;
    mp_value_to_pb_struct(state, MP_PB_KEEP_SECRETS | MP_PB_KEEP_RESOURCES,
                          &req->properties, NULL);
    rc = opt_plugin(c, r, &req->version, &req->plugindownloadurl,
                    &req->packageref, err);
    if (rc == 0)
      rc = opt_strings(c, r, r->aso, "additionalSecretOutputs",
                       &req->additionalsecretoutputs,
                       &req->n_additionalsecretoutputs, err);
  }
  mp_value_free(id);
  mp_value_free(state);
  mp_strv_destroy(&all);
  if (rc != 0) {
    mp__read_free(req);
    return rc;
  }
  *out = req;
  return 0;
}

int mp__request_build(mp__evalctx *c, size_t idx, const char *stack_urn,
                      Pulumirpc__RegisterResourceRequest **reg,
                      Pulumirpc__ReadResourceRequest **read, mp_err *err) {
  *reg = NULL;
  *read = NULL;
  mp__yres *r = &c->p->res[idx];
  if (r->is_get)
    return build_read(c, idx, stack_urn, read, err);
  Pulumirpc__RegisterResourceRequest *req = request_new();
  mp_strv all;
  mp_strv_init(&all);
  mp_value *obj = NULL;
  int rc = eval_props(c, r->props, &r->secret_props, &obj, &all, req, err);
  /* The schema's constant properties are sent whatever the program says,
   * as Pulumi YAML copies them over the properties. */
  for (size_t i = 0; rc == 0 && r->constants && i < r->constants->u.obj.len;
       i++)
    mp_value_object_set(obj, r->constants->u.obj.items[i].key,
                        mp_value_dup(r->constants->u.obj.items[i].value));
  if (rc == 0)
    rc = fill_options(c, r, req, err);
  if (rc == 0) {
    req->type = mp_xstrdup(r->type);
    req->name = mp_xstrdup(r->name);
    req->parent = parent_urn(c->p, r, stack_urn);
    /* A component of a package's schema is made by its provider
     * (Construct); anything else is a custom resource. */
    req->custom = !r->remote;
    req->remote = r->remote;
    char *prov = provider_of(c->p, idx);
    if (prov)
      req->provider = prov;
    if (r->remote)
      set_providers_map(c->p, r, req);
    if (r->deleted_with >= 0)
      req->deletedwith = mp_xstrdup(c->p->res[r->deleted_with].urn);
    add_depends_on(c->p, r, &all);
    req->dependencies = strv_to_pb(&all, &req->n_dependencies);
    /* Resource references stay references (the host accepts them, as
     * the Go SDK that Pulumi YAML runs on sends them). */
    rc = mp_value_to_pb_struct(obj, MP_PB_KEEP_SECRETS | MP_PB_KEEP_RESOURCES,
                               &req->object, err);
  }
  mp_value_free(obj);
  mp_strv_destroy(&all);
  if (rc != 0) {
    mp__request_free(req);
    return rc;
  }
  *reg = req;
  return 0;
}
