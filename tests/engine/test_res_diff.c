/* Tests for src/engine/res_diff.c: reading a provider's Diff answer. */
#include "engine/res_diff.h"

#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static mp_value *json(const char *text) {
  mp_value *v = NULL;
  mp_err err;
  CHECK(mp_value_from_json(text, strlen(text), NULL, &v, &err) == 0);
  return v;
}

static const mp_diff_entry *entry(const mp_res_diff *d, const char *path) {
  for (size_t i = 0; i < d->detailed.len; i++)
    if (strcmp(d->detailed.items[i].path, path) == 0)
      return &d->detailed.items[i];
  return NULL;
}

static void test_res_diff_no_opinion_only_without_changes_or_replaces(void) {
  mp_prov_resp r;
  mp_prov_resp_init(&r);
  CHECK(mp_res_diff_no_opinion(&r));
  mp_strv_push(&r.replaces, "foo");
  CHECK(!mp_res_diff_no_opinion(&r));
  mp_prov_resp_destroy(&r);
  mp_prov_resp_init(&r);
  r.changes = MP_DIFF_CHANGES_NONE;
  CHECK(!mp_res_diff_no_opinion(&r));
  mp_prov_resp_destroy(&r);
}

static void test_res_diff_from_answer_replace_keys_count_as_diffs(void) {
  mp_prov_resp r;
  mp_prov_resp_init(&r);
  mp_strv_push(&r.diffs, "a");
  mp_strv_push(&r.replaces, "b");
  r.delete_before_replace = 1;
  mp_res_diff d;
  mp_res_diff_init(&d);
  mp_res_diff_from_answer(&r, &d);
  CHECK(d.changed && d.replace && d.dbr);
  CHECK(d.diffs.len == 2 && mp_strv_contains(&d.diffs, "b"));
  CHECK(d.keys.len == 1 && !d.has_detailed);
  mp_res_diff_destroy(&d);
  mp_prov_resp_destroy(&r);
}

/* A refresh's diff, framed from the program to the world, read the other
 * way round (RefreshStep.Apply's diff.Invert()). */
static void test_res_diff_compare_and_invert(void) {
  mp_value *read = json("{\"a\":1,\"gone\":true}");
  mp_value *before = json("{\"a\":2,\"new\":true}");
  mp_res_diff d;
  mp_res_diff_init(&d);
  mp_res_diff_compare(read, before, &d);
  CHECK(d.changed && !d.replace && d.has_detailed);
  CHECK(entry(&d, "a")->kind == MP_DIFF_UPDATE);
  CHECK(entry(&d, "gone")->kind == MP_DIFF_DELETE);
  CHECK(entry(&d, "new")->kind == MP_DIFF_ADD);
  CHECK(entry(&d, "a")->input_diff);
  mp_res_diff_invert(&d);
  CHECK(entry(&d, "a")->kind == MP_DIFF_UPDATE);
  CHECK(entry(&d, "gone")->kind == MP_DIFF_ADD);
  CHECK(entry(&d, "new")->kind == MP_DIFF_DELETE);
  mp_res_diff_destroy(&d);
  mp_res_diff_init(&d);
  mp_res_diff_compare(read, read, &d);
  CHECK(!d.changed && d.diffs.len == 0);
  mp_res_diff_destroy(&d);
  mp_value_free(read);
  mp_value_free(before);
}

static void test_res_diff_replace_on_changes_covers_paths(void) {
  mp_res_diff d;
  mp_res_diff_init(&d);
  mp_strv_push(&d.diffs, "tags");
  d.changed = 1;
  mp_strv roc;
  mp_strv_init(&roc);
  mp_strv_push(&roc, "name");
  mp_res_diff_replace_on_changes(&roc, 0, &d);
  CHECK(!d.replace);
  mp_strv_push(&roc, "tags");
  mp_res_diff_replace_on_changes(&roc, 0, &d);
  CHECK(d.replace && d.keys.len == 1 && !strcmp(d.keys.items[0], "tags"));
  mp_strv_destroy(&roc);
  mp_res_diff_destroy(&d);
}

static void test_res_diff_import_replace_msg_names_each_key(void) {
  mp_res_diff d;
  mp_res_diff_init(&d);
  mp_strv_push(&d.keys, "foo");
  mp_strv_push(&d.keys, "n");
  mp_value *olds = json("{\"foo\":\"live\",\"n\":1}");
  mp_value *news = json("{\"foo\":\"other\",\"n\":2}");
  char *msg = mp_res_diff_import_replace_msg(&d, olds, news);
  CHECK_STR(msg,
            "previously-imported resources that still specify an ID may not "
            "be replaced; please remove the `import` declaration from your "
            "program;\nfoo: {live} => {other}\nn: {1} => {2}");
  free(msg);
  mp_value_free(olds);
  mp_value_free(news);
  mp_res_diff_destroy(&d);
}

static void test_res_diff_check_failures_hide_secrets(void) {
  mp_resource *st = mp_resource_new(
      "urn:pulumi:s::p::test:index:Resource::resA", "test:index:Resource", 1);
  st->inputs = json("{\"size\":3}");
  mp_value_object_set(st->inputs, "pw",
                      mp_value_new_secret(mp_value_new_string("hunter2", 7)));
  mp_prov_resp r;
  mp_prov_resp_init(&r);
  mp_prov_resp_add_failure(&r, "size", "too small");
  mp_prov_resp_add_failure(&r, "pw", "too short");
  mp_prov_resp_add_failure(&r, NULL, "bad");
  mp_err err;
  CHECK(mp_res_check_failures(st, &r, &err) == MP_EPLUGIN);
  CHECK_STR(err.msg,
            "test:index:Resource resource 'resA': property size value {3} "
            "has a problem: too small\n"
            "test:index:Resource resource 'resA': property pw value "
            "{[secret]} has a problem: too short\n"
            "test:index:Resource resource 'resA' has a problem: bad");
  mp_prov_resp_destroy(&r);
  mp_resource_free(st);
}

int main(void) {
  RUN(test_res_diff_no_opinion_only_without_changes_or_replaces);
  RUN(test_res_diff_from_answer_replace_keys_count_as_diffs);
  RUN(test_res_diff_compare_and_invert);
  RUN(test_res_diff_replace_on_changes_covers_paths);
  RUN(test_res_diff_import_replace_msg_names_each_key);
  RUN(test_res_diff_check_failures_hide_secrets);
  return mp_test_summary();
}
