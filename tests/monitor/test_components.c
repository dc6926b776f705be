/* The monitor's remote components, methods and packages (construct.c,
 * call.c, packages.c) against a stub deployment: what the package's
 * provider is asked (ConstructRequest, CallRequest) and what the program
 * gets back. */
#include <stdlib.h>
#include <string.h>

#include "engine/value_pb.h"
#include "monitor/monitor.h"
#include "testutil.h"

#define PROV_URN "urn:pulumi:s::p::pulumi:providers:pkgA::default"
#define COMP_URN "urn:pulumi:s::p::pkgA:index:Comp::c"

typedef struct fx {
  mp_monitor *m;
  mp_goal *goals[8];
  mp_monitor_reg *regs[8];
  size_t ngoals;
  char *construct_ref, *call_ref;
  mp_buf construct_req, call_req;
  mp_monitor_reg *construct_reg;
  mp_monitor_call *call;
  mp_strv answers, logs;
} fx;

static void on_submit(void *ud, mp_goal *g, mp_monitor_reg *reg) {
  fx *f = ud;
  f->goals[f->ngoals] = g;
  f->regs[f->ngoals++] = reg;
}

static int on_outputs(void *ud, const char *urn, mp_value *outs, mp_err *err) {
  (void)ud, (void)urn, (void)err;
  mp_value_free(outs);
  return 0;
}

static void on_log(void *ud, mp_log_severity sev, const char *urn,
                   const char *msg) {
  fx *f = ud;
  mp_strv_push_take(&f->logs, mp_xasprintf("%d %s %s", (int)sev,
                                           urn ? urn : "-", msg));
}

static void on_done(void *ud, int failed, const char *msg) {
  (void)ud, (void)failed, (void)msg;
}

static const char *on_endpoint(void *ud, mp_err *err) {
  (void)ud, (void)err;
  return "127.0.0.1:1234";
}

static int on_construct(void *ud, const char *ref, const char *ext_ref,
                        mp_buf *req,
                        mp_monitor_reg *reg, mp_err *err) {
  (void)err;
  (void)ext_ref;
  fx *f = ud;
  f->construct_ref = mp_xstrdup(ref);
  f->construct_req = *req;
  mp_buf_init(req);
  f->construct_reg = reg;
  return 0;
}

static int on_call(void *ud, const char *tok, const char *ref,
                   const mp_invoke_pkg *want, mp_buf *req,
                   mp_monitor_call *call, mp_err *err) {
  (void)err, (void)tok, (void)want;
  fx *f = ud;
  f->call_ref = mp_xstrdup(ref);
  f->call_req = *req;
  mp_buf_init(req);
  f->call = call;
  return 0;
}

static void fx_init(fx *f) {
  memset(f, 0, sizeof(*f));
  mp_value *config = mp_value_new_object();
  mp_value_object_set(config, "pkgA:region", mp_value_new_cstring("north"));
  mp_value_object_set(config, "app:token",
                      mp_value_new_secret(mp_value_new_cstring("t")));
  mp_monitor_opts o = {0};
  o.stack = "s";
  o.project = "p";
  o.config = config;
  o.organization = "org";
  o.parallel = 7;
  o.hooks = (mp_monitor_hooks){.ud = f,
                               .submit = on_submit,
                               .outputs = on_outputs,
                               .log = on_log,
                               .program_done = on_done,
                               .endpoint = on_endpoint,
                               .construct = on_construct,
                               .call = on_call};
  f->m = mp_monitor_new(&o);
  mp_value_free(config);
}

static void fx_destroy(fx *f) {
  mp_monitor_free(f->m);
  for (size_t i = 0; i < f->ngoals; i++) mp_goal_free(f->goals[i]);
  free(f->construct_ref);
  free(f->call_ref);
  mp_buf_destroy(&f->construct_req);
  mp_buf_destroy(&f->call_req);
  mp_strv_destroy(&f->answers);
  mp_strv_destroy(&f->logs);
}

static void registered(void *ud, const Pulumirpc__RegisterResourceResponse *r,
                       const mp_err *err) {
  fx *f = ud;
  if (r == NULL) {
    mp_strv_push_take(&f->answers, mp_xasprintf("error %d %s", err->code,
                                                err->msg));
    return;
  }
  mp_buf b;
  mp_buf_init(&b);
  mp_buf_printf(&b, "ok %s", r->urn);
  mp_value *v = NULL;
  if (mp_value_from_pb_struct(r->object, &v, NULL) == 0) {
    mp_buf_putc(&b, ' ');
    mp_value_to_json(v, NULL, MP_JSON_SHOW_SECRETS, &b, NULL);
  }
  mp_value_free(v);
  for (size_t i = 0; i < r->n_propertydependencies; i++)
    for (size_t k = 0; k < r->propertydependencies[i]->value->n_urns; k++)
      mp_buf_printf(&b, " %s<-%s", r->propertydependencies[i]->key,
                    r->propertydependencies[i]->value->urns[k]);
  mp_buf_putc(&b, '\0');
  mp_strv_push(&f->answers, b.data);
  mp_buf_destroy(&b);
}

