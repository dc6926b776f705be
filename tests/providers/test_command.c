/* Tests of the built-in `command` provider (src/providers/command*.c):
 * real commands run through /bin/sh. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "providers/prov_test.h"

#define TOKEN "command:local:Command"

/* Check + Create of a Command with |json| inputs; outputs in |r|. */
static int create(mp_provider *p, const char *json, int preview,
                  mp_prov_resp *r, mp_err *e) {
  mp_prov_resp c;
  mp_prov_req q;
  mp_value *news = J(json);
  int rc;
  memset(&q, 0, sizeof(q));
  q.type = TOKEN;
  q.urn = "urn:pulumi:dev::p::command:local:Command::c";
  q.news = news;
  mp_prov_resp_init(&c);
  rc = call(p, OP_CHECK, &q, &c, e);
  if (rc == 0 && c.nfailures)
    rc = -100;
  if (rc == 0) {
    q.news = c.inputs;
    q.preview = preview;
    rc = call(p, OP_CREATE, &q, r, e);
  }
  mp_prov_resp_destroy(&c);
  mp_value_free(news);
  return rc;
}

static void test_command_create_stdout_stderr(void) {
  mp_provider *p = prov_make("command");
  mp_prov_resp r;
  mp_err e;
  mp_prov_resp_init(&r);
  CHECK(create(p, "{\"create\":\"echo hello; echo warn >&2\"}", 0, &r, &e) ==
        0);
  CHECK_STR(get_str(r.outputs, "stdout"), "hello");
  CHECK_STR(get_str(r.outputs, "stderr"), "warn");
  CHECK_STR(get_str(r.outputs, "create"), "echo hello; echo warn >&2");
  CHECK(r.id && strlen(r.id) == 16 && strspn(r.id, "0123456789abcdef") == 16);
  mp_prov_resp_destroy(&r);
  /* Only one trailing newline is trimmed. */
  mp_prov_resp_init(&r);
  CHECK(create(p, "{\"create\":\"printf 'a\\\\n\\\\n'\"}", 0, &r, &e) == 0);
  CHECK_STR(get_str(r.outputs, "stdout"), "a\n");
  mp_prov_resp_destroy(&r);
  mp_prov_resp_init(&r);
  CHECK(create(p, "{\"create\":\"printf abc\"}", 0, &r, &e) == 0);
  CHECK_STR(get_str(r.outputs, "stdout"), "abc");
  mp_prov_resp_destroy(&r);
  mp_provider_free(p);
}

static void test_command_env_stdin_dir_interpreter(void) {
  mp_provider *p = prov_make("command");
  mp_prov_resp r;
  mp_err e;
  char tmpl[] = "/tmp/mp-cmd-XXXXXX", *json;
  CHECK(mkdtemp(tmpl) != NULL);
  mp_prov_resp_init(&r);
  CHECK(create(p,
               "{\"create\":\"echo $FOO-$BAR\",\"environment\":"
               "{\"FOO\":\"foo\",\"BAR\":\"b a r\"}}",
               0, &r, &e) == 0);
  CHECK_STR(get_str(r.outputs, "stdout"), "foo-b a r");
  mp_prov_resp_destroy(&r);
  /* The environment overrides ours, and the rest is inherited. */
  setenv("MP_TEST_INHERITED", "yes", 1);
  setenv("MP_TEST_OVERRIDE", "old", 1);
  mp_prov_resp_init(&r);
  CHECK(create(p,
               "{\"create\":\"echo $MP_TEST_INHERITED $MP_TEST_OVERRIDE\","
               "\"environment\":{\"MP_TEST_OVERRIDE\":\"new\"}}",
               0, &r, &e) == 0);
  CHECK_STR(get_str(r.outputs, "stdout"), "yes new");
  mp_prov_resp_destroy(&r);
  mp_prov_resp_init(&r);
  CHECK(create(p, "{\"create\":\"tr a-z A-Z\",\"stdin\":\"some input\"}", 0, &r,
               &e) == 0);
  CHECK_STR(get_str(r.outputs, "stdout"), "SOME INPUT");
  mp_prov_resp_destroy(&r);
  json = mp_xasprintf("{\"create\":\"pwd\",\"dir\":\"%s\"}", tmpl);
  mp_prov_resp_init(&r);
  CHECK(create(p, json, 0, &r, &e) == 0);
  CHECK_STR(get_str(r.outputs, "stdout"), tmpl);
  mp_prov_resp_destroy(&r);
  free(json);
  /* An interpreter looked up on PATH. */
  mp_prov_resp_init(&r);
  CHECK(create(p,
               "{\"create\":\"print(6*7)\",\"interpreter\":"
               "[\"sh\",\"-c\",\"echo 42 # $0\"]}",
               0, &r, &e) == 0);
  CHECK_STR(get_str(r.outputs, "stdout"), "42");
  mp_prov_resp_destroy(&r);
  rmdir(tmpl);
  mp_provider_free(p);
}

