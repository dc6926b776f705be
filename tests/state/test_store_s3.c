/* Tests for the DIY layout in an S3 bucket (src/state/diy_obj_s3.c,
 * s3_*.c) against a real S3-compatible server that tests/s3/s3test.py
 * starts on 127.0.0.1 (MP_TEST_S3_ENDPOINT): every case of store_cases.h,
 * each in a key prefix of its own, then what is S3's own: the keys are
 * Pulumi's, the URL's parameters and credentials, and the server's
 * errors (no such bucket, bad credentials, a server that is down). */
#include <ftw.h>
#include <stdlib.h>
#include <sys/stat.h>

#define TST_STALE_GONE "its process no longer exists"
#define TST_LOCK_FILES 1
#include "state/store_cases.h"

static const char *g_endpoint; /* MP_TEST_S3_ENDPOINT */
static const char *g_data;     /* MP_TEST_S3_DATA */
static char g_case[64];        /* key prefix of the current case */
static int g_ncase;

static char *url_in(const char *bucket, const char *prefix) {
  return mp_xasprintf("s3://%s/%s?endpoint=%s&s3ForcePathStyle=true&"
                      "region=us-east-1&awssdk=v2",
                      bucket, prefix, g_endpoint);
}

static char *tst_store_url(const char *name) {
  char *prefix = mp_xasprintf("%s/%s", g_case, name);
  char *u = url_in("state", prefix);
  free(prefix);
  return u;
}

static const char *g_needle;
static int g_found;

static int search_file(const char *path, const struct stat *sb, int type,
                       struct FTW *ftw) {
  (void)sb;
  (void)ftw;
  if (type == FTW_F && tst_file_contains(path, g_needle))
    g_found = 1;
  return 0;
}

/* Any object of store |name| holds |needle| (the server keeps each object
 * as a file under its data folder). */
static int tst_store_contains(const char *name, const char *needle) {
  char *dir = mp_xasprintf("%s/state/%s/%s", g_data, g_case, name);
  g_needle = needle;
  g_found = 0;
  nftw(dir, search_file, 16, FTW_PHYS);
  free(dir);
  return g_found;
}

/* Object |key| of the bucket exists (s3rver's file for it). */
static int has_object(const char *key) {
  char *p = mp_xasprintf("%s/state/%s._S3rver_object", g_data, key);
  struct stat st;
  int ok = stat(p, &st) == 0;
  free(p);
  return ok;
}

static void run_in_prefix(void (*fn)(void), const char *name) {
  (void)name;
  snprintf(g_case, sizeof(g_case), "c%d", ++g_ncase);
  fn();
}

/* ==== S3's own ==== */

/* Pulumi's keys under the URL's path: meta.yaml, the checkpoint and its
 * .bak, history, backups; the lock file gone after the update. */
static void test_s3_keys(void) {
  mp_store *s = tst_store_open("k");
  CHECK(s != NULL);
  if (s == NULL)
    return;
  mp_err err;
  mp_stack_ref st = {"proj", "dev"};
  CHECK(mp_store_stack_create(s, st, &err) == 0);
  mp_store_update *u = NULL;
  CHECK(mp_store_update_begin(s, st, "update", "m", NULL, NULL, &u, &err) ==
        0);
  CHECK(mp_store_update_end(u, "succeeded", NULL, &err) == 0);
  mp_store_close(s);
  char *k = mp_xasprintf("%s/k/.pulumi/meta.yaml", g_case);
  CHECK(has_object(k));
  free(k);
  k = mp_xasprintf("%s/k/.pulumi/stacks/proj/dev.json", g_case);
  CHECK(has_object(k));
  free(k);
  k = mp_xasprintf("%s/k/.pulumi/stacks/proj/dev.json.bak", g_case);
  CHECK(has_object(k));
  free(k);
  CHECK(tst_store_contains("k", "\"stack\":\"organization/proj/dev\""));
  char *dir = mp_xasprintf("%s/state/%s/k/.pulumi/history/proj/dev", g_data,
                           g_case);
  struct stat sb;
  CHECK(stat(dir, &sb) == 0);
  free(dir);
  dir = mp_xasprintf("%s/state/%s/k/.pulumi/locks/organization/proj/dev",
                     g_data, g_case);
  /* s3rver may leave the empty folder; no lock object may remain */
  g_needle = "\"pid\"";
  g_found = 0;
  nftw(dir, search_file, 16, FTW_PHYS);
  CHECK(!g_found);
  free(dir);
}

/* A gzipped checkpoint round trip through the bucket. */
static void test_s3_gzip(void) {
  mp_store_opts o = {.diy_gzip = 1};
  char *url = tst_store_url("gz");
  mp_store *s = NULL;
  mp_err err;
  CHECK(mp_store_open_with(url, &o, &s, &err) == 0);
  mp_stack_ref st = {"proj", "dev"};
  CHECK(s && mp_store_stack_create(s, st, &err) == 0);
  mp_store_close(s);
  char *k = mp_xasprintf("%s/gz/.pulumi/stacks/proj/dev.json.gz", g_case);
  CHECK(has_object(k));
  free(k);
  s = NULL;
  CHECK(mp_store_open(url, &s, &err) == 0);
  CHECK(s && mp_store_stack_exists(s, st, &err) == 1);
  mp_store_close(s);
  free(url);
}

