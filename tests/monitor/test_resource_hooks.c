/* Resource hooks and error hooks (monitor/resource_hooks.c) without a
 * program: the hooks are C functions standing where the program's
 * Callbacks calls stand, which record what they were sent and answer as a
 * program would, with an error, with bytes that are no response, or not at
 * all (a transport failure). With @pulumi/pulumi programs, end to end:
 * tests/nodejs/t0021-resource-hooks.sh and t0022-error-hooks.sh. */
#include <stdlib.h>
#include <string.h>

#include "engine/op.h"
#include "engine/value.h"
#include "engine/value_pb.h"
#include "monitor/resource_hooks.h"
#include "pulumi/callback.pb-c.h"
#include "pulumi/resource.pb-c.h"
#include "testutil.h"

#define URN "urn:pulumi:dev::proj::test:index:Thing::a"

/* What the hooks saw, in order: "<hook>:<urn name>:<type>:<id>:<keys>"
 * where keys are those of the new inputs, "|", those of the old ones. */
static mp_strv seen;

static void keys(mp_buf *b, const Google__Protobuf__Struct *s) {
  mp_value *v = NULL;
  if (s == NULL || mp_value_from_pb_struct(s, &v, NULL) != 0)
    return;
  for (size_t i = 0; i < v->u.obj.len; i++)
    mp_buf_printf(b, "%s%s", i ? "," : "", v->u.obj.items[i].key);
  mp_value_free(v);
}

static void pack(const ProtobufCMessage *m, mp_buf *out) {
  size_t n = protobuf_c_message_get_packed_size(m);
  uint8_t *bytes = mp_xcalloc(1, n ? n : 1);
  protobuf_c_message_pack(m, bytes);
  mp_buf_append(out, bytes, n);
  free(bytes);
}

/* ud: the hook's name; how it answers follows from the name. */
static int call(void *ud, const ProtobufCMessage *req, mp_buf *resp,
                mp_err *err) {
  const char *name = ud;
  mp_buf b;
  mp_buf_init(&b);
  if (req->descriptor == &pulumirpc__resource_hook_request__descriptor) {
    const Pulumirpc__ResourceHookRequest *q =
        (const Pulumirpc__ResourceHookRequest *)req;
    mp_buf_printf(&b, "%s:%s:%s:%s:", name, q->name, q->type, q->id);
    keys(&b, q->new_inputs);
    mp_buf_puts(&b, "|");
    keys(&b, q->old_inputs);
    mp_buf_printf(&b, "|%s", q->new_outputs ? "outs" : "");
  } else {
    const Pulumirpc__ErrorHookRequest *q =
        (const Pulumirpc__ErrorHookRequest *)req;
    mp_buf_printf(&b, "%s:%s:%s:%zu", name, q->name, q->failed_operation,
                  q->n_errors);
    for (size_t i = 0; i < q->n_errors; i++)
      mp_buf_printf(&b, ":%s", q->errors[i]);
  }
  mp_strv_push(&seen, b.data);
  mp_buf_destroy(&b);

  if (strcmp(name, "broken") == 0)
    return mp_err_set(err, MP_EIO, "the program's callback server is gone");
  if (strcmp(name, "garbage") == 0) {
    mp_buf_append(resp, "\xff\xff\xff", 3);
    return 0;
  }
  if (req->descriptor == &pulumirpc__resource_hook_request__descriptor) {
    Pulumirpc__ResourceHookResponse r = PULUMIRPC__RESOURCE_HOOK_RESPONSE__INIT;
    if (strncmp(name, "refuse", 6) == 0)
      r.error = "not today";
    pack(&r.base, resp);
  } else {
    Pulumirpc__ErrorHookResponse r = PULUMIRPC__ERROR_HOOK_RESPONSE__INIT;
    if (strcmp(name, "throw") == 0)
      r.error = "boom";
    r.retry = strcmp(name, "retry") == 0;
    pack(&r.base, resp);
  }
  return 0;
}

