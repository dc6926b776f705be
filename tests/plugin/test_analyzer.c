/* The analyzer client (plugin/analyzer.c) against a real process: this
 * test's own binary, started as `node` would start a policy pack (a `node`
 * on the host's search path that runs it with --fake-analyzer), serves
 * pulumirpc.Analyzer on a port it prints, as run-policy-pack does. The
 * pack folder's file `mode` says how it behaves: a pack that answers, one
 * that answers Analyze with bytes that are no AnalyzeResponse, one that
 * answers with an error, one that crashes in Analyze, one that never
 * prints a port, one whose GetAnalyzerInfo fails, and one that supports
 * no config. Policy packs on Node.js end to end are tests/policy/. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uv.h>

#include "plugin/analyzer.h"
#include "plugin/plugin.h"
#include "providers/builtin.h"
#include "pulumi/analyzer.pb-c.h"
#include "rpc/server.h"
#include "testutil.h"

#define SVC "/pulumirpc.Analyzer/"

/* ---- the fake pack (a child process) ---- */

static char mode[32];

static void reply_msg(mp_rpc_srv_call *call, const ProtobufCMessage *m) {
  size_t n = protobuf_c_message_get_packed_size(m);
  uint8_t *buf = malloc(n ? n : 1);
  protobuf_c_message_pack(m, buf);
  mp_rpc_srv_reply(call, buf, n);
  free(buf);
}

static void on_info(mp_rpc_srv_call *call, const uint8_t *req, size_t len,
                    void *arg) {
  (void)req;
  (void)len;
  (void)arg;
  if (strcmp(mode, "info-error") == 0) {
    mp_rpc_srv_fail(call, 2, "cannot load the pack's policies", NULL, 0);
    return;
  }
  Pulumirpc__PolicyInfo pi = PULUMIRPC__POLICY_INFO__INIT;
  pi.name = "no-bad";
  pi.description = "no resource has a bad input";
  pi.enforcementlevel = PULUMIRPC__ENFORCEMENT_LEVEL__MANDATORY;
  Pulumirpc__PolicyInfo *pis[] = {&pi};
  Pulumirpc__AnalyzerInfo info = PULUMIRPC__ANALYZER_INFO__INIT;
  info.name = "fakepack";
  info.version = "0.1.0";
  info.n_policies = 1;
  info.policies = pis;
  info.supportsconfig = strcmp(mode, "noconfig") != 0;
  reply_msg(call, &info.base);
}

static void on_configure(mp_rpc_srv_call *call, const uint8_t *req, size_t len,
                         void *arg) {
  (void)arg;
  Pulumirpc__ConfigureAnalyzerRequest *q =
      pulumirpc__configure_analyzer_request__unpack(NULL, len, req);
  /* the configured level must have come: "disabled" is refused here so
   * that the test sees the pack got it */
  int disabled = q && q->n_policyconfig == 1 &&
                 q->policyconfig[0]->value->enforcementlevel ==
                     PULUMIRPC__ENFORCEMENT_LEVEL__DISABLED;
  if (q)
    protobuf_c_message_free_unpacked(&q->base, NULL);
  if (disabled)
    mp_rpc_srv_fail(call, 3, "no-bad: disabled as asked", NULL, 0);
  else
    mp_rpc_srv_reply(call, "", 0);
}

/* 1 when |s| has a field |key|. */
static int has_key(const Google__Protobuf__Struct *s, const char *key) {
  for (size_t i = 0; s && i < s->n_fields; i++)
    if (s->fields[i]->key.len == strlen(key) &&
        memcmp(s->fields[i]->key.data, key, strlen(key)) == 0)
      return 1;
  return 0;
}

