/* The plugin host without a real plugin: where plugins are found (the
 * project's spec, PATH, the plugin folder; built-ins first unless a spec
 * names the package) and how a start that yields no port fails (its
 * stderr and exit status in the message, nothing left running). The
 * calls themselves are tested end to end in tests/plugin_processes/. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "plugin/plugin_int.h"
#include "providers/builtin.h"
#include "testutil.h"

static char root[64];

static char *path_in(const char *rel) {
  return mp_xasprintf("%s/%s", root, rel);
}

static void write_file(const char *rel, const char *text, int mode) {
  char *p = path_in(rel);
  char *dir = mp_xstrdup(p);
  *strrchr(dir, '/') = '\0';
  char *cmd = mp_xasprintf("mkdir -p '%s'", dir);
  CHECK(system(cmd) == 0);
  FILE *f = fopen(p, "w");
  CHECK(f != NULL);
  fputs(text, f);
  fclose(f);
  chmod(p, (mode_t)mode);
  free(cmd);
  free(dir);
  free(p);
}

static mp_plugin_host *host(const mp_plugin_spec *specs, size_t n,
                            const char *search_path, uint64_t timeout_ms) {
  char *pd = path_in("home-plugins");
  mp_plugin_host_opts o = {0};
  o.project_dir = root;
  o.program_dir = root;
  o.project = "proj";
  o.stack = "dev";
  o.specs = specs;
  o.nspecs = n;
  o.builtins = mp_builtin_providers(NULL);
  o.search_path = search_path;
  o.plugin_dir = pd;
  o.setup_timeout_ms = timeout_ms;
  mp_plugin_host *h = NULL;
  mp_err err;
  CHECK(mp_plugin_host_new(&o, &h, &err) == 0);
  free(pd);
  return h;
}

static const char *const script = "#!/bin/sh\nexit 0\n";

static void test_plugin_find_order(void) {
  write_file("spec/pulumi-resource-x", script, 0755);
  write_file("onpath/pulumi-resource-x", script, 0755);
  write_file("onpath/pulumi-resource-y", script, 0644); /* not executable */
  write_file("home-plugins/pulumi-resource-x", script, 0755);
  write_file("home-plugins/pulumi-resource-y", script, 0755);
  char *onpath = path_in("onpath");
  mp_plugin_spec spec = {"x", "spec", NULL};
  mp_plugin_host *h = host(&spec, 1, onpath, 0);
  char *found = NULL;
  mp_err err;
  CHECK(mp_plugin_find(h, "x", NULL, &found, &err) == 0);
  CHECK_CONTAINS(found, "/spec/pulumi-resource-x");
  free(found);
  /* y: PATH holds one that cannot run, the plugin folder one that can */
  CHECK(mp_plugin_find(h, "y", NULL, &found, &err) == 0);
  CHECK_CONTAINS(found, "/home-plugins/pulumi-resource-y");
  free(found);
  CHECK(mp_plugin_find(h, "z", NULL, &found, &err) == MP_ENOENT);
  CHECK(found == NULL);
  CHECK_STR(err.msg, "no resource plugin 'pulumi-resource-z' found in the "
                     "workspace or on your $PATH");
  mp_plugin_host_shutdown(h);
  /* without the spec, PATH comes before the plugin folder */
  h = host(NULL, 0, onpath, 0);
  CHECK(mp_plugin_find(h, "x", NULL, &found, &err) == 0);
  CHECK_CONTAINS(found, "/onpath/pulumi-resource-x");
  free(found);
  mp_plugin_host_shutdown(h);
  /* a spec whose path holds no plugin is named */
  mp_plugin_spec bad = {"x", "nowhere", NULL};
  h = host(&bad, 1, onpath, 0);
  CHECK(mp_plugin_find(h, "x", NULL, &found, &err) == MP_ENOENT);
  CHECK_CONTAINS(err.msg, "/nowhere' (the path Pulumi.yaml's "
                          "plugins.providers or packages gives for 'x')");
  mp_plugin_host_shutdown(h);
  free(onpath);
}

