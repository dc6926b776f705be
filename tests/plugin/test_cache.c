/* The plugin cache: semantic versions, what a cache folder holds (Pulumi's
 * layout, `.partial` installs skipped), which version serves a request,
 * finding a plugin by (package, version) through the host, its error, and
 * the built-ins' claims. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/mem.h"
#include "plugin/cache.h"
#include "plugin/plugin.h"
#include "providers/builtin.h"
#include "testutil.h"

static char root[64];

static void sh(const char *cmd) { CHECK(system(cmd) == 0); }

/* An executable `pulumi-resource-<pkg>` in <root>/<dir>/<sub>. */
static void plugin_at(const char *dir, const char *sub, const char *pkg) {
  char *cmd = mp_xasprintf(
      "mkdir -p %s/%s/%s && printf '#!/bin/sh\\n' > "
      "%s/%s/%s/pulumi-resource-%s && chmod 755 %s/%s/%s/pulumi-resource-%s",
      root, dir, sub, root, dir, sub, pkg, root, dir, sub, pkg);
  sh(cmd);
  free(cmd);
}

static mp_semver v(const char *s) {
  mp_semver out;
  mp_err e;
  CHECK(mp_semver_parse(s, &out, &e) == 0);
  return out;
}

static void test_semver(void) {
  mp_semver a = v("v1.2"), b = v("1.2.0");
  CHECK(mp_semver_cmp(&a, &b) == 0);
  char *f = mp_semver_format(&a);
  CHECK_STR(f, "1.2.0");
  free(f);
  mp_semver pre = v("4.21.2-alpha.1+dirty");
  f = mp_semver_format(&pre);
  CHECK_STR(f, "4.21.2-alpha.1+dirty");
  free(f);
  /* SemVer 2.0's own example order */
  const char *order[] = {"1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta",
                         "1.0.0-beta",  "1.0.0-beta.2",  "1.0.0-beta.11",
                         "1.0.0-rc.1",  "1.0.0",         "1.0.1",
                         "1.10.0",      "2.0.0"};
  for (size_t i = 0; i + 1 < sizeof(order) / sizeof(order[0]); i++) {
    mp_semver x = v(order[i]), y = v(order[i + 1]);
    CHECK(mp_semver_cmp(&x, &y) < 0);
    CHECK(mp_semver_cmp(&y, &x) > 0);
  }
  mp_semver m1 = v("1.0.0+a"), m2 = v("1.0.0+b");
  CHECK(mp_semver_cmp(&m1, &m2) == 0);
  mp_semver bad;
  mp_err e;
  CHECK(mp_semver_parse("one.two", &bad, &e) == MP_EINVAL);
  CHECK_STR(e.msg, "invalid semantic version 'one.two': expected a number");
  CHECK(mp_semver_parse("1.2.3-", &bad, &e) == MP_EINVAL);
  CHECK(mp_semver_parse("1.2.3.4", &bad, &e) == MP_EINVAL);
  CHECK(mp_semver_parse("", &bad, &e) == MP_EINVAL);
}

static void test_scan_and_select(void) {
  plugin_at("cache", "resource-aws-v6.1.0", "aws");
  plugin_at("cache", "resource-aws-v6.10.0", "aws");
  plugin_at("cache", "resource-aws-v7.0.0-alpha.1", "aws");
  plugin_at("cache", "resource-aws-native-v1.0.0", "aws-native");
  plugin_at("cache", "resource-aws-v8.0.0", "aws");
  plugin_at("cache", "language-go-v1.0.0", "x");
  plugin_at("cache", "bogus-aws-v1.0.0", "aws");           /* no such kind */
  plugin_at("cache", "resource-aws-vnext", "aws");         /* no version */
  plugin_at("cache", "resource-aws-v1.0.0.tmp123", "aws"); /* old temp dir */
  char *cmd = mp_xasprintf("touch %s/cache/resource-aws-v8.0.0.partial "
                           "%s/cache/resource-aws-v6.1.0.lock",
                           root, root);
  sh(cmd);
  free(cmd);
  char *dir = mp_xasprintf("%s/cache", root);
  mp_plugin_list l = {0};
  mp_err e;
  CHECK(mp_plugin_cache_scan(dir, 1, &l, &e) == 0);
  CHECK(l.len == 5); /* 3 aws (8.0.0 is partial), aws-native, go */
  mp_plugin_list_sort(&l);
  CHECK_STR(l.items[0].name, "aws");
  char *first = mp_semver_format(&l.items[0].version);
  CHECK_STR(first, "7.0.0-alpha.1");
  free(first);
  CHECK_STR(l.items[3].name, "aws-native");
  CHECK(l.items[0].size > 0 && l.items[0].install_time > 0);
  mp_semver want = v("6.1.0");
  const mp_plugin_info *p = mp_plugin_select(&l, "resource", "aws", &want);
  CHECK(p != NULL);
  CHECK_CONTAINS(p ? p->path : NULL, "/cache/resource-aws-v6.1.0");
  want = v("6.2.0");
  CHECK(mp_plugin_select(&l, "resource", "aws", &want) == NULL);
  /* newest: a release before a newer pre-release */
  p = mp_plugin_select(&l, "resource", "aws", NULL);
  CHECK_CONTAINS(p ? p->path : NULL, "/cache/resource-aws-v6.10.0");
  CHECK(mp_plugin_select(&l, "resource", "gcp", NULL) == NULL);
  mp_plugin_list_destroy(&l);
  /* a missing folder holds nothing */
  char *none = mp_xasprintf("%s/none", root);
  CHECK(mp_plugin_cache_scan(none, 0, &l, &e) == 0 && l.len == 0);
  free(none);
  free(dir);
}