/* 1 MiB through stdin and back: both directions must flow at once. */
static void test_command_large_stdin(void) {
  mp_provider *p = prov_make("command");
  mp_prov_resp r;
  mp_prov_req q;
  mp_err e;
  size_t n = 1 << 20, i;
  char *big = mp_xmalloc(n + 1);
  mp_value *news = mp_value_new_object();
  const mp_value *out;
  for (i = 0; i < n; i++)
    big[i] = (char)('a' + i % 26);
  big[n] = '\0';
  mp_value_object_set(news, "create", mp_value_new_cstring("cat; echo x >&2"));
  mp_value_object_set(news, "stdin", mp_value_new_string(big, n));
  memset(&q, 0, sizeof(q));
  q.type = TOKEN;
  q.news = news;
  mp_prov_resp_init(&r);
  CHECK(call(p, OP_CREATE, &q, &r, &e) == 0);
  out = get(r.outputs, "stdout");
  CHECK(out && out->u.str.len == n && memcmp(out->u.str.ptr, big, n) == 0);
  CHECK_STR(get_str(r.outputs, "stderr"), "x");
  mp_prov_resp_destroy(&r);
  /* A command that ignores its stdin and exits early is not an error. */
  mp_value_object_set(news, "create", mp_value_new_cstring("exit 0"));
  mp_prov_resp_init(&r);
  CHECK(call(p, OP_CREATE, &q, &r, &e) == 0);
  mp_prov_resp_destroy(&r);
  mp_value_free(news);
  free(big);
  mp_provider_free(p);
}

static void test_command_failures(void) {
  mp_provider *p = prov_make("command");
  mp_prov_resp r;
  mp_prov_req q;
  mp_err e;
  mp_prov_resp_init(&r);
  CHECK(create(p, "{\"create\":\"echo partial; echo oops >&2; exit 3\"}", 0, &r,
               &e) == MP_EPLUGIN);
  CHECK_STR(e.msg, "command exited with status 3: oops");
  CHECK(r.id == NULL && r.outputs == NULL);
  mp_prov_resp_destroy(&r);
  mp_prov_resp_init(&r);
  CHECK(create(p, "{\"create\":\"kill -TERM $$\"}", 0, &r, &e) == MP_EPLUGIN);
  CHECK_CONTAINS(e.msg, "command was killed by signal 15");
  mp_prov_resp_destroy(&r);
  mp_prov_resp_init(&r);
  CHECK(create(p, "{\"create\":\"true\",\"interpreter\":[\"/nonexistent/sh\"]}",
               0, &r, &e) == MP_EPLUGIN);
  CHECK_CONTAINS(e.msg, "cannot run '/nonexistent/sh'");
  mp_prov_resp_destroy(&r);
  mp_prov_resp_init(&r);
  CHECK(create(p, "{\"create\":\"true\",\"dir\":\"/nonexistent/dir\"}", 0, &r,
               &e) == MP_EPLUGIN);
  CHECK_CONTAINS(e.msg, "/nonexistent/dir");
  mp_prov_resp_destroy(&r);
  /* A timeout kills the command. */
  {
    mp_value *news = J("{\"create\":\"sleep 5\"}");
    memset(&q, 0, sizeof(q));
    q.type = TOKEN;
    q.news = news;
    q.timeout = 0.2;
    mp_prov_resp_init(&r);
    CHECK(call(p, OP_CREATE, &q, &r, &e) == MP_EPLUGIN);
    CHECK_CONTAINS(e.msg, "timed out after 200 ms");
    mp_prov_resp_destroy(&r);
    mp_value_free(news);
  }
  /* Check: types. */
  {
    mp_value *news = J("{\"create\":1,\"environment\":{\"A\":2},"
                       "\"interpreter\":[],\"triggers\":\"x\"}");
    memset(&q, 0, sizeof(q));
    q.type = TOKEN;
    q.news = news;
    mp_prov_resp_init(&r);
    CHECK(call(p, OP_CHECK, &q, &r, &e) == 0);
    CHECK(has_failure(&r, "create", "expected a string"));
    CHECK(has_failure(&r, "environment", "expected strings only"));
    CHECK(has_failure(&r, "interpreter", "at least a program"));
    CHECK(has_failure(&r, "triggers", "expected an array"));
    mp_prov_resp_destroy(&r);
    mp_value_free(news);
    q.type = "command:remote:Command";
    mp_prov_resp_init(&r);
    CHECK(call(p, OP_CHECK, &q, &r, &e) == MP_EINVAL);
    CHECK_CONTAINS(e.msg, "unknown resource type 'command:remote:Command'");
    mp_prov_resp_destroy(&r);
  }
  mp_provider_free(p);
}

