/* pulumi:index:Stash, a resource of the engine's own package `pulumi`
 * that keeps a value across updates, as Pulumi's builtin provider serves
 * it (pkg/resource/deploy/builtins.go): inputs `input` (any value) and
 * `passthrough` (a boolean); outputs `input` (the current input) and
 * `output` (the first input, kept by every update; with passthrough, the
 * current input). Replacing the resource (`--target-replace`, `state
 * taint`, `replacementTrigger`) stores the input afresh. */
#include "deploy/stash.h"

#include <stdlib.h>
#include <string.h>

#include "engine/step.h"

static const mp_value *get(const mp_value *obj, const char *key) {
  return obj && obj->kind == MP_VALUE_OBJECT ? mp_value_object_get(obj, key)
                                             : NULL;
}

static mp_value *dup_or_null(const mp_value *v) {
  return v ? mp_value_dup(v) : mp_value_new_null();
}

static int passthrough(const mp_value *inputs) {
  const mp_value *v = get(inputs, "passthrough");
  if (v && v->kind == MP_VALUE_SECRET) v = v->u.secret;
  return v && v->kind == MP_VALUE_BOOL && v->u.boolean;
}

int mp__stash_check(const mp_prov_req *q, mp_prov_resp *r) {
  const mp_value *news = q->news;
  for (size_t i = 0; news && i < news->u.obj.len; i++) {
    const char *k = news->u.obj.items[i].key;
    if (strcmp(k, "input") != 0 && strcmp(k, "passthrough") != 0) {
      char *why = mp_xasprintf("unknown property \"%s\"", k);
      mp_prov_resp_add_failure(r, k, why); /* the first only, as Pulumi */
      free(why);
      return 0;
    }
  }
  if (get(news, "input") == NULL)
    mp_prov_resp_add_failure(r, "input", "missing required property \"input\"");
  else
    r->inputs = mp_value_dup(news);
  return 0;
}

/* A changed input (or passthrough) is an update, which may only copy the
 * new input to the `input` output. */
int mp__stash_diff(const mp_prov_req *q, mp_prov_resp *r) {
  static const char *const keys[] = {"input", "passthrough"};
  r->changes = MP_DIFF_CHANGES_NONE;
  for (size_t i = 0; i < 2; i++) {
    const mp_value *a = get(q->news, keys[i]), *b = get(q->old_inputs, keys[i]);
    if ((a == NULL) != (b == NULL) || (a && !mp_value_equal(a, b, 0))) {
      r->changes = MP_DIFF_CHANGES_SOME;
      mp_strv_push(&r->diffs, keys[i]);
    }
  }
  return 0;
}

static mp_value *outputs(const mp_value *input, const mp_value *output) {
  mp_value *o = mp_value_new_object();
  mp_value_object_set(o, "input", dup_or_null(input));
  mp_value_object_set(o, "output", dup_or_null(output));
  return o;
}

int mp__stash_create(const mp_prov_req *q, mp_prov_resp *r) {
  const mp_value *in = get(q->news, "input");
  r->outputs = outputs(in, in);
  if (!q->preview) r->id = mp_uuid_new();
  return 0;
}

int mp__stash_update(const mp_prov_req *q, mp_prov_resp *r) {
  const mp_value *in = get(q->news, "input");
  r->outputs =
      outputs(in, passthrough(q->news) ? in : get(q->olds, "output"));
  return 0;
}

/* An import has no prior state: the stash adopts the id holding null,
 * and the program's input then applies as an update. */
int mp__stash_read(const mp_prov_req *q, mp_prov_resp *r) {
  r->id = mp_xstrdup(q->id ? q->id : "");
  int empty = q->old_inputs == NULL || q->old_inputs->kind != MP_VALUE_OBJECT ||
              q->old_inputs->u.obj.len == 0;
  if (empty) {
    r->inputs = mp_value_new_object();
    mp_value_object_set(r->inputs, "input", mp_value_new_null());
    r->outputs = outputs(NULL, NULL);
    return 0;
  }
  r->inputs = mp_value_dup(q->old_inputs);
  r->outputs = q->olds ? mp_value_dup(q->olds) : mp_value_new_object();
  return 0;
}
