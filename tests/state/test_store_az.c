/* Tests for the DIY layout in an Azure Blob container
 * (src/state/diy_obj_az.c, az_*.c) against Microsoft's emulator, Azurite,
 * which tests/azblob/aztest.py starts on 127.0.0.1 (MP_TEST_AZ_DOMAIN)
 * and which checks every Shared Key and SAS signature: every case of
 * store_cases.h, each in a name prefix of its own, then what is Azure's
 * own: Pulumi's blob names, gzip, the URL's parameters and where the
 * service URL and the credentials come from, a SAS token, and the
 * server's errors (no such container, a wrong key, a server that is
 * down). */
#include <stdlib.h>
#include <string.h>

#define TST_STALE_GONE "its process no longer exists"
#define TST_LOCK_FILES 1
#include "state/store_cases.h"

#include "state/az_int.h"

static const char *g_domain; /* MP_TEST_AZ_DOMAIN */
static char g_case[64];      /* name prefix of the current case */
static int g_ncase;

static char *url_in(const char *container, const char *prefix) {
  return mp_xasprintf("azblob://%s/%s?domain=%s&protocol=http", container,
                      prefix, g_domain);
}

static char *tst_store_url(const char *name) {
  char *prefix = mp_xasprintf("%s/%s", g_case, name);
  char *u = url_in("state", prefix);
  free(prefix);
  return u;
}

/* The blob objects of the container (the code under test's own reading,
 * which the emulator's answers keep honest). */
static mp_diy_objs *objs_open(char **root) {
  char *u = mp_xasprintf("azblob://state?domain=%s&protocol=http", g_domain);
  mp_diy_objs *o = NULL;
  mp_err err;
  if (mp__diy_objs_az(u, &o, root, &err) < 0)
    fprintf(stderr, "cannot open the container: %s\n", err.msg);
  free(u);
  return o;
}

/* Any blob under |dir| holds |needle|. */
static int any_contains(mp_diy_objs *o, const char *dir, const char *needle) {
  mp_strv names;
  mp_strv_init(&names);
  mp_err err;
  int found = 0;
  if (o->ops->list(o, dir, &names, &err) == 0) {
    for (size_t i = 0; !found && i < names.len; i++) {
      char *p = mp_xasprintf("%s/%s", dir, names.items[i]);
      mp_buf b;
      mp_buf_init(&b);
      int rc = o->ops->get(o, p, &b, &err);
      if (rc == 0)
        found = b.len && memmem(b.data, b.len, needle, strlen(needle));
      else if (rc == MP_ENOENT) /* a folder */
        found = any_contains(o, p, needle);
      mp_buf_destroy(&b);
      free(p);
    }
  }
  mp_strv_destroy(&names);
  return found;
}

static int tst_store_contains(const char *name, const char *needle) {
  char *root = NULL;
  mp_diy_objs *o = objs_open(&root);
  if (o == NULL)
    return 0;
  char *dir = mp_xasprintf("%s/%s/%s", root, g_case, name);
  int found = any_contains(o, dir, needle);
  free(dir);
  free(root);
  o->ops->free(o);
  return found;
}

/* Blob |name| (under the container) exists. */
static int has_blob(const char *name) {
  char *root = NULL;
  mp_diy_objs *o = objs_open(&root);
  if (o == NULL)
    return 0;
  char *p = mp_xasprintf("%s/%s", root, name);
  mp_diy_obj_info info;
  mp_err err;
  int ok = o->ops->head(o, p, &info, &err) == 0;
  free(p);
  free(root);
  o->ops->free(o);
  return ok;
}

static void run_in_prefix(void (*fn)(void), const char *name) {
  (void)name;
  snprintf(g_case, sizeof(g_case), "c%d", ++g_ncase);
  fn();
}

/* ==== Azure's own ==== */

/* Pulumi's blob names under the URL's path: meta.yaml, the checkpoint
 * and its .bak (a Copy Blob), history; no lock blob after the update. */
static void test_az_keys(void) {
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
  const char *names[] = {"k/.pulumi/meta.yaml", "k/.pulumi/stacks/proj/dev.json",
                         "k/.pulumi/stacks/proj/dev.json.bak"};
  for (size_t i = 0; i < 3; i++) {
    char *k = mp_xasprintf("%s/%s", g_case, names[i]);
    CHECK(has_blob(k));
    free(k);
  }
  CHECK(tst_store_contains("k", "\"stack\":\"organization/proj/dev\""));
  CHECK(tst_store_contains("k/.pulumi/history/proj/dev", "\"kind\":\"update\""));
  CHECK(!tst_store_contains("k/.pulumi/locks", "\"pid\""));
}