static void put(mp_hook_table *t, const char *name, int dry, int ignore,
                int error_hook) {
  mp_resource_hook h = {0};
  h.name = name;
  h.on_dry_run = dry;
  h.ignore_errors = ignore;
  h.error_hook = error_hook;
  h.call = call;
  h.ud = (void *)name;
  mp_hook_table_put(t, &h);
}

static mp_hook_table *table(int preview) {
  mp_hook_table *t = mp_hook_table_new(preview);
  put(t, "log", 0, 0, 0);
  put(t, "log2", 0, 0, 0);
  put(t, "dry", 1, 0, 0);
  put(t, "refuse", 0, 0, 0);
  put(t, "refuse-ignored", 0, 1, 0);
  put(t, "garbage", 0, 0, 0);
  put(t, "broken", 0, 0, 0);
  put(t, "retry", 0, 0, 1);
  put(t, "giveup", 0, 0, 1);
  put(t, "throw", 0, 0, 1);
  return t;
}

static mp_value *obj(const char *json) {
  mp_value *v = NULL;
  mp_err err;
  CHECK(mp_value_from_json(json, strlen(json), NULL, &v, &err) == 0);
  return v;
}

static mp_resource *state(const char *id, const char *inputs) {
  mp_resource *r = mp_resource_new(URN, "test:index:Thing", 1);
  r->id = id ? mp_xstrdup(id) : NULL;
  r->inputs = obj(inputs);
  r->outputs = obj(inputs);
  return r;
}

/* A step of |op| whose hooks of |kind| are |names| (NULL-ended). */
static mp_step *step(mp_step_op op, int kind, const char *const *names) {
  mp_step *s = mp_step_new(op, URN);
  if (op == MP_OP_CREATE || op == MP_OP_UPDATE)
    s->new_ = state("i-1", "{\"x\":1}");
  if (op == MP_OP_UPDATE || op == MP_OP_DELETE)
    s->old = state("i-0", "{\"y\":2}");
  mp_resource *holder = op == MP_OP_DELETE ? s->old : s->new_;
  for (size_t i = 0; names[i]; i++)
    mp_strv_push(mp_resource_hooks_mut(holder, kind), names[i]);
  return s;
}

static void reset(void) {
  mp_strv_destroy(&seen);
  mp_strv_init(&seen);
}

static void test_hooks_called_with_the_step(void) {
  reset();
  mp_hook_table *t = table(0);
  const char *const names[] = {"log", "log2", NULL};
  mp_step *s = step(MP_OP_CREATE, MP_HOOK_BEFORE_CREATE, names);
  mp_err err;
  CHECK(mp_hook_table_run(t, s, 0, &err) == 0);
  /* before a create: no ID yet, no outputs, nothing old */
  CHECK(seen.len == 2);
  if (seen.len == 2) {
    CHECK_STR(seen.items[0], "log:a:test:index:Thing::x||");
    CHECK_STR(seen.items[1], "log2:a:test:index:Thing::x||");
  }
  /* no after-create hooks: none called */
  CHECK(mp_hook_table_run(t, s, 1, &err) == 0);
  CHECK(seen.len == 2);
  mp_step_free(s);
  /* after a create: its ID and outputs */
  reset();
  s = step(MP_OP_CREATE, MP_HOOK_AFTER_CREATE, names + 1);
  CHECK(mp_hook_table_run(t, s, 1, &err) == 0);
  CHECK(seen.len == 1 &&
        strcmp(seen.items[0], "log2:a:test:index:Thing:i-1:x||outs") == 0);
  mp_step_free(s);
  /* before an update: old and new inputs, the old ID */
  reset();
  s = step(MP_OP_UPDATE, MP_HOOK_BEFORE_UPDATE, names + 1);
  CHECK(mp_hook_table_run(t, s, 0, &err) == 0);
  CHECK(seen.len == 1 &&
        strcmp(seen.items[0], "log2:a:test:index:Thing:i-0:x|y|") == 0);
  mp_step_free(s);
  /* a delete's hooks are the old state's; nothing new is sent */
  reset();
  s = step(MP_OP_DELETE, MP_HOOK_AFTER_DELETE, names);
  CHECK(mp_hook_table_run(t, s, 1, &err) == 0);
  CHECK(seen.len == 2 &&
        strcmp(seen.items[0], "log:a:test:index:Thing:i-0:|y|") == 0);
  mp_step_free(s);
  mp_hook_table_free(t);
}

