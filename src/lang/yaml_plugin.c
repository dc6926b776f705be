/* Pulumi YAML component providers (lang/yaml_plugin.h): the schema of a
 * PulumiPlugin.yaml's components, and Construct as a component's body run
 * by the embedded host on the deployment's loop (run.c, mp__body_start),
 * with no process and no gRPC between the provider and the monitor. */
#include "lang/yaml_plugin.h"

#include <stdlib.h>
#include <string.h>

#include "engine/pb_deps.h"
#include "engine/value_pb.h"
#include "lang/prog.h"
#include "pulumi/provider.pb-c.h"

#define MANIFEST "PulumiPlugin.yaml"

typedef struct yplugin {
  mp_provider base;
  char *dir, *path; /* the folder, its PulumiPlugin.yaml */
  char *version;
  char *schema; /* the GetSchema answer, JSON */
} yplugin;

static int at(mp_err *err, const char *path, const mp_ynode *n,
              const char *what) {
  return mp_err_set(err, MP_EINVAL, "%s:%d:%d: %s", path, n ? n->line : 1,
                    n ? n->col : 1, what);
}

static const char *scalar(const mp_ynode *map, const char *key) {
  const mp_ynode *v = map ? mp_ynode_get(map, key) : NULL;
  return v && v->kind == MP_YNODE_SCALAR && !mp_ynode_is_null(v) ? v->text
                                                                  : NULL;
}

/* ---- the schema (pulumi-yaml ast.TemplateDecl.GenerateSchema) ---- */

/* An input's type, as Pulumi YAML's parseTypeSpec reads it: string,
 * integer, boolean, or array with `items`. */
static mp_value *type_spec(const char *path, const mp_ynode *decl,
                           mp_err *err) {
  const char *t = scalar(decl, "type");
  char msg[160];
  if (decl == NULL || decl->kind != MP_YNODE_MAP || t == NULL) {
    at(err, path, decl, "missing type");
    return NULL;
  }
  mp_value *spec = mp_value_new_object();
  if (!strcmp(t, "string") || !strcmp(t, "integer") ||
      !strcmp(t, "boolean")) {
    mp_value_object_set(spec, "type", mp_value_new_cstring(t));
    return spec;
  }
  if (!strcmp(t, "array")) {
    const mp_ynode *items = mp_ynode_get(decl, "items");
    mp_value *it = items ? type_spec(path, items, err)
                         : (at(err, path, decl, "missing items"), NULL);
    if (it == NULL) {
      mp_value_free(spec);
      return NULL;
    }
    mp_value_object_set(spec, "type", mp_value_new_cstring("array"));
    mp_value_object_set(spec, "items", it);
    return spec;
  }
  mp_value_free(spec);
  snprintf(msg, sizeof msg, "unknown type: %.100s", t);
  at(err, path, mp_ynode_get(decl, "type"), msg);
  return NULL;
}

static mp_value *component_spec(const char *token, const char *path,
                                const mp_ynode *c, mp_err *err) {
  mp_value *r = mp_value_new_object();
  const char *desc = scalar(c, "description");
  if (desc) mp_value_object_set(r, "description", mp_value_new_cstring(desc));
  mp_value *props = mp_value_new_object(), *required = mp_value_new_array();
  mp_value *ins = mp_value_new_object(), *required_ins = mp_value_new_array();
  const mp_ynode *outs = mp_ynode_get(c, "outputs");
  for (size_t i = 0; outs && outs->kind == MP_YNODE_MAP && i < outs->n; i++) {
    /* Pulumi YAML does not type the outputs yet: any. */
    mp_value *any = mp_value_new_object();
    mp_value_object_set(any, "$ref", mp_value_new_cstring("pulumi.json#/Any"));
    mp_value_object_set(props, outs->keys[i]->text, any);
    mp_value_array_push(required, mp_value_new_cstring(outs->keys[i]->text));
  }
  const mp_ynode *in = mp_ynode_get(c, "inputs");
  int rc = 0;
  for (size_t i = 0; in && in->kind == MP_YNODE_MAP && i < in->n; i++) {
    const char *k = in->keys[i]->text;
    mp_value *spec = type_spec(path, in->vals[i], err);
    if (spec == NULL) {
      rc = MP_EINVAL;
      break;
    }
    const mp_ynode *def = mp_ynode_get(in->vals[i], "default");
    if (def && !mp_ynode_is_null(def))
      mp_value_object_set(spec, "default",
                          mp_ynode_value(def, MP_YNODE_TYPED));
    else
      mp_value_array_push(required_ins, mp_value_new_cstring(k));
    mp_value *env = mp_value_new_array();
    mp_value_array_push(env, mp_value_new_cstring(k));
    mp_value *info = mp_value_new_object();
    mp_value_object_set(info, "environment", env);
    mp_value_object_set(spec, "defaultInfo", info);
    const char *secret = scalar(in->vals[i], "secret");
    if (secret && !strcmp(secret, "true"))
      mp_value_object_set(spec, "secret", mp_value_new_bool(1));
    mp_value_object_set(ins, k, spec);
  }
  mp_value_object_set(r, "type", mp_value_new_cstring(token));
  mp_value_object_set(r, "properties", props);
  if (required->u.arr.len) mp_value_object_set(r, "required", required);
  else mp_value_free(required);
  mp_value_object_set(r, "inputProperties", ins);
  if (required_ins->u.arr.len)
    mp_value_object_set(r, "requiredInputs", required_ins);
  else mp_value_free(required_ins);
  mp_value_object_set(r, "isComponent", mp_value_new_bool(1));
  if (rc < 0) {
    mp_value_free(r);
    return NULL;
  }
  return r;
}

