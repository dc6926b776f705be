/* Deployments end to end in one process: a test program registers through
 * the monitor entry point, the `test` provider records its calls in a world
 * directory, and every store write is integrity-checked (the suite sets
 * MINIPULUMI_VERIFY_WRITES, which the harness passes as verify_writes). */
#include <stdlib.h>
#include <string.h>

#include "deploy_harness.h"
#include "engine/snapshot.h"
#include "testutil.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void test_deploy_create_same_update(void) {
  tenv e;
  tenv_init(&e);
  treg p1[] = {{.name = "a", .inputs = "{\"x\":1}"},
               {.name = "b", .inputs = "{\"y\":2}", .deps = {"a"}}};
  trun(&e, p1, N(p1), NULL);
  CHECK(e.rc == 0 && !e.res.failed);
  CHECK(steps_are(&e, (const char *[]){"create default", "create a", "create b", NULL}));
  char *st = state_names(&e);
  CHECK_STR(st, "default a b");
  free(st);
  trun(&e, p1, N(p1), NULL);
  CHECK(steps_are(&e, (const char *[]){"same default", "same a", "same b", NULL}));
  CHECK(calls_count(&e, "create") == 2);
  treg p2[] = {{.name = "a", .inputs = "{\"x\":1}"},
               {.name = "b", .inputs = "{\"y\":3}", .deps = {"a"}}};
  trun(&e, p2, N(p2), NULL);
  CHECK(steps_are(&e, (const char *[]){"same default", "same a", "update b", NULL}));
  CHECK(calls_count(&e, "update") == 1);
  CHECK(e.res.counts[MP_OP_UPDATE] == 1);
  /* A preview plans the same steps and writes nothing. */
  treg p3[] = {{.name = "a", .inputs = "{\"x\":5}"}, {.name = "c"}};
  trun(&e, p3, N(p3), &(trun_opts){.preview = 1});
  CHECK(!e.res.failed);
  CHECK(step_index(&e, "update a") >= 0 && step_index(&e, "create c") >= 0);
  CHECK(step_index(&e, "delete b") >= 0);
  st = state_names(&e);
  CHECK_STR(st, "default a b");
  free(st);
  CHECK(calls_count(&e, "delete") == 0);
  tenv_destroy(&e);
}

static void test_deploy_delete_order(void) {
  tenv e;
  tenv_init(&e);
  treg p1[] = {{.name = "a"},
               {.name = "b", .deps = {"a"}},
               {.name = "c", .deps = {"a"}},
               {.name = "d", .deps = {"b", "c"}}};
  trun(&e, p1, N(p1), NULL);
  CHECK(!e.res.failed);
  trun(&e, NULL, 0, &(trun_opts){.parallel = 4});
  CHECK(!e.res.failed);
  int d = step_index(&e, "delete d"), b = step_index(&e, "delete b"),
      c = step_index(&e, "delete c"), a = step_index(&e, "delete a"),
      dp = step_index(&e, "delete default");
  CHECK(d >= 0 && b > d && c > d && a > b && a > c && dp > a);
  char *st = state_names(&e);
  CHECK_STR(st, "");
  free(st);
  CHECK(calls_count(&e, "delete") == 4);
  tenv_destroy(&e);
}

static void test_deploy_replace_cbd(void) {
  tenv e;
  tenv_init(&e);
  treg p1[] = {{.name = "a", .inputs = "{\"k\":1,\"__replaceKeys\":[\"k\"]}"},
               {.name = "b", .deps = {"a"}}};
  trun(&e, p1, N(p1), NULL);
  treg p2[] = {{.name = "a", .inputs = "{\"k\":2,\"__replaceKeys\":[\"k\"]}"},
               {.name = "b", .deps = {"a"}}};
  trun(&e, p2, N(p2), NULL);
  CHECK(!e.res.failed);
  CHECK(steps_are(&e, (const char *[]){"same default", "create-replacement a",
                                       "replace a", "same b",
                                       "delete-replaced a", NULL}));
  CHECK(calls_count(&e, "create") == 3 && calls_count(&e, "delete") == 1);
  CHECK(world_has(&e, "id-3") && !world_has(&e, "id-1"));
  char *st = state_names(&e);
  CHECK_STR(st, "default a b");
  free(st);
  tenv_destroy(&e);
}