static void test_before_hook_failure_fails_the_step(void) {
  reset();
  mp_hook_table *t = table(0);
  const char *const names[] = {"refuse", "log", NULL};
  mp_step *s = step(MP_OP_CREATE, MP_HOOK_BEFORE_CREATE, names);
  mp_err err;
  CHECK(mp_hook_table_run(t, s, 0, &err) == MP_EPLUGIN);
  CHECK_STR(err.msg, "before hook \"refuse\" failed: not today");
  /* the hooks after the failed one do not run */
  CHECK(seen.len == 1);
  CHECK(s->warnings.len == 0);
  mp_step_free(s);
  /* one that ignores its errors only warns, and the next runs */
  reset();
  const char *const ignored[] = {"refuse-ignored", "log", NULL};
  s = step(MP_OP_CREATE, MP_HOOK_BEFORE_CREATE, ignored);
  CHECK(mp_hook_table_run(t, s, 0, &err) == 0);
  CHECK(seen.len == 2);
  CHECK(s->warnings.len == 1 &&
        strcmp(s->warnings.items[0],
               "before hook \"refuse-ignored\" failed: not today") == 0);
  mp_step_free(s);
  mp_hook_table_free(t);
}

static void test_after_hook_failure_is_a_warning(void) {
  reset();
  mp_hook_table *t = table(0);
  const char *const names[] = {"refuse", "log", NULL};
  mp_step *s = step(MP_OP_UPDATE, MP_HOOK_AFTER_UPDATE, names);
  mp_err err;
  CHECK(mp_hook_table_run(t, s, 1, &err) == 0);
  CHECK(seen.len == 2);
  CHECK(s->warnings.len == 1 &&
        strcmp(s->warnings.items[0],
               "after hook \"refuse\" failed: not today") == 0);
  mp_step_free(s);
  mp_hook_table_free(t);
}

static void test_hook_bad_answers(void) {
  mp_hook_table *t = table(0);
  mp_err err;
  const char *const garbage[] = {"garbage", NULL};
  mp_step *s = step(MP_OP_CREATE, MP_HOOK_BEFORE_CREATE, garbage);
  CHECK(mp_hook_table_run(t, s, 0, &err) == MP_EPROTO);
  CHECK_STR(err.msg, "before hook \"garbage\" failed: not a "
                     "ResourceHookResponse");
  mp_step_free(s);
  const char *const broken[] = {"broken", NULL};
  s = step(MP_OP_CREATE, MP_HOOK_BEFORE_CREATE, broken);
  CHECK(mp_hook_table_run(t, s, 0, &err) == MP_EIO);
  CHECK_STR(err.msg, "before hook \"broken\" failed: the program's callback "
                     "server is gone");
  mp_step_free(s);
  const char *const nope[] = {"nope", NULL};
  s = step(MP_OP_CREATE, MP_HOOK_BEFORE_CREATE, nope);
  CHECK(mp_hook_table_run(t, s, 0, &err) == MP_EINVAL);
  CHECK_STR(err.msg,
            "before hook \"nope\" failed: the program did not register it");
  mp_step_free(s);
  /* an error hook's name is not a resource hook */
  const char *const retry[] = {"retry", NULL};
  s = step(MP_OP_CREATE, MP_HOOK_BEFORE_CREATE, retry);
  CHECK(mp_hook_table_run(t, s, 0, &err) == MP_EINVAL);
  mp_step_free(s);
  mp_hook_table_free(t);
}