/* A gzipped checkpoint round trip through the container. */
static void test_az_gzip(void) {
  mp_store_opts o = {.diy_gzip = 1};
  char *url = tst_store_url("gz");
  mp_store *s = NULL;
  mp_err err;
  CHECK(mp_store_open_with(url, &o, &s, &err) == 0);
  mp_stack_ref st = {"proj", "dev"};
  CHECK(s && mp_store_stack_create(s, st, &err) == 0);
  mp_store_close(s);
  char *k = mp_xasprintf("%s/gz/.pulumi/stacks/proj/dev.json.gz", g_case);
  CHECK(has_blob(k));
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

/* The server's errors name the container, the blob and Azure's code. */
static void test_az_errors(void) {
  char *u = url_in("no-such-container", "x");
  expect_open_fails(u, "cannot read 'azblob://no-such-container/x/.pulumi/"
                       "meta.yaml': Azure answered 404 ContainerNotFound: "
                       "The specified container does not exist.; create the "
                       "container");
  free(u);
  /* a wrong key: the emulator checks the signature */
  char *key = mp_xstrdup(getenv("AZURE_STORAGE_KEY"));
  setenv("AZURE_STORAGE_KEY", "d3Jvbmcga2V5IHdyb25nIGtleQ==", 1);
  u = url_in("state", "x");
  /* (Azure says AuthenticationFailed, Azurite AuthorizationFailure) */
  expect_open_fails(u, "Azure answered 403 ");
  expect_open_fails(u, "Server failed to authenticate the request.");
  expect_open_fails(u, "check AZURE_STORAGE_ACCOUNT and AZURE_STORAGE_KEY");
  setenv("AZURE_STORAGE_KEY", key, 1);
  free(key);
  free(u);
  /* nobody listening: 4 tries, as the Azure SDK's retry policy */
  expect_open_fails("azblob://state/x?domain=127.0.0.1:1&protocol=http",
                    "no answer from Azure for 'azblob://state/x/.pulumi/"
                    "meta.yaml' at http://127.0.0.1:1/devstoreaccount1 after "
                    "4 attempts");
}

/* The service URL as gocloud's NewServiceURL makes it. */
static void expect_service(const char *url, const char *want) {
  az_conf c;
  mp_err err;
  mp_err_clear(&err);
  int rc = mp__az_conf_parse(url, &c, &err);
  CHECK(rc == 0);
  if (rc < 0) {
    fprintf(stderr, "  %s: %s\n", url, err.msg);
    return;
  }
  CHECK_STR(c.service, want);
  mp__az_conf_free(&c);
}

static void test_az_url_and_credentials(void) {
  expect_open_fails("azblob://state/x?domain=127.0.0.1:1&bogus=1",
                    "unknown query parameter 'bogus'");
  expect_open_fails("azblob://state?localemu=maybe",
                    "invalid value 'maybe' of localemu");
  expect_open_fails("azblob://state?protocol=ftp", "invalid protocol 'ftp'");
  /* dot segments in the prefix (libcurl would take them out) */
  char *dots = url_in("state", "../other");
  expect_open_fails(dots, "has a '..' segment");
  free(dots);
  dots = url_in("state", "a/%2e%2e/b");
  expect_open_fails(dots, "has a '..' segment");
  free(dots);
  expect_open_fails("azblob://state?prefix=./x/&domain=127.0.0.1:1",
                    "has a '.' segment");
  expect_open_fails("azblob://state?domain=a&domain=b",
                    "multiple values of 'domain'");
  expect_open_fails("azblob://?protocol=http", "names no container");
  expect_open_fails("azblob://user:pw@state", "user name or password");
  expect_service("azblob://state", "https://devstoreaccount1.blob.core.windows.net");
  expect_service("azblob://state?storage_account=team&domain=blob.core.chinacloudapi.cn",
                 "https://team.blob.core.chinacloudapi.cn");
  expect_service("azblob://state?domain=localhost:10000&protocol=http",
                 "http://localhost:10000/devstoreaccount1");
  expect_service("azblob://state?domain=azurite:10000&localemu=true&protocol=http",
                 "http://azurite:10000/devstoreaccount1");
  expect_service("azblob://state?domain=cdn.example.com&cdn=true",
                 "https://cdn.example.com");
  /* the environment's defaults, which the URL overrides */
  setenv("AZURE_STORAGE_DOMAIN", "azurite:10000", 1);
  setenv("AZURE_STORAGE_PROTOCOL", "http", 1);
  setenv("AZURE_STORAGE_IS_LOCAL_EMULATOR", "true", 1);
  expect_service("azblob://state", "http://azurite:10000/devstoreaccount1");
  expect_service("azblob://state?localemu=false&protocol=https",
                 "https://devstoreaccount1.azurite:10000");
  unsetenv("AZURE_STORAGE_DOMAIN");
  unsetenv("AZURE_STORAGE_PROTOCOL");
  unsetenv("AZURE_STORAGE_IS_LOCAL_EMULATOR");
  /* the prefix: gocloud's ?prefix= then the path */
  az_conf c;
  mp_err err;
  CHECK(mp__az_conf_parse("azblob://state/sub/?prefix=team/", &c, &err) == 0);
  CHECK_STR(c.root, "azblob://state/team/sub");
  mp__az_conf_free(&c);
  /* credentials: none, a connection string, a key that is no key */
  char *key = mp_xstrdup(getenv("AZURE_STORAGE_KEY"));
  unsetenv("AZURE_STORAGE_KEY");
  expect_open_fails("azblob://state", "no Azure credentials for "
                                      "'azblob://state': set "
                                      "AZURE_STORAGE_ACCOUNT and "
                                      "AZURE_STORAGE_KEY");
  setenv("AZURE_STORAGE_CONNECTION_STRING", "UseDevelopmentStorage=true", 1);
  expect_open_fails("azblob://state", "does not read "
                                      "AZURE_STORAGE_CONNECTION_STRING");
  unsetenv("AZURE_STORAGE_CONNECTION_STRING");
  setenv("AZURE_STORAGE_KEY", "not a key!", 1);
  expect_open_fails("azblob://state", "AZURE_STORAGE_KEY is not an account "
                                      "key");
  setenv("AZURE_STORAGE_KEY", key, 1);
  char *acct = mp_xstrdup(getenv("AZURE_STORAGE_ACCOUNT"));
  unsetenv("AZURE_STORAGE_ACCOUNT");
  expect_open_fails("azblob://state", "no Azure storage account for "
                                      "'azblob://state': set "
                                      "AZURE_STORAGE_ACCOUNT or add "
                                      "?storage_account=NAME");
  setenv("AZURE_STORAGE_ACCOUNT", acct, 1);
  free(acct);
  free(key);
}

/* A SAS token (aztest.py signs an account SAS with the emulator's key):
 * the store works with it alone, copies included; a forged one is
 * refused with Azure's code. */
static void test_az_sas(void) {
  const char *sas = getenv("MP_TEST_AZ_SAS");
  CHECK(sas != NULL);
  if (sas == NULL)
    return;
  char *key = mp_xstrdup(getenv("AZURE_STORAGE_KEY"));
  unsetenv("AZURE_STORAGE_KEY");
  setenv("AZURE_STORAGE_SAS_TOKEN", sas, 1);
  mp_store *s = tst_store_open("sas");
  CHECK(s != NULL);
  mp_err err;
  mp_stack_ref st = {"proj", "dev"};
  if (s) {
    CHECK(mp_store_stack_create(s, st, &err) == 0);
    mp_store_update *u = NULL;
    CHECK(mp_store_update_begin(s, st, "update", "m", NULL, NULL, &u, &err) ==
          0);
    CHECK(mp_store_update_end(u, "succeeded", NULL, &err) == 0);
    mp_store_close(s);
  }
  char *k = mp_xasprintf("%s/sas/.pulumi/stacks/proj/dev.json.bak", g_case);
  setenv("AZURE_STORAGE_KEY", key, 1); /* has_blob reads with the key */
  CHECK(has_blob(k));
  unsetenv("AZURE_STORAGE_KEY");
  free(k);
  /* the signature altered: refused */
  char *bad = mp_xstrdup(sas);
  char *sig = strstr(bad, "sig=");
  CHECK(sig != NULL);
  if (sig)
    sig[4] = sig[4] == 'A' ? 'B' : 'A';
  setenv("AZURE_STORAGE_SAS_TOKEN", bad, 1);
  char *u = tst_store_url("sas");
  expect_open_fails(u, "Azure answered 403 AuthorizationFailure");
  expect_open_fails(u, "check AZURE_STORAGE_SAS_TOKEN");
  free(u);
  free(bad);
  unsetenv("AZURE_STORAGE_SAS_TOKEN");
  setenv("AZURE_STORAGE_KEY", key, 1);
  free(key);
}

static const char *env_of(const char *name) { return getenv(name); }

int main(void) {
  mp_store_set_env(env_of);
  g_domain = getenv("MP_TEST_AZ_DOMAIN");
  if (g_domain == NULL) {
    fprintf(stderr, "run through tests/azblob/aztest.py\n");
    return 77;
  }
  tst_store_cases(run_in_prefix);
  TST_STORE_CASE(run_in_prefix, test_az_keys);
  TST_STORE_CASE(run_in_prefix, test_az_gzip);
  TST_STORE_CASE(run_in_prefix, test_az_errors);
  TST_STORE_CASE(run_in_prefix, test_az_url_and_credentials);
  TST_STORE_CASE(run_in_prefix, test_az_sas);
  return mp_test_summary();
}