static char *make_schema(const char *path, const mp_ynode *doc,
                         const char *name, const char *version, mp_err *err) {
  mp_value *s = mp_value_new_object();
  mp_value_object_set(s, "name", mp_value_new_cstring(name));
  const char *desc = scalar(doc, "description");
  if (desc) mp_value_object_set(s, "description", mp_value_new_cstring(desc));
  mp_value_object_set(s, "version", mp_value_new_cstring(version));
  const char *ns = scalar(doc, "namespace");
  if (ns) mp_value_object_set(s, "namespace", mp_value_new_cstring(ns));
  mp_value *lang = mp_value_new_object();
  static const char *const langs[] = {"nodejs", "python", "csharp", "java",
                                      "go"};
  for (size_t i = 0; i < MP_ARRAY_LEN(langs); i++) {
    mp_value *o = mp_value_new_object();
    mp_value_object_set(o, "respectSchemaVersion", mp_value_new_bool(1));
    mp_value_object_set(lang, langs[i], o);
  }
  mp_value_object_set(s, "language", lang);
  mp_value *res = mp_value_new_object();
  const mp_ynode *comps = mp_ynode_get(doc, "components");
  int rc = 0;
  if (comps && !mp_ynode_is_null(comps) && comps->kind != MP_YNODE_MAP)
    rc = at(err, path, comps, "components must be an object");
  for (size_t i = 0; rc == 0 && comps && comps->kind == MP_YNODE_MAP &&
                     i < comps->n; i++) {
    char *token = mp_xasprintf("%s:index:%s", name, comps->keys[i]->text);
    mp_value *spec = comps->vals[i]->kind == MP_YNODE_MAP
                         ? component_spec(token, path, comps->vals[i], err)
                         : (at(err, path, comps->vals[i],
                               "a component must be an object"),
                            NULL);
    if (spec) mp_value_object_set(res, token, spec);
    else rc = MP_EINVAL;
    free(token);
  }
  mp_value_object_set(s, "resources", res);
  mp_buf b;
  mp_buf_init(&b);
  if (rc == 0) rc = mp_value_to_json(s, NULL, 0, &b, err);
  mp_value_free(s);
  if (rc < 0) {
    mp_buf_destroy(&b);
    return NULL;
  }
  mp_buf_putc(&b, '\0');
  return b.data;
}

/* ---- the provider's plain methods ---- */

static int yp_configure(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                        mp_err *err) {
  (void)p, (void)q, (void)err;
  r->accept_secrets = 1;
  r->accept_resources = 1;
  r->supports_preview = 1;
  return 0;
}

static int yp_info(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                   mp_err *err) {
  (void)q, (void)err;
  r->version = mp_xstrdup(((yplugin *)p)->version);
  return 0;
}

/* A YAML plugin is never parameterized: |sub_name| and |sub_version|
 * are NULL. */
static int yp_schema(mp_provider *p, int version, const char *sub_name,
                     const char *sub_version, char **json, mp_err *err) {
  (void)sub_name, (void)sub_version;
  if (version != 0)
    return mp_err_set(err, MP_EINVAL, "unsupported schema version %d",
                      version);
  *json = mp_xstrdup(((yplugin *)p)->schema);
  return 0;
}

static void yp_free(mp_provider *p) {
  yplugin *y = (yplugin *)p;
  free(y->base.pkg);
  free(y->dir);
  free(y->path);
  free(y->version);
  free(y->schema);
  free(y);
}

