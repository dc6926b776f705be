/* The step decision (src/stepgen/) for one registration against a prior
 * snapshot, with a scripted provider and no deployment: same, update,
 * create, replace (create-before-delete and delete-before-replace with
 * dependents), ignoreChanges, replaceOnChanges, protect, retainOnDelete,
 * errors, and what is deleted after the program. "Sxx" names the
 * conformance scenario (tests/conformance/scenarios/Sxx-*.scn) that shows
 * the same rule end to end. */
#include <stdlib.h>
#include <string.h>

#include "sg_fixture.h"
#include "testutil.h"

static void test_same_when_inputs_equal(void) {
  fx f;
  fx_init(&f);
  fx_old(&f, "a", "{\"x\":1}");
  fx_start(&f);
  CHECK_STR(fx_reg(&f, fx_goal("a", "{\"x\":1}")), "same:a");
  /* Check against the old inputs, then Diff; nothing else. */
  char *calls = sp_calls(&f.w);
  CHECK_STR(calls, "check a +olds; diff a");
  free(calls);
  /* The new state keeps the old id. */
  CHECK_STR(fx_step(&f, MP_OP_SAME)->new_->id, "id-a");
  CHECK_STR(fx_deletes(&f), "");
  fx_destroy(&f);
}

static void test_update_when_an_input_changed(void) {
  fx f;
  fx_init(&f);
  fx_old(&f, "a", "{\"x\":1,\"y\":1}");
  fx_start(&f);
  CHECK_STR(fx_reg(&f, fx_goal("a", "{\"x\":2,\"y\":1}")), "update:a");
  const mp_step *s = fx_step(&f, MP_OP_UPDATE);
  CHECK(s && s->diffs.len == 1 && strcmp(s->diffs.items[0], "x") == 0);
  CHECK(s && s->keys.len == 0);
  CHECK_STR(fx_deletes(&f), "");
  fx_destroy(&f);
}

/* S05: the provider's "changes" wins over identical inputs, and its "no
 * changes" over different ones. */
static void test_provider_diff_decides(void) {
  fx f;
  fx_init(&f);
  fx_old(&f, "a", "{\"x\":1}");
  fx_old(&f, "b", "{\"x\":1}");
  sp_script(&f.w, "a")->diff_set = 1;
  sp_script(&f.w, "a")->changes = MP_DIFF_CHANGES_SOME;
  sp_script(&f.w, "b")->diff_set = 1;
  sp_script(&f.w, "b")->changes = MP_DIFF_CHANGES_NONE;
  fx_start(&f);
  CHECK_STR(fx_reg(&f, fx_goal("a", "{\"x\":1}")), "update:a");
  CHECK_STR(fx_reg(&f, fx_goal("b", "{\"x\":2}")), "same:b");
  fx_destroy(&f);
}

static void test_create_when_no_prior_state(void) {
  fx f;
  fx_init(&f);
  fx_start(&f);
  CHECK_STR(fx_reg(&f, fx_goal("a", "{\"x\":1}")), "create:a");
  char *calls = sp_calls(&f.w);
  CHECK_STR(calls, "check a"); /* no olds, no Diff */
  free(calls);
  const mp_step *s = fx_step(&f, MP_OP_CREATE);
  CHECK(s && s->old == NULL && (s->flags & MP_STEP_REPLY));
  CHECK(s && s->provider && strcmp(s->provider, FX_PROV_REF) == 0);
  fx_destroy(&f);
}

/* S17: a replace key from Diff replaces create-before-delete: the new
 * one first, the old one deleted after the program. */
static void test_replace_create_before_delete(void) {
  fx f;
  fx_init(&f);
  fx_old(&f, "a", "{\"x\":1}");
  sp_script(&f.w, "a")->diff_set = 1;
  sp_script(&f.w, "a")->replaces = "x";
  fx_start(&f);
  CHECK_STR(fx_reg(&f, fx_goal("a", "{\"x\":2}")),
            "create-replacement:a replace:a");
  const mp_step *cr = fx_step(&f, MP_OP_CREATE_REPLACEMENT);
  CHECK(cr && cr->keys.len == 1 && strcmp(cr->keys.items[0], "x") == 0);
  CHECK(cr && (cr->flags & MP_STEP_MARK_OLD_DELETE) && cr->new_->id == NULL);
  /* Checked again without the old inputs for the replacement. */
  char *calls = sp_calls(&f.w);
  CHECK_STR(calls, "check a +olds; diff a; check a");
  free(calls);
  CHECK_STR(fx_deletes(&f), "delete-replaced:a");
  fx_destroy(&f);
}