static void on_analyze(mp_rpc_srv_call *call, const uint8_t *req, size_t len,
                       void *arg) {
  (void)arg;
  if (strcmp(mode, "garbage") == 0) {
    mp_rpc_srv_reply(call, "\xff\xff\xff\xff\xff", 5);
    return;
  }
  if (strcmp(mode, "error") == 0) {
    mp_rpc_srv_fail(call, 13, "the policy threw: TypeError", NULL, 0);
    return;
  }
  if (strcmp(mode, "crash") == 0) {
    fprintf(stderr, "fake analyzer: crashing on purpose\n");
    fflush(stderr);
    _exit(3);
  }
  Pulumirpc__AnalyzeRequest *q =
      pulumirpc__analyze_request__unpack(NULL, len, req);
  Pulumirpc__AnalyzeDiagnostic d = PULUMIRPC__ANALYZE_DIAGNOSTIC__INIT;
  Pulumirpc__AnalyzeDiagnostic *ds[] = {&d};
  Pulumirpc__AnalyzeResponse resp = PULUMIRPC__ANALYZE_RESPONSE__INIT;
  char msg[512];
  if (q && has_key(q->properties, "bad")) {
    d.policyname = "no-bad";
    d.policypackname = "fakepack";
    d.policypackversion = "0.1.0";
    snprintf(msg, sizeof(msg), "%s %s has a bad input", q->type, q->name);
    d.message = msg;
    d.enforcementlevel = PULUMIRPC__ENFORCEMENT_LEVEL__MANDATORY;
    resp.n_diagnostics = 1;
    resp.diagnostics = ds;
  }
  reply_msg(call, &resp.base);
  if (q)
    protobuf_c_message_free_unpacked(&q->base, NULL);
}

/* AnalyzeStack: one remediate-level finding on the first resource. */
static void on_analyze_stack(mp_rpc_srv_call *call, const uint8_t *req,
                             size_t len, void *arg) {
  (void)arg;
  Pulumirpc__AnalyzeStackRequest *q =
      pulumirpc__analyze_stack_request__unpack(NULL, len, req);
  Pulumirpc__AnalyzeDiagnostic d = PULUMIRPC__ANALYZE_DIAGNOSTIC__INIT;
  Pulumirpc__AnalyzeDiagnostic *ds[] = {&d};
  Pulumirpc__AnalyzeResponse resp = PULUMIRPC__ANALYZE_RESPONSE__INIT;
  char msg[64];
  if (q && q->n_resources > 0) {
    d.policyname = "stack-wide";
    d.policypackname = "fakepack";
    snprintf(msg, sizeof(msg), "%zu resources", q->n_resources);
    d.message = msg;
    d.urn = q->resources[0]->urn;
    d.enforcementlevel = PULUMIRPC__ENFORCEMENT_LEVEL__REMEDIATE;
    resp.n_diagnostics = 1;
    resp.diagnostics = ds;
  }
  reply_msg(call, &resp.base);
  if (q)
    protobuf_c_message_free_unpacked(&q->base, NULL);
}

static int fake_analyzer(void) {
  FILE *f = fopen("mode", "r");
  if (f == NULL || fscanf(f, "%31s", mode) != 1)
    return 2;
  fclose(f);
  if (strcmp(mode, "noport") == 0) {
    fprintf(stderr, "fake analyzer: cannot find the policy pack\n");
    return 1;
  }
  uv_loop_t loop;
  uv_loop_init(&loop);
  mp_rpc_server *s = NULL;
  mp_err err;
  int port = 0;
  if (mp_rpc_server_new(&loop, 0, &s, &err) != 0 ||
      mp_rpc_server_add(s, SVC "GetAnalyzerInfo", on_info, NULL, &err) != 0 ||
      mp_rpc_server_add(s, SVC "Configure", on_configure, NULL, &err) != 0 ||
      mp_rpc_server_add(s, SVC "Analyze", on_analyze, NULL, &err) != 0 ||
      mp_rpc_server_add(s, SVC "AnalyzeStack", on_analyze_stack, NULL, &err) !=
          0 ||
      mp_rpc_server_listen(s, &port, &err) != 0) {
    fprintf(stderr, "fake analyzer: %s\n", err.msg);
    return 2;
  }
  printf("%d\n", port);
  fflush(stdout);
  /* until the engine ends the process */
  return uv_run(&loop, UV_RUN_DEFAULT);
}

/* ---- the tests ---- */

static char root[64];
static char self[PATH_MAX];
static mp_plugin_host *host;

static void write_file(const char *rel, const char *text, int mode_bits) {
  char *p = mp_xasprintf("%s/%s", root, rel);
  char *cmd = mp_xasprintf("mkdir -p \"$(dirname '%s')\"", p);
  CHECK(system(cmd) == 0);
  FILE *f = fopen(p, "w");
  CHECK(f != NULL);
  if (f) {
    fputs(text, f);
    fclose(f);
  }
  chmod(p, (mode_t)mode_bits);
  free(cmd);
  free(p);
}