static void test_remove(void) {
  plugin_at("rm", "resource-x-v1.0.0/sub", "x");
  char *cmd = mp_xasprintf("touch %s/rm/resource-x-v1.0.0.lock", root);
  sh(cmd);
  free(cmd);
  char *dir = mp_xasprintf("%s/rm", root);
  mp_plugin_list l = {0};
  mp_err e;
  CHECK(mp_plugin_cache_scan(dir, 0, &l, &e) == 0 && l.len == 1);
  CHECK(mp_plugin_cache_remove(&l.items[0], &e) == 0);
  char *gone = mp_xasprintf("%s/resource-x-v1.0.0", dir);
  char *lock = mp_xasprintf("%s.lock", gone);
  CHECK(access(gone, F_OK) != 0 && access(lock, F_OK) != 0);
  free(lock);
  free(gone);
  mp_plugin_list_destroy(&l);
  free(dir);
}

/* Plugin names as Pulumi's PluginNameRegexp has them; kinds as
 * IsPluginKind. A folder whose name is not one is no plugin. */
static void test_names(void) {
  const char *good[] = {"aws", "aws-native", "x", "7", "x1", "-x", "a_b.c"};
  const char *bad[] = {"",   "-",  ".",   "..",   "x-",   "_x",
                       ".x", "x.", "a/b", "x y", "a\\b", "x/../y"};
  for (size_t i = 0; i < MP_ARRAY_LEN(good); i++)
    CHECK(mp_plugin_name_valid(good[i]));
  for (size_t i = 0; i < MP_ARRAY_LEN(bad); i++)
    CHECK(!mp_plugin_name_valid(bad[i]));
  mp_err e;
  CHECK(mp_plugin_check_spec("resource", "aws", &e) == 0);
  CHECK(mp_plugin_check_spec("thing", "aws", &e) == MP_EINVAL &&
        strcmp(e.msg, "unrecognized plugin kind: thing") == 0);
  CHECK(mp_plugin_check_spec("resource", "a/../b", &e) == MP_EINVAL &&
        strstr(e.msg, "invalid plugin name 'a/../b'") != NULL);
  plugin_at("names", "resource-x_-v1.0.0", "x_");
  char *dir = mp_xasprintf("%s/names", root);
  mp_plugin_list l = {0};
  CHECK(mp_plugin_cache_scan(dir, 0, &l, &e) == 0 && l.len == 0);
  mp_plugin_list_destroy(&l);
  free(dir);
}

static mp_plugin_host *host(const char *path) {
  char *cache = mp_xasprintf("%s/cache", root);
  char *own = mp_xasprintf("%s/own", root);
  mp_plugin_host_opts o = {0};
  o.project_dir = root;
  o.builtins = mp_builtin_providers(NULL);
  o.search_path = path;
  o.cache_dir = cache;
  o.plugin_dir = own;
  mp_plugin_host *h = NULL;
  mp_err err;
  CHECK(mp_plugin_host_new(&o, &h, &err) == 0);
  free(cache);
  free(own);
  return h;
}

static void test_find_by_version(void) {
  plugin_at("own", "resource-aws-v5.0.0", "aws");
  plugin_at("own", ".", "flat");
  mp_plugin_host *h = host(NULL);
  char *found = NULL;
  mp_err err;
  CHECK(mp_plugin_find(h, "aws", "6.1.0", &found, &err) == 0);
  CHECK_CONTAINS(found, "/cache/resource-aws-v6.1.0/pulumi-resource-aws");
  free(found);
  CHECK(mp_plugin_find(h, "aws", "v5.0.0", &found, &err) == 0);
  CHECK_CONTAINS(found, "/own/resource-aws-v5.0.0/pulumi-resource-aws");
  free(found);
  CHECK(mp_plugin_find(h, "aws", NULL, &found, &err) == 0);
  CHECK_CONTAINS(found, "/cache/resource-aws-v6.10.0/pulumi-resource-aws");
  free(found);
  CHECK(mp_plugin_find(h, "flat", NULL, &found, &err) == 0);
  CHECK_CONTAINS(found, "/own/pulumi-resource-flat");
  free(found);
  CHECK(mp_plugin_find(h, "aws", "9.9.9", &found, &err) == MP_ENOENT);
  CHECK(found == NULL);
  char *want = mp_xasprintf(
      "no resource plugin 'pulumi-resource-aws' found in the workspace at "
      "version v9.9.9 or on your $PATH (looked for resource-aws-v9.9.9 in "
      "%s/cache and %s/own)",
      root, root);
  CHECK_STR(err.msg, want);
  free(want);
  CHECK(mp_plugin_find(h, "aws", "latest", &found, &err) == MP_EINVAL);
  CHECK_CONTAINS(err.msg, "the version asked of package 'aws'");
  mp_plugin_host_shutdown(h);
  /* PATH comes first, whatever the version (as in Pulumi) */
  plugin_at("bin", ".", "aws");
  char *bin = mp_xasprintf("%s/bin", root);
  h = host(bin);
  CHECK(mp_plugin_find(h, "aws", "6.1.0", &found, &err) == 0);
  CHECK_CONTAINS(found, "/bin/pulumi-resource-aws");
  free(found);
  mp_plugin_host_shutdown(h);
  free(bin);
}