static void expect_open_fails(const char *url, const char *needle) {
  mp_store *s = NULL;
  mp_err err;
  mp_err_clear(&err);
  CHECK(mp_store_open(url, &s, &err) < 0);
  CHECK(s == NULL);
  CHECK_CONTAINS(err.msg, needle);
  if (s)
    mp_store_close(s);
}

/* The server's errors name the bucket, the key and S3's code. */
static void test_s3_errors(void) {
  char *u = url_in("no-such-bucket", "x");
  expect_open_fails(u, "'s3://no-such-bucket/x/.pulumi/meta.yaml'");
  expect_open_fails(u, "NoSuchBucket");
  free(u);
  /* a key the server does not know: 403 */
  setenv("AWS_ACCESS_KEY_ID", "NOBODY", 1);
  u = url_in("state", "x");
  expect_open_fails(u, "S3 answered 403 InvalidAccessKeyId");
  expect_open_fails(u, "check the AWS credentials");
  setenv("AWS_ACCESS_KEY_ID", "S3RVER", 1);
  free(u);
  /* nobody listening */
  expect_open_fails("s3://state/x?endpoint=http://127.0.0.1:1&"
                    "s3ForcePathStyle=true&region=us-east-1",
                    "no answer from S3 for 's3://state/x/.pulumi/meta.yaml' "
                    "at http://127.0.0.1:1 after 3 attempts");
}

/* The URL's parameters and where credentials come from. */
static void test_s3_url_and_credentials(void) {
  expect_open_fails("s3://state/x?endpoint=http://127.0.0.1:1&bogus=1",
                    "unknown query parameter 'bogus'");
  expect_open_fails("s3://state?s3ForcePathStyle=maybe&region=r",
                    "invalid value 'maybe' of s3ForcePathStyle");
  expect_open_fails("s3://?region=r", "names no bucket");
  expect_open_fails("s3://user:pw@state?region=r", "user name or password");
  /* dot segments in the prefix: libcurl would take them out of the path
   * and reach another bucket or prefix */
  char *dots = url_in("state", "../other");
  expect_open_fails(dots, "has a '..' segment");
  free(dots);
  dots = url_in("state", "a/%2e%2e/%2E%2E/b");
  expect_open_fails(dots, "has a '..' segment");
  free(dots);
  dots = url_in("state", "a/./b");
  expect_open_fails(dots, "has a '.' segment");
  free(dots);
  expect_open_fails("s3://state?prefix=../x/&region=r&endpoint=http://"
                    "127.0.0.1:1",
                    "has a '..' segment");
  /* no region anywhere */
  char *home = tst_mkdtemp();
  setenv("HOME", home, 1);
  expect_open_fails("s3://state/x", "no AWS region");
  /* the profile's credentials and region (its section of the config
   * file, not the default one's), with use_path_style */
  unsetenv("AWS_ACCESS_KEY_ID");
  unsetenv("AWS_SECRET_ACCESS_KEY");
  char *cmd = mp_xasprintf(
      "mkdir -p '%s/.aws' && printf '[team]\\naws_access_key_id = S3RVER\\n"
      "aws_secret_access_key = S3RVER\\n' > '%s/.aws/credentials' && "
      "printf '[default]\\nregion = eu-west-1\\n[profile team]\\n"
      "region = us-east-1\\n' > '%s/.aws/config'",
      home, home, home);
  CHECK(system(cmd) == 0);
  free(cmd);
  char *u = mp_xasprintf("s3://state/%s/p?endpoint=%s&use_path_style=true",
                         g_case, g_endpoint);
  expect_open_fails(u, "no AWS credentials for");
  setenv("AWS_PROFILE", "team", 1);
  mp_store *s = NULL;
  mp_err err;
  CHECK(mp_store_open(u, &s, &err) == 0);
  mp_store_close(s);
  unsetenv("AWS_PROFILE");
  free(u);
  u = mp_xasprintf("s3://state/%s/p?endpoint=%s&use_path_style=true&"
                   "profile=team&disable_https=false",
                   g_case, g_endpoint);
  s = NULL;
  CHECK(mp_store_open(u, &s, &err) == 0);
  mp_store_close(s);
  free(u);
  setenv("AWS_ACCESS_KEY_ID", "S3RVER", 1);
  setenv("AWS_SECRET_ACCESS_KEY", "S3RVER", 1);
  tst_rmdir(home);
  free(home);
}

static const char *env_of(const char *name) { return getenv(name); }

int main(void) {
  mp_store_set_env(env_of);
  g_endpoint = getenv("MP_TEST_S3_ENDPOINT");
  g_data = getenv("MP_TEST_S3_DATA");
  if (g_endpoint == NULL || g_data == NULL) {
    fprintf(stderr, "run through tests/s3/s3test.py\n");
    return 77;
  }
  tst_store_cases(run_in_prefix);
  TST_STORE_CASE(run_in_prefix, test_s3_keys);
  TST_STORE_CASE(run_in_prefix, test_s3_gzip);
  TST_STORE_CASE(run_in_prefix, test_s3_errors);
  TST_STORE_CASE(run_in_prefix, test_s3_url_and_credentials);
  return mp_test_summary();
}
