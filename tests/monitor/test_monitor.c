/* The resource monitor (src/monitor/) on its own: protobuf requests in,
 * goals out to a stub deployment that records them and answers when the
 * test says, answers back to the host's callbacks. Covers default
 * providers, inheritance from the parent, reads, outputs, invalid
 * requests, failed, skipped and cancelled registrations, (with the
 * real step generator behind the stub) a duplicate URN, and assets whose
 * hashes are computed on the loop's worker pool. */
#include "monitor/monitor.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/urn.h"
#include "engine/value_pb.h"
#include "scripted_provider.h"
#include "stepgen/stepgen.h"
#include "testutil.h"

#define TYPE "pkgA:m:T"
#define URN(n) "urn:pulumi:s::p::pkgA:m:T::" n
#define PROV_URN "urn:pulumi:s::p::pulumi:providers:pkgA::default"

/* One goal the stub deployment received. */
typedef struct held {
  mp_goal *goal;
  mp_monitor_reg *reg;
} held;

typedef struct mon_fx mon_fx;

/* What a host callback is given: its fixture and the registration's name
 * for the answer log. */
typedef struct host {
  mon_fx *f;
  const char *name;
} host;

struct mon_fx {
  mp_monitor *m;
  host hosts[16];
  size_t nhosts;
  held goals[16];
  size_t ngoals;
  mp_strv answers; /* what the host's callbacks got, in order */
  mp_strv events;  /* outputs, log and program_done hooks */
  /* With a generator, goals go through it: errors answer at once. */
  mp_stepgen *sg;
};

static void on_submit(void *ud, mp_goal *g, mp_monitor_reg *reg) {
  mon_fx *f = ud;
  if (f->sg) {
    mp_chain *c = NULL;
    mp_diags diags = {0};
    mp_err err;
    mp_err_clear(&err);
    mp_goal *copy = mp_goal_new(g->type, g->name, g->custom);
    copy->provider = mp_xstrdup(g->provider);
    copy->parent = mp_xstrdup(g->parent);
    if (mp_stepgen_register(f->sg, copy, reg, &c, &diags, &err) < 0) {
      mp_goal_free(g);
      mp_diags_destroy(&diags);
      mp_monitor_fail(f->m, reg, &err, MP_MONITOR_ERROR);
      return;
    }
    mp_chain_free(c);
    mp_diags_destroy(&diags);
  }
  if (f->ngoals == sizeof(f->goals) / sizeof(f->goals[0]))
    abort();
  f->goals[f->ngoals].goal = g;
  f->goals[f->ngoals].reg = reg;
  f->ngoals++;
}

static int on_outputs(void *ud, const char *urn, mp_value *outs, mp_err *err) {
  mon_fx *f = ud;
  (void)err;
  mp_buf b;
  mp_buf_init(&b);
  mp_value_to_json(outs, NULL, MP_JSON_SHOW_SECRETS, &b, NULL);
  mp_strv_push_take(&f->events, mp_xasprintf("outputs %s %s", urn, b.data));
  mp_buf_destroy(&b);
  mp_value_free(outs);
  return 0;
}

static void on_log(void *ud, mp_log_severity sev, const char *urn,
                   const char *msg) {
  mon_fx *f = ud;
  mp_strv_push_take(
      &f->events, mp_xasprintf("log %d %s %s", (int)sev, urn ? urn : "-", msg));
}

static void on_program_done(void *ud, int failed, const char *msg) {
  mon_fx *f = ud;
  mp_strv_push_take(&f->events,
                    mp_xasprintf("done %d %s", failed, msg ? msg : "-"));
}

/* The deployment's invoke hook: records "<tok> <provider ref>" and keeps
 * the call, answered by the test. */
static mp_monitor_call *g_invoke_calls[4];
static size_t g_ninvokes;
static int on_invoke(void *ud, const char *tok, mp_value *args, const char *ref,
                     const mp_invoke_pkg *want, mp_monitor_call *call,
                     mp_err *err) {
  mon_fx *f = ud;
  (void)want;
  (void)err;
  mp_value_free(args);
  mp_strv_push_take(&f->events,
                    mp_xasprintf("invoke %s %s", tok, ref ? ref : "-"));
  g_invoke_calls[g_ninvokes++] = call;
  return 0;
}

/* With |loop|, assets needing files or downloads are hashed on its pool,
 * downloads through |fetch|. */
