/* Which prior state a registration takes over (src/stepgen/), with a
 * scripted provider and no deployment: aliases (rename, re-parent,
 * conflicts), import (new, the same id, another id) and read (new, of a
 * managed resource with the same id and with another). "Sxx" and "Xxx"
 * name the conformance scenario (tests/conformance/scenarios/) that shows
 * the same rule end to end. */
#include <stdlib.h>
#include <string.h>

#include "engine/urn.h"
#include "sg_fixture.h"
#include "testutil.h"

static void alias_name(mp_goal *g, const char *name) {
  mp_alias a = {0};
  a.name = (char *)name;
  mp_goal_add_alias(g, &a);
}

/* S38: a rename through an alias is `same` and the old URN is not
 * deleted; without the alias it is a create and a delete. */
static void test_alias_rename(void) {
  fx f;
  fx_init(&f);
  fx_old(&f, "a", "{\"x\":1}");
  mp_resource *d = fx_old(&f, "dep", "{}");
  mp_strv_push(&d->dependencies, FX_URN("a"));
  fx_start(&f);
  mp_goal *g = fx_goal("b", "{\"x\":1}");
  alias_name(g, "a");
  CHECK_STR(fx_reg(&f, g), "same:b");
  const mp_step *s = fx_step(&f, MP_OP_SAME);
  CHECK(s && s->old && strcmp(s->old->urn, FX_URN("a")) == 0);
  CHECK_STR(s->new_->id, "id-a");
  /* The prior entry that referred to a now refers to b: the state never
   * names a URN that is gone. */
  CHECK(s->nrewrites == 1 &&
        strcmp(s->rewrites[0]->dependencies.items[0], FX_URN("b")) == 0);
  CHECK_STR(fx_reg(&f, fx_goal("dep", "{}")), "same:dep");
  CHECK_STR(fx_deletes(&f), "");
  fx_destroy(&f);

  fx_init(&f);
  fx_old(&f, "a", "{\"x\":1}");
  fx_start(&f);
  CHECK_STR(fx_reg(&f, fx_goal("b", "{\"x\":1}")), "create:b");
  CHECK_STR(fx_deletes(&f), "delete:a");
  fx_destroy(&f);
}

/* S39: an alias with a property change is an update (or a replacement),
 * never a delete and a create. */
static void test_alias_with_change(void) {
  fx f;
  fx_init(&f);
  fx_old(&f, "a", "{\"x\":1}");
  fx_old(&f, "c", "{\"x\":1}");
  sp_script(&f.w, "d")->diff_set = 1;
  sp_script(&f.w, "d")->replaces = "x";
  fx_start(&f);
  mp_goal *g = fx_goal("b", "{\"x\":2}");
  alias_name(g, "a");
  CHECK_STR(fx_reg(&f, g), "update:b");
  g = fx_goal("d", "{\"x\":2}");
  alias_name(g, "c");
  CHECK_STR(fx_reg(&f, g), "create-replacement:d replace:d");
  /* The replaced copy is deleted under its old URN. */
  CHECK_STR(fx_deletes(&f), "delete-replaced:c");
  fx_destroy(&f);
}

/* S40: a child moved from parent p to parent q keeps its state through
 * an alias naming the old parent. */
static void test_alias_reparent(void) {
  fx f;
  fx_init(&f);
  mp_resource *p = fx_old_component(&f, "my:m:C", "p", NULL);
  char *old_child = mp_urn_new("s", "p", p->urn, FX_TYPE, "c", NULL);
  mp_resource *c = fx_old(&f, "c", "{\"x\":1}");
  free(c->urn);
  c->urn = mp_xstrdup(old_child);
  c->parent = mp_xstrdup(p->urn);
  fx_start(&f);
  CHECK_STR(fx_reg(&f, mp_goal_new("my:m:C", "p", 0)), "same:p");
  CHECK_STR(fx_reg(&f, mp_goal_new("my:m:C", "q", 0)), "create:q");
  char *q = mp_urn_new("s", "p", NULL, "my:m:C", "q", NULL);
  mp_goal *g = fx_goal("c", "{\"x\":1}");
  g->parent = mp_xstrdup(q);
  mp_alias a = {0};
  a.parent_urn = p->urn;
  mp_goal_add_alias(g, &a);
  CHECK_STR(fx_reg(&f, g), "same:c");
  const mp_step *s = fx_step(&f, MP_OP_SAME);
  CHECK(s && strcmp(s->old->urn, old_child) == 0);
  CHECK(s && strcmp(s->new_->parent, q) == 0);
  CHECK_STR(fx_deletes(&f), "");
  free(q);
  free(old_child);
  fx_destroy(&f);
}

/* X18: two registrations may not claim one prior resource through
 * aliases, and an alias may not name a URN registered in this
 * deployment. */
