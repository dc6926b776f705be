/* Tests for src/engine/resource.c: the references of a resource by kind
 * (mp_resource_refs), which every part of the engine that follows
 * references reads through. */
#include "engine/resource.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/snapshot.h"
#include "testutil.h"

#define P "urn:pulumi:s::p::"
#define PROV P "pulumi:providers:test::default"

/* "a b c" of |v|, owned. */
static char *joined(const mp_strv *v) {
  mp_buf b;
  mp_buf_init(&b);
  for (size_t i = 0; i < v->len; i++)
    mp_buf_printf(&b, "%s%s", i ? " " : "", v->items[i]);
  return mp_buf_detach(&b, NULL);
}

static mp_resource *sample(void) {
  mp_resource *r = mp_resource_new(P "t:m:T::me", "t:m:T", 1);
  r->parent = mp_xstrdup(P "t:m:T::parent");
  r->deleted_with = mp_xstrdup(P "t:m:T::dw");
  mp_strv_push(&r->dependencies, P "t:m:T::d1");
  mp_strv_push(&r->dependencies, P "t:m:T::d2");
  mp_strv_push(&mp_propdeps_get(&r->property_dependencies, "b")->urns,
               P "t:m:T::pb");
  mp_strv_push(&mp_propdeps_get(&r->property_dependencies, "a")->urns,
               P "t:m:T::pa");
  r->provider = mp_xstrdup(PROV "::1234-id::with::colons");
  return r;
}

static void test_resource_refs_all_in_order(void) {
  mp_resource *r = sample();
  mp_strv v;
  mp_strv_init(&v);
  mp_resource_refs(r, MP_REF_ALL, &v);
  char *s = joined(&v);
  /* The provider's id is split at the last `::`, as
   * mp_provider_ref_parse does. */
  CHECK_STR(s, P "t:m:T::parent " P "t:m:T::dw " P "t:m:T::d1 " P
            "t:m:T::d2 " P "t:m:T::pa " P "t:m:T::pb " PROV "::1234-id::with");
  free(s);
  mp_strv_destroy(&v);
  mp_resource_free(r);
}

static void test_resource_refs_by_kind(void) {
  mp_resource *r = sample();
  mp_strv v;
  mp_strv_init(&v);
  mp_resource_refs(r, MP_REF_PARENT | MP_REF_PROPERTY, &v);
  char *s = joined(&v);
  CHECK_STR(s, P "t:m:T::parent " P "t:m:T::pa " P "t:m:T::pb");
  free(s);
  mp_strv_destroy(&v);
  mp_resource_refs(r, MP_REF_ALL & ~MP_REF_PARENT & ~MP_REF_PROVIDER, &v);
  CHECK(v.len == 5 && !mp_strv_contains(&v, P "t:m:T::parent"));
  mp_strv_destroy(&v);
  mp_resource_free(r);
}

static void test_resource_refs_bad_provider_adds_nothing(void) {
  mp_resource *r = mp_resource_new(P "t:m:T::me", "t:m:T", 1);
  r->provider = mp_xstrdup(P "t:m:T::not-a-provider::id");
  mp_strv v;
  mp_strv_init(&v);
  mp_resource_refs(r, MP_REF_ALL, &v);
  CHECK(v.len == 0);
  free(r->provider);
  r->provider = mp_xstrdup("no delimiter at all");
  mp_resource_refs(r, MP_REF_PROVIDER, &v);
  CHECK(v.len == 0);
  mp_strv_destroy(&v);
  mp_resource_free(r);
}

static void test_refs_append_of_parts(void) {
  mp_strv deps, v;
  mp_propdeps pd;
  mp_strv_init(&deps);
  mp_strv_init(&v);
  mp_propdeps_init(&pd);
  mp_strv_push(&deps, "d");
  mp_strv_push(&mp_propdeps_get(&pd, "k")->urns, "k1");
  mp_refs_append(NULL, "w", &deps, &pd, NULL, MP_REF_ALL, &v);
  char *s = joined(&v);
  CHECK_STR(s, "w d k1");
  free(s);
  mp_strv_destroy(&v);
  mp_strv_destroy(&deps);
  mp_propdeps_destroy(&pd);
}

/* Reading a checkpoint resource: every field by its key, the first of
 * two equal keys (as cJSON's lookup has it), a null as absent, and an
 * object of many members (past the member index) read the same way. */
static void test_resource_from_json_fields(void) {
  const char *text =
      "{\"urn\":\"" P "t:m:T::me\",\"custom\":true,\"id\":\"first\","
      "\"type\":\"t:m:T\",\"id\":\"second\",\"parent\":null,"
      "\"protect\":true,\"dependencies\":[\"" P "t:m:T::d\"],"
      "\"inputs\":{\"a\":1},\"outputs\":{\"b\":\"x\"},"
      "\"customTimeouts\":{\"create\":5},\"retainOnDelete\":true}";
  mp_resource *r = NULL;
  mp_err err;
  CHECK(mp_resource_from_json(text, strlen(text), NULL, &r, &err) == 0);
  CHECK_STR(r->urn, P "t:m:T::me");
  CHECK_STR(r->type, "t:m:T");
  CHECK_STR(r->id, "first");
  CHECK(r->custom && r->protect && r->retain_on_delete && !r->delete_);
  CHECK(r->parent == NULL);
  CHECK(r->dependencies.len == 1);
  CHECK(r->has_custom_timeouts && r->custom_timeouts.create == 5);
  CHECK(mp_value_object_get(r->inputs, "a") != NULL);
  CHECK(mp_value_object_get(r->outputs, "b") != NULL);
  mp_resource_free(r);
  /* A wrong type is still named. */
  const char *bad = "{\"urn\":\"" P "t:m:T::me\",\"type\":\"t\","
                    "\"protect\":\"yes\"}";
  CHECK(mp_resource_from_json(bad, strlen(bad), NULL, &r, &err) == MP_EINVAL);
  CHECK(strstr(err.msg, "field 'protect'") != NULL);
  /* Forty unknown members besides the known ones. */
  mp_buf b;
  mp_buf_init(&b);
  mp_buf_puts(&b, "{");
  for (int i = 0; i < 40; i++) mp_buf_printf(&b, "\"x%d\":%d,", i, i);
  mp_buf_puts(&b, "\"urn\":\"" P "t:m:T::me\",\"type\":\"t:m:T\","
                  "\"id\":\"only\"}");
  CHECK(mp_resource_from_json(b.data, b.len, NULL, &r, &err) == 0);
  CHECK_STR(r->id, "only");
  CHECK_STR(r->type, "t:m:T");
  mp_resource_free(r);
  mp_buf_destroy(&b);
}

int main(void) {
  RUN(test_resource_refs_all_in_order);
  RUN(test_resource_refs_by_kind);
  RUN(test_resource_refs_bad_provider_adds_nothing);
  RUN(test_refs_append_of_parts);
  RUN(test_resource_from_json_fields);
  return mp_test_summary();
}