static void fx_init_with(mon_fx *f, const char *config_json, uv_loop_t *loop,
                         mp_asset_fetch_fn fetch) {
  memset(f, 0, sizeof(*f));
  mp_value *config = NULL;
  if (config_json)
    mp_value_from_json(config_json, strlen(config_json), NULL, &config, NULL);
  mp_monitor_opts o = {0};
  o.stack = "s";
  o.project = "p";
  o.config = config;
  o.hooks.ud = f;
  o.hooks.submit = on_submit;
  o.hooks.outputs = on_outputs;
  o.hooks.log = on_log;
  o.hooks.program_done = on_program_done;
  o.hooks.invoke = on_invoke;
  o.loop = loop;
  o.asset_fetch = fetch;
  f->m = mp_monitor_new(&o);
  mp_value_free(config);
}

static void fx_init(mon_fx *f, const char *config_json) {
  fx_init_with(f, config_json, NULL, NULL);
}

static void fx_destroy(mon_fx *f) {
  mp_monitor_free(f->m);
  for (size_t i = 0; i < f->ngoals; i++)
    mp_goal_free(f->goals[i].goal);
  mp_strv_destroy(&f->answers);
  mp_strv_destroy(&f->events);
}

static host *host_for(mon_fx *f, const char *name) {
  if (f->nhosts == sizeof(f->hosts) / sizeof(f->hosts[0]))
    abort();
  host *h = &f->hosts[f->nhosts++];
  h->f = f;
  h->name = name;
  return h;
}

/* The host's callbacks log "<name> ok <urn> <id> <outputs>", "<name>
 * skip" or "<name> error <message>". */
static void answer(const host *h, const char *urn, const char *id,
                   const Google__Protobuf__Struct *outs, const mp_err *err,
                   int result) {
  mp_strv *log = &h->f->answers;
  const char *name = h->name;
  if (err) {
    mp_strv_push_take(log, mp_xasprintf("%s error %s", name, err->msg));
    return;
  }
  if (result == PULUMIRPC__RESULT__SKIP) {
    mp_strv_push_take(log, mp_xasprintf("%s skip", name));
    return;
  }
  mp_value *v = NULL;
  mp_buf b;
  mp_buf_init(&b);
  if (mp_value_from_pb_struct(outs, &v, NULL) == 0)
    mp_value_to_json(v, NULL, MP_JSON_SHOW_SECRETS, &b, NULL);
  mp_value_free(v);
  mp_strv_push_take(log, mp_xasprintf("%s ok %s %s %s", name, urn,
                                      id ? id : "-", b.data ? b.data : "-"));
  mp_buf_destroy(&b);
}

static void on_registered(void *ud,
                          const Pulumirpc__RegisterResourceResponse *r,
                          const mp_err *err) {
  answer(ud, r ? r->urn : NULL, r ? r->id : NULL, r ? r->object : NULL, err,
         r ? (int)r->result : 0);
}

static void on_read(void *ud, const Pulumirpc__ReadResourceResponse *r,
                    const mp_err *err) {
  answer(ud, r ? r->urn : NULL, "read", r ? r->properties : NULL, err, 0);
}

static int reg_req(mon_fx *f, Pulumirpc__RegisterResourceRequest *q,
                   const char *name, mp_err *err) {
  mp_err_clear(err);
  return mp_monitor_register_resource(f->m, q, on_registered, host_for(f, name),
                                      err);
}

static Pulumirpc__RegisterResourceRequest custom_req(const char *name) {
  Pulumirpc__RegisterResourceRequest q =
      PULUMIRPC__REGISTER_RESOURCE_REQUEST__INIT;
  q.type = TYPE;
  q.name = (char *)name;
  q.custom = 1;
  return q;
}

/* The state the deployment would answer with. */
static void complete(mon_fx *f, size_t i, const char *urn, const char *id,
                     const char *outputs_json, int custom) {
  mp_resource *st = mp_resource_new(urn, f->goals[i].goal->type, custom);
  st->id = mp_xstrdup(id);
  if (outputs_json)
    mp_value_from_json(outputs_json, strlen(outputs_json), NULL, &st->outputs,
                       NULL);
  mp_monitor_complete(f->m, f->goals[i].reg, st);
  mp_resource_free(st);
}

static char *joined(const mp_strv *v) {
  mp_buf b;
  mp_buf_init(&b);
  for (size_t i = 0; i < v->len; i++)
    mp_buf_printf(&b, "%s%s", i ? "\n" : "", v->items[i]);
  mp_buf_puts(&b, "");
  return mp_buf_detach(&b, NULL);
}

#define CHECK_JOINED(v, want)                                                  \
  do {                                                                         \
    char *got_ = joined(v);                                                    \
    CHECK_STR(got_, want);                                                     \
    free(got_);                                                                \
  } while (0)

/* A custom resource with no provider waits for its package's default
 * provider, which is registered first (its inputs from the stack config
 * "<pkg>:<key>"); the host hears back only when the deployment answers. */
