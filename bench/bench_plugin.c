/* The cost of one no-op provider call to a plugin process over gRPC:
 * launches a plugin through the plugin host (plugin/plugin.h), configures
 * it, then times N Check calls with empty inputs (the plugin echoes them)
 * from a worker thread, one at a time.
 *
 *   bench_plugin PLUGIN [N]
 *     e.g. tests/plugin_processes/bin/pulumi-resource-testprov
 *
 * Prints the median and p99 in microseconds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "plugin/plugin.h"
#include "providers/builtin.h"

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: bench_plugin PLUGIN [N]\n");
    return 2;
  }
  int n = argc > 2 ? atoi(argv[2]) : 2000;
  if (n <= 0) n = 2000;
  char cwd[4096];
  if (getcwd(cwd, sizeof(cwd)) == NULL) return 1;
  mp_plugin_host_opts o = {0};
  o.project_dir = o.program_dir = cwd;
  o.project = "bench";
  o.stack = "dev";
  o.builtins = mp_builtin_providers(NULL);
  mp_plugin_host *h;
  mp_err err;
  mp_err_clear(&err);
  if (mp_plugin_host_new(&o, &h, &err) < 0) {
    fprintf(stderr, "%s\n", err.msg);
    return 1;
  }
  const char *args[] = {argv[1], NULL};
  mp_provider *p = NULL;
  int rc = mp_plugin_launch(h, "bench", args, &p, &err);
  mp_prov_req q = {0};
  mp_prov_resp r;
  if (rc == 0) {
    mp_prov_resp_init(&r);
    rc = p->vt->configure(p, &q, &r, &err);
    mp_prov_resp_destroy(&r);
  }
  double *us = calloc((size_t)n, sizeof(*us));
  q.urn = "urn:pulumi:dev::bench::bench:index:Thing::x";
  q.type = "bench:index:Thing";
  q.name = "x";
  for (int i = 0; rc == 0 && i < n; i++) {
    mp_prov_resp_init(&r);
    uint64_t t0 = uv_hrtime();
    rc = p->vt->check(p, &q, &r, &err);
    us[i] = (double)(uv_hrtime() - t0) / 1000.0;
    mp_prov_resp_destroy(&r);
  }
  if (rc < 0) fprintf(stderr, "bench_plugin: %s\n", err.msg);
  else {
    qsort(us, (size_t)n, sizeof(*us), cmp);
    printf("%d Check calls to %s: median %.1f us, p99 %.1f us\n", n,
           argv[1], us[n / 2], us[(size_t)n * 99 / 100]);
  }
  free(us);
  mp_provider_free(p);
  mp_plugin_host_shutdown(h);
  return rc < 0;
}
