/* The engine's own package `pulumi`, as Pulumi's builtin provider serves
 * it (pkg/resource/deploy/builtins.go): pulumi:pulumi:StackReference, a
 * read of another stack's outputs, secrets staying secret, and
 * pulumi:index:Stash (stash.c). Reading the other stack is the backend's
 * job: the caller supplies it (mp_read_stack_fn), as Pulumi's deployment
 * is handed a BackendClient. */
#include "deploy/builtins.h"

#include <stdlib.h>
#include <string.h>

#include "deploy/stash.h"
#include "engine/names.h"
#include "engine/step.h"

#define STACK_REFERENCE_TYPE "pulumi:pulumi:StackReference"
#define STASH_TYPE "pulumi:index:Stash"

static int is_stash(const mp_prov_req *q) {
  return q->type && strcmp(q->type, STASH_TYPE) == 0;
}

static int unrecognized(const mp_prov_req *q, mp_err *err) {
  return mp_err_set(err, MP_EPLUGIN, "unrecognized resource type '%s'",
                    q->type ? q->type : "");
}

typedef struct stackref_provider {
  mp_provider base;
  mp_read_stack_fn read_stack;
  void *read_stack_ud; /* borrowed: outlives the deployment */
} stackref_provider;

static const char *name_of(const mp_value *inputs) {
  const mp_value *v = inputs ? mp_value_object_get(inputs, "name") : NULL;
  if (v && v->kind == MP_VALUE_SECRET) v = v->u.secret;
  return v && v->kind == MP_VALUE_STRING ? v->u.str.ptr : NULL;
}

static int sr_check(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                    mp_err *err) {
  (void)p;
  if (is_stash(q)) return mp__stash_check(q, r);
  if (q->type && strcmp(q->type, STACK_REFERENCE_TYPE) != 0)
    return unrecognized(q, err);
  const mp_value *news = q->news;
  for (size_t i = 0; news && i < news->u.obj.len; i++)
    if (strcmp(news->u.obj.items[i].key, "name") != 0) {
      char *why = mp_xasprintf("unknown property \"%s\"",
                               news->u.obj.items[i].key);
      mp_prov_resp_add_failure(r, news->u.obj.items[i].key, why);
      free(why);
    }
  const mp_value *name = news ? mp_value_object_get(news, "name") : NULL;
  if (name == NULL)
    mp_prov_resp_add_failure(r, "name", "missing required property \"name\"");
  else if (name->kind != MP_VALUE_STRING && name->kind != MP_VALUE_UNKNOWN)
    mp_prov_resp_add_failure(r, "name", "property \"name\" must be a string");
  r->inputs = news ? mp_value_dup(news) : mp_value_new_object();
  return 0;
}

/* The outputs of stack |name|, through the caller's reader. */
static int stack_outputs(const stackref_provider *sp, const char *name,
                         mp_value **out, mp_err *err) {
  *out = NULL;
  int rc = sp->read_stack(sp->read_stack_ud, name, out, err);
  if (rc < 0) mp_err_prefix(err, "reading stack reference '%s'", name);
  return rc;
}

static int sr_read(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                   mp_err *err) {
  stackref_provider *sp = (stackref_provider *)p;
  if (is_stash(q)) return mp__stash_read(q, r);
  if (q->type == NULL || strcmp(q->type, STACK_REFERENCE_TYPE) != 0)
    return unrecognized(q, err);
  const char *name = name_of(q->old_inputs);
  if (name == NULL)
    return mp_err_set(err, MP_EPLUGIN, "stack reference can not be imported");
  mp_value *outs = NULL;
  int rc = stack_outputs(sp, name, &outs, err);
  if (rc < 0) return rc == MP_EPLUGIN ? rc : (err->code = MP_EPLUGIN);
  mp_value *secret_names = mp_value_new_array();
  for (size_t i = 0; i < outs->u.obj.len; i++) /* keys come sorted */
    if (mp_value_contains_secrets(outs->u.obj.items[i].value))
      mp_value_array_push(secret_names,
                          mp_value_new_cstring(outs->u.obj.items[i].key));
  mp_value *o = mp_value_new_object();
  mp_value_object_set(o, "name", mp_value_new_cstring(name));
  mp_value_object_set(o, "outputs", outs);
  mp_value_object_set(o, "secretOutputNames", secret_names);
  r->id = mp_xstrdup(q->id ? q->id : name);
  r->outputs = o;
  r->inputs = mp_value_new_object();
  mp_value_object_set(r->inputs, "name", mp_value_new_cstring(name));
  return 0;
}

static int sr_create(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                     mp_err *err) {
  (void)p;
  if (is_stash(q)) return mp__stash_create(q, r);
  if (q->type && strcmp(q->type, STACK_REFERENCE_TYPE) != 0)
    return unrecognized(q, err);
  return mp_err_set(err, MP_EPLUGIN,
                    "the builtin '%s' resources are read, never created",
                    q->type ? q->type : "pulumi");
}

/* A stack reference to another stack is another resource. */
static int sr_diff(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                   mp_err *err) {
  (void)p;
  if (is_stash(q)) return mp__stash_diff(q, r);
  if (q->type && strcmp(q->type, STACK_REFERENCE_TYPE) != 0)
    return unrecognized(q, err);
  const mp_value *a = q->news ? mp_value_object_get(q->news, "name") : NULL;
  const mp_value *b =
      q->old_inputs ? mp_value_object_get(q->old_inputs, "name") : NULL;
  r->changes = MP_DIFF_CHANGES_NONE;
  if (!mp_value_equal(a, b, 0)) {
    r->changes = MP_DIFF_CHANGES_SOME;
    mp_strv_push(&r->replaces, "name");
    mp_strv_push(&r->diffs, "name");
  }
  return 0;
}

static int sr_update(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                     mp_err *err) {
  (void)p;
  if (is_stash(q)) return mp__stash_update(q, r);
  return mp_err_set(err, MP_EPLUGIN, "unexpected update for builtin resource");
}

static int sr_delete(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                     mp_err *err) {
  (void)p;
  (void)q;
  (void)r;
  (void)err;
  return 0; /* a read resource: nothing to delete in the world */
}

static int sr_info(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                   mp_err *err) {
  (void)p;
  (void)q;
  (void)err;
  r->version = mp_xstrdup(MP_VERSION);
  return 0;
}

static void sr_free(mp_provider *p) {
  if (p == NULL) return;
  free(p->pkg);
  free(p);
}

static const mp_provider_vtable sr_vt = {
    .check = sr_check,
    .diff = sr_diff,
    .create = sr_create,
    .update = sr_update,
    .read = sr_read,
    .del = sr_delete,
    .get_plugin_info = sr_info,
    .free = sr_free,
};

int mp_deploy_builtins_new(mp_read_stack_fn read_stack, void *ud,
                           mp_provider **out) {
  stackref_provider *p = mp_xcalloc(1, sizeof(*p));
  p->base.vt = &sr_vt;
  p->base.pkg = mp_xstrdup("pulumi");
  p->read_stack = read_stack;
  p->read_stack_ud = ud;
  *out = &p->base;
  return 0;
}