static void test_plugin_builtins_first_unless_named(void) {
  mp_plugin_host *h = host(NULL, 0, NULL, 0);
  mp_provider_factory f = mp_plugin_host_factory(h);
  mp_provider *p = NULL;
  mp_err err;
  CHECK(f.make(f.ud, "random", NULL, &p, &err) == 0);
  CHECK(p != NULL && p->vt != &mp__plugin_vtable);
  mp_provider_free(p);
  mp_plugin_host_shutdown(h);
  /* named in the project: the plugin, even for a built-in package */
  write_file("own/pulumi-resource-random",
             "#!/bin/sh\necho 'not today' >&2\nexit 5\n", 0755);
  mp_plugin_spec spec = {"random", "own", NULL};
  h = host(&spec, 1, NULL, 0);
  f = mp_plugin_host_factory(h);
  p = NULL;
  CHECK(f.make(f.ud, "random", NULL, &p, &err) == MP_EIO);
  CHECK(p == NULL);
  CHECK_CONTAINS(err.msg, "could not read plugin [");
  CHECK_CONTAINS(err.msg, "/own/pulumi-resource-random]: its output ended "
                          "before the port line; the plugin exited with "
                          "status 5");
  CHECK_CONTAINS(err.msg, "not today");
  mp_plugin_host_shutdown(h);
}

static int alive(pid_t pid) {
  char path[64], buf[256];
  snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
  FILE *f = fopen(path, "r");
  if (f == NULL) return 0;
  size_t n = fread(buf, 1, sizeof(buf) - 1, f);
  fclose(f);
  buf[n] = '\0';
  const char *s = strrchr(buf, ')');
  return s && s[1] == ' ' && s[2] != 'Z' && s[2] != 'X';
}

static void test_plugin_start_without_port(void) {
  /* a bad port line */
  write_file("bad/pulumi-resource-b", "#!/bin/sh\necho hello\nsleep 30\n",
             0755);
  /* no line at all, and a child in its group: both must be ended */
  char *pidf = path_in("child.pid");
  char *text = mp_xasprintf("#!/bin/sh\nsleep 60 &\necho $! > '%s'\n"
                            "wait\n",
                            pidf);
  write_file("bad/pulumi-resource-c", text, 0755);
  mp_plugin_spec specs[] = {{"b", "bad", NULL}, {"c", "bad", NULL}};
  mp_plugin_host *h = host(specs, 2, NULL, 1500);
  mp_provider_factory f = mp_plugin_host_factory(h);
  mp_provider *p = NULL;
  mp_err err;
  CHECK(f.make(f.ud, "b", NULL, &p, &err) == MP_EIO);
  CHECK_CONTAINS(err.msg, "it wrote an invalid port to stdout");
  CHECK(f.make(f.ud, "c", NULL, &p, &err) == MP_EIO);
  CHECK_CONTAINS(err.msg, "no port line within the startup deadline");
  CHECK_CONTAINS(err.msg, "minipulumi stopped it");
  FILE *pf = fopen(pidf, "r");
  int child = 0;
  CHECK(pf != NULL && fscanf(pf, "%d", &child) == 1);
  if (pf) fclose(pf);
  for (int i = 0; i < 100 && child > 0 && alive(child); i++) usleep(20000);
  CHECK(child > 0 && !alive(child));
  mp_plugin_host_shutdown(h);
  free(text);
  free(pidf);
}

int main(void) {
  snprintf(root, sizeof(root), "/tmp/mp-plugin-test.XXXXXX");
  if (mkdtemp(root) == NULL) return 1;
  RUN(test_plugin_find_order);
  RUN(test_plugin_builtins_first_unless_named);
  RUN(test_plugin_start_without_port);
  char *cmd = mp_xasprintf("rm -rf '%s'", root);
  if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", root);
  free(cmd);
  return mp_test_summary();
}