/* ---- Construct ---- */

/* One Construct: the answer's way back. */
typedef struct construct_job {
  void (*done)(void *ud, const mp_buf *resp, const mp_err *err);
  void *ud;
} construct_job;

static void body_end(void *ud, const char *urn, const mp_value *outputs,
                     const mp_value *output_deps, const char *error) {
  construct_job *j = ud;
  mp_err e;
  mp_err_clear(&e);
  if (error) {
    mp_err_set(&e, MP_EPLUGIN, "%s", error);
    j->done(j->ud, NULL, &e);
    free(j);
    return;
  }
  Pulumirpc__ConstructResponse m = PULUMIRPC__CONSTRUCT_RESPONSE__INIT;
  m.urn = (char *)urn;
  int rc = mp_value_to_pb_struct(outputs,
                                 MP_PB_KEEP_SECRETS | MP_PB_KEEP_RESOURCES,
                                 &m.state, &e);
  size_t n = output_deps ? output_deps->u.obj.len : 0;
  Pulumirpc__ConstructResponse__StateDependenciesEntry *de =
      mp_xcalloc(n + 1, sizeof(*de));
  Pulumirpc__ConstructResponse__StateDependenciesEntry **dp =
      mp_xcalloc(n + 1, sizeof(*dp));
  Pulumirpc__ConstructResponse__PropertyDependencies *pd =
      mp_xcalloc(n + 1, sizeof(*pd));
  char **urns = NULL;
  size_t nurns = 0;
  for (size_t i = 0; i < n; i++)
    nurns += output_deps->u.obj.items[i].value->u.arr.len;
  urns = mp_xcalloc(nurns + 1, sizeof(char *));
  size_t at_urn = 0;
  for (size_t i = 0; i < n; i++) {
    const mp_value_entry *x = &output_deps->u.obj.items[i];
    pulumirpc__construct_response__state_dependencies_entry__init(&de[i]);
    pulumirpc__construct_response__property_dependencies__init(&pd[i]);
    de[i].key = x->key;
    pd[i].urns = &urns[at_urn];
    for (size_t k = 0; k < x->value->u.arr.len; k++)
      urns[at_urn + pd[i].n_urns++] = x->value->u.arr.items[k]->u.str.ptr;
    at_urn += pd[i].n_urns;
    de[i].value = &pd[i];
    dp[i] = &de[i];
  }
  m.n_statedependencies = n;
  m.statedependencies = dp;
  mp_buf b;
  mp_buf_init(&b);
  if (rc == 0) mp_pb_pack(&m.base, &b);
  mp_value_pb_struct_free(m.state);
  free(de);
  free(dp);
  free(pd);
  free(urns);
  if (rc == 0) j->done(j->ud, &b, NULL);
  else j->done(j->ud, NULL, &e);
  mp_buf_destroy(&b);
  free(j);
}

/* The component's registration, with the options of the Construct
 * request, as the Go SDK's provider.Construct registers it (its own
 * heap copy: the request goes when this call returns). */