static void test_default_provider_first(void) {
  mon_fx f;
  fx_init(&f, "{\"pkgA:region\":\"north\",\"pkgB:x\":\"no\"}");
  mp_err err;
  Pulumirpc__RegisterResourceRequest q = custom_req("a");
  CHECK(reg_req(&f, &q, "a", &err) == 0);
  q = custom_req("b");
  CHECK(reg_req(&f, &q, "b", &err) == 0);
  CHECK(f.ngoals == 1 && f.answers.len == 0);
  CHECK(mp_monitor_outstanding(f.m) == 3);
  const mp_goal *pg = f.goals[0].goal;
  CHECK_STR(pg->type, "pulumi:providers:pkgA");
  CHECK_STR(pg->name, "default");
  const mp_value *region = mp_value_object_get(pg->inputs, "region");
  CHECK(region && region->kind == MP_VALUE_STRING &&
        strcmp(region->u.str.ptr, "north") == 0);
  CHECK(mp_value_object_get(pg->inputs, "x") == NULL);
  complete(&f, 0, PROV_URN, "p1", "{}", 1);
  /* Both waiters go on with the provider's reference. */
  CHECK(f.ngoals == 3);
  for (size_t i = 1; i < f.ngoals; i++)
    CHECK_STR(f.goals[i].goal->provider, PROV_URN "::p1");
  CHECK(f.answers.len == 0);
  for (size_t i = 1; i < f.ngoals; i++) {
    char *urn = mp_xasprintf(URN("%s"), f.goals[i].goal->name);
    complete(&f, i, urn, "id-x", "{\"out\":1}", 1);
    free(urn);
  }
  CHECK(f.answers.len == 2);
  CHECK(mp_strv_contains(&f.answers, "a ok " URN("a") " id-x {\"out\":1}"));
  CHECK(mp_strv_contains(&f.answers, "b ok " URN("b") " id-x {\"out\":1}"));
  CHECK(mp_monitor_outstanding(f.m) == 0);
  /* A later resource finds the provider ready. */
  q = custom_req("c");
  CHECK(reg_req(&f, &q, "c", &err) == 0);
  CHECK(f.ngoals == 4);
  CHECK_STR(f.goals[3].goal->provider, PROV_URN "::p1");
  fx_destroy(&f);
}

/* Another version gets a default provider of its own; an explicit
 * provider needs none; a disabled default provider refuses, logging the
 * error on the resource. */
static void test_default_provider_variants(void) {
  mon_fx f;
  fx_init(&f, "{\"pulumi:disable-default-providers\":\"[\\\"pkgB\\\"]\"}");
  mp_err err;
  Pulumirpc__RegisterResourceRequest q = custom_req("a");
  q.version = "2.1.0";
  CHECK(reg_req(&f, &q, "a", &err) == 0);
  CHECK(f.ngoals == 1);
  CHECK_STR(f.goals[0].goal->name, "default_2_1_0");
  const mp_value *v = mp_value_object_get(f.goals[0].goal->inputs, "version");
  CHECK(v && v->kind == MP_VALUE_STRING && strcmp(v->u.str.ptr, "2.1.0") == 0);
  q = custom_req("e");
  q.provider = PROV_URN "::explicit";
  CHECK(reg_req(&f, &q, "e", &err) == 0);
  CHECK(f.ngoals == 2);
  CHECK_STR(f.goals[1].goal->provider, PROV_URN "::explicit");
  q = custom_req("d");
  q.type = "pkgB:m:T";
  CHECK(reg_req(&f, &q, "d", &err) == MP_ECANCELED);
  CHECK_STR(err.msg, "Default provider for 'pkgB' disabled. "
                     "'urn:pulumi:s::p::pkgB:m:T::d' must use an explicit "
                     "provider.");
  CHECK(f.events.len == 1);
  CHECK_CONTAINS(f.events.items[0], "log 3 urn:pulumi:s::p::pkgB:m:T::d "
                                    "Default provider for 'pkgB' disabled.");
  CHECK(f.ngoals == 2 && f.answers.len == 0);
  /* A failed default provider fails every registration waiting for it. */
  q = custom_req("w");
  CHECK(reg_req(&f, &q, "w", &err) == 0);
  CHECK(f.ngoals == 3); /* the pkgA default provider */
  mp_err boom;
  mp_err_set(&boom, MP_EPLUGIN, "no plugin for pkgA");
  mp_monitor_fail(f.m, f.goals[2].reg, &boom, MP_MONITOR_ERROR);
  CHECK_JOINED(&f.answers, "w error no plugin for pkgA");
  fx_destroy(&f);
}

/* An explicit provider resource's version option becomes its input, as
 * Pulumi's resource monitor sets it. */