/* Registers the remote component "c" of type pkgA:index:Comp with a
 * secret input, a dependency, an alias, protect and a providers map, and
 * answers its default provider's registration. */
static void register_component(fx *f) {
  Pulumirpc__RegisterResourceRequest q = PULUMIRPC__REGISTER_RESOURCE_REQUEST__INIT;
  q.type = "pkgA:index:Comp";
  q.name = "c";
  q.remote = 1;
  q.acceptsecrets = 1;
  mp_value *in = mp_value_new_object();
  mp_value_object_set(in, "size", mp_value_new_number(3));
  mp_value_object_set(in, "word", mp_value_new_secret(mp_value_new_cstring("w")));
  CHECK(mp_value_to_pb_struct(in, MP_PB_KEEP_SECRETS, &q.object, NULL) == 0);
  mp_value_free(in);
  char *dep = "urn:pulumi:s::p::pkgB:m:T::d";
  Pulumirpc__RegisterResourceRequest__PropertyDependencies pd =
      PULUMIRPC__REGISTER_RESOURCE_REQUEST__PROPERTY_DEPENDENCIES__INIT;
  pd.n_urns = 1;
  pd.urns = &dep;
  Pulumirpc__RegisterResourceRequest__PropertyDependenciesEntry pe =
      PULUMIRPC__REGISTER_RESOURCE_REQUEST__PROPERTY_DEPENDENCIES_ENTRY__INIT;
  pe.key = "size";
  pe.value = &pd;
  Pulumirpc__RegisterResourceRequest__PropertyDependenciesEntry *pp = &pe;
  q.n_propertydependencies = 1;
  q.propertydependencies = &pp;
  q.n_dependencies = 1;
  q.dependencies = &dep;
  Pulumirpc__Alias__Spec spec = PULUMIRPC__ALIAS__SPEC__INIT;
  spec.name = "old";
  Pulumirpc__Alias al = PULUMIRPC__ALIAS__INIT;
  al.alias_case = PULUMIRPC__ALIAS__ALIAS_SPEC;
  al.spec = &spec;
  Pulumirpc__Alias *ap = &al;
  q.n_aliases = 1;
  q.aliases = &ap;
  q.protect_opt_case = PULUMIRPC__REGISTER_RESOURCE_REQUEST__PROTECT_OPT_PROTECT;
  q.protect = 1;
  Pulumirpc__RegisterResourceRequest__ProvidersEntry prov =
      PULUMIRPC__REGISTER_RESOURCE_REQUEST__PROVIDERS_ENTRY__INIT;
  prov.key = "pkgB";
  prov.value = "urn:pulumi:s::p::pulumi:providers:pkgB::b::id-b";
  Pulumirpc__RegisterResourceRequest__ProvidersEntry *provp = &prov;
  q.n_providers = 1;
  q.providers = &provp;
  mp_err err;
  mp_err_clear(&err);
  CHECK(mp_monitor_register_resource(f->m, &q, registered, f, &err) == 0);
  mp_value_pb_struct_free(q.object);
  /* The package's default provider comes first. */
  CHECK(f->ngoals == 1 && f->construct_reg == NULL);
  CHECK_STR(f->goals[0]->type, "pulumi:providers:pkgA");
  mp_resource *st = mp_resource_new(PROV_URN, f->goals[0]->type, 1);
  st->id = mp_xstrdup("p1");
  mp_monitor_complete(f->m, f->regs[0], st);
  mp_resource_free(st);
}

static int has(char **items, size_t n, const char *s) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(items[i], s) == 0) return 1;
  return 0;
}

/* A remote registration is constructed by its package's default provider
 * with what Pulumi sends; the answer's URN, state and dependencies go back
 * to the program. */