/* S20: the provider asks for delete-before-replace: one chain deletes the
 * old one, then creates the new one; nothing is left to delete after. */
static void test_replace_delete_before_replace_by_provider(void) {
  fx f;
  fx_init(&f);
  fx_old(&f, "a", "{\"x\":1}");
  sp_script(&f.w, "a")->diff_set = 1;
  sp_script(&f.w, "a")->replaces = "x";
  sp_script(&f.w, "a")->dbr = 1;
  fx_start(&f);
  CHECK_STR(fx_reg(&f, fx_goal("a", "{\"x\":2}")),
            "delete-replaced:a replace:a create-replacement:a");
  const mp_step *d = fx_step(&f, MP_OP_DELETE_REPLACED);
  CHECK(d && (d->flags & MP_STEP_MARK_OLD_PENDING));
  CHECK_STR(fx_deletes(&f), "");
  fx_destroy(&f);
}

/* The deleteBeforeReplace option overrides the provider both ways. */
static void test_dbr_option_overrides_provider(void) {
  fx f;
  fx_init(&f);
  fx_old(&f, "a", "{\"x\":1}");
  fx_old(&f, "b", "{\"x\":1}");
  sp_script(&f.w, "a")->diff_set = 1;
  sp_script(&f.w, "a")->replaces = "x";
  sp_script(&f.w, "b")->diff_set = 1;
  sp_script(&f.w, "b")->replaces = "x";
  sp_script(&f.w, "b")->dbr = 1;
  fx_start(&f);
  mp_goal *g = fx_goal("a", "{\"x\":2}");
  g->dbr = 1;
  CHECK_STR(fx_reg(&f, g), "delete-replaced:a replace:a create-replacement:a");
  g = fx_goal("b", "{\"x\":2}");
  g->dbr = 0;
  CHECK_STR(fx_reg(&f, g), "create-replacement:b replace:b");
  CHECK_STR(fx_deletes(&f), "delete-replaced:b");
  fx_destroy(&f);
}

/* S18/S21: DBR of a deletes first the dependents that must be replaced,
 * in reverse dependency order: b (its input y comes from a, and its
 * provider replaces on an unknown y) and c (depends on b, same rule);
 * d's input from a only updates, e is deleted with a. The dependents are
 * re-created, without a Diff, when the program registers them. */
static void test_dbr_replaces_dependents(void) {
  fx f;
  fx_init(&f);
  fx_old(&f, "a", "{\"x\":1}");
  mp_resource *b = fx_old(&f, "b", "{\"y\":\"1\"}");
  mp_strv_push(&b->dependencies, FX_URN("a"));
  mp_strv_push(&mp_propdeps_get(&b->property_dependencies, "y")->urns,
               FX_URN("a"));
  mp_resource *c = fx_old(&f, "c", "{\"z\":\"1\"}");
  mp_strv_push(&c->dependencies, FX_URN("b"));
  mp_strv_push(&mp_propdeps_get(&c->property_dependencies, "z")->urns,
               FX_URN("b"));
  mp_resource *d = fx_old(&f, "d", "{\"w\":\"1\"}");
  mp_strv_push(&d->dependencies, FX_URN("a"));
  mp_strv_push(&mp_propdeps_get(&d->property_dependencies, "w")->urns,
               FX_URN("a"));
  mp_resource *e = fx_old(&f, "e", "{}");
  e->deleted_with = mp_xstrdup(FX_URN("a"));
  fx_old(&f, "u", "{}"); /* unrelated */
  sp_script(&f.w, "a")->diff_set = 1;
  sp_script(&f.w, "a")->replaces = "x";
  sp_script(&f.w, "a")->dbr = 1;
  sp_script(&f.w, "b")->replace_if_unknown = 1;
  sp_script(&f.w, "c")->replace_if_unknown = 1;
  fx_start(&f);
  CHECK_STR(fx_reg(&f, fx_goal("a", "{\"x\":2}")),
            "delete-replaced:e delete-replaced:c delete-replaced:b "
            "delete-replaced:a replace:a create-replacement:a");
  /* e goes with a: no Delete call of its own. */
  CHECK(f.last->steps[0]->flags & MP_STEP_NO_CALL);
  CHECK(!(f.last->steps[1]->flags & MP_STEP_NO_CALL));
  /* The dependents come back without a Diff. */
  sp_calls_clear(&f.w);
  CHECK_STR(fx_reg(&f, fx_goal("b", "{\"y\":\"1\"}")),
            "replace:b create-replacement:b");
  char *calls = sp_calls(&f.w);
  CHECK_STR(calls, "check b");
  free(calls);
  CHECK_STR(fx_reg(&f, fx_goal("d", "{\"w\":\"1\"}")), "same:d");
  /* c and e are not registered again; u is gone from the program. */
  CHECK_STR(fx_deletes(&f),
            "remove-pending-replace:c remove-pending-replace:e delete:u");
  fx_destroy(&f);
}