static Pulumirpc__RegisterResourceRequest *
component_request(const Pulumirpc__ConstructRequest *q, const mp_value *inputs,
                  mp_err *err) {
  Pulumirpc__RegisterResourceRequest m =
      PULUMIRPC__REGISTER_RESOURCE_REQUEST__INIT;
  m.type = q->type;
  m.name = q->name;
  m.parent = q->parent;
  m.custom = 0;
  m.acceptsecrets = 1;
  m.acceptresources = 1;
  m.supportspartialvalues = 1;
  m.aliasspecs = 1;
  m.supportsresultreporting = 1;
  m.n_dependencies = q->n_dependencies;
  m.dependencies = q->dependencies;
  if (q->protect_opt_case == PULUMIRPC__CONSTRUCT_REQUEST__PROTECT_OPT_PROTECT) {
    m.protect_opt_case =
        PULUMIRPC__REGISTER_RESOURCE_REQUEST__PROTECT_OPT_PROTECT;
    m.protect = q->protect;
  }
  if (q->retain_on_delete_opt_case ==
      PULUMIRPC__CONSTRUCT_REQUEST__RETAIN_ON_DELETE_OPT_RETAIN_ON_DELETE) {
    m.retain_on_delete_opt_case =
        PULUMIRPC__REGISTER_RESOURCE_REQUEST__RETAIN_ON_DELETE_OPT_RETAIN_ON_DELETE;
    m.retainondelete = q->retainondelete;
  }
  m.deletedwith = q->deletedwith;
  m.n_aliases = q->n_aliases;
  m.aliases = q->aliases;
  size_t np = q->n_providers;
  Pulumirpc__RegisterResourceRequest__ProvidersEntry *pe =
      mp_xcalloc(np + 1, sizeof(*pe));
  Pulumirpc__RegisterResourceRequest__ProvidersEntry **pp =
      mp_xcalloc(np + 1, sizeof(*pp));
  for (size_t i = 0; i < np; i++) {
    pulumirpc__register_resource_request__providers_entry__init(&pe[i]);
    pe[i].key = q->providers[i]->key;
    pe[i].value = q->providers[i]->value;
    pp[i] = &pe[i];
  }
  m.n_providers = np;
  m.providers = pp;
  mp_pb_deps deps;
  mp_pb_deps_copy(&m.base, "propertyDependencies", &q->base,
                  "inputDependencies", &deps);
  /* Packed and unpacked: a message of its own, freed as the host frees
   * its requests (mp__request_free); the inputs are set after, as the
   * host sets its requests' objects. */
  mp_buf packed;
  mp_buf_init(&packed);
  mp_pb_pack(&m.base, &packed);
  free(pe);
  free(pp);
  mp_pb_deps_free(&deps);
  Pulumirpc__RegisterResourceRequest *r =
      pulumirpc__register_resource_request__unpack(NULL, packed.len,
                                                   (const uint8_t *)packed.data);
  mp_buf_destroy(&packed);
  if (r == NULL) {
    mp_err_set(err, MP_EPROTO, "cannot copy the component's registration");
    return NULL;
  }
  if (mp_value_to_pb_struct(inputs,
                            MP_PB_KEEP_SECRETS | MP_PB_KEEP_RESOURCES,
                            &r->object, err) < 0) {
    mp__request_free(r);
    return NULL;
  }
  return r;
}

/* The body's config: each declared input, given or its default, as
 * "<project>:<key>" (the host reads a project's config so). */
static int body_config(const char *path, const mp_ynode *comp,
                       const char *project, const mp_value *inputs,
                       mp_value **out, mp_err *err) {
  mp_value *cfg = mp_value_new_object();
  const mp_ynode *in = mp_ynode_get(comp, "inputs");
  for (size_t i = 0; in && in->kind == MP_YNODE_MAP && i < in->n; i++) {
    const char *k = in->keys[i]->text;
    const mp_value *given = mp_value_object_get(inputs, k);
    const mp_ynode *def = mp_ynode_get(in->vals[i], "default");
    mp_value *v = NULL;
    if (given) v = mp_value_dup(given);
    else if (def && !mp_ynode_is_null(def))
      v = mp_ynode_value(def, MP_YNODE_TYPED);
    if (v == NULL) {
      mp_value_free(cfg);
      char *msg = mp_xasprintf("missing required input '%s'", k);
      int rc = at(err, path, in->keys[i], msg);
      free(msg);
      return rc;
    }
    const char *secret = scalar(in->vals[i], "secret");
    if (secret && !strcmp(secret, "true") && v->kind != MP_VALUE_SECRET)
      v = mp_value_new_secret(v);
    char *full = mp_xasprintf("%s:%s", project, k);
    mp_value_object_set(cfg, full, v);
    free(full);
  }
  *out = cfg;
  return 0;
}

/* The body's project: the component's node of a fresh read of the file
 * as its program, the consuming program's project name, the plugin
 * folder as its folder (its package declarations are read there). */
static int body_project(const yplugin *y, const char *project,
                        const char *key, mp_project **out, mp_err *err) {
  mp_ynode *doc = NULL;
  int rc = mp_ynode_load(y->path, y->path, &doc, err);
  if (rc < 0) return rc;
  mp_ynode *comps = (mp_ynode *)mp_ynode_get(doc, "components");
  mp_ynode *body = NULL;
  for (size_t i = 0; comps && comps->kind == MP_YNODE_MAP && i < comps->n;
       i++)
    if (strcmp(comps->keys[i]->text, key) == 0) {
      body = comps->vals[i];
      comps->vals[i] = NULL; /* the project's own */
      break;
    }
  if (body == NULL || body->kind != MP_YNODE_MAP) {
    mp_ynode_free(doc);
    mp_ynode_free(body);
    return mp_err_set(err, MP_EINVAL, "%s has no component '%s'", y->path,
                      key);
  }
  mp_project *p = mp_xcalloc(1, sizeof(*p));
  p->dir = mp_xstrdup(y->dir);
  p->program_dir = mp_xstrdup(y->dir);
  p->name = mp_xstrdup(project);
  p->runtime = mp_xstrdup("yaml");
  p->path = mp_xstrdup(y->path);
  p->file_name = mp_xstrdup(MANIFEST);
  p->program_file = mp_xstrdup(y->path);
  p->doc = doc;
  p->program = body;
  rc = mp__pkgdecls_load(p, err);
  if (rc < 0) {
    mp_project_free(p);
    return rc;
  }
  *out = p;
  return 0;
}