static void test_construct(void) {
  fx f;
  fx_init(&f);
  register_component(&f);
  CHECK(f.construct_reg != NULL && f.answers.len == 0);
  CHECK_STR(f.construct_ref, PROV_URN "::p1");
  Pulumirpc__ConstructRequest *c = pulumirpc__construct_request__unpack(
      NULL, f.construct_req.len, (const uint8_t *)f.construct_req.data);
  CHECK(c != NULL);
  CHECK_STR(c->type, "pkgA:index:Comp");
  CHECK_STR(c->name, "c");
  CHECK_STR(c->project, "p");
  CHECK_STR(c->stack, "s");
  CHECK_STR(c->organization, "org");
  CHECK_STR(c->monitorendpoint, "127.0.0.1:1234");
  CHECK(c->parallel == 7 && !c->dryrun);
  CHECK(c->n_config == 2);
  for (size_t i = 0; i < c->n_config; i++)
    if (strcmp(c->config[i]->key, "app:token") == 0)
      CHECK_STR(c->config[i]->value, "t");
  CHECK(c->n_configsecretkeys == 1);
  CHECK_STR(c->configsecretkeys[0], "app:token");
  CHECK(c->protect_opt_case ==
            PULUMIRPC__CONSTRUCT_REQUEST__PROTECT_OPT_PROTECT &&
        c->protect);
  CHECK(c->n_providers == 1);
  CHECK_STR(c->providers[0]->key, "pkgB");
  CHECK(c->n_aliases == 1 && c->aliases[0]->spec);
  CHECK_STR(c->aliases[0]->spec->name, "old");
  CHECK(c->n_dependencies == 1);
  CHECK(c->n_inputdependencies == 1);
  CHECK_STR(c->inputdependencies[0]->key, "size");
  CHECK(has(c->inputdependencies[0]->value->urns,
            c->inputdependencies[0]->value->n_urns,
            "urn:pulumi:s::p::pkgB:m:T::d"));
  mp_value *in = NULL;
  CHECK(mp_value_from_pb_struct(c->inputs, &in, NULL) == 0);
  const mp_value *word = mp_value_object_get(in, "word");
  CHECK(word && word->kind == MP_VALUE_SECRET);
  mp_value_free(in);
  pulumirpc__construct_request__free_unpacked(c, NULL);
  /* The answer. */
  Pulumirpc__ConstructResponse r = PULUMIRPC__CONSTRUCT_RESPONSE__INIT;
  r.urn = COMP_URN;
  mp_value *state = NULL;
  CHECK(mp_value_from_json("{\"out\":4}", 9, NULL, &state, NULL) == 0);
  CHECK(mp_value_to_pb_struct(state, 0, &r.state, NULL) == 0);
  mp_value_free(state);
  char *child = "urn:pulumi:s::p::pkgA:index:Comp$pkgB:m:T::k";
  Pulumirpc__ConstructResponse__PropertyDependencies sd =
      PULUMIRPC__CONSTRUCT_RESPONSE__PROPERTY_DEPENDENCIES__INIT;
  sd.n_urns = 1;
  sd.urns = &child;
  Pulumirpc__ConstructResponse__StateDependenciesEntry se =
      PULUMIRPC__CONSTRUCT_RESPONSE__STATE_DEPENDENCIES_ENTRY__INIT;
  se.key = "out";
  se.value = &sd;
  Pulumirpc__ConstructResponse__StateDependenciesEntry *sp = &se;
  r.n_statedependencies = 1;
  r.statedependencies = &sp;
  size_t n = protobuf_c_message_get_packed_size(&r.base);
  mp_buf rb;
  mp_buf_init(&rb);
  uint8_t *bytes = mp_xmalloc(n ? n : 1);
  protobuf_c_message_pack(&r.base, bytes);
  mp_buf_append(&rb, bytes, n);
  free(bytes);
  mp_value_pb_struct_free(r.state);
  mp_monitor_construct_done(f.m, f.construct_reg, &rb, NULL);
  mp_buf_destroy(&rb);
  CHECK(f.answers.len == 1);
  CHECK_STR(f.answers.items[0],
            "ok " COMP_URN " {\"out\":4} out<-"
            "urn:pulumi:s::p::pkgA:index:Comp$pkgB:m:T::k");
  CHECK(mp_monitor_outstanding(f.m) == 0);
  fx_destroy(&f);
}

/* A failed Construct is reported on the component; the program is told
 * to stop (UNAVAILABLE through the service). */
static void test_construct_fails(void) {
  fx f;
  fx_init(&f);
  register_component(&f);
  mp_err e;
  mp_err_set(&e, MP_EPLUGIN, "comp: broken");
  mp_monitor_construct_done(f.m, f.construct_reg, NULL, &e);
  CHECK(f.logs.len == 1);
  CHECK_STR(f.logs.items[0], "3 " COMP_URN " comp: broken");
  CHECK(f.answers.len == 1);
  char *want = mp_xasprintf("error %d comp: broken", MP_ECANCELED);
  CHECK_STR(f.answers.items[0], want);
  free(want);
  fx_destroy(&f);
}