/* S25: DBR that would delete a protected dependent is refused. */
static void test_dbr_blocked_by_protected_dependent(void) {
  fx f;
  fx_init(&f);
  fx_old(&f, "a", "{\"x\":1}");
  mp_resource *b = fx_old(&f, "b", "{}");
  b->deleted_with = mp_xstrdup(FX_URN("a"));
  b->protect = 1;
  sp_script(&f.w, "a")->diff_set = 1;
  sp_script(&f.w, "a")->replaces = "x";
  sp_script(&f.w, "a")->dbr = 1;
  fx_start(&f);
  CHECK_CONTAINS(fx_reg(&f, fx_goal("a", "{\"x\":2}")),
                 "error: unable to replace resource \"" FX_URN(
                     "b") "\" as part of replacing \"" FX_URN("a") "\"");
  fx_destroy(&f);
}

/* S46: a replacement of a resource protected before and now is refused;
 * in a preview it is an error diagnostic and the preview goes on. */
static void test_protect_refuses_replacement(void) {
  for (int preview = 0; preview <= 1; preview++) {
    fx f;
    fx_init(&f);
    f.o.preview = preview;
    fx_old(&f, "a", "{\"x\":1}")->protect = 1;
    sp_script(&f.w, "a")->diff_set = 1;
    sp_script(&f.w, "a")->replaces = "x";
    fx_start(&f);
    mp_goal *g = fx_goal("a", "{\"x\":2}");
    g->protect = 1;
    const char *got = fx_reg(&f, g);
    if (preview) {
      CHECK_STR(got, "create-replacement:a replace:a");
      CHECK_CONTAINS(fx_diags(&f), "error: unable to replace resource");
      CHECK(mp_stepgen_preview_failed(f.sg));
    } else {
      CHECK_CONTAINS(got,
                     "error: unable to replace resource \"" FX_URN(
                         "a") "\"\nas it is currently marked for protection");
    }
    fx_destroy(&f);
  }
  /* Unprotected in the same run: the replacement goes ahead. */
  fx f;
  fx_init(&f);
  fx_old(&f, "a", "{\"x\":1}")->protect = 1;
  sp_script(&f.w, "a")->diff_set = 1;
  sp_script(&f.w, "a")->replaces = "x";
  fx_start(&f);
  CHECK_STR(fx_reg(&f, fx_goal("a", "{\"x\":2}")),
            "create-replacement:a replace:a");
  fx_destroy(&f);
}

/* S33: an ignored input keeps its old value, so nothing changes; the
 * state carries the old value. */
