/* Deployments with resource options and target flags: aliases,
 * ignoreChanges, replaceOnChanges, retainOnDelete, deletedWith, import,
 * read, --target/--exclude/--replace, and a provider configuration change
 * that replaces what the provider manages. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deploy_harness.h"
#include "engine/snapshot.h"
#include "testutil.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static int has_diag(tenv *e, const char *needle) {
  for (size_t i = 0; i < e->diags.len; i++)
    if (strstr(e->diags.items[i], needle)) return 1;
  return 0;
}

static void test_deploy_alias_rename_is_same(void) {
  tenv e;
  tenv_init(&e);
  treg p1[] = {{.name = "n1", .inputs = "{\"x\":1}"}};
  trun(&e, p1, N(p1), NULL);
  treg p2[] = {{.name = "n2", .inputs = "{\"x\":1}", .alias_names = {"n1"}}};
  trun(&e, p2, N(p2), NULL);
  CHECK(!e.res.failed);
  CHECK(steps_are(&e, (const char *[]){"same default", "same n2", NULL}));
  char *st = state_names(&e);
  CHECK_STR(st, "default n2");
  free(st);
  CHECK(calls_count(&e, "delete") == 0 && calls_count(&e, "create") == 1);
  /* Several aliases: the first that exists wins; dropping them later is
   * fine once the state uses the new name. */
  treg p3[] = {{.name = "n3", .inputs = "{\"x\":2}", .alias_names = {"nope", "n2"}}};
  trun(&e, p3, N(p3), NULL);
  CHECK(steps_are(&e, (const char *[]){"same default", "update n3", NULL}));
  tenv_destroy(&e);
}

static void test_deploy_alias_rename_with_dependents(void) {
  tenv e;
  tenv_init(&e);
  treg p1[] = {{.name = "n1"}, {.name = "b", .deps = {"n1"}, .prop_deps = 1,
                                .inputs = "{\"x\":1}"},
               {.name = "c", .deps = {"n1"}}};
  trun(&e, p1, N(p1), NULL);
  /* n1 is renamed; b and c still refer to it in the store until they run
   * (every write is integrity-checked). c is dropped from the program. */
  treg p2[] = {{.name = "n2", .alias_names = {"n1"}},
               {.name = "b", .deps = {"n2"}, .prop_deps = 1, .inputs = "{\"x\":1}"}};
  trun(&e, p2, N(p2), NULL);
  CHECK(!e.res.failed);
  CHECK(steps_are(&e, (const char *[]){"same default", "same n2", "same b",
                                       "delete c", NULL}));
  char *st = state_names(&e);
  CHECK_STR(st, "default n2 b");
  free(st);
  tenv_destroy(&e);
}

static void test_deploy_ignore_changes(void) {
  tenv e;
  tenv_init(&e);
  treg p1[] = {{.name = "a", .inputs = "{\"a\":1,\"b\":{\"c\":\"foo\"},\"d\":2}"}};
  trun(&e, p1, N(p1), NULL);
  treg p2[] = {{.name = "a", .inputs = "{\"a\":9,\"b\":{\"c\":\"bar\"},\"d\":2}",
                .ignore = {"a", "b.c"}}};
  trun(&e, p2, N(p2), NULL);
  CHECK(steps_are(&e, (const char *[]){"same default", "same a", NULL}));
  mp_snapshot *s = tload(&e);
  const mp_value *a = s ? mp_value_object_get(s->res[1]->inputs, "a") : NULL;
  CHECK(a && a->kind == MP_VALUE_NUMBER && a->u.number == 1);
  mp_snapshot_free(s);
  treg p3[] = {{.name = "a", .inputs = "{\"a\":9,\"b\":{\"c\":\"bar\"},\"d\":3}",
                .ignore = {"a", "b.c"}}};
  trun(&e, p3, N(p3), NULL);
  CHECK(steps_are(&e, (const char *[]){"same default", "update a", NULL}));
  tenv_destroy(&e);
}