static void called(void *ud, const Pulumirpc__CallResponse *r,
                   const mp_err *err) {
  fx *f = ud;
  mp_strv_push_take(&f->answers,
                    r ? mp_xasprintf("ok %zu", r->n_returndependencies)
                      : mp_xasprintf("error %s", err->msg));
}

/* A method goes to the provider that constructed the component, with its
 * arguments' dependencies; the CallResponse comes back. */
static void test_call(void) {
  fx f;
  fx_init(&f);
  register_component(&f);
  Pulumirpc__ResourceCallRequest q = PULUMIRPC__RESOURCE_CALL_REQUEST__INIT;
  q.tok = "pkgA:index:Comp/greet";
  mp_value *args = NULL;
  CHECK(mp_value_from_json("{\"w\":\"hi\"}", 10, NULL, &args, NULL) == 0);
  CHECK(mp_value_to_pb_struct(args, 0, &q.args, NULL) == 0);
  mp_value_free(args);
  char *dep = COMP_URN;
  Pulumirpc__ResourceCallRequest__ArgumentDependencies ad =
      PULUMIRPC__RESOURCE_CALL_REQUEST__ARGUMENT_DEPENDENCIES__INIT;
  ad.n_urns = 1;
  ad.urns = &dep;
  Pulumirpc__ResourceCallRequest__ArgDependenciesEntry ae =
      PULUMIRPC__RESOURCE_CALL_REQUEST__ARG_DEPENDENCIES_ENTRY__INIT;
  ae.key = "__self__";
  ae.value = &ad;
  Pulumirpc__ResourceCallRequest__ArgDependenciesEntry *ap = &ae;
  q.n_argdependencies = 1;
  q.argdependencies = &ap;
  mp_err err;
  mp_err_clear(&err);
  CHECK(mp_monitor_call_method(f.m, &q, called, &f, &err) == 0);
  mp_value_pb_struct_free(q.args);
  CHECK_STR(f.call_ref, PROV_URN "::p1");
  Pulumirpc__CallRequest *c = pulumirpc__call_request__unpack(
      NULL, f.call_req.len, (const uint8_t *)f.call_req.data);
  CHECK(c != NULL);
  CHECK_STR(c->tok, "pkgA:index:Comp/greet");
  CHECK_STR(c->monitorendpoint, "127.0.0.1:1234");
  CHECK(c->n_argdependencies == 1);
  CHECK_STR(c->argdependencies[0]->key, "__self__");
  CHECK_STR(c->argdependencies[0]->value->urns[0], COMP_URN);
  pulumirpc__call_request__free_unpacked(c, NULL);
  mp_buf rb;
  mp_buf_init(&rb); /* an empty CallResponse */
  mp_monitor_method_done(f.m, f.call, &rb, NULL);
  CHECK(f.answers.len == 1);
  CHECK_STR(f.answers.items[0], "ok 0");
  /* The construct is still waiting: the monitor cancels it at the end. */
  fx_destroy(&f);
}

/* The same package gets the same reference; a packageRef must name one;
 * a parameterized package gets its own default provider. */
