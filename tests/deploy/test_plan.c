/* Update plans without a deployment: the plan's step-generator hook
 * records a preview's decisions, the file codec writes and reads them,
 * and the same hook applied holds an update to them (deploy/plan.c,
 * deploy/plan_file.c). The violations are Pulumi's messages
 * (pkg/resource/deploy/plan.go); end to end they are in
 * tests/cli/t1125-plans.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "deploy/plan.h"
#include "deploy/plan_file.h"
#include "engine/goal.h"
#include "engine/op.h"
#include "engine/snapshot.h"
#include "testutil.h"

#define URN_A "urn:pulumi:dev::proj::test:index:Thing::a"
#define URN_B "urn:pulumi:dev::proj::test:index:Thing::b"

static char dir[64];

static mp_value *obj(const char *json) {
  mp_value *v = NULL;
  mp_err err;
  CHECK(mp_value_from_json(json, strlen(json), NULL, &v, &err) == 0);
  return v;
}

static char *path_of(const char *name) {
  return mp_xasprintf("%s/%s", dir, name);
}

static void write_text(const char *name, const char *text) {
  char *p = path_of(name);
  FILE *f = fopen(p, "w");
  CHECK(f != NULL);
  fputs(text, f);
  fclose(f);
  free(p);
}

/* A registration of |urn| with |inputs| (JSON) that decided the steps
 * |ops| (ending with -1), through the plan's hook. */
typedef struct reg {
  mp_goal *g;
  mp_resource *st;
  mp_chain *c;
} reg;

static reg reg_make(const char *urn, const char *inputs, const int *ops) {
  reg r;
  r.g = mp_goal_new("test:index:Thing", strrchr(urn, ':') + 1, 1);
  r.st = mp_resource_new(urn, "test:index:Thing", 1);
  r.st->inputs = obj(inputs);
  r.c = mp_chain_new(NULL);
  for (size_t i = 0; ops[i] >= 0; i++)
    mp_chain_push(r.c, mp_step_new((mp_step_op)ops[i], urn));
  return r;
}

static void reg_free(reg *r) {
  mp_goal_free(r->g);
  mp_resource_free(r->st);
  mp_chain_free(r->c);
}

static int registered(mp_plan *p, const reg *r, const mp_resource *old,
                      mp_err *err) {
  mp_strv aliases;
  mp_strv_init(&aliases);
  int rc = p->hook.registered(p->hook.ctx, r->g, old, r->st, r->st->inputs,
                              &aliases, r->c, err);
  mp_strv_destroy(&aliases);
  return rc;
}

static const int create_only[] = {MP_OP_CREATE, -1};
static const int update_only[] = {MP_OP_UPDATE, -1};
static const int same_only[] = {MP_OP_SAME, -1};

/* A preview's plan of a (created with x=1, outputs {x:1, id:"i-1"}) and
 * of b (deleted), through the file at |name|, read back to apply. */
static mp_plan *recorded_plan(const char *name) {
  mp_plan *p = mp_plan_new(0);
  mp_err err;
  reg a = reg_make(URN_A, "{\"x\":\"1\"}", create_only);
  CHECK(registered(p, &a, NULL, &err) == 0);
  mp_value *outs = obj("{\"x\":\"1\",\"id\":\"i-1\"}");
  CHECK(mp_plan_outputs(p, URN_A, NULL, outs, &err) == 0);
  mp_value_free(outs);
  mp_step *del = mp_step_new(MP_OP_DELETE, URN_B);
  CHECK(p->hook.step(p->hook.ctx, del, &err) == 0);
  mp_step_free(del);
  reg_free(&a);

  char *path = path_of(name);
  CHECK(mp_plan_file_write(p, path, NULL, NULL, &err) == 0);
  mp_plan_free(p);
  mp_plan *back = NULL;
  CHECK(mp_plan_file_read(path, NULL, &back, &err) == 0);
  free(path);
  return back;
}