static void test_deploy_replace_on_changes(void) {
  tenv e;
  tenv_init(&e);
  treg p1[] = {{.name = "a", .inputs = "{\"a\":1,\"b\":{\"c\":\"foo\"}}",
                .replace_on = {"b.c"}}};
  trun(&e, p1, N(p1), NULL);
  treg p2[] = {{.name = "a", .inputs = "{\"a\":2,\"b\":{\"c\":\"foo\"}}",
                .replace_on = {"b.c"}}};
  trun(&e, p2, N(p2), NULL);
  CHECK(steps_are(&e, (const char *[]){"same default", "update a", NULL}));
  treg p3[] = {{.name = "a", .inputs = "{\"a\":2,\"b\":{\"c\":\"bar\"}}",
                .replace_on = {"b.c"}}};
  trun(&e, p3, N(p3), NULL);
  CHECK(steps_are(&e, (const char *[]){"same default", "create-replacement a",
                                       "replace a", "delete-replaced a", NULL}));
  treg p4[] = {{.name = "a", .inputs = "{\"a\":3,\"b\":{\"c\":\"bar\"}}",
                .replace_on = {"*"}}};
  trun(&e, p4, N(p4), NULL);
  CHECK(step_index(&e, "create-replacement a") >= 0);
  tenv_destroy(&e);
}

static void test_deploy_retain_on_delete(void) {
  tenv e;
  tenv_init(&e);
  treg p1[] = {{.name = "a", .inputs = "{\"k\":1,\"__replaceKeys\":[\"k\"]}", .retain = 1}};
  trun(&e, p1, N(p1), NULL);
  treg p2[] = {{.name = "a", .inputs = "{\"k\":2,\"__replaceKeys\":[\"k\"]}", .retain = 1}};
  trun(&e, p2, N(p2), NULL);
  CHECK(step_index(&e, "delete-replaced a") >= 0);
  trun(&e, NULL, 0, NULL);
  CHECK(step_index(&e, "delete a") >= 0);
  CHECK(calls_count(&e, "delete") == 0);
  CHECK(world_has(&e, "id-1") && world_has(&e, "id-2"));
  char *st = state_names(&e);
  CHECK_STR(st, "");
  free(st);
  tenv_destroy(&e);
}

static void test_deploy_deleted_with(void) {
  tenv e;
  tenv_init(&e);
  treg p1[] = {{.name = "a"}, {.name = "b", .deleted_with = "a"}};
  trun(&e, p1, N(p1), NULL);
  trun(&e, NULL, 0, NULL);
  CHECK(!e.res.failed);
  CHECK(step_index(&e, "delete b") >= 0 && step_index(&e, "delete a") > step_index(&e, "delete b"));
  CHECK(calls_count(&e, "delete") == 1); /* only a's Delete is real */
  CHECK(world_has(&e, "id-2") && !world_has(&e, "id-1"));
  tenv_destroy(&e);
}

static void test_deploy_import_and_read(void) {
  tenv e;
  tenv_init(&e);
  char path[512];
  snprintf(path, sizeof(path), "%s/ext-1.json", e.world);
  FILE *f = fopen(path, "w");
  fputs("{\"foo\":\"bar\"}", f);
  fclose(f);
  snprintf(path, sizeof(path), "%s/ext-2.json", e.world);
  f = fopen(path, "w");
  fputs("{\"v\":7}", f);
  fclose(f);
  treg p1[] = {{.name = "imp", .inputs = "{\"foo\":\"bar\"}", .import_id = "ext-1"},
               {.name = "rd", .read_id = "ext-2"}};
  trun(&e, p1, N(p1), NULL);
  CHECK(!e.res.failed);
  CHECK(step_index(&e, "import imp") >= 0 && step_index(&e, "read rd") >= 0);
  CHECK(calls_count(&e, "create") == 0);
  /* The same program again imports nothing. */
  trun(&e, p1, N(p1), NULL);
  CHECK(step_index(&e, "same imp") >= 0);
  CHECK(step_index(&e, "import imp") < 0);
  /* Dropping both: the managed import is deleted, the read is discarded. */
  trun(&e, NULL, 0, NULL);
  CHECK(step_index(&e, "delete imp") >= 0 && step_index(&e, "discard rd") >= 0);
  CHECK(world_has(&e, "ext-2") && !world_has(&e, "ext-1"));
  /* Importing with inputs that differ from what is there: import, then an
   * update to the program's inputs (S67 run 0). */
  snprintf(path, sizeof(path), "%s/ext-3.json", e.world);
  f = fopen(path, "w");
  fputs("{\"foo\":\"old\"}", f);
  fclose(f);
  treg p3[] = {{.name = "imp3", .inputs = "{\"foo\":\"new\"}", .import_id = "ext-3"}};
  trun(&e, p3, N(p3), NULL);
  CHECK(!e.res.failed);
  CHECK(steps_are(&e, (const char *[]){"create default", "import imp3", "update imp3", NULL}));
  CHECK(calls_count(&e, "update") == 1);
  /* Reading something that does not exist fails with Pulumi's text. */
  treg p2[] = {{.name = "ghost", .read_id = "nope"}};
  trun(&e, p2, N(p2), NULL);
  CHECK(e.res.failed && has_diag(&e, "resource 'nope' does not exist"));
  tenv_destroy(&e);
}

