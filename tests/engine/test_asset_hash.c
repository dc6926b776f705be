/* Tests for src/engine/asset_hash.c: the hashes Pulumi's monitor gives
 * the assets and archives a program registers. The archive hashes are
 * those Pulumi's own tests state (asset_test.go, the language test
 * l2-resource-asset-archive) or, for the other cases, those
 * tests/engine/go_tar_hash.py reckons from Go's archive/tar rules (and
 * which Go 1.19's own archive/tar, given the headers Pulumi gives it,
 * was seen to write on 2026-11-27). */
#include "engine/asset_hash.h"

#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/crypto.h"
#include "testutil.h"

/* sha256("the asset contents"), as l2-resource-any expects it. */
#define HASH "70577d90d7d5e094513e114ab32d343a62fe8afbc917dc81656b1a6ee663bd74"
/* sha256("text"): the language test's test.txt */
#define TEXT_HASH "982d9e3eb996f559e633f4d194def3761d909f5a3b647d1a851fead67c32c9d1"

/* go_tar_hash.py's cases */
#define PULUMI_FOO "27ab4a14a617df10cff3e1cf4e30cf510302afe56bf4cc91f84041c9f7b62fd8"
#define EMPTY_TAR "5f70bf18a086007016e948b04aed3b82103a36bea41755b6cddfaf10ace3c6ef"
#define FOLDER "25df47ed6b3c8e07479e5d9c908eff93d624ec693b6aa7559a9bcb084db70774"
#define ASSARC "c2d23db995a733f0e6526dad4ad51914b4575fc1d62e4226dbbe9fdc5b01cce4"
#define WALK "72e68a04023976bd7635273c6301bb4afb79fbfc05cf08d47ac4b3172bae7483"
#define DEDUP "04cc61046012516434ead972fc2a4750f7eaca52fa46497e1b5031483a3d4d25"
#define NAMES "dc28c992842bfbf6b6eecfa18638722024cbdeada5979a6ea50bfad99c5251bb"
#define NESTED "7bec790b85521b41e36a6f40b53ca73d1633b85264219da3b529352c1b571b71"

static char dir[256];

static char *at(const char *rel) { return mp_xasprintf("%s/%s", dir, rel); }

static void write_file(const char *rel, const char *text) {
  char *p = at(rel);
  for (char *s = strchr(p + strlen(dir) + 1, '/'); s; s = strchr(s + 1, '/')) {
    *s = '\0';
    mkdir(p, 0755);
    *s = '/';
  }
  FILE *f = fopen(p, "wb");
  fputs(text, f);
  fclose(f);
  free(p);
}

/* An archive file of |n| (name, text) pairs, written with libarchive:
 * tar (with a folder entry ahead), gzip'd tar, or ZIP. */
static void write_archive(const char *rel, const char *fmt, const char **m,
                          size_t n) {
  char *p = at(rel);
  struct archive *a = archive_write_new();
  if (strcmp(fmt, "zip") == 0) {
    archive_write_set_format_zip(a);
  } else {
    archive_write_set_format_pax_restricted(a);
    if (strcmp(fmt, "tgz") == 0) archive_write_add_filter_gzip(a);
  }
  archive_write_open_filename(a, p);
  struct archive_entry *e = archive_entry_new();
  archive_entry_set_pathname(e, "x/");
  archive_entry_set_filetype(e, AE_IFDIR);
  archive_entry_set_perm(e, 0755);
  archive_write_header(a, e);
  for (size_t i = 0; i < n; i++) {
    archive_entry_clear(e);
    archive_entry_set_pathname(e, m[2 * i]);
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_entry_set_size(e, (la_int64_t)strlen(m[2 * i + 1]));
    archive_write_header(a, e);
    archive_write_data(a, m[2 * i + 1], strlen(m[2 * i + 1]));
  }
  archive_entry_free(e);
  archive_write_close(a);
  archive_write_free(a);
  free(p);
}