static void test_ignore_changes(void) {
  fx f;
  fx_init(&f);
  fx_old(&f, "a", "{\"x\":1,\"y\":1}");
  fx_old(&f, "b", "{\"x\":1,\"y\":1}");
  fx_start(&f);
  mp_goal *g = fx_goal("a", "{\"x\":2,\"y\":1}");
  mp_strv_push(&g->ignore_changes, "x");
  CHECK_STR(fx_reg(&f, g), "same:a");
  const mp_value *x =
      mp_value_object_get(fx_step(&f, MP_OP_SAME)->new_->inputs, "x");
  CHECK(x && x->kind == MP_VALUE_NUMBER && x->u.number == 1);
  /* Ignoring x does not hide a change of y. */
  g = fx_goal("b", "{\"x\":2,\"y\":2}");
  mp_strv_push(&g->ignore_changes, "x");
  CHECK_STR(fx_reg(&f, g), "update:b");
  const mp_step *s = fx_step(&f, MP_OP_UPDATE);
  CHECK(s && s->diffs.len == 1 && strcmp(s->diffs.items[0], "y") == 0);
  fx_destroy(&f);
}

/* S32: replaceOnChanges turns a change it covers into a replacement keyed
 * on the changed property; a change it does not cover stays an update. */
static void test_replace_on_changes(void) {
  fx f;
  fx_init(&f);
  fx_old(&f, "a", "{\"x\":1,\"y\":1}");
  fx_old(&f, "b", "{\"x\":1,\"y\":1}");
  fx_old(&f, "c", "{\"x\":{\"n\":1}}");
  fx_start(&f);
  mp_goal *g = fx_goal("a", "{\"x\":2,\"y\":1}");
  mp_strv_push(&g->replace_on_changes, "x");
  CHECK_STR(fx_reg(&f, g), "create-replacement:a replace:a");
  const mp_step *r = fx_step(&f, MP_OP_REPLACE);
  CHECK(r && r->keys.len == 1 && strcmp(r->keys.items[0], "x") == 0);
  g = fx_goal("b", "{\"x\":1,\"y\":2}");
  mp_strv_push(&g->replace_on_changes, "x");
  CHECK_STR(fx_reg(&f, g), "update:b");
  g = fx_goal("c", "{\"x\":{\"n\":2}}");
  mp_strv_push(&g->replace_on_changes, "*");
  CHECK_STR(fx_reg(&f, g), "create-replacement:c replace:c");
  CHECK_STR(fx_deletes(&f), "delete-replaced:a delete-replaced:c");
  fx_destroy(&f);
}

/* --replace and a tainted state replace with key "id", without a Diff. */
static void test_forced_replacement(void) {
  fx f;
  fx_init(&f);
  fx_old(&f, "a", "{\"x\":1}");
  fx_old(&f, "b", "{\"x\":1}")->taint = 1;
  mp_strv rep;
  mp_strv_init(&rep);
  mp_strv_push(&rep, FX_URN("a"));
  f.o.replaces = &rep;
  fx_start(&f);
  CHECK_STR(fx_reg(&f, fx_goal("a", "{\"x\":1}")),
            "create-replacement:a replace:a");
  CHECK(fx_step(&f, MP_OP_REPLACE)->keys.len == 1 &&
        strcmp(fx_step(&f, MP_OP_REPLACE)->keys.items[0], "id") == 0);
  CHECK_STR(fx_reg(&f, fx_goal("b", "{\"x\":1}")),
            "create-replacement:b replace:b");
  char *calls = sp_calls(&f.w);
  CHECK(strstr(calls, "diff") == NULL);
  free(calls);
  mp_strv_destroy(&rep);
  fx_destroy(&f);
}

/* A component never calls a provider: equal inputs are same, different
 * ones an update, never a replacement. */
static void test_component_compares_inputs(void) {
  fx f;
  fx_init(&f);
  fx_old_component(&f, "my:m:C", "k", NULL);
  fx_start(&f);
  mp_goal *g = mp_goal_new("my:m:C", "k", 0);
  CHECK_STR(fx_reg(&f, g), "same:k");
  CHECK(fx_step(&f, MP_OP_SAME)->flags & MP_STEP_NO_CALL);
  fx_destroy(&f);
  fx_init(&f);
  fx_old_component(&f, "my:m:C", "k", NULL);
  fx_start(&f);
  g = mp_goal_new("my:m:C", "k", 0);
  mp_value_object_set(g->inputs, "v", mp_value_new_cstring("new"));
  CHECK_STR(fx_reg(&f, g), "update:k");
  char *calls = sp_calls(&f.w);
  CHECK_STR(calls, "");
  free(calls);
  fx_destroy(&f);
}