static void test_deploy_targets(void) {
  tenv e;
  tenv_init(&e);
  treg p1[] = {{.name = "a", .inputs = "{\"v\":1}"},
               {.name = "b", .inputs = "{\"v\":1}", .deps = {"a"}},
               {.name = "c", .inputs = "{\"v\":1}"}};
  trun(&e, p1, N(p1), NULL);
  treg p2[] = {{.name = "a", .inputs = "{\"v\":2}"},
               {.name = "b", .inputs = "{\"v\":2}", .deps = {"a"}},
               {.name = "c", .inputs = "{\"v\":2}"}};
  trun(&e, p2, N(p2), &(trun_opts){.targets = {"test:index:Resource::b"}});
  CHECK(!e.res.failed);
  CHECK(steps_are(&e, (const char *[]){"same default", "same a", "update b", "same c", NULL}));
  trun(&e, p2, N(p2), &(trun_opts){.targets = {"test:index:Resource::a"},
                                    .target_dependents = 1});
  CHECK(steps_are(&e, (const char *[]){"same default", "update a", "same b", "same c", NULL}));
  trun(&e, p2, N(p2), &(trun_opts){.excludes = {"test:index:Resource::c"}});
  CHECK(steps_are(&e, (const char *[]){"same default", "same a", "same b", "same c", NULL}));
  CHECK(calls_count(&e, "update") == 2);
  /* --replace forces a replacement of an unchanged resource. */
  trun(&e, p2, N(p2), &(trun_opts){.replaces = {"test:index:Resource::c"}});
  CHECK(step_index(&e, "create-replacement c") >= 0 && step_index(&e, "delete-replaced c") >= 0);
  /* An unknown target is an error. */
  trun(&e, p2, N(p2), &(trun_opts){.targets = {"test:index:Resource::zz"}});
  CHECK(e.res.failed && has_diag(&e, "could not be found in the stack"));
  /* A removed resource that is not targeted stays. */
  trun(&e, p2, 2, &(trun_opts){.targets = {"test:index:Resource::a"}});
  CHECK(step_index(&e, "delete c") < 0);
  char *st = state_names(&e);
  CHECK(st && strstr(st, "c") != NULL);
  free(st);
  /* destroy --target b deletes only b. */
  trun(&e, NULL, 0, &(trun_opts){.kind = MP_DEPLOY_DESTROY,
                                  .targets = {"test:index:Resource::b"}});
  CHECK(!e.res.failed);
  CHECK(step_index(&e, "delete b") >= 0 && step_index(&e, "delete a") < 0);
  /* destroy --target a without dependents of a... a has none left; with c
   * depending on nothing, a plain target deletes just a. */
  trun(&e, NULL, 0, &(trun_opts){.kind = MP_DEPLOY_DESTROY,
                                  .targets = {"test:index:Resource::a"}});
  CHECK(step_index(&e, "delete a") >= 0 && step_index(&e, "delete c") < 0);
  tenv_destroy(&e);
}

static void test_deploy_untargeted_create_needed(void) {
  tenv e;
  tenv_init(&e);
  treg p1[] = {{.name = "newdep"}, {.name = "user", .deps = {"newdep"}}};
  trun(&e, p1, N(p1), &(trun_opts){.targets = {"test:index:Resource::user"}});
  CHECK(e.res.failed);
  CHECK(has_diag(&e, "depends on 'urn:pulumi:test::test::test:index:Resource::newdep' "
                     "which was was not specified in --target list."));
  CHECK(calls_count(&e, "create") == 0);
  tenv_destroy(&e);
}

