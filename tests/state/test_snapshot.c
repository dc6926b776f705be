/* Tests for src/engine/resource*.c, snapshot*.c: the checkpoint JSON
 * (docs/behaviour.md, "The checkpoint") and the integrity rules. */
#include <stdlib.h>
#include <string.h>

#include "engine/crypto.h"
#include "engine/resource.h"
#include "engine/snapshot.h"
#include "state/test_state_util.h"
#include "testutil.h"

#define STACK_URN "urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev"
#define PROV_URN "urn:pulumi:dev::proj::pulumi:providers:aws::default_6_0_0"
#define PROV_ID "5f2c7a0e-3b1d-4c8e-9a2f-6d7e8f9a0b1c"
#define BUCKET_URN "urn:pulumi:dev::proj::aws:s3/bucket:Bucket::b"
#define FIXTURE_PASSPHRASE "correct horse battery staple"

/* ==== ResourceV3 ==== */

static void test_resource_json_key_order(void) {
  mp_resource *r = mp_resource_new(BUCKET_URN, "aws:s3/bucket:Bucket", 1);
  r->id = strdup("b-1");
  r->inputs = mp_value_new_object();
  mp_value_object_set(r->inputs, "acl", mp_value_new_cstring("private"));
  r->parent = strdup(STACK_URN);
  r->protect = 1;
  mp_strv_push(&r->dependencies, STACK_URN);
  r->provider = strdup(PROV_URN "::" PROV_ID);
  mp_propdeps_get(&r->property_dependencies, "acl");
  r->has_custom_timeouts = 1;
  r->custom_timeouts.create = 60;
  r->retain_on_delete = 1;
  r->created = strdup("2025-01-02T03:04:01Z");
  mp_strv_push(&r->ignore_changes, "tags");
  mp_buf out;
  mp_buf_init(&out);
  mp_err err;
  CHECK(mp_resource_to_json(r, NULL, 0, &out, &err) == 0);
  CHECK_STR(out.data,
            "{\"urn\":\"" BUCKET_URN "\",\"custom\":true,\"id\":\"b-1\","
            "\"type\":\"aws:s3/bucket:Bucket\",\"inputs\":{\"acl\":"
            "\"private\"},\"parent\":\"" STACK_URN "\",\"protect\":true,"
            "\"dependencies\":[\"" STACK_URN "\"],\"provider\":\"" PROV_URN
            "::" PROV_ID "\",\"propertyDependencies\":{\"acl\":[]},"
            "\"customTimeouts\":{\"create\":60},\"retainOnDelete\":true,"
            "\"created\":\"2025-01-02T03:04:01Z\",\"ignoreChanges\":"
            "[\"tags\"]}");
  mp_resource *back;
  CHECK(mp_resource_from_json(out.data, out.len, NULL, &back, &err) == 0);
  CHECK(back && mp_resource_equal(r, back));
  CHECK(back && back->custom_timeouts.update < 0);
  mp_resource_free(back);
  mp_buf_destroy(&out);
  mp_resource_free(r);
}

static void test_resource_json_component_minimal(void) {
  mp_resource *r = mp_resource_new(STACK_URN, "pulumi:pulumi:Stack", 0);
  r->outputs = mp_value_new_object(); /* empty: omitted */
  mp_buf out;
  mp_buf_init(&out);
  mp_err err;
  CHECK(mp_resource_to_json(r, NULL, 0, &out, &err) == 0);
  CHECK_STR(out.data, "{\"urn\":\"" STACK_URN "\",\"custom\":false,"
                      "\"type\":\"pulumi:pulumi:Stack\"}");
  mp_buf_destroy(&out);
  mp_resource_free(r);
}