static void test_explicit_provider_version(void) {
  mon_fx f;
  fx_init(&f, "{}");
  mp_err err;
  Pulumirpc__RegisterResourceRequest q = custom_req("prov");
  q.type = "pulumi:providers:pkgA";
  q.version = "26.0.0";
  CHECK(reg_req(&f, &q, "prov", &err) == 0);
  CHECK(f.ngoals == 1);
  const mp_value *in = f.goals[0].goal->inputs;
  const mp_value *v = mp_value_object_get(in, "version");
  CHECK(v && v->kind == MP_VALUE_STRING && strcmp(v->u.str.ptr, "26.0.0") == 0);
  /* A custom resource's version stays an option, not an input. */
  q = custom_req("r");
  q.provider = PROV_URN "::p1";
  q.version = "26.0.0";
  CHECK(reg_req(&f, &q, "r", &err) == 0);
  CHECK(f.ngoals == 2);
  CHECK(mp_value_object_get(f.goals[1].goal->inputs, "version") == NULL);
  fx_destroy(&f);
}

/* A child inherits protect, retainOnDelete, deletedWith and, for its own
 * package only, the provider of its parent, unless it sets them. */
static void test_inherit_from_parent(void) {
  mon_fx f;
  fx_init(&f, NULL);
  mp_err err;
  Pulumirpc__RegisterResourceRequest q = custom_req("par");
  q.provider = PROV_URN "::p9";
  q.protect_opt_case =
      PULUMIRPC__REGISTER_RESOURCE_REQUEST__PROTECT_OPT_PROTECT;
  q.protect = 1;
  q.deletedwith = URN("owner");
  CHECK(reg_req(&f, &q, "par", &err) == 0);
  complete(&f, 0, URN("par"), "id-par", NULL, 1);
  q = custom_req("kid");
  q.parent = URN("par");
  CHECK(reg_req(&f, &q, "kid", &err) == 0);
  q = custom_req("free");
  q.parent = URN("par");
  q.protect_opt_case =
      PULUMIRPC__REGISTER_RESOURCE_REQUEST__PROTECT_OPT_PROTECT;
  q.protect = 0;
  q.provider = PROV_URN "::own";
  CHECK(reg_req(&f, &q, "free", &err) == 0);
  /* Of another package: its own default provider, not the parent's. */
  q = custom_req("other");
  q.type = "pkgB:m:T";
  q.parent = URN("par");
  CHECK(reg_req(&f, &q, "other", &err) == 0);
  CHECK(f.ngoals == 4);
  const mp_goal *kid = f.goals[1].goal, *fr = f.goals[2].goal;
  CHECK(kid->protect == 1);
  CHECK_STR(kid->deleted_with, URN("owner"));
  CHECK_STR(kid->provider, PROV_URN "::p9");
  CHECK(fr->protect == 0);
  CHECK_STR(fr->provider, PROV_URN "::own");
  CHECK_STR(f.goals[3].goal->type, "pulumi:providers:pkgB");
  fx_destroy(&f);
}

/* The providers map (RegisterResource field 22, source_eval.go
 * resolveProvider): a custom resource with no provider takes its own
 * map's entry for its package, else its parent component's; a component's
 * map adds its component parent's entries under its own, and a parent's
 * provider of the same package still comes first. */