static mp_asset_hash_opts opts(void) {
  mp_asset_hash_opts o = {dir, NULL, NULL};
  return o;
}

/* The hash |v| gets (owned), or NULL with the error printed. */
static char *hash_of(mp_value *v, const mp_asset_hash_opts *o) {
  mp_err err;
  mp_err_clear(&err);
  if (mp_value_hash_assets(v, o, &err) < 0) {
    fprintf(stderr, "  error: %s\n", err.msg);
    return NULL;
  }
  const char *h = v->kind == MP_VALUE_ASSET ? v->u.asset.hash : v->u.archive.hash;
  return mp_xstrdup(h);
}

static void check_hash(mp_value *v, const char *want) {
  mp_asset_hash_opts o = opts();
  char *got = hash_of(v, &o);
  CHECK_STR(got, want);
  free(got);
  mp_value_free(v);
}

static void test_text_asset_gets_its_hash(void) {
  mp_value *v = mp_value_new_asset(NULL, "the asset contents", NULL, NULL);
  mp_value_hash_text_assets(v);
  CHECK_STR(v->u.asset.hash, HASH);
  mp_value_free(v);
  check_hash(mp_value_new_asset(NULL, "the asset contents", NULL, NULL), HASH);
}

static void test_nested_text_assets(void) {
  mp_value *obj = mp_value_new_object();
  mp_value *arr = mp_value_new_array();
  mp_value_array_push(arr, mp_value_new_secret(
                               mp_value_new_asset(NULL, "the asset contents", NULL, NULL)));
  mp_value_object_set(obj, "list", arr);
  mp_value_object_set(obj, "kept", mp_value_new_asset("given", "x", NULL, NULL));
  mp_value_object_set(obj, "path", mp_value_new_asset(NULL, NULL, "a.txt", NULL));
  mp_value_hash_text_assets(obj);
  const mp_value *l = mp_value_object_get(obj, "list");
  CHECK_STR(l->u.arr.items[0]->u.secret->u.asset.hash, HASH);
  CHECK_STR(mp_value_object_get(obj, "kept")->u.asset.hash, "given");
  CHECK(mp_value_object_get(obj, "path")->u.asset.hash == NULL);
  mp_value_free(obj);
}

/* A path asset: its file's bytes, from the working directory. */
static void test_path_asset(void) {
  write_file("sub/test.txt", "text");
  check_hash(mp_value_new_asset(NULL, NULL, "sub/../sub/test.txt", NULL),
             TEXT_HASH);
  char *abs = at("sub/test.txt");
  check_hash(mp_value_new_asset(NULL, NULL, abs, NULL), TEXT_HASH);
  char *uri = mp_xasprintf("file://%s", abs);
  check_hash(mp_value_new_asset(NULL, NULL, NULL, uri), TEXT_HASH);
  free(uri);
  free(abs);
}

static void test_pulumis_own_values(void) {
  mp_value *assets = mp_value_new_object();
  mp_value_object_set(assets, "foo",
                      mp_value_new_asset(NULL, "a test asset", NULL, NULL));
  check_hash(mp_value_new_archive(NULL, assets, NULL, NULL), PULUMI_FOO);
  check_hash(mp_value_new_archive(NULL, mp_value_new_object(), NULL, NULL),
             EMPTY_TAR);
  check_hash(mp_value_new_archive(NULL, NULL, NULL, NULL), EMPTY_TAR);
}

/* The language test's values: a folder (its tar), a .tar file (its
 * bytes) and a map of both with a text and a file asset. */
