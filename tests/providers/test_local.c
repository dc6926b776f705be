/* Tests of the built-in `local` provider (src/providers/local.c) against
 * files in a temporary directory. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/crypto.h"
#include "providers/local_int.h"
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

/* ---- ownership, file kinds and spellings (issue: lost and clobbered
 * files). Everything happens in a temporary folder: a FIFO, a symbolic
 * link and a file made beforehand stand for what the stack does not own;
 * no real device is touched. ---- */

/* Calls |op| with |news| (and |olds| as the old state) on |p|. */
static int call_file(mp_provider *p, prov_op op, const mp_value *olds,
                     const mp_value *news, const char *id, mp_prov_resp *r,
                     mp_err *e) {
  mp_prov_req q;
  init_req(&q);
  q.olds = olds;
  q.old_inputs = olds;
  q.news = news;
  q.id = id;
  mp_prov_resp_init(r);
  return call(p, op, &q, r, e);
}

static void test_local_clean_paths(void) {
  static const char *const cases[][2] = {
      {"out.txt", "out.txt"},       {"./out.txt", "out.txt"},
      {"a//b/./c/", "a/b/c"},       {"a/../out.txt", "out.txt"},
      {"../x", "../x"},             {"../a/..", ".."},
      {"a/b/../../..", ".."},       {"/../x", "/x"},
      {"/a/b/..", "/a"},            {"", "."},
      {".", "."},                   {"/", "/"},
      {"//a///b", "/a/b"},          {"a/./../../b/c/..", "../b"}};
  for (size_t i = 0; i < MP_ARRAY_LEN(cases); i++) {
    char *c = mp__local_clean(cases[i][0]);
    CHECK_STR(c, cases[i][1]);
    free(c);
  }
}

/* `out.txt`, `./out.txt`, `sub/../out.txt` and the absolute path name one
 * file: Diff sees no change and no replacement (the replacement's delete
 * used to remove the file the create had just written). */
static void test_local_same_file_is_same_resource(void) {
  mp_provider *p = prov_make("local");
  char dir[] = "/tmp/mp-local-XXXXXX";
  char *cwd = getcwd(NULL, 0);
  CHECK(mkdtemp(dir) != NULL && chdir(dir) == 0);
  CHECK(mkdir("sub", 0755) == 0);
  char *abs = mp_xasprintf("%s/out.txt", dir);
  const char *spellings[] = {"./out.txt", "sub/../out.txt", abs, "out.txt"};
  mp_value *old = file_inputs("out.txt", "x", NULL);
  for (size_t i = 0; i < MP_ARRAY_LEN(spellings); i++) {
    mp_value *nw = file_inputs(spellings[i], "x", NULL);
    mp_prov_resp r;
    mp_err e;
    CHECK(call_file(p, OP_DIFF, old, nw, "out.txt", &r, &e) == 0);
    CHECK(r.changes == MP_DIFF_CHANGES_NONE && r.replaces.len == 0);
    /* Should a replacement come anyway, the old file goes first. */
    CHECK(r.delete_before_replace == 1);
    mp_prov_resp_destroy(&r);
    mp_value_free(nw);
  }
  mp_value *moved = file_inputs("other.txt", "x", NULL);
  mp_prov_resp r;
  mp_err e;
  CHECK(call_file(p, OP_DIFF, old, moved, "out.txt", &r, &e) == 0);
  CHECK(r.replaces.len == 1 && !strcmp(r.replaces.items[0], "path"));
  CHECK(r.delete_before_replace == 0);
  mp_prov_resp_destroy(&r);
  mp_value_free(moved);
  /* An update that respells the path keeps the file. */
  mp_value *nw = file_inputs("./out.txt", "y", NULL);
  CHECK(call_file(p, OP_CREATE, NULL, old, NULL, &r, &e) == 0);
  mp_value *outs = r.outputs;
  r.outputs = NULL;
  mp_prov_resp_destroy(&r);
  CHECK(call_file(p, OP_UPDATE, outs, nw, "out.txt", &r, &e) == 0);
  char *text = slurp("out.txt");
  CHECK_STR(text, "y");
  free(text);
  mp_prov_resp_destroy(&r);
  mp_value_free(outs);
  mp_value_free(nw);
  mp_value_free(old);
  unlink("out.txt");
  rmdir("sub");
  CHECK(chdir(cwd) == 0);
  rmdir(dir);
  free(cwd);
  free(abs);
  mp_provider_free(p);
}