static void test_preview_runs_only_dry_run_hooks(void) {
  reset();
  mp_hook_table *t = table(1);
  const char *const names[] = {"log", "dry", "refuse", NULL};
  mp_step *s = step(MP_OP_CREATE, MP_HOOK_BEFORE_CREATE, names);
  mp_err err;
  CHECK(mp_hook_table_run(t, s, 0, &err) == 0);
  CHECK(seen.len == 1 && strncmp(seen.items[0], "dry:", 4) == 0);
  mp_step_free(s);
  /* a hook registered again replaces the first */
  put(t, "log", 1, 0, 0);
  reset();
  const char *const again[] = {"log", NULL};
  s = step(MP_OP_CREATE, MP_HOOK_BEFORE_CREATE, again);
  CHECK(mp_hook_table_run(t, s, 0, &err) == 0);
  CHECK(seen.len == 1);
  mp_step_free(s);
  mp_hook_table_free(t);
}

static void test_error_hooks(void) {
  reset();
  mp_hook_table *t = table(0);
  mp_strv errors;
  mp_strv_init(&errors);
  mp_strv_push(&errors, "second failure");
  mp_strv_push(&errors, "first failure");
  const char *const names[] = {"giveup", "retry", NULL};
  mp_step *s = step(MP_OP_CREATE, MP_HOOK_ON_ERROR, names);
  int retry = -1;
  mp_err err;
  CHECK(mp_hook_table_run_error(t, s, "create", &errors, &retry, &err) == 0);
  CHECK(retry == 1);
  CHECK(seen.len == 2);
  if (seen.len == 2) {
    CHECK_STR(seen.items[0], "giveup:a:create:2:second failure:first failure");
    CHECK_STR(seen.items[1], "retry:a:create:2:second failure:first failure");
  }
  mp_step_free(s);
  /* none asks again */
  const char *const giveup[] = {"giveup", NULL};
  s = step(MP_OP_DELETE, MP_HOOK_ON_ERROR, giveup);
  CHECK(mp_hook_table_run_error(t, s, "delete", &errors, &retry, &err) == 0);
  CHECK(retry == 0);
  mp_step_free(s);
  /* one that throws stops there */
  reset();
  const char *const thrown[] = {"throw", "retry", NULL};
  s = step(MP_OP_UPDATE, MP_HOOK_ON_ERROR, thrown);
  CHECK(mp_hook_table_run_error(t, s, "update", &errors, &retry, &err) ==
        MP_EPLUGIN);
  CHECK_STR(err.msg, "error hook \"throw\" failed: boom");
  CHECK(seen.len == 1);
  mp_step_free(s);
  /* a resource hook's name is no error hook */
  const char *const log[] = {"log", NULL};
  s = step(MP_OP_CREATE, MP_HOOK_ON_ERROR, log);
  CHECK(mp_hook_table_run_error(t, s, "create", &errors, &retry, &err) ==
        MP_EINVAL);
  CHECK_STR(err.msg, "error hook \"log\" was not registered");
  mp_step_free(s);
  /* an answer that is no ErrorHookResponse */
  put(t, "garbage", 0, 0, 1);
  const char *const garbage[] = {"garbage", NULL};
  s = step(MP_OP_CREATE, MP_HOOK_ON_ERROR, garbage);
  CHECK(mp_hook_table_run_error(t, s, "create", &errors, &retry, &err) ==
        MP_EPROTO);
  CHECK_STR(err.msg, "error hook \"garbage\" failed: not an ErrorHookResponse");
  mp_step_free(s);
  mp_strv_destroy(&errors);
  mp_hook_table_free(t);
}

int main(void) {
  mp_strv_init(&seen);
  RUN(test_hooks_called_with_the_step);
  RUN(test_before_hook_failure_fails_the_step);
  RUN(test_after_hook_failure_is_a_warning);
  RUN(test_hook_bad_answers);
  RUN(test_preview_runs_only_dry_run_hooks);
  RUN(test_error_hooks);
  mp_strv_destroy(&seen);
  return mp_test_summary();
}