/* S11: Check failures fail the registration with Pulumi's wording. */
static void test_check_failure(void) {
  fx f;
  fx_init(&f);
  sp_script(&f.w, "a")->check_fail_prop = "x";
  sp_script(&f.w, "a")->check_fail_reason = "must be even";
  fx_start(&f);
  CHECK_STR(fx_reg(&f, fx_goal("a", "{\"x\":1}")),
            "error: " FX_TYPE " resource 'a': property x value {1} has a "
            "problem: must be even");
  CHECK(f.err.code == MP_EPLUGIN);
  fx_destroy(&f);
}

/* S12, S37: a URN registered twice, and a parent never registered. */
static void test_registration_errors(void) {
  fx f;
  fx_init(&f);
  fx_start(&f);
  CHECK_STR(fx_reg(&f, fx_goal("a", "{}")), "create:a");
  CHECK_STR(fx_reg(&f, fx_goal("a", "{}")),
            "error: Duplicate resource URN '" FX_URN(
                "a") "'; try giving it a unique name");
  mp_goal *g = fx_goal("b", "{}");
  g->parent = mp_xstrdup(FX_URN("nope"));
  CHECK_STR(fx_reg(&f, g),
            "error: could not find parent resource " FX_URN("nope"));
  g = fx_goal("c", "{}");
  free(g->provider);
  g->provider = NULL;
  CHECK_STR(fx_reg(&f, g), "error: resource '" FX_URN("c") "' has no provider");
  fx_destroy(&f);
}

/* S35, S49: what the program no longer registers is deleted dependents
 * first, in layers; a retainOnDelete one without a provider call. */
static void test_deletes_in_dependency_layers(void) {
  fx f;
  fx_init(&f);
  fx_old(&f, "a", "{}");
  mp_resource *b = fx_old(&f, "b", "{}");
  mp_strv_push(&b->dependencies, FX_URN("a"));
  fx_old(&f, "c", "{}")->retain_on_delete = 1;
  fx_old(&f, "kept", "{}");
  fx_start(&f);
  CHECK_STR(fx_reg(&f, fx_goal("kept", "{}")), "same:kept");
  mp_chain **layers = NULL;
  size_t n = 0;
  mp_err err;
  mp_err_clear(&err);
  CHECK(mp_stepgen_deletes(f.sg, &layers, &n, &f.diags, &err) == 0);
  CHECK(n == 2);
  /* b first, alone; then a and c together (c kept by the provider). */
  if (n == 2) {
    CHECK(layers[0]->len == 1 &&
          strcmp(layers[0]->steps[0]->urn, FX_URN("b")) == 0);
    CHECK(layers[1]->len == 2);
    for (size_t i = 0; i < layers[1]->len; i++) {
      const mp_step *s = layers[1]->steps[i];
      int retained = strcmp(s->urn, FX_URN("c")) == 0;
      CHECK(s->op == MP_OP_DELETE);
      CHECK(!!(s->flags & MP_STEP_NO_CALL) == retained);
    }
  }
  for (size_t i = 0; i < n; i++)
    mp_chain_free(layers[i]);
  free(layers);
  fx_destroy(&f);
}

int main(void) {
  RUN(test_same_when_inputs_equal);
  RUN(test_update_when_an_input_changed);
  RUN(test_provider_diff_decides);
  RUN(test_create_when_no_prior_state);
  RUN(test_replace_create_before_delete);
  RUN(test_replace_delete_before_replace_by_provider);
  RUN(test_dbr_option_overrides_provider);
  RUN(test_dbr_replaces_dependents);
  RUN(test_dbr_blocked_by_protected_dependent);
  RUN(test_protect_refuses_replacement);
  RUN(test_ignore_changes);
  RUN(test_replace_on_changes);
  RUN(test_forced_replacement);
  RUN(test_component_compares_inputs);
  RUN(test_check_failure);
  RUN(test_registration_errors);
  RUN(test_deletes_in_dependency_layers);
  return mp_test_summary();
}
