/* Tests of the built-in `test` provider (src/providers/test_provider.c):
 * its world directory, calls.jsonl and the __ inputs that script it. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "providers/prov_test.h"

#define TOKEN "test:index:Resource"
#define URN "urn:pulumi:dev::p::test:index:Resource::r"

/* A configured provider with a fresh world in |dir|. */
static mp_provider *make_world(char *dir) {
  mp_provider *p = prov_make("test");
  mp_prov_resp r;
  mp_prov_req q;
  mp_err e;
  mp_value *cfg;
  char *json;
  if (mkdtemp(dir) == NULL)
    return NULL;
  json = mp_xasprintf("{\"world\":\"%s\"}", dir);
  cfg = J(json);
  memset(&q, 0, sizeof(q));
  q.news = cfg;
  mp_prov_resp_init(&r);
  CHECK(call(p, OP_CONFIGURE, &q, &r, &e) == 0);
  CHECK(r.accept_secrets && r.supports_preview);
  mp_prov_resp_destroy(&r);
  mp_value_free(cfg);
  free(json);
  return p;
}

static void rm_world(const char *dir) {
  char *cmd = mp_xasprintf("rm -rf '%s'", dir);
  CHECK(system(cmd) == 0);
  free(cmd);
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  mp_buf b;
  char chunk[4096];
  size_t n;
  if (f == NULL)
    return NULL;
  mp_buf_init(&b);
  while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
    mp_buf_append(&b, chunk, n);
  fclose(f);
  return mp_buf_detach(&b, NULL);
}