/* A pack folder |name| whose fake behaves as |how|. */
static char *pack(const char *name, const char *how) {
  char *rel = mp_xasprintf("%s/mode", name);
  write_file(rel, how, 0644);
  free(rel);
  rel =
      mp_xasprintf("%s/node_modules/@pulumi/pulumi/cmd/run-policy-pack", name);
  write_file(rel, "// never run: the fake node ignores it\n", 0644);
  free(rel);
  return mp_xasprintf("%s/%s", root, name);
}

static mp_analyzer *start(const char *name, const char *how,
                          const mp_value *config, mp_strv *problems, int *rc,
                          mp_err *err) {
  char *dir = pack(name, how);
  mp_analyzer *a = NULL;
  *rc = mp_analyzer_start(host, dir, config, problems, &a, err);
  free(dir);
  return a;
}

static void test_analyzer_findings(void) {
  mp_strv problems;
  mp_strv_init(&problems);
  mp_err err;
  int rc;
  mp_analyzer *a = start("ok", "ok", NULL, &problems, &rc, &err);
  CHECK(rc == 0);
  if (a == NULL) {
    fprintf(stderr, "start: %s\n", err.msg);
    mp_strv_destroy(&problems);
    return;
  }
  CHECK_STR(mp_analyzer_name(a), "fakepack");
  CHECK_STR(mp_analyzer_version(a), "0.1.0");
  CHECK(problems.len == 0);
  mp_value *good = mp_value_new_object();
  mp_value_object_set(good, "fine", mp_value_new_cstring("yes"));
  mp_analyzer_resource r = {.urn = "urn:pulumi:dev::p::test:Thing::a",
                            .type = "test:Thing",
                            .name = "a",
                            .props = good,
                            .delete_before_replace = -1};
  mp_policy_diags diags = {0};
  CHECK(mp_analyzer_analyze(a, &r, &diags, &err) == 0);
  CHECK(diags.len == 0);
  mp_value *bad = mp_value_new_object();
  mp_value_object_set(bad, "bad", mp_value_new_cstring("yes"));
  mp_analyzer_resource rb = {.urn = "urn:pulumi:dev::p::test:Thing::b",
                             .type = "test:Thing",
                             .name = "b",
                             .props = bad,
                             .delete_before_replace = -1};
  CHECK(mp_analyzer_analyze(a, &rb, &diags, &err) == 0);
  CHECK(diags.len == 1);
  if (diags.len == 1) {
    CHECK_STR(diags.items[0].policy, "no-bad");
    CHECK_STR(diags.items[0].pack, "fakepack");
    CHECK_STR(diags.items[0].message, "test:Thing b has a bad input");
    /* the pack left the URN empty: the resource's */
    CHECK_STR(diags.items[0].urn, "urn:pulumi:dev::p::test:Thing::b");
    CHECK(diags.items[0].level == MP_POLICY_MANDATORY);
  }
  mp_policy_diags_destroy(&diags);
  /* the stack: a remediation level is taken as mandatory */
  mp_analyzer_resource both[] = {r, rb};
  CHECK(mp_analyzer_analyze_stack(a, both, 2, &diags, &err) == 0);
  CHECK(diags.len == 1);
  if (diags.len == 1) {
    CHECK_STR(diags.items[0].message, "2 resources");
    CHECK_STR(diags.items[0].urn, "urn:pulumi:dev::p::test:Thing::a");
    CHECK(diags.items[0].level == MP_POLICY_MANDATORY);
  }
  mp_policy_diags_destroy(&diags);
  CHECK(mp_analyzer_failed(a) == 0);
  mp_analyzer_stop(a);
  mp_value_free(good);
  mp_value_free(bad);
  mp_strv_destroy(&problems);
}

/* Analyze answered wrongly: the call fails naming the pack and the
 * method, and the pack is marked failed. */
static void analyze_fails(const char *how, const char *want) {
  mp_strv problems;
  mp_strv_init(&problems);
  mp_err err;
  int rc;
  mp_analyzer *a = start(how, how, NULL, &problems, &rc, &err);
  CHECK(rc == 0);
  if (a == NULL) {
    mp_strv_destroy(&problems);
    return;
  }
  mp_analyzer_resource r = {.urn = "urn:pulumi:dev::p::test:Thing::a",
                            .type = "test:Thing",
                            .name = "a",
                            .props = NULL,
                            .delete_before_replace = -1};
  mp_policy_diags diags = {0};
  CHECK(mp_analyzer_failed(a) == 0);
  CHECK(mp_analyzer_analyze(a, &r, &diags, &err) < 0);
  CHECK_CONTAINS(err.msg, "policy pack fakepack: Analyze failed: ");
  CHECK_CONTAINS(err.msg, want);
  CHECK(diags.len == 0);
  CHECK(mp_analyzer_failed(a) == 1);
  mp_policy_diags_destroy(&diags);
  mp_analyzer_stop(a);
  mp_strv_destroy(&problems);
}

