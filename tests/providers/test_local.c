/* Tests of the built-in `local` provider (src/providers/local.c) against
 * files in a temporary directory. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/crypto.h"
#include "providers/prov_test.h"

#define TOKEN "local:index:File"

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

static void spit(const char *path, const char *s) {
  FILE *f = fopen(path, "wb");
  if (f) {
    fputs(s, f);
    fclose(f);
  }
}

static int count_entries(const char *dir) {
  DIR *d = opendir(dir);
  struct dirent *de;
  int n = 0;
  if (d == NULL)
    return -1;
  while ((de = readdir(d)) != NULL)
    if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
      n++;
  closedir(d);
  return n;
}

static mp_value *file_inputs(const char *path, const char *content,
                             const char *mode) {
  mp_value *v = mp_value_new_object();
  mp_value_object_set(v, "path", mp_value_new_cstring(path));
  if (content)
    mp_value_object_set(v, "content", mp_value_new_cstring(content));
  if (mode)
    mp_value_object_set(v, "mode", mp_value_new_cstring(mode));
  return v;
}

static void init_req(mp_prov_req *q) {
  memset(q, 0, sizeof(*q));
  q->type = TOKEN;
  q->urn = "urn:pulumi:dev::p::local:index:File::f";
}

static void test_local_create_update_delete(void) {
  mp_provider *p = prov_make("local");
  char dir[] = "/tmp/mp-local-XXXXXX", hex[65];
  char *path, *text;
  mp_prov_resp r, u, d;
  mp_prov_req q;
  mp_err e;
  mp_value *in, *in2;
  struct stat st;
  CHECK(mkdtemp(dir) != NULL);
  path = mp_xasprintf("%s/a.txt", dir);
  in = file_inputs(path, "hello\n", "0600");
  init_req(&q);
  q.news = in;
  mp_prov_resp_init(&r);
  CHECK(call(p, OP_CHECK, &q, &r, &e) == 0 && r.nfailures == 0);
  mp_prov_resp_destroy(&r);
  /* Preview writes nothing but knows the hash. */
  q.preview = 1;
  mp_prov_resp_init(&r);
  CHECK(call(p, OP_CREATE, &q, &r, &e) == 0);
  CHECK(access(path, F_OK) != 0 && r.id == NULL);
  mp_sha256_hex("hello\n", 6, hex);
  CHECK_STR(get_str(r.outputs, "sha256"), hex);
  mp_prov_resp_destroy(&r);
  q.preview = 0;
  mp_prov_resp_init(&r);
  CHECK(call(p, OP_CREATE, &q, &r, &e) == 0);
  CHECK_STR(r.id, path);
  text = slurp(path);
  CHECK_STR(text, "hello\n");
  free(text);
  CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0600);
  CHECK_STR(get_str(r.outputs, "sha256"), hex);
  CHECK_STR(get_str(r.outputs, "content"), "hello\n");
  CHECK(count_entries(dir) == 1); /* no temporary file left behind */
  /* Update: new content and mode. */
  in2 = file_inputs(path, "bye", "0640");
  q.id = r.id;
  q.olds = r.outputs;
  q.news = in2;
  mp_prov_resp_init(&u);
  CHECK(call(p, OP_UPDATE, &q, &u, &e) == 0);
  text = slurp(path);
  CHECK_STR(text, "bye");
  free(text);
  CHECK(stat(path, &st) == 0 && (st.st_mode & 0777) == 0640);
  mp_sha256_hex("bye", 3, hex);
  CHECK_STR(get_str(u.outputs, "sha256"), hex);
  CHECK(count_entries(dir) == 1);
  /* Delete, twice: the second finds nothing and is fine. */
  q.olds = u.outputs;
  q.news = NULL;
  mp_prov_resp_init(&d);
  CHECK(call(p, OP_DELETE, &q, &d, &e) == 0);
  CHECK(access(path, F_OK) != 0);
  CHECK(call(p, OP_DELETE, &q, &d, &e) == 0);
  mp_prov_resp_destroy(&d);
  mp_prov_resp_destroy(&u);
  mp_prov_resp_destroy(&r);
  mp_value_free(in);
  mp_value_free(in2);
  rmdir(dir);
  free(path);
  mp_provider_free(p);
}