static void test_deploy_destroy_target_needs_dependents(void) {
  tenv e;
  tenv_init(&e);
  treg p1[] = {{.name = "a"}, {.name = "b", .deps = {"a"}}};
  trun(&e, p1, N(p1), NULL);
  trun(&e, NULL, 0, &(trun_opts){.kind = MP_DEPLOY_DESTROY,
                                  .targets = {"test:index:Resource::a"}});
  CHECK(e.res.failed);
  CHECK(has_diag(&e, "will be destroyed but was not specified in --target list"));
  CHECK(calls_count(&e, "delete") == 0);
  trun(&e, NULL, 0, &(trun_opts){.kind = MP_DEPLOY_DESTROY,
                                  .targets = {"test:index:Resource::a"},
                                  .target_dependents = 1});
  CHECK(!e.res.failed);
  CHECK(step_index(&e, "delete b") >= 0 && step_index(&e, "delete a") > step_index(&e, "delete b"));
  tenv_destroy(&e);
}

static void test_deploy_provider_change_replaces_resources(void) {
  tenv e;
  tenv_init(&e);
  char w1[400], w2[400], cfg1[600], cfg2[600];
  snprintf(w1, sizeof(w1), "%s", e.world);
  snprintf(w2, sizeof(w2), "%s/other", e.world);
  snprintf(cfg1, sizeof(cfg1), "{\"world\":\"%s\"}", w1);
  snprintf(cfg2, sizeof(cfg2), "{\"world\":\"%s\"}", w2);
  treg p1[] = {{.type = "pulumi:providers:test", .name = "prov", .inputs = cfg1},
               {.name = "a", .provider = "prov"}};
  trun(&e, p1, N(p1), NULL);
  CHECK(!e.res.failed);
  CHECK(steps_are(&e, (const char *[]){"create prov", "create a", NULL}));
  treg p2[] = {{.type = "pulumi:providers:test", .name = "prov", .inputs = cfg2},
               {.name = "a", .provider = "prov"}};
  trun(&e, p2, N(p2), NULL);
  CHECK(!e.res.failed);
  CHECK(steps_are(&e, (const char *[]){"create-replacement prov", "replace prov",
                                       "create-replacement a", "replace a",
                                       "delete-replaced a", "delete-replaced prov",
                                       NULL}));
  /* The old copy was deleted from the old world through the old config. */
  CHECK(!world_has(&e, "id-1"));
  char path[600];
  snprintf(path, sizeof(path), "%s/id-1.json", w2);
  FILE *f = fopen(path, "r");
  CHECK(f != NULL);
  if (f) fclose(f);
  tenv_destroy(&e);
}

static void test_deploy_switching_providers_asks_diff_config(void) {
  tenv e;
  tenv_init(&e);
  char cfg1[600], cfg2[600];
  snprintf(cfg1, sizeof(cfg1), "{\"world\":\"%s\"}", e.world);
  snprintf(cfg2, sizeof(cfg2), "{\"world\":\"%s/two\"}", e.world);
  treg p1[] = {{.type = "pulumi:providers:test", .name = "pa", .inputs = cfg1},
               {.type = "pulumi:providers:test", .name = "pb", .inputs = cfg1},
               {.type = "pulumi:providers:test", .name = "pc", .inputs = cfg2},
               {.name = "a", .provider = "pa"}};
  trun(&e, p1, N(p1), NULL);
  CHECK(!e.res.failed);
  /* pb manages the same world: the new provider's DiffConfig says so. */
  treg p2[] = {p1[0], p1[1], p1[2], {.name = "a", .provider = "pb"}};
  trun(&e, p2, N(p2), NULL);
  CHECK(!e.res.failed && step_index(&e, "same a") >= 0);
  /* pc manages another world: a is replaced (key `provider`). */
  treg p3[] = {p1[0], p1[1], p1[2], {.name = "a", .provider = "pc"}};
  trun(&e, p3, N(p3), NULL);
  CHECK(!e.res.failed && step_index(&e, "create-replacement a") >= 0 &&
        step_index(&e, "delete-replaced a") >= 0);
  tenv_destroy(&e);
}