static void test_packages(void) {
  fx f;
  fx_init(&f);
  Pulumirpc__RegisterPackageRequest p = PULUMIRPC__REGISTER_PACKAGE_REQUEST__INIT;
  p.name = "pkgA";
  p.version = "1.2.3";
  char *r1 = NULL, *r2 = NULL, *r3 = NULL;
  mp_err err;
  mp_err_clear(&err);
  CHECK(mp_monitor_register_package(f.m, &p, &r1, &err) == 0);
  CHECK(mp_monitor_register_package(f.m, &p, &r2, &err) == 0);
  CHECK_STR(r1, r2);
  p.version = "2.0.0";
  CHECK(mp_monitor_register_package(f.m, &p, &r3, &err) == 0);
  CHECK(strcmp(r1, r3) != 0);
  p.name = "";
  char *bad = NULL;
  CHECK(mp_monitor_register_package(f.m, &p, &bad, &err) < 0 && bad == NULL);
  /* A custom resource of the registered package asks for its version. */
  Pulumirpc__RegisterResourceRequest q = PULUMIRPC__REGISTER_RESOURCE_REQUEST__INIT;
  q.type = "pkgA:m:T";
  q.name = "x";
  q.custom = 1;
  q.packageref = r3;
  CHECK(mp_monitor_register_resource(f.m, &q, registered, &f, &err) == 0);
  CHECK(f.ngoals == 1);
  const mp_value *v = mp_value_object_get(f.goals[0]->inputs, "version");
  CHECK(v && v->kind == MP_VALUE_STRING && strcmp(v->u.str.ptr, "2.0.0") == 0);
  q.packageref = "no-such-ref";
  q.name = "y";
  mp_err_clear(&err);
  CHECK(mp_monitor_register_resource(f.m, &q, registered, &f, &err) < 0);
  CHECK(strstr(err.msg, "unknown provider package 'no-such-ref'") != NULL);
  /* Parameterized: the package's resources get a default provider of the
   * package, named after its version, that records the plugin and the
   * parameter under __internal (as Pulumi's registry.go). */
  Pulumirpc__Parameterization z = PULUMIRPC__PARAMETERIZATION__INIT;
  z.name = "pkgZ";
  z.version = "0.1.0";
  z.value.data = (uint8_t *)"carrots";
  z.value.len = 7;
  p.name = "pkgA";
  p.parameterization = &z;
  char *r4 = NULL;
  CHECK(mp_monitor_register_package(f.m, &p, &r4, &err) == 0);
  q.packageref = r4;
  q.type = "pkgZ:m:T";
  mp_err_clear(&err);
  CHECK(mp_monitor_register_resource(f.m, &q, registered, &f, &err) == 0);
  CHECK(f.ngoals == 2);
  const mp_goal *dp = f.goals[1];
  CHECK_STR(dp->type, "pulumi:providers:pkgZ");
  CHECK_STR(dp->name, "default_0_1_0");
  mp_buf jb;
  mp_buf_init(&jb);
  CHECK(mp_value_to_json(dp->inputs, NULL, 0, &jb, &err) == 0);
  CHECK_STR(jb.data, "{\"__internal\":{\"name\":\"pkgA\",\"parameterization\":"
                     "\"Y2Fycm90cw==\",\"version\":\"2.0.0\"},"
                     "\"version\":\"0.1.0\"}");
  mp_buf_destroy(&jb);
  /* An explicit provider of the package records the same. */
  Pulumirpc__RegisterResourceRequest pq =
      PULUMIRPC__REGISTER_RESOURCE_REQUEST__INIT;
  pq.type = "pulumi:providers:pkgZ";
  pq.name = "explicit";
  pq.custom = 1;
  pq.packageref = r4;
  CHECK(mp_monitor_register_resource(f.m, &pq, registered, &f, &err) == 0);
  CHECK(f.ngoals == 3);
  const mp_value *in = mp_value_object_get(f.goals[2]->inputs, "__internal");
  CHECK(in && mp_value_object_get(in, "parameterization") != NULL);
  /* A package cannot be both a parameterization and an extension. */
  p.extension = &z;
  char *r5 = NULL;
  CHECK(mp_monitor_register_package(f.m, &p, &r5, &err) < 0 && r5 == NULL);
  CHECK(strstr(err.msg, "extension") != NULL);
  /* An extension: its reference is its content's hash (Pulumi's
   * hashExtension), the same on every registration; its resources go to
   * the base package's default provider, which records no
   * parameterization, and carry the reference. */
  p.parameterization = NULL;
  p.version = "3.0.0";
  z.name = "pkgE";
  CHECK(mp_monitor_register_package(f.m, &p, &r5, &err) == 0);
  char *r6 = NULL;
  CHECK(mp_monitor_register_package(f.m, &p, &r6, &err) == 0);
  char *want = mp_extension_ref("pkgE", "0.1.0", "carrots", 7);
  CHECK_STR(r5, want);
  CHECK_STR(r6, want);
  free(want);
  q.packageref = r5;
  q.type = "pkgA:m:Greeting";
  q.name = "g";
  CHECK(mp_monitor_register_resource(f.m, &q, registered, &f, &err) == 0);
  CHECK(f.ngoals == 4);
  CHECK_STR(f.goals[3]->type, "pulumi:providers:pkgA");
  CHECK_STR(f.goals[3]->name, "default_3_0_0");
  in = mp_value_object_get(f.goals[3]->inputs, "__internal");
  CHECK(in == NULL || mp_value_object_get(in, "parameterization") == NULL);
  free(r5);
  free(r6);
  free(r1);
  free(r2);
  free(r3);
  free(r4);
  fx_destroy(&f);
}

int main(void) {
  RUN(test_construct);
  RUN(test_construct_fails);
  RUN(test_call);
  RUN(test_packages);
  return mp_test_summary();
}