static void test_language_test_values(void) {
  write_file("folder/test.txt", "data in a folder");
  const char *m[] = {"x/data.txt", "text"};
  write_archive("archive.tar", "tar", m, 1);
  check_hash(mp_value_new_archive(NULL, NULL, "folder", NULL), FOLDER);
  char *p = at("archive.tar"), *bytes = NULL;
  FILE *f = fopen(p, "rb");
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  bytes = malloc((size_t)n);
  CHECK(fread(bytes, 1, (size_t)n, f) == (size_t)n);
  fclose(f);
  char want[65];
  mp_sha256_hex(bytes, (size_t)n, want);
  free(bytes);
  free(p);
  check_hash(mp_value_new_archive(NULL, NULL, "archive.tar", NULL), want);

  /* archive.tar as the language test has it: its member is dir/data.txt */
  const char *m2[] = {"dir/data.txt", "data"};
  write_archive("archive.tar", "tar", m2, 1);
  write_file("test.txt", "text");
  mp_value *assets = mp_value_new_object();
  mp_value_object_set(assets, "string",
                      mp_value_new_asset(NULL, "file contents", NULL, NULL));
  mp_value_object_set(assets, "file", mp_value_new_asset(NULL, NULL, "test.txt", NULL));
  mp_value_object_set(assets, "folder",
                      mp_value_new_archive(NULL, NULL, "folder", NULL));
  mp_value_object_set(assets, "archive",
                      mp_value_new_archive(NULL, NULL, "archive.tar", NULL));
  mp_value *arc = mp_value_new_archive(NULL, assets, NULL, NULL);
  mp_asset_hash_opts o = opts();
  char *got = hash_of(arc, &o);
  CHECK_STR(got, ASSARC);
  /* its members got theirs first */
  CHECK_STR(mp_value_object_get(arc->u.archive.assets, "file")->u.asset.hash,
            TEXT_HASH);
  CHECK_STR(mp_value_object_get(arc->u.archive.assets, "folder")->u.archive.hash,
            FOLDER);
  free(got);
  mp_value_free(arc);
}

/* filepath.Walk's order (bytes), .pulumi left out, folders not members. */
static void test_walk_order(void) {
  write_file("w/b/c.txt", "c");
  write_file("w/b/d/e.txt", "e");
  write_file("w/a.txt", "a");
  write_file("w/B.txt", "B");
  write_file("w/.pulumi/x.txt", "bookkeeping");
  write_file("w/b/.pulumi", "a file named .pulumi");
  check_hash(mp_value_new_archive(NULL, NULL, "w", NULL), WALK);
}

static void test_first_of_two_names(void) {
  write_file("a/x.txt", "from the folder");
  mp_value *assets = mp_value_new_object();
  mp_value_object_set(assets, "a", mp_value_new_archive(NULL, NULL, "a", NULL));
  mp_value_object_set(assets, "a/x.txt",
                      mp_value_new_asset(NULL, "from the map", NULL, NULL));
  check_hash(mp_value_new_archive(NULL, assets, NULL, NULL), DEDUP);
}

/* Names USTAR splits, and names only PAX holds. */
static void test_long_names(void) {
  char split[200], pax[200];
  memset(split, 'd', 60);
  split[60] = '/';
  memset(split + 61, 'e', 60);
  strcpy(split + 121, "/f.txt");
  memset(pax, 'g', 120);
  pax[120] = '\0';
  mp_value *assets = mp_value_new_object();
  mp_value_object_set(assets, split, mp_value_new_asset(NULL, "split", NULL, NULL));
  mp_value_object_set(assets, pax, mp_value_new_asset(NULL, "pax", NULL, NULL));
  mp_value_object_set(assets, "caf\xc3\xa9.txt",
                      mp_value_new_asset(NULL, "accent", NULL, NULL));
  check_hash(mp_value_new_archive(NULL, assets, NULL, NULL), NAMES);
}

/* The members of a .tgz and a .zip go under their keys. */
static void test_nested_tgz_and_zip(void) {
  const char *t[] = {"x/one.txt", "one", "./two.txt", "two"};
  write_archive("n.tgz", "tgz", t, 2);
  const char *z[] = {"three.txt", "three"};
  write_archive("n.zip", "zip", z, 1);
  mp_value *assets = mp_value_new_object();
  mp_value_object_set(assets, "t", mp_value_new_archive(NULL, NULL, "n.tgz", NULL));
  mp_value_object_set(assets, "z", mp_value_new_archive(NULL, NULL, "n.zip", NULL));
  check_hash(mp_value_new_archive(NULL, assets, NULL, NULL), NESTED);
}