static void test_providers_map(void) {
  mon_fx f;
  fx_init(&f, NULL);
  mp_err err;
  Pulumirpc__RegisterResourceRequest__ProvidersEntry a =
      PULUMIRPC__REGISTER_RESOURCE_REQUEST__PROVIDERS_ENTRY__INIT;
  Pulumirpc__RegisterResourceRequest__ProvidersEntry b = a, c = a;
  a.key = "pkgA";
  a.value = PROV_URN "::outer";
  b.key = "pkgB";
  b.value = "urn:pulumi:s::p::pulumi:providers:pkgB::pb::idb";
  c.key = "pkgA";
  c.value = PROV_URN "::inner";
  Pulumirpc__RegisterResourceRequest__ProvidersEntry *outer_map[] = {&a, &b};
  Pulumirpc__RegisterResourceRequest__ProvidersEntry *inner_map[] = {&c};

  Pulumirpc__RegisterResourceRequest q = custom_req("outer");
  q.type = "my:index:Comp";
  q.custom = 0;
  q.n_providers = 2;
  q.providers = outer_map;
  CHECK(reg_req(&f, &q, "outer", &err) == 0);
  complete(&f, 0, "urn:pulumi:s::p::my:index:Comp::outer", "", NULL, 0);
  /* A component inside: its own pkgA entry wins, pkgB comes from outer. */
  q = custom_req("inner");
  q.type = "my:index:Comp";
  q.custom = 0;
  q.parent = "urn:pulumi:s::p::my:index:Comp::outer";
  q.n_providers = 1;
  q.providers = inner_map;
  CHECK(reg_req(&f, &q, "inner", &err) == 0);
  complete(&f, 1, "urn:pulumi:s::p::my:index:Comp$my:index:Comp::inner", "",
           NULL, 0);
  const char *inner = "urn:pulumi:s::p::my:index:Comp$my:index:Comp::inner";
  q = custom_req("a1");
  q.parent = (char *)inner;
  CHECK(reg_req(&f, &q, "a1", &err) == 0);
  q = custom_req("b1");
  q.type = "pkgB:m:T";
  q.parent = (char *)inner;
  CHECK(reg_req(&f, &q, "b1", &err) == 0);
  /* Its own map, and an explicit provider over every map. */
  q = custom_req("own");
  q.n_providers = 1;
  q.providers = inner_map;
  CHECK(reg_req(&f, &q, "own", &err) == 0);
  q = custom_req("explicit");
  q.parent = (char *)inner;
  q.provider = PROV_URN "::mine";
  CHECK(reg_req(&f, &q, "explicit", &err) == 0);
  /* A custom parent's provider of the same package comes first. */
  q = custom_req("cpar");
  q.provider = PROV_URN "::cp";
  q.n_providers = 1;
  q.providers = outer_map;
  CHECK(reg_req(&f, &q, "cpar", &err) == 0);
  complete(&f, 6, URN("cpar"), "id-cpar", NULL, 1);
  q = custom_req("ckid");
  q.parent = URN("cpar");
  q.n_providers = 1;
  q.providers = inner_map;
  CHECK(reg_req(&f, &q, "ckid", &err) == 0);
  CHECK(f.ngoals == 8);
  CHECK_STR(f.goals[2].goal->provider, PROV_URN "::inner");
  CHECK_STR(f.goals[3].goal->provider,
            "urn:pulumi:s::p::pulumi:providers:pkgB::pb::idb");
  CHECK_STR(f.goals[4].goal->provider, PROV_URN "::inner");
  CHECK_STR(f.goals[5].goal->provider, PROV_URN "::mine");
  CHECK_STR(f.goals[7].goal->provider, PROV_URN "::cp");
  fx_destroy(&f);
}

/* ReadResource: a read goal with the id; the answer carries the
 * properties read. Without an id it is refused at once. */
static void test_read_resource(void) {
  mon_fx f;
  fx_init(&f, NULL);
  mp_err err;
  Pulumirpc__ReadResourceRequest q = PULUMIRPC__READ_RESOURCE_REQUEST__INIT;
  q.type = TYPE;
  q.name = "r";
  q.id = "ext-1";
  q.provider = PROV_URN "::p1";
  mp_err_clear(&err);
  CHECK(mp_monitor_read_resource(f.m, &q, on_read, host_for(&f, "r"), &err) ==
        0);
  CHECK(f.ngoals == 1);
  CHECK(f.goals[0].goal->is_read);
  CHECK_STR(f.goals[0].goal->read_id, "ext-1");
  complete(&f, 0, URN("r"), "ext-1", "{\"size\":3}", 1);
  CHECK_JOINED(&f.answers, "r ok " URN("r") " read {\"size\":3}");
  q.id = "";
  CHECK(mp_monitor_read_resource(f.m, &q, on_read, host_for(&f, "r2"), &err) ==
        MP_EINVAL);
  CHECK_STR(err.msg, "ReadResource 'r': missing id");
  CHECK(f.ngoals == 1 && f.answers.len == 1);
  fx_destroy(&f);
}

/* Requests that cannot become goals are refused in the call: nothing is
 * submitted, nothing is outstanding, no callback runs. */