static void test_command_preview_runs_nothing(void) {
  mp_provider *p = prov_make("command");
  mp_prov_resp r;
  mp_err e;
  char path[] = "/tmp/mp-cmd-prev-XXXXXX", *json;
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  close(fd);
  unlink(path);
  json = mp_xasprintf("{\"create\":\"touch %s\"}", path);
  mp_prov_resp_init(&r);
  CHECK(create(p, json, 1, &r, &e) == 0);
  CHECK(get(r.outputs, "stdout")->kind == MP_VALUE_UNKNOWN);
  CHECK(get(r.outputs, "stderr")->kind == MP_VALUE_UNKNOWN);
  CHECK(r.id == NULL);
  CHECK(access(path, F_OK) != 0);
  mp_prov_resp_destroy(&r);
  free(json);
  mp_provider_free(p);
}

static void test_command_update_and_delete(void) {
  mp_provider *p = prov_make("command");
  mp_prov_resp r, u, d;
  mp_prov_req q;
  mp_err e;
  char path[] = "/tmp/mp-cmd-del-XXXXXX", *json;
  int fd = mkstemp(path);
  mp_value *news;
  FILE *f;
  char line[128] = "";
  close(fd);
  json = mp_xasprintf("{\"create\":\"echo v1; echo e1 >&2\","
                      "\"update\":\"echo \\\"was=$PULUMI_COMMAND_STDOUT/"
                      "$PULUMI_COMMAND_STDERR\\\"\","
                      "\"delete\":\"echo \\\"gone $PULUMI_COMMAND_STDOUT\\\" "
                      "> %s\"}",
                      path);
  mp_prov_resp_init(&r);
  CHECK(create(p, json, 0, &r, &e) == 0);
  CHECK_STR(get_str(r.outputs, "stdout"), "v1");
  /* Update runs `update` and sees the previous outputs. */
  news = mp_value_dup(r.outputs);
  mp_value_object_del(news, "stdout");
  mp_value_object_del(news, "stderr");
  mp_value_object_set(news, "environment", J("{\"X\":\"1\"}"));
  memset(&q, 0, sizeof(q));
  q.type = TOKEN;
  q.id = r.id;
  q.olds = r.outputs;
  q.news = news;
  mp_prov_resp_init(&u);
  CHECK(call(p, OP_UPDATE, &q, &u, &e) == 0);
  CHECK_STR(get_str(u.outputs, "stdout"), "was=v1/e1");
  CHECK_STR(get_str(get(u.outputs, "environment"), "X"), "1");
  /* Preview update: nothing runs, outputs unknown. */
  q.preview = 1;
  mp_prov_resp_init(&d);
  CHECK(call(p, OP_UPDATE, &q, &d, &e) == 0);
  CHECK(get(d.outputs, "stdout")->kind == MP_VALUE_UNKNOWN);
  mp_prov_resp_destroy(&d);
  /* Delete runs `delete` with the outputs of the update. */
  q.preview = 0;
  q.olds = u.outputs;
  q.news = NULL;
  mp_prov_resp_init(&d);
  CHECK(call(p, OP_DELETE, &q, &d, &e) == 0);
  f = fopen(path, "r");
  CHECK(f != NULL);
  if (f) {
    CHECK(fgets(line, sizeof(line), f) != NULL);
    fclose(f);
  }
  CHECK_STR(line, "gone was=v1/e1\n");
  mp_prov_resp_destroy(&d);
  /* No delete command: nothing to do. */
  mp_value_object_del(u.outputs, "delete");
  mp_prov_resp_init(&d);
  CHECK(call(p, OP_DELETE, &q, &d, &e) == 0);
  mp_prov_resp_destroy(&d);
  /* Failing delete. */
  mp_value_object_set(u.outputs, "delete", mp_value_new_cstring("exit 7"));
  mp_prov_resp_init(&d);
  CHECK(call(p, OP_DELETE, &q, &d, &e) == MP_EPLUGIN);
  CHECK_STR(e.msg, "command exited with status 7: ");
  mp_prov_resp_destroy(&d);
  mp_prov_resp_destroy(&u);
  mp_prov_resp_destroy(&r);
  mp_value_free(news);
  unlink(path);
  free(json);
  mp_provider_free(p);
}

