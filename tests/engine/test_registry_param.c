/* Parameterized packages in the provider registry (registry_param.c): a
 * provider resource whose inputs record a parameterization makes an
 * instance of the base plugin at the plugin's version, sends it
 * Parameterize with the package's name, version and value, and configures
 * it without __internal; a plugin that answers with another name fails. */
#include <stdlib.h>
#include <string.h>

#include "engine/registry.h"
#include "pulumi/provider.pb-c.h"
#include "testutil.h"

typedef struct fake {
  mp_provider base;
  struct seen *seen;
} fake;

typedef struct seen {
  char *made_pkg, *made_version, *param, *configured;
  const char *answer; /* the name Parameterize answers */
  int nparams;        /* Parameterize calls */
} seen;

static int f_parameterize(mp_provider *p, const mp_buf *req, mp_buf *resp,
                          mp_err *err) {
  (void)err;
  seen *s = ((fake *)p)->seen;
  s->nparams++;
  free(s->param);
  s->param = NULL;
  Pulumirpc__ParameterizeRequest *q = pulumirpc__parameterize_request__unpack(
      NULL, req->len, (const uint8_t *)req->data);
  if (q && q->value)
    s->param = mp_xasprintf("%s@%s=%.*s", q->value->name, q->value->version,
                            (int)q->value->value.len,
                            (const char *)q->value->value.data);
  pulumirpc__parameterize_request__free_unpacked(q, NULL);
  Pulumirpc__ParameterizeResponse a = PULUMIRPC__PARAMETERIZE_RESPONSE__INIT;
  a.name = (char *)s->answer;
  a.version = "2.0.0";
  uint8_t b[128];
  mp_buf_append(resp, b, pulumirpc__parameterize_response__pack(&a, b));
  return 0;
}

static int f_configure(mp_provider *p, const mp_prov_req *q, mp_prov_resp *r,
                       mp_err *err) {
  (void)r, (void)err;
  seen *s = ((fake *)p)->seen;
  s->configured = mp_value_object_get(q->news, MP_PROVIDER_INTERNAL_KEY)
                      ? mp_xstrdup("with __internal")
                      : mp_xstrdup("clean");
  return 0;
}

static void f_free(mp_provider *p) {
  free(p->pkg);
  free(p);
}

static const mp_provider_vtable fake_vt = {.configure = f_configure,
                                           .parameterize = f_parameterize,
                                           .free = f_free};

static int make(void *ud, const char *pkg, const char *version,
                mp_provider **out, mp_err *err) {
  (void)err;
  seen *s = ud;
  free(s->made_pkg);
  free(s->made_version);
  s->made_pkg = mp_xstrdup(pkg);
  s->made_version = mp_xstrdup(version);
  fake *f = mp_xcalloc(1, sizeof(*f));
  f->base.vt = &fake_vt;
  f->base.pkg = mp_xstrdup(pkg);
  f->seen = s;
  *out = &f->base;
  return 0;
}

static mp_resource *provider_resource(void) {
  mp_resource *r = mp_resource_new(
      "urn:pulumi:s::p::pulumi:providers:veggies::default_2_0_0",
      "pulumi:providers:veggies", 1);
  r->id = mp_xstrdup("id1");
  r->inputs = mp_value_new_object();
  mp_value_object_set(r->inputs, "region", mp_value_new_cstring("north"));
  mp_provider_inputs_set_version(r->inputs, "1.0.0");
  mp_provider_param param = {.name = "veggies",
                             .version = "2.0.0",
                             .plugin = "paramprov",
                             .plugin_version = "1.0.0",
                             .value = "carrots",
                             .len = 7};
  mp_provider_inputs_set_param(r->inputs, &param);
  return r;
}

static void seen_destroy(seen *s) {
  free(s->made_pkg);
  free(s->made_version);
  free(s->param);
  free(s->configured);
}