static void test_builtin_claims(void) {
  CHECK(mp_builtin_unclaimed("random", "4.21.2") == NULL);
  CHECK(mp_builtin_unclaimed("random", NULL) == NULL);
  CHECK_STR(mp_builtin_unclaimed("random", "v5.0.0"), "4.x");
  CHECK(mp_builtin_unclaimed("command", "1.2.1") == NULL);
  CHECK_STR(mp_builtin_unclaimed("command", "2.0.0"), "0.x and 1.x");
  CHECK(mp_builtin_unclaimed("test", "0.17.10") == NULL);
  CHECK(mp_builtin_unclaimed("aws", "6.0.0") == NULL);
  mp_provider_factory f = mp_builtin_providers(NULL);
  mp_provider *p = NULL;
  mp_err err;
  CHECK(f.make(f.ud, "random", "5.0.0", &p, &err) == MP_ENOENT);
  CHECK(p == NULL);
  CHECK_CONTAINS(err.msg, "at version v5.0.0 or on your $PATH (the built-in "
                          "'random' serves 4.x)");
  CHECK(f.make(f.ud, "random", "4.1.0", &p, &err) == 0);
  mp_provider_free(p);
}

/* Ranges as Pulumi's semver library reads `plugin rm`'s VERSION. */
static void test_semver_range(void) {
  static const struct {
    const char *range, *version;
    int in;
  } cases[] = {
      {">=1.0.0 <2.0.0", "1.0.0", 1},   {">=1.0.0 <2.0.0", "1.5.0", 1},
      {">=1.0.0 <2.0.0", "2.0.0", 0},   {">= 1.0.0 < 2.0.0", "1.9.9", 1},
      {"1.2.3", "1.2.3", 1},            {"v1.2.3", "1.2.4", 0},
      {"!=1.2.3", "1.2.4", 1},          {"1.x", "1.9.0", 1},
      {"1.x", "2.0.0", 0},              {"1.2.x", "1.2.7", 1},
      {"1.2.x", "1.3.0", 0},            {">1.x", "2.0.0", 1},
      {">1.x", "1.9.9", 0},             {"<=1.x", "1.9.9", 1},
      {"1.x || >=3.0.0", "3.1.0", 1},   {"1.x || >=3.0.0", "2.1.0", 0},
      {"<1.0.0", "1.0.0-beta.1", 1},    {"*", "9.9.9", 1},
  };
  for (size_t i = 0; i < MP_ARRAY_LEN(cases); i++) {
    mp_semver ver = v(cases[i].version);
    mp_err e;
    int got = mp_semver_in_range(cases[i].range, &ver, &e);
    if (got != cases[i].in)
      fprintf(stderr, "range '%s' with %s: %d\n", cases[i].range,
              cases[i].version, got);
    CHECK(got == cases[i].in);
  }
  mp_semver ver = v("1.0.0");
  mp_err e;
  CHECK(mp_semver_in_range(">=banana", &ver, &e) == MP_EINVAL);
  CHECK(mp_semver_in_range(">=", &ver, &e) == MP_EINVAL);
  CHECK(mp_semver_in_range("", &ver, &e) == MP_EINVAL);
  CHECK(mp_builtin_serves("random", "4.1.0") == 1);
  CHECK(mp_builtin_serves("random", "5.0.0") == 0);
  CHECK(mp_builtin_serves("aws", NULL) == 0);
}

int main(void) {
  snprintf(root, sizeof(root), "/tmp/mp-cache-test.XXXXXX");
  if (mkdtemp(root) == NULL)
    return 1;
  RUN(test_semver);
  RUN(test_scan_and_select);
  RUN(test_remove);
  RUN(test_names);
  RUN(test_find_by_version);
  RUN(test_builtin_claims);
  RUN(test_semver_range);
  char *cmd = mp_xasprintf("rm -rf %s", root);
  if (system(cmd) != 0)
    fprintf(stderr, "cannot remove %s\n", root);
  free(cmd);
  return mp_test_summary();
}