static mp_diff_changes diff(mp_provider *p, const char *olds, const char *news,
                            mp_prov_resp *d) {
  mp_prov_req q;
  mp_err e;
  mp_value *o = J(olds), *n = J(news);
  memset(&q, 0, sizeof(q));
  q.type = TOKEN;
  q.olds = o;
  q.news = n;
  mp_prov_resp_init(d);
  CHECK(call(p, OP_DIFF, &q, d, &e) == 0);
  mp_value_free(o);
  mp_value_free(n);
  return d->changes;
}

static void test_command_diff(void) {
  mp_provider *p = prov_make("command");
  mp_prov_resp d;
  /* Outputs stdout/stderr are not inputs. */
  CHECK(diff(p, "{\"create\":\"a\",\"stdout\":\"x\",\"stderr\":\"\"}",
             "{\"create\":\"a\"}", &d) == MP_DIFF_CHANGES_NONE);
  mp_prov_resp_destroy(&d);
  CHECK(diff(p, "{\"create\":\"a\",\"triggers\":[1]}",
             "{\"create\":\"a\",\"triggers\":[2]}",
             &d) == MP_DIFF_CHANGES_SOME);
  CHECK(d.replaces.len == 1 && !strcmp(d.replaces.items[0], "triggers"));
  mp_prov_resp_destroy(&d);
  /* With `update`: other changes update. */
  CHECK(diff(p, "{\"create\":\"a\",\"update\":\"u\"}",
             "{\"create\":\"b\",\"update\":\"u\"}",
             &d) == MP_DIFF_CHANGES_SOME);
  CHECK(d.replaces.len == 0 && d.diffs.len == 1);
  mp_prov_resp_destroy(&d);
  /* Both: triggers still replace. */
  CHECK(diff(p, "{\"create\":\"a\",\"update\":\"u\",\"triggers\":[1]}",
             "{\"create\":\"b\",\"update\":\"u\",\"triggers\":[]}",
             &d) == MP_DIFF_CHANGES_SOME);
  CHECK(d.replaces.len == 1 && !strcmp(d.replaces.items[0], "triggers"));
  mp_prov_resp_destroy(&d);
  /* Without `update`: replace. */
  CHECK(diff(p, "{\"create\":\"a\"}", "{\"create\":\"b\",\"dir\":\"/\"}", &d) ==
        MP_DIFF_CHANGES_SOME);
  CHECK(d.replaces.len == 2 && mp_strv_contains(&d.replaces, "create") &&
        mp_strv_contains(&d.replaces, "dir"));
  mp_prov_resp_destroy(&d);
  mp_provider_free(p);
}

typedef struct job {
  mp_provider *p;
  int n;
  int ok;
} job;

static void *run_many(void *arg) {
  job *j = arg;
  int i;
  for (i = 0; i < 20; i++) {
    mp_prov_resp r;
    mp_err e;
    char *json =
        mp_xasprintf("{\"create\":\"echo %d-%d\",\"stdin\":\"x\"}", j->n, i);
    char want[32];
    snprintf(want, sizeof(want), "%d-%d", j->n, i);
    mp_prov_resp_init(&r);
    if (create(j->p, json, 0, &r, &e) == 0 &&
        strcmp(get_str(r.outputs, "stdout"), want) == 0)
      j->ok++;
    mp_prov_resp_destroy(&r);
    free(json);
  }
  return NULL;
}

static void test_command_parallel(void) {
  mp_provider *p = prov_make("command");
  pthread_t th[8];
  job jobs[8];
  int i;
  for (i = 0; i < 8; i++) {
    jobs[i].p = p;
    jobs[i].n = i;
    jobs[i].ok = 0;
    pthread_create(&th[i], NULL, run_many, &jobs[i]);
  }
  for (i = 0; i < 8; i++) {
    pthread_join(th[i], NULL);
    CHECK(jobs[i].ok == 20);
  }
  mp_provider_free(p);
}

int main(void) {
  RUN(test_command_create_stdout_stderr);
  RUN(test_command_env_stdin_dir_interpreter);
  RUN(test_command_large_stdin);
  RUN(test_command_failures);
  RUN(test_command_preview_runs_nothing);
  RUN(test_command_update_and_delete);
  RUN(test_command_diff);
  RUN(test_command_parallel);
  return mp_test_summary();
}