static int yp_construct_here(mp_provider *base, struct mp_monitor *m,
                             const mp_buf *req,
                             void (*done)(void *ud, const mp_buf *resp,
                                          const mp_err *err),
                             void *ud, mp_err *err) {
  yplugin *y = (yplugin *)base;
  Pulumirpc__ConstructRequest *q = pulumirpc__construct_request__unpack(
      NULL, req->len, (const uint8_t *)req->data);
  if (q == NULL)
    return mp_err_set(err, MP_EPROTO, "Construct: bad ConstructRequest");
  /* `<package>:<module>:<Component>`: the component is its last part. */
  const char *type = q->type ? q->type : "";
  const char *c1 = strchr(type, ':');
  const char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
  mp_project *proj = NULL;
  mp_value *inputs = NULL, *cfg = NULL;
  Pulumirpc__RegisterResourceRequest *root = NULL;
  int rc = 0;
  if (c2 == NULL || strchr(c2 + 1, ':'))
    rc = mp_err_set(err, MP_EINVAL, "invalid component type '%s'", type);
  if (rc == 0) rc = body_project(y, q->project, c2 + 1, &proj, err);
  if (rc == 0) rc = mp_value_from_pb_struct(q->inputs, &inputs, err);
  if (rc == 0)
    rc = body_config(y->path, proj->program, q->project, inputs, &cfg, err);
  if (rc == 0 && (root = component_request(q, inputs, err)) == NULL)
    rc = err->code ? err->code : MP_EPROTO;
  if (rc == 0) {
    mp_source_info si = {0};
    si.project = q->project;
    si.stack = q->stack;
    si.organization =
        q->organization && *q->organization ? q->organization : "organization";
    si.root_dir = y->dir;
    si.dry_run = q->dryrun;
    si.parallel = q->parallel;
    si.config = cfg;
    construct_job *j = mp_xcalloc(1, sizeof(*j));
    j->done = done;
    j->ud = ud;
    char *prefix = mp_xasprintf("%s-", q->name);
    rc = mp__body_start(proj, m, &si, root, prefix, body_end, j, err);
    free(prefix);
    if (rc < 0) free(j);
    else proj = NULL, root = NULL; /* the body's now */
  }
  if (rc < 0) mp_err_prefix(err, "constructing %s", type);
  mp__request_free(root);
  mp_project_free(proj);
  mp_value_free(inputs);
  mp_value_free(cfg);
  pulumirpc__construct_request__free_unpacked(q, NULL);
  return rc;
}

static const mp_provider_vtable yp_vtable = {
    .configure = yp_configure,
    .get_plugin_info = yp_info,
    .free = yp_free,
    .get_schema = yp_schema,
    .construct_here = yp_construct_here,
};

int mp_yaml_plugin_new(const char *pkg, const char *dir, mp_provider **out,
                       mp_err *err) {
  *out = NULL;
  char *path = mp_xasprintf("%s/" MANIFEST, dir);
  mp_ynode *doc = NULL;
  int rc = mp_ynode_load(path, path, &doc, err);
  const char *name = rc == 0 ? scalar(doc, "name") : NULL;
  if (rc == 0 && name == NULL)
    rc = at(err, path, doc, "missing required `name` field.");
  const char *version = rc == 0 ? scalar(doc, "version") : NULL;
  char *schema = rc == 0 ? make_schema(path, doc, name, version ? version
                                                                : "0.0.0",
                                       err)
                         : NULL;
  if (rc == 0 && schema == NULL) rc = MP_EINVAL;
  if (rc == 0) {
    yplugin *y = mp_xcalloc(1, sizeof(*y));
    y->base.vt = &yp_vtable;
    y->base.pkg = mp_xstrdup(pkg);
    y->dir = mp_xstrdup(dir);
    y->path = path;
    path = NULL;
    y->version = mp_xstrdup(version ? version : "0.0.0");
    y->schema = schema;
    *out = &y->base;
  }
  mp_ynode_free(doc);
  free(path);
  return rc;
}