static void spew(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

/* The parsed lines of calls.jsonl (an ARRAY). */
static mp_value *calls(const char *dir) {
  char *path = mp_xasprintf("%s/calls.jsonl", dir);
  char *text = slurp(path), *line, *save = NULL;
  mp_value *arr = mp_value_new_array();
  for (line = text ? strtok_r(text, "\n", &save) : NULL; line;
       line = strtok_r(NULL, "\n", &save)) {
    mp_value *v = NULL;
    mp_err e;
    if (mp_value_from_json(line, strlen(line), NULL, &v, &e) == 0)
      mp_value_array_push(arr, v);
    else
      mp_value_array_push(arr, mp_value_new_cstring("UNPARSABLE"));
  }
  free(text);
  free(path);
  return arr;
}

static int do_op(mp_provider *p, prov_op op, const char *id,
                 const mp_value *olds, const mp_value *news, int preview,
                 mp_prov_resp *r, mp_err *e) {
  mp_prov_req q;
  memset(&q, 0, sizeof(q));
  q.type = TOKEN;
  q.urn = URN;
  q.id = id;
  q.olds = olds;
  q.news = news;
  q.preview = preview;
  mp_prov_resp_init(r);
  return call(p, op, &q, r, e);
}

static void test_test_provider_lifecycle_and_log(void) {
  char dir[] = "/tmp/mp-world-XXXXXX";
  mp_provider *p = make_world(dir);
  mp_prov_resp r, r2, x;
  mp_err e;
  mp_value *in = J("{\"a\":1,\"s\":{\"4dabf18193072939515e22adb298388d\":"
                   "\"1b47061264138c4ac30d75fd1eb44270\",\"plaintext\":"
                   "\"\\\"pw\\\"\"}}");
  mp_value *in2 = J("{\"a\":2}");
  mp_value *log;
  char *path, *text;
  size_t i;
  double last_t = 0;
  CHECK(do_op(p, OP_CHECK, NULL, NULL, in, 0, &x, &e) == 0);
  CHECK(mp_value_equal(x.inputs, in, 0));
  mp_prov_resp_destroy(&x);
  CHECK(do_op(p, OP_CREATE, NULL, NULL, in, 1, &x, &e) == 0);
  CHECK(x.id == NULL && mp_value_equal(x.outputs, in, 0));
  mp_prov_resp_destroy(&x);
  CHECK(do_op(p, OP_CREATE, NULL, NULL, in, 0, &r, &e) == 0);
  CHECK_STR(r.id, "id-1");
  CHECK(mp_value_equal(r.outputs, in, 0));
  /* The world file holds the outputs, secrets included. */
  path = mp_xasprintf("%s/id-1.json", dir);
  text = slurp(path);
  CHECK_CONTAINS(text, "\"a\":1");
  CHECK_CONTAINS(text, "plaintext");
  free(text);
  CHECK(do_op(p, OP_CREATE, NULL, NULL, in2, 0, &r2, &e) == 0);
  CHECK_STR(r2.id, "id-2");
  /* Diff without __replaceKeys: no opinion. */
  CHECK(do_op(p, OP_DIFF, "id-1", r.outputs, in2, 0, &x, &e) == 0);
  CHECK(x.changes == MP_DIFF_CHANGES_UNKNOWN && x.replaces.len == 0);
  mp_prov_resp_destroy(&x);
  CHECK(do_op(p, OP_UPDATE, "id-1", r.outputs, in2, 0, &x, &e) == 0);
  CHECK(mp_value_equal(x.outputs, in2, 0));
  mp_prov_resp_destroy(&x);
  text = slurp(path);
  CHECK_STR(text, "{\"a\":2}");
  free(text);
  /* Read returns the world file; the old inputs stay the inputs. */
  CHECK(do_op(p, OP_READ, "id-1", in2, NULL, 0, &x, &e) == 0);
  CHECK_STR(x.id, "id-1");
  CHECK(mp_value_equal(x.outputs, in2, 0));
  CHECK(mp_value_equal(x.inputs, in2, 0));
  mp_prov_resp_destroy(&x);
  CHECK(do_op(p, OP_DELETE, "id-1", in2, NULL, 0, &x, &e) == 0);
  mp_prov_resp_destroy(&x);
  CHECK(access(path, F_OK) != 0);
  CHECK(do_op(p, OP_DELETE, "id-1", in2, NULL, 0, &x, &e) == 0);
  mp_prov_resp_destroy(&x);
  /* Read after delete: gone. */
  CHECK(do_op(p, OP_READ, "id-1", in2, NULL, 0, &x, &e) == 0);
  CHECK(x.id == NULL && x.outputs == NULL);
  mp_prov_resp_destroy(&x);
  log = calls(dir);
  {
    static const char *const ops[] = {"configure", "check",  "create", "create",
                                      "create",    "diff",   "update", "read",
                                      "delete",    "delete", "read"};
    CHECK(log->u.arr.len == MP_ARRAY_LEN(ops));
    for (i = 0; i < log->u.arr.len && i < MP_ARRAY_LEN(ops); i++) {
      const mp_value *l = log->u.arr.items[i];
      const mp_value *t = get(l, "t");
      CHECK_STR(get_str(l, "op"), ops[i]);
      CHECK(t && t->kind == MP_VALUE_NUMBER && t->u.number >= last_t);
      if (t)
        last_t = t->u.number;
      CHECK(get(l, "preview") && get(l, "preview")->kind == MP_VALUE_BOOL);
      CHECK(get(l, "inputs") != NULL);
    }
    CHECK(get(log->u.arr.items[1], "inputs")->kind == MP_VALUE_OBJECT);
    CHECK_STR(get_str(log->u.arr.items[1], "urn"), URN);
    /* Secrets are logged as plain values. */
    CHECK_STR(get_str(get(log->u.arr.items[1], "inputs"), "s"), "pw");
    CHECK(get(log->u.arr.items[2], "preview")->u.boolean == 1);
    CHECK(get(log->u.arr.items[3], "preview")->u.boolean == 0);
    CHECK(get(log->u.arr.items[2], "id")->kind == MP_VALUE_NULL);
    CHECK_STR(get_str(log->u.arr.items[6], "id"), "id-1");
    CHECK_STR(get_str(get(log->u.arr.items[0], "inputs"), "world"), dir);
  }
  mp_value_free(log);
  mp_prov_resp_destroy(&r);
  mp_prov_resp_destroy(&r2);
  mp_value_free(in);
  mp_value_free(in2);
  free(path);
  rm_world(dir);
  mp_provider_free(p);
}

static void test_test_provider_fail_on(void) {
  char dir[] = "/tmp/mp-world-XXXXXX";
  mp_provider *p = make_world(dir);
  mp_prov_resp x;
  mp_err e;
  mp_value *in = J("{\"__failOn\":[\"create\",\"check\",\"diff\",\"read\"]}");
  mp_value *del = J("{\"__failOn\":[\"delete\",\"update\"]}");
  CHECK(do_op(p, OP_CHECK, NULL, NULL, in, 0, &x, &e) == MP_EPLUGIN);
  CHECK_STR(e.msg, "check failed intentionally");
  mp_prov_resp_destroy(&x);
  CHECK(do_op(p, OP_DIFF, "id-9", in, in, 0, &x, &e) == MP_EPLUGIN);
  CHECK_STR(e.msg, "diff failed intentionally");
  mp_prov_resp_destroy(&x);
  /* Preview does not fail, so that `up` reaches the real create. */
  CHECK(do_op(p, OP_CREATE, NULL, NULL, in, 1, &x, &e) == 0);
  mp_prov_resp_destroy(&x);
  CHECK(do_op(p, OP_CREATE, NULL, NULL, in, 0, &x, &e) == MP_EPLUGIN);
  CHECK_STR(e.msg, "create failed intentionally");
  CHECK(x.id == NULL);
  mp_prov_resp_destroy(&x);
  CHECK(do_op(p, OP_READ, "id-9", in, NULL, 0, &x, &e) == MP_EPLUGIN);
  CHECK_STR(e.msg, "read failed intentionally");
  mp_prov_resp_destroy(&x);
  CHECK(do_op(p, OP_CREATE, NULL, NULL, del, 0, &x, &e) == 0);
  CHECK_STR(x.id, "id-1");
  mp_prov_resp_destroy(&x);
  CHECK(do_op(p, OP_UPDATE, "id-1", del, del, 0, &x, &e) == MP_EPLUGIN);
  CHECK_STR(e.msg, "update failed intentionally");
  mp_prov_resp_destroy(&x);
  CHECK(do_op(p, OP_DELETE, "id-1", del, NULL, 0, &x, &e) == MP_EPLUGIN);
  CHECK_STR(e.msg, "delete failed intentionally");
  mp_prov_resp_destroy(&x);
  mp_value_free(in);
  mp_value_free(del);
  rm_world(dir);
  mp_provider_free(p);
}

static void test_test_provider_replace_keys_dbr(void) {
  char dir[] = "/tmp/mp-world-XXXXXX";
  mp_provider *p = make_world(dir);
  mp_prov_resp x;
  mp_err e;
  mp_value *olds = J("{\"a\":1,\"b\":1,\"__replaceKeys\":[\"a\",\"c\"]}");
  mp_value *nb = J("{\"a\":1,\"b\":2,\"__replaceKeys\":[\"a\",\"c\"]}");
  mp_value *na = J("{\"a\":2,\"b\":1,\"c\":0,\"__replaceKeys\":[\"a\",\"c\"],"
                   "\"__dbr\":true}");
  mp_value *nn = J("{\"a\":2,\"__replaceKeys\":[\"a\"]}");
  CHECK(do_op(p, OP_DIFF, "id-1", olds, nb, 0, &x, &e) == 0);
  CHECK(x.changes == MP_DIFF_CHANGES_UNKNOWN && x.replaces.len == 0);
  mp_prov_resp_destroy(&x);
  CHECK(do_op(p, OP_DIFF, "id-1", olds, na, 0, &x, &e) == 0);
  CHECK(x.changes == MP_DIFF_CHANGES_SOME && x.replaces.len == 2 &&
        mp_strv_contains(&x.replaces, "a") &&
        mp_strv_contains(&x.replaces, "c"));
  CHECK(x.delete_before_replace == 1);
  mp_prov_resp_destroy(&x);
  CHECK(do_op(p, OP_DIFF, "id-1", olds, nn, 0, &x, &e) == 0);
  CHECK(x.changes == MP_DIFF_CHANGES_SOME && x.replaces.len == 1 &&
        x.delete_before_replace == 0);
  mp_prov_resp_destroy(&x);
  mp_value_free(olds);
  mp_value_free(nb);
  mp_value_free(na);
  mp_value_free(nn);
  rm_world(dir);
  mp_provider_free(p);
}

static void test_test_provider_init_error_and_latency(void) {
  char dir[] = "/tmp/mp-world-XXXXXX";
  mp_provider *p = make_world(dir);
  mp_prov_resp x;
  mp_err e;
  mp_value *in = J("{\"v\":1,\"__initError\":\"not ready\"}");
  mp_value *slow = J("{\"__latencyMs\":120}");
  struct timespec a, b;
  double ms;
  char *path;
  CHECK(do_op(p, OP_CREATE, NULL, NULL, in, 0, &x, &e) == MP_EPLUGIN);
  CHECK(x.partial == 1);
  CHECK_STR(x.id, "id-1");
  CHECK(x.outputs && mp_value_equal(x.outputs, in, 0));
  CHECK(x.init_errors.len == 1 &&
        strcmp(x.init_errors.items[0], "not ready") == 0);
  CHECK_CONTAINS(e.msg, "not ready");
  mp_prov_resp_destroy(&x);
  path = mp_xasprintf("%s/id-1.json", dir);
  CHECK(access(path, F_OK) == 0);
  free(path);
  CHECK(do_op(p, OP_UPDATE, "id-1", in, in, 0, &x, &e) == MP_EPLUGIN);
  CHECK(x.partial == 1 && x.init_errors.len == 1);
  mp_prov_resp_destroy(&x);
  clock_gettime(CLOCK_MONOTONIC, &a);
  CHECK(do_op(p, OP_CHECK, NULL, NULL, slow, 0, &x, &e) == 0);
  clock_gettime(CLOCK_MONOTONIC, &b);
  mp_prov_resp_destroy(&x);
  ms = (double)(b.tv_sec - a.tv_sec) * 1e3 +
       (double)(b.tv_nsec - a.tv_nsec) / 1e6;
  CHECK(ms >= 120);
  mp_value_free(in);
  mp_value_free(slow);
  rm_world(dir);
  mp_provider_free(p);
}

/* A `__read` object in the live object scripts Read: another id, other
 * inputs (or none), a partial failure; it is never part of the outputs. */
static void test_test_provider_read_script(void) {
  char dir[] = "/tmp/mp-world-XXXXXX";
  mp_provider *p = make_world(dir);
  mp_prov_resp x;
  mp_err e;
  mp_value *olds = J("{\"k\":1}");
  mp_value *want = J("{\"v\":2}");
  mp_value *ins = J("{\"k\":9}");
  char *path = mp_xasprintf("%s/r-1.json", dir);
  spew(path, "{\"v\":2,\"__read\":{\"id\":\"r-2\",\"inputs\":{\"k\":9}}}");
  mp_prov_req q;
  memset(&q, 0, sizeof(q));
  q.type = TOKEN;
  q.urn = URN;
  q.id = "r-1";
  q.old_inputs = olds;
  mp_prov_resp_init(&x);
  CHECK(call(p, OP_READ, &q, &x, &e) == 0);
  CHECK_STR(x.id, "r-2");
  CHECK(x.inputs && mp_value_equal(x.inputs, ins, 0));
  CHECK(x.outputs && mp_value_equal(x.outputs, want, 0));
  mp_prov_resp_destroy(&x);
  spew(path, "{\"v\":2,\"__read\":{\"inputs\":null,\"initError\":\"sick\"}}");
  mp_prov_resp_init(&x);
  CHECK(call(p, OP_READ, &q, &x, &e) == MP_EPLUGIN);
  CHECK(x.partial == 1 && x.init_errors.len == 1 &&
        strcmp(x.init_errors.items[0], "sick") == 0);
  CHECK_STR(x.id, "r-1");
  CHECK(x.inputs == NULL);
  CHECK(x.outputs && mp_value_equal(x.outputs, want, 0));
  CHECK_CONTAINS(e.msg, "sick");
  mp_prov_resp_destroy(&x);
  free(path);
  mp_value_free(olds);
  mp_value_free(want);
  mp_value_free(ins);
  rm_world(dir);
  mp_provider_free(p);
}

static void test_test_provider_world_config(void) {
  mp_provider *p = prov_make("test");
  mp_prov_resp x;
  mp_prov_req q;
  mp_err e;
  char dir[] = "/tmp/mp-world-XXXXXX";
  mp_value *in = J("{}");
  mp_value *log;
  CHECK(do_op(p, OP_CREATE, NULL, NULL, in, 0, &x, &e) == MP_EINVAL);
  CHECK_CONTAINS(e.msg, "'test:world'");
  CHECK_CONTAINS(e.msg, "MINIPULUMI_TEST_WORLD");
  mp_prov_resp_destroy(&x);
  memset(&q, 0, sizeof(q));
  q.news = in;
  mp_prov_resp_init(&x);
  CHECK(call(p, OP_CHECK_CONFIG, &q, &x, &e) == 0);
  CHECK(has_failure(&x, "world", "needs a world directory"));
  mp_prov_resp_destroy(&x);
  mp_prov_resp_init(&x);
  CHECK(call(p, OP_CONFIGURE, &q, &x, &e) == MP_EINVAL);
  mp_prov_resp_destroy(&x);
  mp_provider_free(p);
  /* The factory's default world (the CLI's $MINIPULUMI_TEST_WORLD) is the
   * fallback. */
  CHECK(mkdtemp(dir) != NULL);
  mp_builtin_opts bo = {.test_world = dir};
  p = prov_make_with("test", &bo);
  mp_prov_resp_init(&x);
  CHECK(call(p, OP_CHECK_CONFIG, &q, &x, &e) == 0 && x.nfailures == 0);
  mp_prov_resp_destroy(&x);
  mp_prov_resp_init(&x);
  CHECK(call(p, OP_DIFF_CONFIG, &q, &x, &e) == 0);
  mp_prov_resp_destroy(&x);
  mp_prov_resp_init(&x);
  CHECK(call(p, OP_CONFIGURE, &q, &x, &e) == 0);
  mp_prov_resp_destroy(&x);
  CHECK(do_op(p, OP_CREATE, NULL, NULL, in, 0, &x, &e) == 0);
  CHECK_STR(x.id, "id-1");
  mp_prov_resp_destroy(&x);
  /* A bad id is refused rather than escaping the world. */
  CHECK(do_op(p, OP_DELETE, "../etc/x", in, NULL, 0, &x, &e) == MP_EINVAL);
  CHECK_CONTAINS(e.msg, "invalid test resource id");
  mp_prov_resp_destroy(&x);
  log = calls(dir);
  CHECK(log->u.arr.len == 5);
  if (log->u.arr.len == 5) {
    CHECK_STR(get_str(log->u.arr.items[0], "op"), "checkConfig");
    CHECK_STR(get_str(log->u.arr.items[1], "op"), "diffConfig");
    CHECK_STR(get_str(log->u.arr.items[2], "op"), "configure");
    CHECK_STR(get_str(log->u.arr.items[3], "op"), "create");
  }
  mp_value_free(log);
  mp_value_free(in);
  rm_world(dir);
  mp_provider_free(p);
}

typedef struct worker {
  mp_provider *p;
  char ids[50][32];
  int failed;
} worker;

static void *create_many(void *arg) {
  worker *w = arg;
  mp_value *in = mp_value_new_object();
  int i;
  mp_value_object_set(
      in, "pad",
      mp_value_new_cstring("a fairly long value so that the log lines are not "
                           "tiny ..........."));
  for (i = 0; i < 50; i++) {
    mp_prov_resp x;
    mp_err e;
    if (do_op(w->p, OP_CREATE, NULL, NULL, in, 0, &x, &e) == 0 && x.id)
      snprintf(w->ids[i], sizeof(w->ids[i]), "%s", x.id);
    else
      w->failed++;
    mp_prov_resp_destroy(&x);
  }
  mp_value_free(in);
  return NULL;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp((const char *)a, (const char *)b);
}

static void test_test_provider_parallel_ids(void) {
  char dir[] = "/tmp/mp-world-XXXXXX";
  mp_provider *p = make_world(dir);
  pthread_t th[8];
  worker *w = mp_xcalloc(8, sizeof(*w));
  char(*all)[32] = mp_xcalloc(400, 32);
  mp_value *log;
  size_t i, creates = 0;
  for (i = 0; i < 8; i++) {
    w[i].p = p;
    pthread_create(&th[i], NULL, create_many, &w[i]);
  }
  for (i = 0; i < 8; i++) {
    pthread_join(th[i], NULL);
    CHECK(w[i].failed == 0);
    memcpy(all + i * 50, w[i].ids, sizeof(w[i].ids));
  }
  qsort(all, 400, 32, cmp_str);
  for (i = 1; i < 400; i++)
    CHECK(strcmp(all[i - 1], all[i]) != 0);
  CHECK(strcmp(all[0], "id-1") == 0);
  log = calls(dir);
  CHECK(log->u.arr.len == 401); /* configure + 400 creates */
  for (i = 0; i < log->u.arr.len; i++) {
    const char *op = get_str(log->u.arr.items[i], "op");
    if (op && strcmp(op, "create") == 0)
      creates++;
  }
  CHECK(creates == 400);
  mp_value_free(log);
  free(all);
  free(w);
  rm_world(dir);
  mp_provider_free(p);
}

int main(void) {
  RUN(test_test_provider_lifecycle_and_log);
  RUN(test_test_provider_fail_on);
  RUN(test_test_provider_replace_keys_dbr);
  RUN(test_test_provider_init_error_and_latency);
  RUN(test_test_provider_read_script);
  RUN(test_test_provider_world_config);
  RUN(test_test_provider_parallel_ids);
  return mp_test_summary();
}