static void test_plan_round_trip_keeps_goal_and_steps(void) {
  mp_plan *p = recorded_plan("rt.json");
  if (p == NULL)
    return;
  CHECK(p->applying == 1);
  mp_resource_plan *a = mp_plan_resource(p, URN_A, 0);
  mp_resource_plan *b = mp_plan_resource(p, URN_B, 0);
  CHECK(a != NULL && b != NULL);
  if (a == NULL || b == NULL) {
    mp_plan_free(p);
    return;
  }
  CHECK(a->goal != NULL);
  CHECK_STR(a->goal->type, "test:index:Thing");
  CHECK_STR(a->goal->name, "a");
  CHECK(a->goal->custom == 1);
  CHECK(a->goal->dbr == -1);
  const mp_value *x = mp_value_object_get(a->goal->input_diff.adds, "x");
  CHECK(x != NULL && x->kind == MP_VALUE_STRING &&
        strcmp(x->u.str.ptr, "1") == 0);
  CHECK(mp_value_object_get(a->goal->output_diff.adds, "id") != NULL);
  CHECK(a->steps.len == 1 && strcmp(a->steps.items[0], "create") == 0);
  /* b: no goal (the plan deletes it), one delete */
  CHECK(b->goal == NULL);
  CHECK(b->steps.len == 1 && strcmp(b->steps.items[0], "delete") == 0);
  mp_plan_free(p);
}

static void test_plan_applied_as_planned(void) {
  mp_plan *p = recorded_plan("ok.json");
  if (p == NULL)
    return;
  mp_err err;
  reg a = reg_make(URN_A, "{\"x\":\"1\"}", create_only);
  CHECK(registered(p, &a, NULL, &err) == 0);
  mp_value *outs = obj("{\"x\":\"1\",\"id\":\"i-1\"}");
  CHECK(mp_plan_outputs(p, URN_A, NULL, outs, &err) == 0);
  mp_value_free(outs);
  mp_step *del = mp_step_new(MP_OP_DELETE, URN_B);
  CHECK(p->hook.step(p->hook.ctx, del, &err) == 0);
  mp_step_free(del);
  /* every planned step met: nothing left at the end */
  mp_snapshot *prior = mp_snapshot_new();
  mp_snapshot_append(prior, mp_resource_new(URN_B, "test:index:Thing", 1));
  mp_diags diags = {0};
  CHECK(mp_plan_check_end(p, prior, &diags) == 0);
  CHECK(diags.len == 0);
  mp_diags_destroy(&diags);
  mp_snapshot_free(prior);
  reg_free(&a);
  mp_plan_free(p);
}

static void test_plan_inputs_violated(void) {
  mp_plan *p = recorded_plan("inputs.json");
  if (p == NULL)
    return;
  mp_err err;
  reg a = reg_make(URN_A, "{\"x\":\"2\",\"y\":true}", create_only);
  CHECK(registered(p, &a, NULL, &err) == MP_EINVAL);
  CHECK_STR(err.msg, "resource " URN_A " violates plan: properties changed: "
                     "++x[{1}!={2}], =+y[{true}]");
  reg_free(&a);
  /* the step was not counted: the same registration as planned passes */
  a = reg_make(URN_A, "{\"x\":\"1\"}", create_only);
  CHECK(registered(p, &a, NULL, &err) == 0);
  reg_free(&a);
  mp_plan_free(p);
}

static void test_plan_options_violated(void) {
  mp_plan *p = recorded_plan("opts.json");
  if (p == NULL)
    return;
  mp_err err;
  reg a = reg_make(URN_A, "{\"x\":\"1\"}", create_only);
  a.st->protect = 1;
  CHECK(registered(p, &a, NULL, &err) == MP_EINVAL);
  CHECK_STR(err.msg, "resource " URN_A
                     " violates plan: protect changed (expected false)");
  a.st->protect = 0;
  mp_strv_push(&a.st->dependencies, URN_B);
  CHECK(registered(p, &a, NULL, &err) == MP_EINVAL);
  CHECK_STR(err.msg, "resource " URN_A " violates plan: dependencies "
                     "changed: added " URN_B);
  mp_strv_destroy(&a.st->dependencies);
  mp_strv_init(&a.st->dependencies);
  a.g->dbr = 1;
  CHECK(registered(p, &a, NULL, &err) == MP_EINVAL);
  CHECK_STR(err.msg, "resource " URN_A " violates plan: deleteBeforeReplace "
                     "changed (expected no value)");
  reg_free(&a);
  mp_plan_free(p);
}