static void test_deploy_replace_dbr_dependents(void) {
  tenv e;
  tenv_init(&e);
  /* b's input x comes from a and is a replace key: deleting a first means
   * deleting b first (S18). c depends on a only through dependsOn. */
  treg p1[] = {{.name = "a", .inputs = "{\"k\":1,\"__replaceKeys\":[\"k\"],\"__dbr\":true}"},
               {.name = "b", .inputs = "{\"x\":\"v\",\"__replaceKeys\":[\"x\"]}",
                .deps = {"a"}, .prop_deps = 1},
               {.name = "c", .deps = {"a"}}};
  trun(&e, p1, N(p1), NULL);
  CHECK(!e.res.failed);
  treg p2[] = {{.name = "a", .inputs = "{\"k\":2,\"__replaceKeys\":[\"k\"],\"__dbr\":true}"},
               {.name = "b", .inputs = "{\"x\":\"v\",\"__replaceKeys\":[\"x\"]}",
                .deps = {"a"}, .prop_deps = 1},
               {.name = "c", .deps = {"a"}}};
  trun(&e, p2, N(p2), NULL);
  CHECK(!e.res.failed);
  CHECK(steps_are(&e, (const char *[]){"same default", "delete-replaced b",
                                       "delete-replaced a", "replace a",
                                       "create-replacement a", "replace b",
                                       "create-replacement b", "same c", NULL}));
  char *st = state_names(&e);
  CHECK_STR(st, "default a b c");
  free(st);
  tenv_destroy(&e);
}

static void test_deploy_failed_create_keeps_earlier_work(void) {
  tenv e;
  tenv_init(&e);
  treg p0[] = {{.name = "old"}};
  trun(&e, p0, N(p0), NULL);
  treg p1[] = {{.name = "a"},
               {.name = "b", .inputs = "{\"__failOn\":[\"create\"]}"},
               {.name = "c"}};
  trun(&e, p1, N(p1), NULL);
  CHECK(e.res.failed && e.res.step_failed);
  CHECK(steps_are(&e, (const char *[]){"same default", "create a", NULL}));
  CHECK(e.failed.len == 1 && strcmp(e.failed.items[0], "create b") == 0);
  char *st = state_names(&e);
  CHECK_STR(st, "default a old");
  free(st);
  mp_snapshot *s = tload(&e);
  CHECK(s && s->npending == 0);
  mp_snapshot_free(s);
  tenv_destroy(&e);
}

static void test_deploy_protect(void) {
  tenv e;
  tenv_init(&e);
  treg p1[] = {{.name = "a", .inputs = "{\"k\":1,\"__replaceKeys\":[\"k\"]}", .protect = 1}};
  trun(&e, p1, N(p1), NULL);
  treg p2[] = {{.name = "a", .inputs = "{\"k\":2,\"__replaceKeys\":[\"k\"]}", .protect = 1}};
  trun(&e, p2, N(p2), NULL);
  CHECK(e.res.failed);
  int found = 0;
  for (size_t i = 0; i < e.diags.len; i++)
    if (strstr(e.diags.items[i], "unable to replace resource") &&
        strstr(e.diags.items[i], "marked for protection"))
      found = 1;
  CHECK(found);
  CHECK(calls_count(&e, "create") == 1);
  trun(&e, NULL, 0, NULL); /* delete of a protected resource */
  CHECK(e.res.failed);
  found = 0;
  for (size_t i = 0; i < e.diags.len; i++)
    if (strstr(e.diags.items[i], "cannot be deleted\nbecause it is protected"))
      found = 1;
  CHECK(found);
  CHECK(calls_count(&e, "delete") == 0);
  char *st = state_names(&e);
  CHECK_STR(st, "default a[protect]");
  free(st);
  tenv_destroy(&e);
}

static void test_deploy_refresh_drift_and_vanished(void) {
  tenv e;
  tenv_init(&e);
  treg p1[] = {{.name = "a"}, {.name = "b", .deps = {"a"}}};
  trun(&e, p1, N(p1), NULL);
  char path[512];
  snprintf(path, sizeof(path), "%s/id-1.json", e.world);
  CHECK(remove(path) == 0); /* a vanished behind the engine's back */
  trun(&e, NULL, 0, &(trun_opts){.kind = MP_DEPLOY_REFRESH});
  CHECK(!e.res.failed);
  CHECK(e.res.counts[MP_OP_DELETE] == 1);
  char *st = state_names(&e);
  CHECK_STR(st, "default b");
  free(st);
  mp_snapshot *s = tload(&e);
  CHECK(s && s->nres == 2 && s->res[1]->dependencies.len == 0);
  mp_snapshot_free(s);
  tenv_destroy(&e);
}