static void test_local_read_drift_gone_import(void) {
  mp_provider *p = prov_make("local");
  char dir[] = "/tmp/mp-local-XXXXXX", hex[65];
  char *path;
  mp_prov_resp r, rd;
  mp_prov_req q;
  mp_err e;
  mp_value *in;
  CHECK(mkdtemp(dir) != NULL);
  path = mp_xasprintf("%s/b.txt", dir);
  in = file_inputs(path, "one", NULL);
  init_req(&q);
  q.news = in;
  mp_prov_resp_init(&r);
  CHECK(call(p, OP_CREATE, &q, &r, &e) == 0);
  /* Unchanged: Read reports the same. */
  q.id = r.id;
  q.olds = r.outputs;
  q.old_inputs = in;
  q.news = NULL;
  mp_prov_resp_init(&rd);
  CHECK(call(p, OP_READ, &q, &rd, &e) == 0);
  CHECK_STR(rd.id, path);
  CHECK(mp_value_equal(rd.outputs, r.outputs, 0));
  CHECK(mp_value_equal(rd.inputs, in, 0));
  mp_prov_resp_destroy(&rd);
  /* Drift: someone edits the file. */
  spit(path, "two!");
  mp_prov_resp_init(&rd);
  CHECK(call(p, OP_READ, &q, &rd, &e) == 0);
  CHECK_STR(get_str(rd.outputs, "content"), "two!");
  CHECK_STR(get_str(rd.inputs, "content"), "two!");
  mp_sha256_hex("two!", 4, hex);
  CHECK_STR(get_str(rd.outputs, "sha256"), hex);
  CHECK(get(rd.inputs, "sha256") == NULL);
  mp_prov_resp_destroy(&rd);
  /* Import: only the id. */
  init_req(&q);
  q.id = path;
  mp_prov_resp_init(&rd);
  CHECK(call(p, OP_READ, &q, &rd, &e) == 0);
  CHECK_STR(rd.id, path);
  CHECK_STR(get_str(rd.inputs, "path"), path);
  CHECK_STR(get_str(rd.inputs, "content"), "two!");
  CHECK_STR(get_str(rd.outputs, "sha256"), hex);
  mp_prov_resp_destroy(&rd);
  /* Gone. */
  unlink(path);
  mp_prov_resp_init(&rd);
  CHECK(call(p, OP_READ, &q, &rd, &e) == 0);
  CHECK(rd.id == NULL && rd.outputs == NULL);
  mp_prov_resp_destroy(&rd);
  mp_prov_resp_destroy(&r);
  mp_value_free(in);
  rmdir(dir);
  free(path);
  mp_provider_free(p);
}

static void test_local_read_mode_drift(void) {
  mp_provider *p = prov_make("local");
  char dir[] = "/tmp/mp-local-XXXXXX";
  char *path;
  mp_prov_resp r, rd;
  mp_prov_req q;
  mp_err e;
  mp_value *in;
  CHECK(mkdtemp(dir) != NULL);
  path = mp_xasprintf("%s/m.txt", dir);
  in = file_inputs(path, "x", "0644");
  init_req(&q);
  q.news = in;
  mp_prov_resp_init(&r);
  CHECK(call(p, OP_CREATE, &q, &r, &e) == 0);
  CHECK(chmod(path, 0600) == 0);
  q.id = r.id;
  q.olds = r.outputs;
  q.old_inputs = in;
  mp_prov_resp_init(&rd);
  CHECK(call(p, OP_READ, &q, &rd, &e) == 0);
  CHECK_STR(get_str(rd.outputs, "mode"), "0600");
  CHECK_STR(get_str(rd.inputs, "mode"), "0600");
  mp_prov_resp_destroy(&rd);
  mp_prov_resp_destroy(&r);
  mp_value_free(in);
  unlink(path);
  rmdir(dir);
  free(path);
  mp_provider_free(p);
}

static void test_local_check_diff_errors(void) {
  mp_provider *p = prov_make("local");
  mp_prov_resp r;
  mp_prov_req q;
  mp_err e;
  mp_value *a = J("{\"path\":\"/tmp/x\",\"content\":\"1\"}");
  mp_value *b = J("{\"path\":\"/tmp/x\",\"content\":\"2\",\"mode\":\"0600\"}");
  mp_value *c = J("{\"path\":\"/tmp/y\",\"content\":\"1\"}");
  mp_value *bad = J("{\"content\":5,\"mode\":\"9z\"}");
  mp_value *nodir = J("{\"path\":\"/dev/null/dir/f\",\"content\":\"\"}");
  init_req(&q);
  q.news = bad;
  mp_prov_resp_init(&r);
  CHECK(call(p, OP_CHECK, &q, &r, &e) == 0);
  CHECK(has_failure(&r, "path", "missing required property"));
  CHECK(has_failure(&r, "content", "expected a string"));
  CHECK(has_failure(&r, "mode", "octal"));
  mp_prov_resp_destroy(&r);
  q.olds = a;
  q.news = a;
  mp_prov_resp_init(&r);
  CHECK(call(p, OP_DIFF, &q, &r, &e) == 0);
  CHECK(r.changes == MP_DIFF_CHANGES_NONE);
  mp_prov_resp_destroy(&r);
  q.news = b;
  mp_prov_resp_init(&r);
  CHECK(call(p, OP_DIFF, &q, &r, &e) == 0);
  CHECK(r.changes == MP_DIFF_CHANGES_SOME && r.replaces.len == 0 &&
        r.diffs.len == 2);
  mp_prov_resp_destroy(&r);
  q.news = c;
  mp_prov_resp_init(&r);
  CHECK(call(p, OP_DIFF, &q, &r, &e) == 0);
  CHECK(r.changes == MP_DIFF_CHANGES_SOME && r.replaces.len == 1 &&
        strcmp(r.replaces.items[0], "path") == 0);
  mp_prov_resp_destroy(&r);
  init_req(&q);
  q.news = nodir;
  mp_prov_resp_init(&r);
  CHECK(call(p, OP_CREATE, &q, &r, &e) == MP_EPLUGIN);
  CHECK_CONTAINS(e.msg, "cannot write '/dev/null/dir/f'");
  CHECK(r.id == NULL);
  mp_prov_resp_destroy(&r);
  mp_value_free(a);
  mp_value_free(b);
  mp_value_free(c);
  mp_value_free(bad);
  mp_value_free(nodir);
  mp_provider_free(p);
}

int main(void) {
  RUN(test_local_create_update_delete);
  RUN(test_local_read_drift_gone_import);
  RUN(test_local_read_mode_drift);
  RUN(test_local_check_diff_errors);
  return mp_test_summary();
}