static void test_plan_steps_violated(void) {
  mp_plan *p = recorded_plan("steps.json");
  if (p == NULL)
    return;
  mp_err err;
  /* an update where a create was planned */
  reg a = reg_make(URN_A, "{\"x\":\"1\"}", update_only);
  CHECK(registered(p, &a, NULL, &err) == MP_EINVAL);
  CHECK_STR(err.msg, "update is not allowed by the plan: this resource is "
                     "constrained to create");
  reg_free(&a);
  /* the step refused was the planned one: nothing more is allowed */
  a = reg_make(URN_A, "{\"x\":\"1\"}", create_only);
  CHECK(registered(p, &a, NULL, &err) == MP_EINVAL);
  CHECK_STR(err.msg, "create is not allowed by the plan: no more steps were "
                     "expected for this resource");
  reg_free(&a);
  mp_plan_free(p);
  /* the create, then a second one */
  p = recorded_plan("steps2.json");
  if (p == NULL)
    return;
  a = reg_make(URN_A, "{\"x\":\"1\"}", create_only);
  CHECK(registered(p, &a, NULL, &err) == 0);
  CHECK(registered(p, &a, NULL, &err) == MP_EINVAL);
  CHECK_STR(err.msg, "create is not allowed by the plan: no more steps were "
                     "expected for this resource");
  reg_free(&a);
  /* a resource the plan does not name may stay the same, not change */
  mp_step *s = mp_step_new(MP_OP_SAME, URN_A "x");
  CHECK(p->hook.step(p->hook.ctx, s, &err) == 0);
  mp_step_free(s);
  s = mp_step_new(MP_OP_DELETE, URN_A "x");
  CHECK(p->hook.step(p->hook.ctx, s, &err) == MP_EINVAL);
  CHECK_STR(err.msg, "delete is not allowed by the plan: no steps were "
                     "expected for this resource");
  mp_step_free(s);
  mp_plan_free(p);
}

static void test_plan_missing_resource_must_not_change(void) {
  mp_plan *p = mp_plan_new(1);
  mp_err err;
  mp_resource *old = mp_resource_new(URN_A, "test:index:Thing", 1);
  old->inputs = obj("{\"x\":\"1\"}");
  reg a = reg_make(URN_A, "{\"x\":\"1\"}", same_only);
  CHECK(registered(p, &a, old, &err) == 0);
  reg_free(&a);
  a = reg_make(URN_A, "{\"x\":\"9\"}", same_only);
  CHECK(registered(p, &a, old, &err) == MP_EINVAL);
  CHECK_STR(err.msg, "resource " URN_A " violates plan: properties changed: "
                     "=~x[{9}]");
  reg_free(&a);
  mp_resource_free(old);
  mp_plan_free(p);
}

static void test_plan_unknown_allows_any_value(void) {
  mp_plan *rec = mp_plan_new(0);
  mp_err err;
  reg a = reg_make(URN_A, "{}", create_only);
  mp_value_object_set(a.st->inputs, "x", mp_value_new_unknown());
  CHECK(registered(rec, &a, NULL, &err) == 0);
  reg_free(&a);
  char *path = path_of("unknown.json");
  CHECK(mp_plan_file_write(rec, path, NULL, NULL, &err) == 0);
  mp_plan_free(rec);
  mp_plan *p = NULL;
  CHECK(mp_plan_file_read(path, NULL, &p, &err) == 0);
  free(path);
  if (p == NULL)
    return;
  a = reg_make(URN_A, "{\"x\":\"whatever it became\"}", create_only);
  CHECK(registered(p, &a, NULL, &err) == 0);
  reg_free(&a);
  mp_plan_free(p);
}

static void test_plan_outputs_violated(void) {
  mp_plan *p = recorded_plan("outs.json");
  if (p == NULL)
    return;
  mp_err err;
  mp_value *outs = obj("{\"x\":\"1\",\"id\":\"i-2\"}");
  CHECK(mp_plan_outputs(p, URN_A, NULL, outs, &err) == MP_EINVAL);
  CHECK_STR(err.msg,
            "resource violates plan: properties changed: ++id[{i-1}!={i-2}]");
  CHECK(mp_plan_outputs(p, URN_A "zz", NULL, outs, &err) == MP_EINVAL);
  CHECK_STR(err.msg, "no plan for resource " URN_A "zz");
  /* b is planned deleted: outputs for it violate the plan */
  CHECK(mp_plan_outputs(p, URN_B, NULL, outs, &err) == MP_EINVAL);
  CHECK_STR(err.msg,
            "resource violates plan: resource unexpectedly not deleted");
  mp_value_free(outs);
  mp_plan_free(p);
}