static void test_deploy_destroy(void) {
  tenv e;
  tenv_init(&e);
  treg p1[] = {{.name = "a"}, {.name = "b", .deps = {"a"}}};
  trun(&e, p1, N(p1), NULL);
  trun(&e, NULL, 0, &(trun_opts){.kind = MP_DEPLOY_DESTROY});
  CHECK(!e.res.failed);
  CHECK(steps_are(&e, (const char *[]){"delete b", "delete a", "delete default", NULL}));
  char *st = state_names(&e);
  CHECK_STR(st, "");
  free(st);
  tenv_destroy(&e);
}

static void test_deploy_parallel_overlaps_within_limit(void) {
  tenv e;
  tenv_init(&e);
  treg p[6];
  memset(p, 0, sizeof(p));
  const char *names[] = {"r1", "r2", "r3", "r4", "r5", "r6"};
  for (int i = 0; i < 6; i++) {
    p[i].name = names[i];
    p[i].inputs = "{\"__latencyMs\":150}";
  }
  trun(&e, p, 6, &(trun_opts){.concurrent = 1, .parallel = 3});
  CHECK(!e.res.failed);
  /* The six deletes form one layer with no Check in front of them: they
   * overlap in time, never more than 3 at once. */
  trun(&e, NULL, 0, &(trun_opts){.parallel = 3});
  CHECK(!e.res.failed);
  CHECK(calls_count(&e, "delete") == 6);
  int maxc = calls_overlap(&e, "delete", 150000000LL, 0);
  CHECK(maxc >= 2);
  CHECK(maxc <= 3);
  tenv_destroy(&e);
}

static void test_deploy_continue_on_error(void) {
  tenv e;
  tenv_init(&e);
  treg p[] = {{.name = "bad", .inputs = "{\"__failOn\":[\"create\"]}"},
              {.name = "child", .deps = {"bad"}},
              {.name = "ok"}};
  trun(&e, p, N(p), &(trun_opts){.continue_on_error = 1});
  CHECK(e.res.failed);
  CHECK(step_index(&e, "create ok") >= 0);
  CHECK(step_index(&e, "create child") < 0);
  char *st = state_names(&e);
  CHECK_STR(st, "default ok");
  free(st);
  tenv_destroy(&e);
}

static void test_deploy_program_error_deletes_nothing(void) {
  tenv e;
  tenv_init(&e);
  treg p1[] = {{.name = "a"}, {.name = "b"}};
  trun(&e, p1, N(p1), NULL);
  trun(&e, p1, 1, &(trun_opts){.fail_after = "a"});
  CHECK(e.res.failed);
  CHECK(step_index(&e, "delete b") < 0);
  char *st = state_names(&e);
  CHECK_STR(st, "default a b");
  free(st);
  tenv_destroy(&e);
}

static void test_deploy_duplicate_urn(void) {
  tenv e;
  tenv_init(&e);
  treg p[] = {{.name = "a"}, {.name = "a"}};
  trun(&e, p, N(p), NULL);
  CHECK(e.res.failed);
  int found = 0;
  for (size_t i = 0; i < e.diags.len; i++)
    if (strstr(e.diags.items[i],
               "Duplicate resource URN 'urn:pulumi:test::test::test:index:Resource::a'; "
               "try giving it a unique name"))
      found = 1;
  CHECK(found);
  tenv_destroy(&e);
}

int main(void) {
  RUN(test_deploy_create_same_update);
  RUN(test_deploy_delete_order);
  RUN(test_deploy_replace_cbd);
  RUN(test_deploy_replace_dbr_dependents);
  RUN(test_deploy_failed_create_keeps_earlier_work);
  RUN(test_deploy_protect);
  RUN(test_deploy_refresh_drift_and_vanished);
  RUN(test_deploy_destroy);
  RUN(test_deploy_parallel_overlaps_within_limit);
  RUN(test_deploy_continue_on_error);
  RUN(test_deploy_program_error_deletes_nothing);
  RUN(test_deploy_duplicate_urn);
  return mp_test_summary();
}
