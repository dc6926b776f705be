/* The plugins a program needs before it runs (lang/required.h): Pulumi's
 * deduplication, a YAML program's resources and Pulumi.yaml's
 * plugins.providers, a Node.js program's node_modules packages. */
#include "lang/required.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/mem.h"
#include "testutil.h"

static char root[64];

static void sh(const char *cmd) { CHECK(system(cmd) == 0); }

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  fputs(text, f);
  fclose(f);
}

/* "kind name version server" of entry |i|, "-" for NULL. */
static char *row(const mp_required_plugins *l, size_t i) {
  const mp_required_plugin *p = &l->items[i];
  return mp_xasprintf("%s %s %s %s", p->kind, p->name,
                      p->version ? p->version : "-",
                      p->server ? p->server : "-");
}

static void check_rows(const mp_required_plugins *l, const char *const *want,
                       size_t n) {
  CHECK(l->len == n);
  for (size_t i = 0; i < n && i < l->len; i++) {
    char *r = row(l, i);
    CHECK_STR(r, want[i]);
    free(r);
  }
}

static void test_dedupe(void) {
  mp_required_plugins l = {0};
  mp_required_plugins_add(&l, "resource", "aws", NULL, NULL);
  mp_required_plugins_add(&l, "resource", "aws", "v5.4.0", NULL);
  mp_required_plugins_add(&l, "resource", "aws", "5.4.0", "");
  mp_required_plugins_add(&l, "resource", "aws", NULL, NULL);
  mp_required_plugins_add(&l, "resource", "aws", "6.0.0", "https://x");
  mp_required_plugins_add(&l, "resource", "gcp", NULL, NULL);
  const char *want[] = {"resource aws 5.4.0 -", "resource aws 6.0.0 https://x",
                        "resource gcp - -"};
  check_rows(&l, want, 3);
  mp_required_plugins_destroy(&l);
  CHECK(l.len == 0 && l.items == NULL);
}

static mp_project *load(const char *dir) {
  mp_project *p = NULL;
  mp_err e;
  CHECK(mp_project_load(dir, &p, &e) == 0);
  return p;
}

static void test_yaml(void) {
  char *dir = mp_xasprintf("%s/yaml", root);
  char *cmd = mp_xasprintf("mkdir -p %s", dir);
  sh(cmd);
  char *file = mp_xasprintf("%s/Pulumi.yaml", dir);
  write_file(file,
             "name: proj\nruntime: yaml\n"
             "plugins:\n  providers:\n    - {name: local1, path: ./bin, "
             "version: 0.1.0}\n"
             "resources:\n"
             "  a:\n    type: aws:s3:Bucket\n"
             "  b:\n    type: aws:s3:Bucket\n    options:\n"
             "      version: v6.1.0\n      pluginDownloadURL: https://dl\n"
             "  p:\n    type: pulumi:providers:gcp\n    options: {version: "
             "7.0.0}\n"
             "  c:\n    type: random:RandomPet\n"
             "  ref:\n    type: pulumi:pulumi:StackReference\n"
             "  d:\n    type: k8s:core/v1:Pod\n    options:\n"
             "      version: ${cfg}\n");
  mp_project *p = load(dir);
  mp_required_plugins l = {0};
  mp_err e;
  CHECK(mp_project_required_plugins(p, &l, &e) == 0);
  const char *want[] = {"resource local1 0.1.0 -",
                        "resource aws 6.1.0 https://dl", "resource gcp 7.0.0 -",
                        "resource random - -", "resource k8s - -"};
  check_rows(&l, want, 5);
  mp_required_plugins_destroy(&l);
  mp_project_free(p);
  free(file);
  free(cmd);
  free(dir);
}

static void test_nodejs(void) {
  char *dir = mp_xasprintf("%s/node", root);
  char *cmd = mp_xasprintf(
      "mkdir -p %s/node_modules/@pulumi/aws %s/node_modules/third/node_modules/"
      "@x/y %s/node_modules/plain %s/policy/node_modules/@pulumi/gcp "
      "%s/node_modules/@pulumi/aws2 && touch %s/policy/PulumiPolicy.yaml && "
      "ln -s .. %s/node_modules/loop",
      dir, dir, dir, dir, dir, dir, dir);
  sh(cmd);
  char *f = mp_xasprintf("%s/Pulumi.yaml", dir);
  write_file(f, "name: nodeproj\nruntime: nodejs\n");
  free(f);
  f = mp_xasprintf("%s/package.json", dir);
  write_file(f, "{\"name\": \"me\", \"pulumi\": {\"resource\": true}}");
  free(f);
  f = mp_xasprintf("%s/node_modules/@pulumi/aws/package.json", dir);
  write_file(f, "{\"name\": \"@pulumi/aws\", \"version\": \"6.1.0\", "
                "\"pulumi\": {\"resource\": true}}");
  free(f);
  f = mp_xasprintf("%s/node_modules/third/node_modules/@x/y/package.json", dir);
  write_file(f, "{\"name\": \"@x/y\", \"version\": \"1.0.0\", \"pulumi\": "
                "{\"resource\": true, \"name\": \"yy\", \"version\": "
                "\"v2.0.0\", \"server\": \"https://s\"}}");
  free(f);
  f = mp_xasprintf("%s/node_modules/plain/package.json", dir);
  write_file(f, "{\"name\": \"plain\", \"version\": \"1.0.0\"}");
  free(f);
  f = mp_xasprintf("%s/node_modules/@pulumi/aws2/package.json", dir);
  write_file(f, "{\"name\": \"@pulumi/aws2\", \"pulumi\": {\"resource\": "
                "false}}");
  free(f);
  f = mp_xasprintf("%s/policy/node_modules/@pulumi/gcp/package.json", dir);
  write_file(f, "{\"name\": \"@pulumi/gcp\", \"version\": \"7.0.0\", "
                "\"pulumi\": {\"resource\": true}}");
  free(f);
  mp_project *p = load(dir);
  mp_required_plugins l = {0};
  mp_err e;
  CHECK(mp_project_required_plugins(p, &l, &e) == 0);
  /* readdir's order: compare as a set. */
  CHECK(l.len == 2);
  int aws = 0, yy = 0;
  for (size_t i = 0; i < l.len; i++) {
    char *r = row(&l, i);
    aws += strcmp(r, "resource aws 6.1.0 -") == 0;
    yy += strcmp(r, "resource yy 2.0.0 https://s") == 0;
    free(r);
  }
  CHECK(aws == 1 && yy == 1);
  mp_required_plugins_destroy(&l);
  mp_project_free(p);
  free(cmd);
  free(dir);
}

int main(void) {
  snprintf(root, sizeof(root), "/tmp/mp-required-test.XXXXXX");
  if (mkdtemp(root) == NULL) return 1;
  RUN(test_dedupe);
  RUN(test_yaml);
  RUN(test_nodejs);
  char *cmd = mp_xasprintf("rm -rf %s", root);
  if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", root);
  free(cmd);
  return mp_test_summary();
}