static void test_plan_end_check_reports_unmet_steps(void) {
  mp_plan *p = recorded_plan("end.json");
  if (p == NULL)
    return;
  /* neither a's create nor b's delete happened; b is in the prior state */
  mp_snapshot *prior = mp_snapshot_new();
  mp_snapshot_append(prior, mp_resource_new(URN_B, "test:index:Thing", 1));
  mp_diags diags = {0};
  CHECK(mp_plan_check_end(p, prior, &diags) == 2);
  CHECK(diags.len == 2);
  for (size_t i = 0; i < diags.len; i++) {
    CHECK_STR(diags.items[i].severity, "error");
    CHECK_CONTAINS(diags.items[i].message, "expected resource operations for");
  }
  mp_diags_destroy(&diags);
  mp_snapshot_free(prior);
  /* a planned delete of what the prior state lacks was not needed */
  prior = mp_snapshot_new();
  mp_diags d2 = {0};
  CHECK(mp_plan_check_end(p, prior, &d2) == 1);
  CHECK(d2.len == 1 && strcmp(d2.items[0].urn, URN_A) == 0);
  mp_diags_destroy(&d2);
  mp_snapshot_free(prior);
  mp_plan_free(p);
}

/* Each malformed file is refused with MP_EINVAL naming the file and what
 * is wrong; no plan comes out. */
static void test_plan_file_malformed(void) {
  static const struct {
    const char *text, *want;
  } cases[] = {
      {"not json", "not a JSON object"},
      {"[1,2]", "not a JSON object"},
      {"{\"resourcePlans\": 3}", "resourcePlans: not an object"},
      {"{\"resourcePlans\": {\"u\": 3}}", "u: not an object"},
      {"{\"resourcePlans\": {\"u\": {\"goal\": {\"type\": \"t\"}}}}",
       "u: its goal has no type or name"},
      {"{\"resourcePlans\": {\"u\": {\"steps\": [\"frobnicate\"]}}}",
       "u: a step is not an operation Pulumi knows"},
      {"{\"resourcePlans\": {\"u\": {\"steps\": [1]}}}",
       "u: not a list of strings"},
      {"{\"resourcePlans\": {\"u\": {\"goal\": {\"type\": \"t\", \"name\": "
       "\"n\", \"customTimeouts\": {\"create\": -1}}}}}",
       "u: a custom timeout is not a number of seconds"},
      {"{\"resourcePlans\": {\"u\": {\"goal\": {\"type\": \"t\", \"name\": "
       "\"n\", \"inputDiff\": {\"adds\": [1]}}}}}",
       "u: not an object"},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    write_text("bad.json", cases[i].text);
    char *path = path_of("bad.json");
    mp_plan *p = (mp_plan *)1;
    mp_err err;
    int rc = mp_plan_file_read(path, NULL, &p, &err);
    CHECK(rc == MP_EINVAL);
    CHECK(p == NULL);
    if (rc != 0) {
      CHECK_CONTAINS(err.msg, path);
      CHECK_CONTAINS(err.msg, cases[i].want);
    }
    if (rc == 0)
      mp_plan_free(p);
    free(path);
  }
  /* no file at all */
  char *path = path_of("absent.json");
  mp_plan *p = NULL;
  mp_err err;
  CHECK(mp_plan_file_read(path, NULL, &p, &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "could not read the plan file");
  CHECK(p == NULL);
  free(path);
  /* a folder that does not exist cannot be written to */
  mp_plan *rec = mp_plan_new(0);
  path = path_of("no/such/dir/plan.json");
  CHECK(mp_plan_file_write(rec, path, NULL, NULL, &err) != 0);
  CHECK_CONTAINS(err.msg, "could not write the plan file");
  free(path);
  mp_plan_free(rec);
}

int main(void) {
  snprintf(dir, sizeof(dir), "/tmp/mp-test-plan-XXXXXX");
  CHECK(mkdtemp(dir) != NULL);
  RUN(test_plan_round_trip_keeps_goal_and_steps);
  RUN(test_plan_applied_as_planned);
  RUN(test_plan_inputs_violated);
  RUN(test_plan_options_violated);
  RUN(test_plan_steps_violated);
  RUN(test_plan_missing_resource_must_not_change);
  RUN(test_plan_unknown_allows_any_value);
  RUN(test_plan_outputs_violated);
  RUN(test_plan_end_check_reports_unmet_steps);
  RUN(test_plan_file_malformed);
  char *cmd = mp_xasprintf("rm -rf '%s'", dir);
  CHECK(system(cmd) == 0);
  free(cmd);
  return mp_test_summary();
}