static void test_invalid_requests(void) {
  mon_fx f;
  fx_init(&f, NULL);
  mp_err err;
  Pulumirpc__RegisterResourceRequest q = custom_req("a");
  q.type = "";
  CHECK(reg_req(&f, &q, "a", &err) == MP_EINVAL);
  CHECK_STR(err.msg, "RegisterResource: missing type");
  q = custom_req("");
  CHECK(reg_req(&f, &q, "b", &err) == MP_EINVAL);
  CHECK_STR(err.msg, "RegisterResource of a '" TYPE "': missing name");
  q = custom_req("c");
  Pulumirpc__RegisterResourceRequest__CustomTimeouts t =
      PULUMIRPC__REGISTER_RESOURCE_REQUEST__CUSTOM_TIMEOUTS__INIT;
  t.create = "5 parsecs";
  q.customtimeouts = &t;
  CHECK(reg_req(&f, &q, "c", &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "invalid duration '5 parsecs'");
  q = custom_req("d");
  q.version = "not-semver";
  CHECK(reg_req(&f, &q, "d", &err) < 0);
  Pulumirpc__ResourceInvokeRequest iq =
      PULUMIRPC__RESOURCE_INVOKE_REQUEST__INIT;
  mp_err_clear(&err);
  CHECK(mp_monitor_invoke(f.m, &iq, NULL, NULL, &err) == MP_EINVAL);
  CHECK_STR(err.msg, "Invoke: missing function token");
  CHECK(f.ngoals == 0 && f.answers.len == 0);
  CHECK(mp_monitor_outstanding(f.m) == 0);
  fx_destroy(&f);
}

/* Outputs and the end of the program go straight to the deployment. */
static void test_outputs_and_program_done(void) {
  mon_fx f;
  fx_init(&f, NULL);
  mp_err err;
  mp_value *outs = mp_value_new_object();
  mp_value_object_set(outs, "url", mp_value_new_cstring("http://x"));
  Pulumirpc__RegisterResourceOutputsRequest q =
      PULUMIRPC__REGISTER_RESOURCE_OUTPUTS_REQUEST__INIT;
  q.urn = "urn:pulumi:s::p::pulumi:pulumi:Stack::p-s";
  CHECK(mp_value_to_pb_struct(outs, 0, &q.outputs, NULL) == 0);
  mp_err_clear(&err);
  CHECK(mp_monitor_register_outputs(f.m, &q, &err) == 0);
  mp_value_pb_struct_free(q.outputs);
  mp_value_free(outs);
  mp_monitor_log(f.m, MP_LOG_WARNING, NULL, "careful");
  mp_monitor_program_done(f.m, 1, "Pulumi.yaml:3:5: bad");
  CHECK_JOINED(&f.events, "outputs urn:pulumi:s::p::pulumi:pulumi:Stack::p-s "
                          "{\"url\":\"http://x\"}\n"
                          "log 2 - careful\n"
                          "done 1 Pulumi.yaml:3:5: bad");
  fx_destroy(&f);
}

/* The deployment's failures reach the host: an error, a skipped
 * registration (continue-on-error), and a cancellation that answers
 * every outstanding registration, after which the deployment may still
 * hand a registration back. */
static void test_failures_and_cancel(void) {
  mon_fx f;
  fx_init(&f, NULL);
  mp_err err;
  const char *names[] = {"e", "s", "c1", "c2"};
  for (size_t i = 0; i < 4; i++) {
    Pulumirpc__RegisterResourceRequest q = custom_req(names[i]);
    q.provider = PROV_URN "::p1";
    CHECK(reg_req(&f, &q, names[i], &err) == 0);
  }
  CHECK(f.ngoals == 4);
  mp_err e;
  mp_err_set(&e, MP_EPLUGIN, "create failed");
  mp_monitor_fail(f.m, f.goals[0].reg, &e, MP_MONITOR_ERROR);
  mp_monitor_fail(f.m, f.goals[1].reg, &e, MP_MONITOR_SKIPPED);
  mp_monitor_cancel_all(f.m);
  CHECK(mp_monitor_outstanding(f.m) == 0);
  CHECK(f.answers.len == 4);
  CHECK(f.answers.len >= 2 &&
        strcmp(f.answers.items[0], "e error create failed") == 0 &&
        strcmp(f.answers.items[1], "s skip") == 0);
  CHECK(mp_strv_contains(&f.answers, "c1 error the deployment was canceled"));
  CHECK(mp_strv_contains(&f.answers, "c2 error the deployment was canceled"));
  /* Handed back after the cancellation: no second answer. */
  complete(&f, 2, URN("c1"), "id", NULL, 1);
  CHECK(f.answers.len == 4);
  fx_destroy(&f);
}

/* With the step generator behind the stub, a second registration of one
 * URN fails and the host gets Pulumi's message; the first is unaffected. */
static void test_duplicate_urn(void) {
  sp_world w;
  sp_world_init(&w);
  mp_registry *reg = mp_registry_new(0, sp_factory(&w));
  mp_resource *prov = mp_resource_new(PROV_URN, "pulumi:providers:pkgA", 1);
  prov->id = mp_xstrdup("p1");
  mp_registry_add_known(reg, prov);
  mp_resource_free(prov);
  mp_snapshot *olds = mp_snapshot_new();
  mp_stepgen_opts so = {0};
  so.stack = "s";
  so.project = "p";
  mon_fx f;
  fx_init(&f, NULL);
  f.sg = mp_stepgen_new(&so, olds, reg);
  mp_err err;
  for (int i = 0; i < 2; i++) {
    Pulumirpc__RegisterResourceRequest q = custom_req("a");
    q.provider = PROV_URN "::p1";
    CHECK(reg_req(&f, &q, i ? "second" : "first", &err) == 0);
  }
  CHECK(f.ngoals == 1);
  CHECK_JOINED(&f.answers, "second error Duplicate resource URN '" URN(
                               "a") "'; try giving it a unique name");
  complete(&f, 0, URN("a"), "id-a", NULL, 1);
  CHECK(f.answers.len == 2);
  CHECK(f.answers.len == 2 &&
        strcmp(f.answers.items[1], "first ok " URN("a") " id-a {}") == 0);
  fx_destroy(&f);
  mp_stepgen_free(f.sg);
  mp_snapshot_free(olds);
  mp_registry_free(reg);
  sp_world_destroy(&w);
}

static void on_invoked(void *ud, const Pulumirpc__ResourceInvokeResponse *r,
                       const mp_err *err) {
  answer(ud, "-", "-", r ? r->return_ : NULL, err, 0);
}

static int invoke_req(mon_fx *f, const char *tok, const char *provider,
                      const char *name, mp_err *err) {
  Pulumirpc__ResourceInvokeRequest q = PULUMIRPC__RESOURCE_INVOKE_REQUEST__INIT;
  q.tok = (char *)tok;
  q.provider = (char *)provider;
  q.version = "2.0.0";
  mp_err_clear(err);
  return mp_monitor_invoke(f->m, &q, on_invoked, host_for(f, name), err);
}

/* An invoke that names no provider registers its package's default
 * provider (the same one a resource of that version would get), waits for
 * it, and is served with its reference; the engine's own package `pulumi`
 * (getResource) registers the builtin provider, `default`, whatever
 * version the request names; an explicit provider registers nothing; a
 * cancelled deployment answers the invokes still waiting. */
static void test_invoke_default_provider(void) {
  mon_fx f;
  fx_init(&f, "{\"pkgA:region\":\"north\"}");
  g_ninvokes = 0;
  mp_err err;
  CHECK(invoke_req(&f, "pkgA:index:getThing", NULL, "i1", &err) == 0);
  CHECK(invoke_req(&f, "pkgA:index:getOther", NULL, "i2", &err) == 0);
  CHECK(invoke_req(&f, "pulumi:pulumi:getResource", NULL, "i3", &err) == 0);
  CHECK(invoke_req(&f, "pkgA:index:getThing", PROV_URN "::x", "i4", &err) == 0);
  /* Two default providers, registered as a resource's would be. */
  CHECK(f.ngoals == 2);
  if (f.ngoals != 2) {
    fx_destroy(&f);
    return;
  }
  const mp_goal *pg = f.goals[0].goal;
  CHECK_STR(pg->type, "pulumi:providers:pkgA");
  CHECK_STR(pg->name, "default_2_0_0");
  const mp_value *v = mp_value_object_get(pg->inputs, "version");
  CHECK(v && v->kind == MP_VALUE_STRING && strcmp(v->u.str.ptr, "2.0.0") == 0);
  v = mp_value_object_get(pg->inputs, "region");
  CHECK(v && v->kind == MP_VALUE_STRING && strcmp(v->u.str.ptr, "north") == 0);
  const mp_goal *bg = f.goals[1].goal;
  CHECK_STR(bg->type, "pulumi:providers:pulumi");
  CHECK_STR(bg->name, "default");
  CHECK(mp_value_object_get(bg->inputs, "version") == NULL);
  CHECK_JOINED(&f.events, "invoke pkgA:index:getThing " PROV_URN "::x");
  complete(&f, 0, "urn:pulumi:s::p::pulumi:providers:pkgA::default_2_0_0",
           "p2", "{}", 1);
  complete(&f, 1, "urn:pulumi:s::p::pulumi:providers:pulumi::default", "b1",
           "{}", 1);
  CHECK(f.events.len == 4);
  CHECK(mp_strv_contains(&f.events,
                         "invoke pkgA:index:getThing "
                         "urn:pulumi:s::p::pulumi:providers:pkgA::default_2_0_0::p2"));
  CHECK(mp_strv_contains(&f.events,
                         "invoke pkgA:index:getOther "
                         "urn:pulumi:s::p::pulumi:providers:pkgA::default_2_0_0::p2"));
  CHECK(mp_strv_contains(&f.events,
                         "invoke pulumi:pulumi:getResource "
                         "urn:pulumi:s::p::pulumi:providers:pulumi::default::b1"));
  for (size_t i = 0; i < g_ninvokes; i++)
    mp_monitor_call_done(f.m, g_invoke_calls[i], mp_value_new_object(), NULL);
  CHECK(f.answers.len == 4);
  /* A resource of that version finds the same provider ready. */
  Pulumirpc__RegisterResourceRequest q = custom_req("a");
  q.version = "2.0.0";
  CHECK(reg_req(&f, &q, "a", &err) == 0);
  CHECK(f.ngoals == 3);
  CHECK_STR(f.goals[2].goal->provider,
            "urn:pulumi:s::p::pulumi:providers:pkgA::default_2_0_0::p2");
  /* Another package's invoke waits; cancelling answers it. */
  CHECK(invoke_req(&f, "pkgB:index:get", NULL, "i5", &err) == 0);
  CHECK(f.ngoals == 4);
  mp_monitor_cancel_all(f.m);
  CHECK(mp_strv_contains(&f.answers, "i5 error the deployment was canceled"));
  fx_destroy(&f);
}

/* A download that takes its time: "text" for test.txt, else a failure. */
static int slow_fetch(void *ud, const char *url, mp_buf *body, mp_err *err) {
  (void)ud;
  struct timespec ts = {0, 200 * 1000 * 1000};
  nanosleep(&ts, NULL);
  if (strstr(url, "test.txt") == NULL)
    return mp_err_set(err, MP_EIO, "no answer from %s", url);
  mp_buf_puts(body, "text");
  return 0;
}

/* A registration's inputs {value: <an asset at |uri|>}, owned. */
static Google__Protobuf__Struct *uri_asset_inputs(const char *uri) {
  mp_value *obj = mp_value_new_object();
  mp_value_object_set(obj, "value", mp_value_new_asset(NULL, NULL, NULL, uri));
  Google__Protobuf__Struct *s = NULL;
  mp_value_to_pb_struct(obj, 0, &s, NULL);
  mp_value_free(obj);
  return s;
}

static int reg_remote_asset(mon_fx *f, const char *name, const char *uri) {
  Pulumirpc__RegisterResourceRequest q = custom_req(name);
  q.provider = PROV_URN "::p1";
  q.object = uri_asset_inputs(uri);
  mp_err err;
  int rc = reg_req(f, &q, name, &err);
  mp_value_pb_struct_free(q.object);
  return rc;
}

/* An asset whose hash needs a download is hashed on the loop's worker
 * pool: a registration without one goes ahead meanwhile, the hashed one
 * reaches the deployment with its hash, a failed download answers the
 * host with Pulumi's words, and a cancellation answers one still
 * hashing at once (and only once). */
static void test_assets_hashed_on_the_pool(void) {
  uv_loop_t loop;
  uv_loop_init(&loop);
  mon_fx f;
  fx_init_with(&f, NULL, &loop, slow_fetch);
  mp_err err;
  CHECK(reg_remote_asset(&f, "remote", "https://h.test/test.txt") == 0);
  CHECK(f.ngoals == 0);
  CHECK(mp_monitor_outstanding(f.m) == 1);
  Pulumirpc__RegisterResourceRequest plain = custom_req("plain");
  plain.provider = PROV_URN "::p1";
  CHECK(reg_req(&f, &plain, "plain", &err) == 0);
  CHECK(f.ngoals == 1 && strcmp(f.goals[0].goal->name, "plain") == 0);
  CHECK(reg_remote_asset(&f, "bad", "https://h.test/nothing.bin") == 0);
  uv_run(&loop, UV_RUN_DEFAULT);
  CHECK(f.ngoals == 2);
  if (f.ngoals == 2) {
    const mp_value *v = mp_value_object_get(f.goals[1].goal->inputs, "value");
    CHECK_STR(f.goals[1].goal->name, "remote");
    CHECK_STR(v ? v->u.asset.hash : NULL,
              "982d9e3eb996f559e633f4d194def3761d909f5a3b647d1a851fead67c32c9d1");
  }
  CHECK_JOINED(&f.answers,
               "bad error RegisterResource 'bad': failed to compute asset hash "
               "for \"value\": no answer from https://h.test/nothing.bin");
  CHECK(mp_monitor_outstanding(f.m) == 2);

  CHECK(reg_remote_asset(&f, "late", "https://h.test/test.txt") == 0);
  mp_monitor_cancel_all(f.m);
  CHECK(mp_monitor_outstanding(f.m) == 0);
  uv_run(&loop, UV_RUN_DEFAULT);
  CHECK(f.ngoals == 2);
  size_t late = 0;
  for (size_t i = 0; i < f.answers.len; i++)
    late += strncmp(f.answers.items[i], "late ", 5) == 0;
  CHECK(late == 1);
  CHECK(mp_strv_contains(&f.answers, "late error the deployment was canceled"));
  fx_destroy(&f);
  CHECK(uv_loop_close(&loop) == 0);
}

int main(void) {
  RUN(test_default_provider_first);
  RUN(test_default_provider_variants);
  RUN(test_explicit_provider_version);
  RUN(test_inherit_from_parent);
  RUN(test_providers_map);
  RUN(test_read_resource);
  RUN(test_invalid_requests);
  RUN(test_outputs_and_program_done);
  RUN(test_failures_and_cancel);
  RUN(test_duplicate_urn);
  RUN(test_invoke_default_provider);
  RUN(test_assets_hashed_on_the_pool);
  return mp_test_summary();
}
