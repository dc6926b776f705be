/* The engine's own package `pulumi` (what Pulumi's builtin provider
 * serves): pulumi:pulumi:StackReference, a read of another stack's outputs
 * from the same state store, secrets staying secret, and
 * pulumi:index:Stash (stash.c). It lives in the CLI because it needs the
 * store's URL and the stacks' passphrases.
 *
 * A read runs on a worker thread while the deployment writes through its
 * own connection, so it opens a connection of its own for each read. */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli/providers.h"
#include "cli/secrets.h"
#include "engine/crypto.h"
#include "engine/names.h"
#include "engine/urn.h"

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
  const mp_cli_providers *set; /* borrowed: outlives the deployment */
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

static char *salt_of(const char *state) {
  cJSON *j = state ? cJSON_Parse(state) : NULL;
  const cJSON *s = cJSON_GetObjectItemCaseSensitive(j, "salt");
  char *out = cJSON_IsString(s) ? mp_xstrdup(s->valuestring) : NULL;
  cJSON_Delete(j);
  return out;
}

/* The outputs of stack |name|, secrets decrypted and still marked. */
static int stack_outputs(const mp_cli_providers *set, const char *name,
                         mp_value **out, mp_err *err) {
  *out = NULL;
  char *proj = NULL, *stack = NULL;
  /* "organization/<project>/<stack>", "organization/<stack>" or
   * "<stack>", as Pulumi's DIY backends parse it: "p1/dev" names
   * organization p1, which is refused, not this project's dev */
  int rc = mp_stack_ref_parse(name, set->project, &proj, &stack, err)
               ? MP_EINVAL
               : 0;
  mp_stack_ref ref = {proj, stack};
  mp_store *st = NULL;
  mp_passphrase *pp = NULL;
  mp_snapshot *snap = NULL;
  char *type = NULL, *state = NULL, *salt = NULL;
  if (rc == 0)
    rc = mp_store_open(set->url, &st, err);
  if (rc == 0) {
    rc = mp_store_stack_exists(st, ref, err);
    if (rc == 0)
      rc = mp_err_set(err, MP_ENOENT, "unknown stack \"%s\"", name);
    else if (rc == 1)
      rc = 0;
  }
  if (rc == 0) rc = mp_store_secrets_get(st, ref, &type, &state, err);
  if (rc == 0 && (salt = salt_of(state)) != NULL) {
    /* The other stack's secrets open with the passphrase this command was
     * given, as Pulumi's passphrase provider does. */
    char *phrase = NULL;
    if (mp_cli_passphrase_given()) rc = mp_cli_passphrase_env(&phrase, err);
    if (rc == 0) rc = mp_passphrase_open(salt, phrase, &pp, err);
    free(phrase);
  }
  mp_crypter c;
  if (pp) c = mp_passphrase_crypter(pp);
  if (rc == 0) rc = mp_store_load(st, ref, pp ? &c : NULL, &snap, err);
  if (rc == 0) {
    const mp_value *outs = NULL;
    for (size_t i = 0; i < snap->nres; i++)
      if (!snap->res[i]->delete_ &&
          strcmp(snap->res[i]->type, MP_ROOT_STACK_TYPE) == 0)
        outs = snap->res[i]->outputs;
    *out = outs ? mp_value_dup(outs) : mp_value_new_object();
  }
  if (rc < 0) mp_err_prefix(err, "reading stack reference '%s'", name);
  mp_snapshot_free(snap);
  mp_passphrase_free(pp);
  mp_store_close(st);
  free(type);
  free(state);
  free(salt);
  free(proj);
  free(stack);
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
  int rc = stack_outputs(sp->set, name, &outs, err);
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

int mp_cli_stackref_new(const mp_cli_providers *set, mp_provider **out) {
  stackref_provider *p = mp_xcalloc(1, sizeof(*p));
  p->base.vt = &sr_vt;
  p->base.pkg = mp_xstrdup("pulumi");
  p->set = set;
  *out = &p->base;
  return 0;
}