static void test_parameterized_load(void) {
  seen s = {.answer = "veggies"};
  mp_provider_factory f = {make, &s, NULL, NULL};
  mp_registry *reg = mp_registry_new(0, f);
  mp_resource *r = provider_resource();
  CHECK_STR(mp_provider_version(r->inputs), "1.0.0");
  CHECK_STR(mp_provider_plugin("veggies", r->inputs), "paramprov");
  mp_err err;
  mp_err_clear(&err);
  CHECK(mp_registry_load(reg, r, &err) == 0);
  CHECK_STR(s.made_pkg, "paramprov");
  CHECK_STR(s.made_version, "1.0.0");
  CHECK_STR(s.param, "veggies@2.0.0=carrots");
  CHECK_STR(s.configured, "clean");
  mp_resource_free(r);
  mp_registry_free(reg);
  seen_destroy(&s);
}

static void test_wrong_name(void) {
  seen s = {.answer = "fruit"};
  mp_provider_factory f = {make, &s, NULL, NULL};
  mp_registry *reg = mp_registry_new(0, f);
  mp_resource *r = provider_resource();
  mp_err err;
  mp_err_clear(&err);
  CHECK(mp_registry_load(reg, r, &err) < 0);
  CHECK_CONTAINS(err.msg, "does not match expected package \"veggies\"");
  mp_resource_free(r);
  mp_registry_free(reg);
  seen_destroy(&s);
}

/* An extension (engine/extension.h) is loaded into a configured instance
 * of the base package once, the value form with its name, version and
 * bytes; one the registry does not know is Pulumi's "not found in
 * snapshot"; a plugin answering another name fails. */
static void test_extension(void) {
  seen s = {.answer = "myext"};
  mp_provider_factory f = {make, &s, NULL, NULL};
  mp_registry *reg = mp_registry_new(0, f);
  mp_resource *r = mp_resource_new(
      "urn:pulumi:s::p::pulumi:providers:extbase::default_45_0_0",
      "pulumi:providers:extbase", 1);
  r->id = mp_xstrdup("id1");
  r->inputs = mp_value_new_object();
  mp_provider_inputs_set_version(r->inputs, "45.0.0");
  mp_err err;
  mp_err_clear(&err);
  CHECK(mp_registry_load(reg, r, &err) == 0);
  CHECK(s.nparams == 0);
  mp_extension e = {0};
  e.name = mp_xstrdup("myext");
  e.version = mp_xstrdup("2.0.0");
  mp_buf_init(&e.value);
  mp_buf_puts(&e.value, "Hello");
  e.ref = mp_extension_ref(e.name, e.version, e.value.data, e.value.len);
  const char *ref =
      "urn:pulumi:s::p::pulumi:providers:extbase::default_45_0_0::id1";
  /* unknown yet */
  CHECK(mp_registry_get_for(reg, ref, e.ref, &err) == NULL);
  CHECK_CONTAINS(err.msg, "not found in snapshot");
  CHECK(mp_registry_add_extension(reg, &e) == 1);
  CHECK(mp_registry_add_extension(reg, &e) == 0);
  mp_provider *p = mp_registry_get_for(reg, ref, e.ref, &err);
  CHECK(p != NULL);
  CHECK_STR(s.param, "myext@2.0.0=Hello");
  CHECK(mp_registry_get_for(reg, ref, e.ref, &err) == p);
  CHECK(mp_registry_get_for(reg, ref, NULL, &err) == p);
  CHECK(s.nparams == 1);
  /* a plugin that answers with another name */
  seen bad = {.answer = "other"};
  mp_provider_factory bf = {make, &bad, NULL, NULL};
  mp_registry *breg = mp_registry_new(0, bf);
  CHECK(mp_registry_load(breg, r, &err) == 0);
  CHECK(mp_registry_add_extension(breg, &e) == 1);
  CHECK(mp_registry_get_for(breg, ref, e.ref, &err) == NULL);
  CHECK_CONTAINS(err.msg, "does not match expected package \"myext\"");
  mp_registry_free(breg);
  seen_destroy(&bad);
  mp_extension_destroy(&e);
  mp_resource_free(r);
  mp_registry_free(reg);
  seen_destroy(&s);
}

int main(void) {
  RUN(test_parameterized_load);
  RUN(test_wrong_name);
  RUN(test_extension);
  return mp_test_summary();
}