static void test_resource_json_bad_fields(void) {
  mp_resource *r = NULL;
  mp_err err;
  const char *t1 = "{\"urn\":\"u\",\"custom\":\"yes\",\"type\":\"t\"}";
  CHECK(mp_resource_from_json(t1, strlen(t1), NULL, &r, &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "field 'custom' of resource 'u' must be true or "
                          "false");
  const char *t2 = "{\"urn\":\"u\",\"type\":\"t\",\"dependencies\":[1]}";
  CHECK(mp_resource_from_json(t2, strlen(t2), NULL, &r, &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "'dependencies' of resource 'u' must be a list of "
                          "strings");
  CHECK(mp_resource_from_json("{", 1, NULL, &r, &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "not valid JSON");
  CHECK(r == NULL);
}

static void test_resource_dup_equal(void) {
  mp_resource *r = mp_resource_new(BUCKET_URN, "aws:s3/bucket:Bucket", 1);
  r->id = strdup("b-1");
  mp_strv_push(&mp_propdeps_get(&r->property_dependencies, "x")->urns,
               STACK_URN);
  r->outputs = mp_value_new_object();
  mp_value_object_set(r->outputs, "k", mp_value_new_number(3));
  mp_resource *d = mp_resource_dup(r);
  CHECK(mp_resource_equal(r, d));
  mp_value_object_set(d->outputs, "k", mp_value_new_number(4));
  CHECK(!mp_resource_equal(r, d));
  mp_resource_free(d);
  d = mp_resource_dup(r);
  d->delete_ = 1;
  CHECK(!mp_resource_equal(r, d));
  mp_resource_free(d);
  mp_resource_free(r);
}

static void test_pending_names(void) {
  mp_pending_type t;
  CHECK_STR(mp_pending_type_name(MP_PENDING_IMPORTING), "importing");
  CHECK(mp_pending_type_parse("deleting", &t) == 0 && t == MP_PENDING_DELETING);
  CHECK(mp_pending_type_parse("exploding", &t) == MP_EINVAL);
  char *now = mp_now_rfc3339();
  CHECK(strlen(now) == 20 && now[10] == 'T' && now[19] == 'Z');
  free(now);
}

/* ==== deployments ==== */

static void test_import_c8_example(void) {
  size_t len;
  char *text = tst_read_fixture("c8_export.json", &len);
  CHECK(text != NULL);
  if (text == NULL)
    return;
  mp_passphrase *pp = NULL;
  mp_err err;
  mp_snapshot *s = NULL;
  /* The salt state is inside the file; read it without a crypter first. */
  CHECK(mp_snapshot_import(text, len, NULL, &s, &err) == MP_EINVAL);
  CHECK(s == NULL);
  const char *salt = strstr(text, "v1:ASNF");
  char state[256];
  snprintf(state, sizeof(state), "%.*s", (int)(strchr(salt, '"') - salt), salt);
  CHECK(mp_passphrase_open(state, FIXTURE_PASSPHRASE, &pp, &err) == 0);
  mp_crypter c = mp_passphrase_crypter(pp);
  int rc = mp_snapshot_import(text, len, &c, &s, &err);
  CHECK(rc == 0);
  if (rc != 0)
    fprintf(stderr, "import: %s\n", err.msg);
  if (s) {
    CHECK(s->nres == 4 && s->npending == 1);
    CHECK_STR(s->secrets_type, "passphrase");
    CHECK_CONTAINS(s->secrets_state, "\"salt\":\"v1:ASNF");
    CHECK_STR(s->manifest_version, "v3.150.0");
    CHECK(mp_snapshot_verify(s, &err) == 0);
    const mp_value *tok = mp_value_object_get(s->res[2]->inputs, "token");
    CHECK(tok && tok->kind == MP_VALUE_SECRET &&
          tok->u.secret->kind == MP_VALUE_STRING &&
          strcmp(tok->u.secret->u.str.ptr, "s3cr3t-token-value") == 0);
    CHECK(s->res[3]->delete_ && s->pending[0].type == MP_PENDING_CREATING);
    CHECK(mp_propdeps_find(&s->res[2]->property_dependencies, "token") != NULL);
    /* export and re-import: same resources */
    mp_buf out;
    mp_buf_init(&out);
    CHECK(mp_snapshot_export(s, &c, "v0.1.0", MP_DEPLOY_JSON_PRETTY, &out,
                             &err) == 0);
    CHECK_CONTAINS(out.data, "\"version\": 3");
    CHECK(strstr(out.data, "s3cr3t-token-value") == NULL);
    mp_snapshot *s2 = NULL;
    CHECK(mp_snapshot_import(out.data, out.len, &c, &s2, &err) == 0);
    CHECK(s2 && s2->nres == s->nres && s2->npending == 1);
    for (size_t i = 0; s2 && i < s->nres; i++)
      CHECK(mp_resource_equal(s->res[i], s2->res[i]));
    CHECK(s2 && mp_resource_equal(s->pending[0].res, s2->pending[0].res));
    mp_snapshot_free(s2);
    mp_buf_destroy(&out);
  }
  mp_snapshot_free(s);
  mp_passphrase_free(pp);
  free(text);
}

static void test_export_show_secrets_and_manifest(void) {
  mp_snapshot *s = mp_snapshot_new();
  mp_resource *r = mp_resource_new(STACK_URN, "pulumi:pulumi:Stack", 0);
  r->outputs = mp_value_new_object();
  mp_value_object_set(r->outputs, "pw",
                      mp_value_new_secret(mp_value_new_cstring("hunter2")));
  mp_snapshot_append(s, r);
  mp_buf out;
  mp_buf_init(&out);
  mp_err err;
  CHECK(mp_snapshot_export(s, NULL, "v3.150.0", MP_DEPLOY_JSON_SHOW_SECRETS,
                           &out, &err) == 0);
  CHECK_CONTAINS(out.data, "\"magic\":\"0cfd49ecb2b79ab5c815533dd5e24026f84295"
                           "ad05c68df3861ea07ea846919a\"");
  CHECK_CONTAINS(out.data, "\"plaintext\":\"\\\"hunter2\\\"\"");
  CHECK_CONTAINS(out.data, "\"metadata\":{}");
  CHECK(strstr(out.data, "pending_operations") == NULL);
  /* without a crypter and without show-secrets the secret cannot go out */
  mp_buf_reset(&out);
  CHECK(mp_snapshot_export(s, NULL, "v3.150.0", 0, &out, &err) < 0);
  mp_buf_destroy(&out);
  mp_snapshot_free(s);
}

static void test_export_feature_version(void) {
  mp_snapshot *s = mp_snapshot_new();
  mp_resource *r = mp_resource_new(STACK_URN, "pulumi:pulumi:Stack", 0);
  r->taint = 1;
  mp_snapshot_append(s, r);
  mp_buf out;
  mp_buf_init(&out);
  mp_err err;
  CHECK(mp_snapshot_export(s, NULL, "x", 0, &out, &err) == 0);
  CHECK_CONTAINS(out.data, "{\"version\":4,\"features\":[\"taint\"],");
  mp_snapshot *back = NULL;
  CHECK(mp_snapshot_import(out.data, out.len, NULL, &back, &err) == 0);
  CHECK(back && back->nres == 1 && back->res[0]->taint);
  mp_snapshot_free(back);
  mp_buf_destroy(&out);
  mp_snapshot_free(s);
}

static int import_text(const char *text, mp_err *err) {
  mp_snapshot *s = NULL;
  int rc = mp_snapshot_import(text, strlen(text), NULL, &s, err);
  mp_snapshot_free(s);
  return rc;
}

static void test_import_versions_and_features(void) {
  mp_err err;
  CHECK(import_text("{\"version\":5,\"deployment\":{}}", &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "version (5) is too new");
  CHECK(import_text("{\"version\":0,\"deployment\":{}}", &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "too old");
  CHECK(import_text("{\"deployment\":{}}", &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "no integer 'version'");
  CHECK(import_text("{\"version\":4,\"features\":[\"views\",\"taint\","
                    "\"hooks\"],\"deployment\":{}}",
                    &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "this stack's deployment needs support for the "
                          "following features: views, hooks");
  CHECK(import_text("{\"version\":4,\"features\":[\"refreshBeforeUpdate\"],"
                    "\"deployment\":{}}",
                    &err) == 0);
  CHECK(import_text("{\"version\":1,\"deployment\":{\"resources\":[{\"urn\":"
                    "\"" STACK_URN "\",\"type\":\"pulumi:pulumi:Stack\"}]}}",
                    &err) == 0);
  CHECK(import_text("{\"version\":3}", &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "no 'deployment' object");
  CHECK(import_text("[1,2", &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "not valid JSON");
  CHECK(import_text("{\"version\":3,\"deployment\":{\"pending_operations\":"
                    "[{\"resource\":{\"urn\":\"u\",\"type\":\"t\"},\"type\":"
                    "\"exploding\"}]}}",
                    &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "pending operation #1: unknown pending operation "
                          "type 'exploding'");
}

static void test_import_magic(void) {
  mp_err err;
  CHECK(import_text("{\"version\":3,\"deployment\":{\"manifest\":{\"magic\":"
                    "\"abc\",\"version\":\"v3.150.0\"}}}",
                    &err) == MP_ESTATE);
  CHECK_STR(err.msg, "magic cookie mismatch; possible tampering/corruption "
                     "detected");
  CHECK(import_text("{\"version\":3,\"deployment\":{\"manifest\":{\"magic\":"
                    "\"\",\"version\":\"\",\"time\":\"t\"}}}",
                    &err) == 0);
}

/* ==== integrity ==== */

static mp_resource *res(const char *urn, const char *type, int custom,
                        const char *id) {
  mp_resource *r = mp_resource_new(urn, type, custom);
  r->id = id ? strdup(id) : NULL;
  return r;
}

/* stack, provider, bucket (parent stack, provider) */
static mp_snapshot *valid_snapshot(void) {
  mp_snapshot *s = mp_snapshot_new();
  mp_snapshot_append(s, res(STACK_URN, "pulumi:pulumi:Stack", 0, NULL));
  mp_snapshot_append(s, res(PROV_URN, "pulumi:providers:aws", 1, PROV_ID));
  mp_resource *b = res(BUCKET_URN, "aws:s3/bucket:Bucket", 1, "b-1");
  b->parent = strdup(STACK_URN);
  b->provider = strdup(PROV_URN "::" PROV_ID);
  mp_strv_push(&b->dependencies, PROV_URN);
  mp_snapshot_append(s, b);
  return s;
}

static void test_verify_valid(void) {
  mp_snapshot *s = valid_snapshot();
  mp_err err;
  CHECK(mp_snapshot_verify(s, &err) == 0);
  mp_snapshot_free(s);
}

static void swap(mp_snapshot *s, size_t i, size_t j) {
  mp_resource *t = s->res[i];
  s->res[i] = s->res[j];
  s->res[j] = t;
}

static void test_verify_order(void) {
  mp_err err;
  mp_snapshot *s = valid_snapshot();
  swap(s, 0, 2); /* bucket first: its provider comes after it */
  CHECK(mp_snapshot_verify(s, &err) == MP_ESTATE);
  CHECK_STR(err.msg, "resource '" BUCKET_URN "''s provider '" PROV_URN
                     "::" PROV_ID "' comes after it");
  swap(s, 0, 2);
  swap(s, 0, 1); /* provider, stack, bucket: fine */
  CHECK(mp_snapshot_verify(s, &err) == 0);
  mp_snapshot_free(s);

  s = valid_snapshot();
  s->res[2]->provider[strlen(s->res[2]->provider) - 1] = 'X'; /* wrong id */
  CHECK(mp_snapshot_verify(s, &err) == MP_ESTATE);
  CHECK_CONTAINS(err.msg, "refers to unknown provider");
  s->res[2]->pending_replacement = 1; /* exempt */
  CHECK(mp_snapshot_verify(s, &err) == 0);
  free(s->res[2]->provider);
  s->res[2]->provider = strdup("not-a-ref");
  s->res[2]->pending_replacement = 0;
  CHECK(mp_snapshot_verify(s, &err) == MP_ESTATE);
  CHECK_CONTAINS(err.msg, "bad provider reference 'not-a-ref'");
  mp_snapshot_free(s);
}

static void test_verify_references(void) {
  mp_err err;
  mp_snapshot *s = valid_snapshot();
  free(s->res[2]->parent);
  s->res[2]->parent = strdup("urn:pulumi:dev::proj::x:y:Z::gone");
  CHECK(mp_snapshot_verify(s, &err) == MP_ESTATE);
  CHECK_STR(err.msg, "resource '" BUCKET_URN "' refers to missing parent "
                     "'urn:pulumi:dev::proj::x:y:Z::gone'");
  mp_snapshot_free(s);

  s = valid_snapshot();
  mp_strv_push(&s->res[1]->dependencies, BUCKET_URN); /* forward */
  CHECK(mp_snapshot_verify(s, &err) == MP_ESTATE);
  CHECK_STR(err.msg, "resource '" PROV_URN "''s dependency '" BUCKET_URN
                     "' comes after it");
  mp_snapshot_free(s);

  s = valid_snapshot();
  mp_strv_push(&mp_propdeps_get(&s->res[2]->property_dependencies, "acl")->urns,
               "urn:pulumi:dev::proj::x:y:Z::nope");
  CHECK(mp_snapshot_verify(s, &err) == MP_ESTATE);
  CHECK_CONTAINS(err.msg, "property 'acl': resource '" BUCKET_URN
                          "' refers to missing property dependency");
  mp_snapshot_free(s);

  s = valid_snapshot();
  s->res[1]->deleted_with = strdup(BUCKET_URN);
  CHECK(mp_snapshot_verify(s, &err) == MP_ESTATE);
  CHECK_CONTAINS(err.msg,
                 "deletedWith resource '" BUCKET_URN "' comes after it");
  mp_snapshot_free(s);
}

static void test_verify_duplicates_and_ids(void) {
  mp_err err;
  mp_snapshot *s = valid_snapshot();
  mp_resource *copy = mp_resource_dup(s->res[2]);
  mp_snapshot_append(s, copy);
  CHECK(mp_snapshot_verify(s, &err) == MP_ESTATE);
  CHECK_CONTAINS(err.msg, "duplicate resource '" BUCKET_URN "'");
  copy->delete_ = 1;
  CHECK(mp_snapshot_verify(s, &err) == 0);
  s->res[2]->delete_ = 1; /* all copies delete: fine */
  CHECK(mp_snapshot_verify(s, &err) == 0);
  mp_snapshot_free(s);

  s = valid_snapshot();
  s->res[0]->id = strdup("oops");
  CHECK(mp_snapshot_verify(s, &err) == MP_ESTATE);
  CHECK_CONTAINS(err.msg, "component resource '" STACK_URN "' has an id");
  mp_snapshot_free(s);

  s = valid_snapshot();
  free(s->res[2]->id);
  s->res[2]->id = NULL;
  CHECK(mp_snapshot_verify(s, &err) == MP_ESTATE);
  CHECK_STR(err.msg, "custom resource '" BUCKET_URN "' has no id");
  mp_strv_push(&s->res[2]->init_errors, "create failed halfway");
  CHECK(mp_snapshot_verify(s, &err) == 0);
  mp_strv_destroy(&s->res[2]->init_errors);
  s->res[2]->pending_replacement = 1;
  CHECK(mp_snapshot_verify(s, &err) == 0);
  free(s->res[2]->type);
  s->res[2]->type = strdup("");
  CHECK(mp_snapshot_verify(s, &err) == MP_ESTATE);
  CHECK_CONTAINS(err.msg, "has no type");
  mp_snapshot_free(s);
}

int main(void) {
  RUN(test_resource_json_key_order);
  RUN(test_resource_json_component_minimal);
  RUN(test_resource_json_bad_fields);
  RUN(test_resource_dup_equal);
  RUN(test_pending_names);
  RUN(test_import_c8_example);
  RUN(test_export_show_secrets_and_manifest);
  RUN(test_export_feature_version);
  RUN(test_import_versions_and_features);
  RUN(test_import_magic);
  RUN(test_verify_valid);
  RUN(test_verify_order);
  RUN(test_verify_references);
  RUN(test_verify_duplicates_and_ids);
  return mp_test_summary();
}