static void test_deploy_default_provider_from_config(void) {
  tenv e;
  tenv_init(&e);
  char cfg[600];
  snprintf(cfg, sizeof(cfg), "{\"test:world\":\"%s/cw\"}", e.world);
  treg p1[] = {{.name = "a"}};
  trun(&e, p1, N(p1), &(trun_opts){.config = cfg});
  CHECK(!e.res.failed);
  char path[600];
  snprintf(path, sizeof(path), "%s/cw/id-1.json", e.world);
  FILE *f = fopen(path, "r");
  CHECK(f != NULL);
  if (f) fclose(f);
  mp_snapshot *s = tload(&e);
  const mp_value *w = s ? mp_value_object_get(s->res[0]->inputs, "world") : NULL;
  CHECK(w && w->kind == MP_VALUE_STRING);
  mp_snapshot_free(s);
  tenv_destroy(&e);
}

static void test_deploy_components_and_outputs(void) {
  tenv e;
  tenv_init(&e);
  treg p1[] = {{.type = "pulumi:pulumi:Stack", .name = "test-test", .component = 1,
                .outputs = "{\"out\":\"v1\"}"},
               {.type = "my:comp:Thing", .name = "comp", .component = 1,
                .outputs = "{\"foo\":\"bar\"}"},
               {.name = "child", .parent = "comp"}};
  trun(&e, p1, N(p1), NULL);
  CHECK(!e.res.failed);
  CHECK(calls_count(&e, "create") == 1);
  mp_snapshot *s = tload(&e);
  int ok = 0;
  for (size_t i = 0; s && i < s->nres; i++) {
    const mp_resource *r = s->res[i];
    if (strcmp(r->type, "my:comp:Thing") == 0) {
      const mp_value *v = mp_value_object_get(r->outputs, "foo");
      ok += v && v->kind == MP_VALUE_STRING && r->id == NULL;
    }
    if (strcmp(r->type, "pulumi:pulumi:Stack") == 0) {
      const mp_value *v = mp_value_object_get(r->outputs, "out");
      ok += v && v->kind == MP_VALUE_STRING;
    }
    if (strstr(r->urn, "my:comp:Thing$test:index:Resource::child")) ok++;
  }
  CHECK(ok == 3);
  mp_snapshot_free(s);
  tenv_destroy(&e);
}

static void test_deploy_legacy_state_gets_default_provider(void) {
  tenv e;
  tenv_init(&e);
  const char *json =
      "{\"version\":3,\"deployment\":{\"manifest\":{\"time\":\"\",\"magic\":\"\","
      "\"version\":\"\"},\"resources\":[{\"urn\":\"urn:pulumi:test::test::"
      "test:index:Resource::a\",\"custom\":true,\"id\":\"id-7\",\"type\":"
      "\"test:index:Resource\"}]}}";
  mp_snapshot *snap = NULL;
  mp_err err;
  CHECK(mp_snapshot_import(json, strlen(json), NULL, &snap, &err) == 0);
  mp_stack_ref st = {"test", "test"};
  CHECK(snap && mp_store_replace(e.store, st, snap, NULL, &err) == 0);
  mp_snapshot_free(snap);
  treg p1[] = {{.name = "a"}};
  trun(&e, p1, N(p1), NULL);
  CHECK(!e.res.failed);
  CHECK(steps_are(&e, (const char *[]){"same default", "same a", NULL}));
  char *names = state_names(&e);
  CHECK_STR(names, "default a");
  free(names);
  tenv_destroy(&e);
}

int main(void) {
  RUN(test_deploy_legacy_state_gets_default_provider);
  RUN(test_deploy_alias_rename_is_same);
  RUN(test_deploy_alias_rename_with_dependents);
  RUN(test_deploy_ignore_changes);
  RUN(test_deploy_replace_on_changes);
  RUN(test_deploy_retain_on_delete);
  RUN(test_deploy_deleted_with);
  RUN(test_deploy_import_and_read);
  RUN(test_deploy_targets);
  RUN(test_deploy_untargeted_create_needed);
  RUN(test_deploy_destroy_target_needs_dependents);
  RUN(test_deploy_provider_change_replaces_resources);
  RUN(test_deploy_switching_providers_asks_diff_config);
  RUN(test_deploy_default_provider_from_config);
  RUN(test_deploy_components_and_outputs);
  return mp_test_summary();
}