static void test_alias_conflicts(void) {
  fx f;
  fx_init(&f);
  fx_old(&f, "a", "{}");
  fx_start(&f);
  mp_goal *g = fx_goal("b", "{}");
  alias_name(g, "a");
  CHECK_STR(fx_reg(&f, g), "same:b");
  g = fx_goal("c", "{}");
  alias_name(g, "a");
  CHECK_STR(
      fx_reg(&f, g),
      "error: Duplicate resource alias '" FX_URN(
          "a") "' applied to resource with URN '" FX_URN("c") "' conflicting "
                                                              "with resource "
                                                              "with URN "
                                                              "'" FX_URN("b") "'");
  /* The URN an alias claimed cannot be registered itself. */
  CHECK_STR(
      fx_reg(&f, fx_goal("a", "{}")),
      "error: Duplicate resource URN '" FX_URN("a") "' conflicting with alias "
                                                    "on resource with URN "
                                                    "'" FX_URN("b") "'");
  fx_destroy(&f);
}

/* S67, X11: import of a new resource; of one whose state already has that
 * id (same, through the normal Diff); and under an id other than the one
 * in the state (import-replacement, the old one deleted after). */
static void test_import(void) {
  fx f;
  fx_init(&f);
  fx_old(&f, "same", "{\"x\":1}");
  fx_old(&f, "other", "{\"x\":1}");
  fx_start(&f);
  mp_goal *g = fx_goal("new", "{\"x\":1}");
  g->import_id = mp_xstrdup("i-1");
  CHECK_STR(fx_reg(&f, g), "import:new");
  const mp_step *s = fx_step(&f, MP_OP_IMPORT);
  CHECK_STR(s->new_->id, "i-1");
  CHECK(s->goal_inputs != NULL); /* the follow-up update compares these */
  char *calls = sp_calls(&f.w);
  CHECK_STR(calls, ""); /* no Check before the import reads the object */
  free(calls);
  g = fx_goal("same", "{\"x\":1}");
  g->import_id = mp_xstrdup("id-same");
  CHECK_STR(fx_reg(&f, g), "same:same");
  g = fx_goal("other", "{\"x\":1}");
  g->import_id = mp_xstrdup("i-2");
  CHECK_STR(fx_reg(&f, g), "import-replacement:other replace:other");
  CHECK_STR(fx_deletes(&f), "delete-replaced:other");
  fx_destroy(&f);
}

static mp_goal *read_goal(const char *name, const char *id) {
  mp_goal *g = fx_goal(name, "{}");
  g->is_read = 1;
  g->read_id = mp_xstrdup(id);
  return g;
}

/* S69, X10: a read of a new resource; of a managed one with its own id
 * (it is relinquished: kept in the world, not deleted, now external); of
 * a managed one under another id (read-replacement: the managed object
 * is deleted after the program). */
static void test_read(void) {
  fx f;
  fx_init(&f);
  fx_old(&f, "mine", "{}");
  fx_old(&f, "swap", "{}");
  fx_start(&f);
  CHECK_STR(fx_reg(&f, read_goal("ext", "e-1")), "read:ext");
  const mp_step *s = fx_step(&f, MP_OP_READ);
  CHECK(s && (s->flags & MP_STEP_EXTERNAL) && s->new_->external);
  CHECK_STR(fx_reg(&f, read_goal("mine", "id-mine")), "read:mine");
  CHECK(fx_step(&f, MP_OP_READ)->old != NULL);
  CHECK_STR(fx_reg(&f, read_goal("swap", "e-2")),
            "read-replacement:swap replace:swap");
  CHECK(fx_step(&f, MP_OP_READ_REPLACEMENT)->flags & MP_STEP_MARK_OLD_DELETE);
  char *calls = sp_calls(&f.w);
  CHECK_STR(calls, ""); /* a read neither checks nor diffs */
  free(calls);
  CHECK_STR(fx_deletes(&f), "delete-replaced:swap");
  fx_destroy(&f);
}

/* A resource read before and now managed by the program replaces the
 * external copy, which is discarded (not deleted) after the program; one
 * read before and no longer read is discarded. */
static void test_external_taken_over(void) {
  fx f;
  fx_init(&f);
  fx_old(&f, "ext", "{}")->external = 1;
  fx_old(&f, "gone", "{}")->external = 1;
  fx_start(&f);
  CHECK_STR(fx_reg(&f, fx_goal("ext", "{}")),
            "create-replacement:ext replace:ext");
  CHECK_STR(fx_deletes(&f), "discard-replaced:ext discard:gone");
  fx_destroy(&f);
}

int main(void) {
  RUN(test_alias_rename);
  RUN(test_alias_with_change);
  RUN(test_alias_reparent);
  RUN(test_alias_conflicts);
  RUN(test_import);
  RUN(test_read);
  RUN(test_external_taken_over);
  return mp_test_summary();
}
