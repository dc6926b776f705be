/* replaceWith in the step generator (src/stepgen/sg_diff.c,
 * src/stepgen/stepgen.c): a resource that names another in replaceWith is
 * replaced when that one is replaced in the same deployment, in the named
 * resource's mode. After Pulumi's TestReplaceWith and
 * TestReplaceWithDeleteBeforeReplace (pkg/engine/lifecycletest/
 * replace_with_test.go); end to end in
 * tests/conformance/scenarios/X50-replace-with.scn. */
#include <stdlib.h>
#include <string.h>

#include "sg_fixture.h"
#include "testutil.h"

static mp_goal *goal_replacing_with(const char *name, const char *inputs,
                                    const char *with) {
  mp_goal *g = fx_goal(name, inputs);
  mp_strv_push_take(&g->replace_with, mp_xasprintf("%s%s", FX_URN(""), with));
  return g;
}

static int has_key(const mp_step *s, const char *k) {
  return s && s->keys.len == 1 && strcmp(s->keys.items[0], k) == 0;
}

/* Create-before-delete: a's Diff replaces it; b is replaced too, with the
 * key "replaceWith" and no Diff of its own; c, which names nothing, is
 * not. Without a replacement of a, b is `same`. */
static void test_follows_a_create_before_delete(void) {
  fx f;
  fx_init(&f);
  fx_old(&f, "a", "{\"foo\":\"bar\"}");
  mp_strv_push(&fx_old(&f, "b", "{\"fixed\":\"property\"}")->replace_with,
               FX_URN("a"));
  fx_old(&f, "c", "{\"fixed\":\"property\"}");
  sp_script(&f.w, "a")->diff_set = 1;
  sp_script(&f.w, "a")->replaces = "foo";
  fx_start(&f);
  CHECK_STR(fx_reg(&f, fx_goal("a", "{\"foo\":\"baz\"}")),
            "create-replacement:a replace:a");
  sp_calls_clear(&f.w);
  CHECK_STR(fx_reg(&f, goal_replacing_with("b", "{\"fixed\":\"property\"}",
                                           "a")),
            "create-replacement:b replace:b");
  CHECK(has_key(fx_step(&f, MP_OP_REPLACE), "replaceWith"));
  char *calls = sp_calls(&f.w);
  /* Checked against the old inputs, then again alone for the new object;
   * never diffed. */
  CHECK_STR(calls, "check b +olds; check b");
  free(calls);
  CHECK_STR(fx_reg(&f, fx_goal("c", "{\"fixed\":\"property\"}")), "same:c");
  /* b named a: its copy goes first. */
  CHECK_STR(fx_deletes(&f), "delete-replaced:b | delete-replaced:a");
  fx_destroy(&f);

  fx_init(&f);
  fx_old(&f, "a", "{\"foo\":\"bar\"}");
  mp_strv_push(&fx_old(&f, "b", "{}")->replace_with, FX_URN("a"));
  fx_start(&f);
  CHECK_STR(fx_reg(&f, fx_goal("a", "{\"foo\":\"bar\"}")), "same:a");
  CHECK_STR(fx_reg(&f, goal_replacing_with("b", "{}", "a")), "same:b");
  fx_destroy(&f);
}

/* Any one of several named resources being replaced is enough; a --replace
 * target counts as replaced like a Diff's replacement does. */
static void test_any_named_resource_and_forced_replacement(void) {
  fx f;
  fx_init(&f);
  fx_old(&f, "a", "{}");
  fx_old(&f, "b", "{}");
  mp_resource *c = fx_old(&f, "c", "{}");
  mp_strv_push(&c->replace_with, FX_URN("a"));
  mp_strv_push(&c->replace_with, FX_URN("b"));
  mp_strv rep;
  mp_strv_init(&rep);
  mp_strv_push(&rep, FX_URN("b"));
  f.o.replaces = &rep;
  fx_start(&f);
  CHECK_STR(fx_reg(&f, fx_goal("a", "{}")), "same:a");
  CHECK_STR(fx_reg(&f, fx_goal("b", "{}")), "create-replacement:b replace:b");
  mp_goal *g = goal_replacing_with("c", "{}", "a");
  mp_strv_push(&g->replace_with, FX_URN("b"));
  CHECK_STR(fx_reg(&f, g), "create-replacement:c replace:c");
  CHECK(has_key(fx_step(&f, MP_OP_REPLACE), "replaceWith"));
  mp_strv_destroy(&rep);
  fx_destroy(&f);
}