static void test_analyzer_answers_garbage(void) {
  analyze_fails("garbage",
                "with bytes that are not a pulumirpc.AnalyzeResponse "
                "message");
}

static void test_analyzer_answers_error(void) {
  analyze_fails("error", "the policy threw: TypeError");
}

static void test_analyzer_crashes(void) {
  analyze_fails("crash", "the plugin exited with status 3");
}

static void test_analyzer_start_failures(void) {
  mp_strv problems;
  mp_strv_init(&problems);
  mp_err err;
  int rc;
  /* no port line: its stderr in the message */
  mp_analyzer *a = start("noport", "noport", NULL, &problems, &rc, &err);
  CHECK(a == NULL);
  CHECK(rc == MP_EIO);
  CHECK_CONTAINS(err.msg, "failed to start");
  CHECK_CONTAINS(err.msg, "cannot find the policy pack");
  /* GetAnalyzerInfo answered an error */
  a = start("info", "info-error", NULL, &problems, &rc, &err);
  CHECK(a == NULL);
  CHECK(rc < 0);
  CHECK_CONTAINS(err.msg, "GetAnalyzerInfo failed");
  CHECK_CONTAINS(err.msg, "cannot load the pack's policies");
  /* config for a pack that supports none */
  mp_value *config = mp_value_new_object();
  mp_value_object_set(config, "no-bad", mp_value_new_cstring("advisory"));
  a = start("noconfig", "noconfig", config, &problems, &rc, &err);
  CHECK(a == NULL);
  CHECK(rc == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "does not support config");
  /* the configured level reaches Configure (which refuses "disabled") */
  mp_value_free(config);
  config = mp_value_new_object();
  mp_value_object_set(config, "all", mp_value_new_cstring("disabled"));
  a = start("configured", "ok", config, &problems, &rc, &err);
  CHECK(a == NULL);
  CHECK_CONTAINS(err.msg, "Configure failed: ");
  CHECK_CONTAINS(err.msg, "no-bad: disabled as asked");
  mp_value_free(config);
  /* a folder without the pack's dependencies */
  write_file("nodeps/mode", "ok", 0644);
  char *dir = mp_xasprintf("%s/nodeps", root);
  CHECK(mp_analyzer_start(host, dir, NULL, &problems, &a, &err) == MP_EIO);
  CHECK_CONTAINS(err.msg, "dependencies are not installed");
  free(dir);
  /* no such folder */
  CHECK(mp_analyzer_start(host, "/nonexistent/pack", NULL, &problems, &a,
                          &err) == MP_EIO);
  CHECK_STR(err.msg, "policy pack /nonexistent/pack: no such folder");
  mp_strv_destroy(&problems);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--fake-analyzer") == 0)
    return fake_analyzer();
  CHECK(realpath("/proc/self/exe", self) != NULL);
  snprintf(root, sizeof(root), "/tmp/mp-test-analyzer-XXXXXX");
  CHECK(mkdtemp(root) != NULL);
  char *script =
      mp_xasprintf("#!/bin/sh\nexec '%s' --fake-analyzer \"$@\"\n", self);
  write_file("bin/node", script, 0755);
  free(script);
  char *bin = mp_xasprintf("%s/bin", root);
  char *pd = mp_xasprintf("%s/plugins", root);
  mp_plugin_host_opts o = {0};
  o.project_dir = root;
  o.program_dir = root;
  o.project = "proj";
  o.stack = "dev";
  o.builtins = mp_builtin_providers(NULL);
  o.search_path = bin;
  o.plugin_dir = pd;
  o.setup_timeout_ms = 60000;
  mp_err err;
  CHECK(mp_plugin_host_new(&o, &host, &err) == 0);
  RUN(test_analyzer_findings);
  RUN(test_analyzer_answers_garbage);
  RUN(test_analyzer_answers_error);
  RUN(test_analyzer_crashes);
  RUN(test_analyzer_start_failures);
  mp_plugin_host_shutdown(host);
  free(bin);
  free(pd);
  char *cmd = mp_xasprintf("rm -rf '%s'", root);
  CHECK(system(cmd) == 0);
  free(cmd);
  return mp_test_summary();
}