static int fetched;

/* A download that answers "text" for .../test.txt, the folder's tar for
 * .../archive.tar. */
static int fake_fetch(void *ud, const char *url, mp_buf *body, mp_err *err) {
  (void)ud;
  fetched++;
  if (strstr(url, "test.txt")) {
    mp_buf_puts(body, "text");
    return 0;
  }
  return mp_err_set(err, MP_EIO, "no answer from %s", url);
}

static void test_remote(void) {
  mp_asset_hash_opts o = {dir, fake_fetch, NULL};
  mp_value *v = mp_value_new_asset(NULL, NULL, NULL, "https://h.test/a/test.txt?x=1");
  char *got = hash_of(v, &o);
  CHECK_STR(got, TEXT_HASH);
  free(got);
  mp_value_free(v);
  /* a .tar download is hashed as its bytes */
  v = mp_value_new_archive(NULL, NULL, NULL, "https://h.test/a/test.txt.tar");
  fetched = 0;
  got = hash_of(v, &o);
  CHECK_STR(got, TEXT_HASH);
  CHECK(fetched == 1);
  free(got);
  mp_value_free(v);
  /* an archive URI with no archive ending cannot be read */
  mp_err err;
  mp_err_clear(&err);
  v = mp_value_new_archive(NULL, NULL, NULL, "https://h.test/a/test.txt");
  CHECK(mp_value_hash_assets(v, &o, &err) < 0);
  CHECK_CONTAINS(err.msg, "is not a recognized archive format");
  mp_value_free(v);
  /* no downloads: a failure, not a guess */
  mp_asset_hash_opts none = {dir, NULL, NULL};
  v = mp_value_new_asset(NULL, NULL, NULL, "https://h.test/a/test.txt");
  CHECK(mp_value_hash_assets(v, &none, &err) < 0);
  CHECK(v->u.asset.hash == NULL);
  mp_value_free(v);
}

static void test_errors_name_the_property(void) {
  mp_value *obj = mp_value_new_object();
  mp_value_object_set(obj, "value", mp_value_new_asset(NULL, NULL, "missing.txt", NULL));
  mp_asset_hash_opts o = opts();
  mp_err err;
  mp_err_clear(&err);
  CHECK(mp_value_hash_assets(obj, &o, &err) < 0);
  CHECK_CONTAINS(err.msg, "failed to compute asset hash for \"value\"");
  CHECK_CONTAINS(err.msg, "missing.txt");
  mp_value_free(obj);
  write_file("plain.txt", "not an archive");
  mp_value *a = mp_value_new_archive(NULL, NULL, "plain.txt", NULL);
  CHECK(mp_value_hash_assets(a, &o, &err) < 0);
  CHECK_CONTAINS(err.msg, "neither a recognized archive type nor a directory");
  mp_value_free(a);
  mp_value *d = mp_value_new_asset(NULL, NULL, "folder", NULL);
  CHECK(mp_value_hash_assets(d, &o, &err) < 0);
  CHECK_CONTAINS(err.msg, "is a directory; try using an archive");
  mp_value_free(d);
  /* a hash already set is kept, and nothing is read */
  check_hash(mp_value_new_asset("given", NULL, "missing.txt", NULL), "given");
}

int main(void) {
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof(dir), "%s/asset-hash-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (mkdtemp(dir) == NULL) return 1;
  RUN(test_text_asset_gets_its_hash);
  RUN(test_nested_text_assets);
  RUN(test_path_asset);
  RUN(test_pulumis_own_values);
  RUN(test_language_test_values);
  RUN(test_walk_order);
  RUN(test_first_of_two_names);
  RUN(test_long_names);
  RUN(test_nested_tgz_and_zip);
  RUN(test_remote);
  RUN(test_errors_name_the_property);
  char *cmd = mp_xasprintf("rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", dir);
  free(cmd);
  return mp_test_summary();
}