/* Create refuses a file it did not write unless `overwrite: true`, and
 * never writes over anything but a regular file. */
static void test_local_create_refuses_what_it_does_not_own(void) {
  mp_provider *p = prov_make("local");
  char dir[] = "/tmp/mp-local-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char *mine = mp_xasprintf("%s/theirs.txt", dir);
  char *fifo = mp_xasprintf("%s/fifo", dir);
  char *target = mp_xasprintf("%s/target.txt", dir);
  char *link = mp_xasprintf("%s/link.txt", dir);
  spit(mine, "keep me");
  spit(target, "link target");
  CHECK(mkfifo(fifo, 0644) == 0);
  CHECK(symlink(target, link) == 0);
  mp_prov_resp r;
  mp_err e;
  mp_value *in = file_inputs(mine, "new", NULL);
  CHECK(call_file(p, OP_CREATE, NULL, in, NULL, &r, &e) == MP_EPLUGIN);
  CHECK_CONTAINS(e.msg, "already exists and this stack did not create it");
  CHECK_CONTAINS(e.msg, "`overwrite: true`");
  CHECK(r.id == NULL);
  mp_prov_resp_destroy(&r);
  char *text = slurp(mine);
  CHECK_STR(text, "keep me");
  free(text);
  mp_value_object_set(in, "overwrite", mp_value_new_bool(1));
  CHECK(call_file(p, OP_CREATE, NULL, in, NULL, &r, &e) == 0);
  mp_prov_resp_destroy(&r);
  text = slurp(mine);
  CHECK_STR(text, "new");
  free(text);
  mp_value_free(in);
  const char *others[][2] = {{fifo, "is a FIFO, not a regular file"},
                             {link, "is a symbolic link, not a regular file"},
                             {dir, "is a directory, not a regular file"}};
  for (size_t i = 0; i < MP_ARRAY_LEN(others); i++) {
    in = file_inputs(others[i][0], "x", NULL);
    mp_value_object_set(in, "overwrite", mp_value_new_bool(1));
    CHECK(call_file(p, OP_CREATE, NULL, in, NULL, &r, &e) == MP_EPLUGIN);
    CHECK_CONTAINS(e.msg, others[i][1]);
    mp_prov_resp_destroy(&r);
    mp_value_free(in);
  }
  struct stat st;
  CHECK(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
  CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
  text = slurp(target);
  CHECK_STR(text, "link target");
  free(text);
  /* Reading never follows the link nor blocks on the FIFO. */
  CHECK(call_file(p, OP_READ, NULL, NULL, fifo, &r, &e) == MP_EPLUGIN);
  CHECK_CONTAINS(e.msg, "is a FIFO");
  mp_prov_resp_destroy(&r);
  CHECK(call_file(p, OP_READ, NULL, NULL, link, &r, &e) == MP_EPLUGIN);
  CHECK_CONTAINS(e.msg, "is a symbolic link");
  mp_prov_resp_destroy(&r);
  unlink(mine);
  unlink(fifo);
  unlink(link);
  unlink(target);
  rmdir(dir);
  free(mine);
  free(fifo);
  free(target);
  free(link);
  mp_provider_free(p);
}

/* Delete removes only the regular file it wrote, with the content it
 * wrote; anything else is left with a warning. */
static void test_local_delete_only_what_it_wrote(void) {
  mp_provider *p = prov_make("local");
  char dir[] = "/tmp/mp-local-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char *path = mp_xasprintf("%s/f.txt", dir);
  mp_value *in = file_inputs(path, "written", NULL);
  mp_prov_resp r;
  mp_err e;
  /* 1: changed by someone else since. */
  CHECK(call_file(p, OP_CREATE, NULL, in, NULL, &r, &e) == 0);
  mp_value *outs = r.outputs;
  r.outputs = NULL;
  mp_prov_resp_destroy(&r);
  spit(path, "edited by hand");
  CHECK(call_file(p, OP_DELETE, outs, NULL, path, &r, &e) == 0);
  CHECK(r.warnings.len == 1);
  CHECK_CONTAINS(r.warnings.len ? r.warnings.items[0] : "",
                 "changed since this stack wrote it; it was left in place");
  mp_prov_resp_destroy(&r);
  char *text = slurp(path);
  CHECK_STR(text, "edited by hand");
  free(text);
  /* 2: replaced by a FIFO, then by a symbolic link. */
  unlink(path);
  CHECK(mkfifo(path, 0644) == 0);
  CHECK(call_file(p, OP_DELETE, outs, NULL, path, &r, &e) == 0);
  CHECK(r.warnings.len == 1);
  CHECK_CONTAINS(r.warnings.len ? r.warnings.items[0] : "", "is a FIFO");
  mp_prov_resp_destroy(&r);
  struct stat st;
  CHECK(lstat(path, &st) == 0 && S_ISFIFO(st.st_mode));
  unlink(path);
  char *other = mp_xasprintf("%s/other.txt", dir);
  spit(other, "written");
  CHECK(symlink(other, path) == 0);
  CHECK(call_file(p, OP_DELETE, outs, NULL, path, &r, &e) == 0);
  CHECK(r.warnings.len == 1);
  mp_prov_resp_destroy(&r);
  CHECK(lstat(path, &st) == 0 && S_ISLNK(st.st_mode));
  CHECK(access(other, F_OK) == 0);
  unlink(path);
  /* 3: unchanged: deleted, without a word; then gone: nothing to do. */
  spit(path, "written");
  CHECK(call_file(p, OP_DELETE, outs, NULL, path, &r, &e) == 0);
  CHECK(r.warnings.len == 0);
  mp_prov_resp_destroy(&r);
  CHECK(access(path, F_OK) != 0);
  CHECK(call_file(p, OP_DELETE, outs, NULL, path, &r, &e) == 0);
  CHECK(r.warnings.len == 0);
  mp_prov_resp_destroy(&r);
  unlink(other);
  rmdir(dir);
  free(other);
  free(path);
  mp_value_free(outs);
  mp_value_free(in);
  mp_provider_free(p);
}

/* A folder reached through a symbolic link is written into, and the
 * provider says where the file really went. */
static void test_local_symlinked_folder_is_named(void) {
  mp_provider *p = prov_make("local");
  char dir[] = "/tmp/mp-local-XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char *real = mp_xasprintf("%s/real", dir);
  char *via = mp_xasprintf("%s/via", dir);
  char *path = mp_xasprintf("%s/via/f.txt", dir);
  CHECK(mkdir(real, 0755) == 0 && symlink(real, via) == 0);
  mp_value *in = file_inputs(path, "x", NULL);
  mp_prov_resp r;
  mp_err e;
  CHECK(call_file(p, OP_CREATE, NULL, in, NULL, &r, &e) == 0);
  CHECK(r.warnings.len == 1);
  char *want = mp_xasprintf("the file is written at '%s/real/f.txt'", dir);
  CHECK_CONTAINS(r.warnings.len ? r.warnings.items[0] : "", want);
  mp_prov_resp_destroy(&r);
  char *inreal = mp_xasprintf("%s/f.txt", real);
  CHECK(access(inreal, F_OK) == 0);
  unlink(inreal);
  unlink(via);
  rmdir(real);
  rmdir(dir);
  free(inreal);
  free(want);
  free(real);
  free(via);
  free(path);
  mp_value_free(in);
  mp_provider_free(p);
}

int main(void) {
  RUN(test_local_create_update_delete);
  RUN(test_local_read_drift_gone_import);
  RUN(test_local_read_mode_drift);
  RUN(test_local_check_diff_errors);
  RUN(test_local_clean_paths);
  RUN(test_local_same_file_is_same_resource);
  RUN(test_local_create_refuses_what_it_does_not_own);
  RUN(test_local_delete_only_what_it_wrote);
  RUN(test_local_symlinked_folder_is_named);
  return mp_test_summary();
}