/* Delete-before-replace: b, which names a, is deleted in a's chain before
 * a (its provider Delete is made: it is not deleted with a), though its
 * Diff would not replace it, and it does not condemn its own dependent d;
 * it is re-created when the program registers it, without a Diff. */
static void test_follows_a_delete_before_replace(void) {
  fx f;
  fx_init(&f);
  fx_old(&f, "a", "{\"foo\":\"bar\"}");
  mp_strv_push(&fx_old(&f, "b", "{\"y\":\"1\"}")->replace_with, FX_URN("a"));
  mp_resource *d = fx_old(&f, "d", "{\"z\":\"1\"}");
  mp_strv_push(&d->dependencies, FX_URN("b"));
  mp_strv_push(&mp_propdeps_get(&d->property_dependencies, "z")->urns,
               FX_URN("b"));
  sp_script(&f.w, "a")->diff_set = 1;
  sp_script(&f.w, "a")->replaces = "foo";
  sp_script(&f.w, "a")->dbr = 1;
  sp_script(&f.w, "d")->replace_if_unknown = 1;
  fx_start(&f);
  CHECK_STR(fx_reg(&f, fx_goal("a", "{\"foo\":\"baz\"}")),
            "delete-replaced:b delete-replaced:a replace:a "
            "create-replacement:a");
  CHECK(!(f.last->steps[0]->flags & MP_STEP_NO_CALL));
  sp_calls_clear(&f.w);
  CHECK_STR(fx_reg(&f, goal_replacing_with("b", "{\"y\":\"1\"}", "a")),
            "replace:b create-replacement:b");
  char *calls = sp_calls(&f.w);
  CHECK_STR(calls, "check b");
  free(calls);
  CHECK_STR(fx_deletes(&f), "delete:d");
  fx_destroy(&f);
}

/* --target-replace a (a target and a --replace): b is outside the
 * targets. Create-before-delete leaves it alone (a `same`, no Check, no
 * Diff); delete-before-replace deletes it in a's chain all the same, so
 * it is re-created from its prior inputs, unchecked. */
static void test_target_replace(void) {
  for (int dbr = 0; dbr <= 1; dbr++) {
    fx f;
    fx_init(&f);
    fx_old(&f, "a", "{\"foo\":\"bar\"}");
    mp_strv_push(&fx_old(&f, "b", "{\"y\":\"1\"}")->replace_with,
                 FX_URN("a"));
    mp_strv t;
    mp_strv_init(&t);
    mp_strv_push(&t, FX_URN("a"));
    f.o.targets = &t;
    f.o.replaces = &t;
    fx_start(&f);
    mp_goal *g = fx_goal("a", "{\"foo\":\"bar\"}");
    g->dbr = dbr;
    CHECK_STR(fx_reg(&f, g),
              dbr ? "delete-replaced:b delete-replaced:a replace:a "
                    "create-replacement:a"
                  : "create-replacement:a replace:a");
    sp_calls_clear(&f.w);
    CHECK_STR(fx_reg(&f, goal_replacing_with("b", "{\"y\":\"2\"}", "a")),
              dbr ? "replace:b create-replacement:b" : "same:b");
    char *calls = sp_calls(&f.w);
    CHECK_STR(calls, "");
    free(calls);
    if (dbr) {
      const mp_step *cr = fx_step(&f, MP_OP_CREATE_REPLACEMENT);
      const mp_value *y = mp_value_object_get(cr->new_->inputs, "y");
      CHECK(y && y->kind == MP_VALUE_STRING &&
            strcmp(y->u.str.ptr, "1") == 0);
    }
    mp_strv_destroy(&t);
    fx_destroy(&f);
  }
}

int main(void) {
  RUN(test_follows_a_create_before_delete);
  RUN(test_any_named_resource_and_forced_replacement);
  RUN(test_follows_a_delete_before_replace);
  RUN(test_target_replace);
  return mp_test_summary();
}
