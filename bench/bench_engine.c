/* Engine throughput on large stacks: an in-process program registers N
 * `test` resources (each depending on one earlier resource, all issued at
 * once as a language host would when their inputs are known), then runs
 * a no-op update and a preview of a one-property change on every tenth
 * resource. Prints wall time per phase and per resource.
 *   bench_engine [N ...]    (default 1000 10000) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../tests/deploy/deploy_harness.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void phase(tenv *e, const char *what, treg *regs, size_t n,
                  trun_opts *o) {
  double t0 = now();
  trun(e, regs, n, o);
  double dt = now() - t0;
  printf("  %-28s %8.3f s  %7.1f us/resource%s\n", what, dt, dt * 1e6 / (double)n,
         e->res.failed ? "  (FAILED)" : "");
  fflush(stdout);
}

static void bench(size_t n) {
  tenv e;
  tenv_init(&e);
  treg *regs = calloc(n, sizeof(*regs));
  char **names = calloc(n, sizeof(char *));
  char **inputs = calloc(n, sizeof(char *));
  for (size_t i = 0; i < n; i++) {
    names[i] = malloc(32);
    snprintf(names[i], 32, "r%zu", i);
    regs[i].name = names[i];
    regs[i].inputs = "{\"v\":1}";
  }
  printf("N = %zu\n", n);
  trun_opts o = {.concurrent = 1, .parallel = 16};
  phase(&e, "up (create all)", regs, n, &o);
  phase(&e, "up (no changes)", regs, n, &o);
  for (size_t i = 0; i < n; i += 10) {
    inputs[i] = strdup("{\"v\":2}");
    regs[i].inputs = inputs[i];
  }
  trun_opts p = o;
  p.preview = 1;
  phase(&e, "preview (10% changed)", regs, n, &p);
  phase(&e, "up (10% updated)", regs, n, &o);
  phase(&e, "destroy", regs, n, &(trun_opts){.kind = MP_DEPLOY_DESTROY, .parallel = 16});
  for (size_t i = 0; i < n; i++) {
    free(names[i]);
    free(inputs[i]);
  }
  free(names);
  free(inputs);
  free(regs);
  tenv_destroy(&e);
}

int main(int argc, char **argv) {
  /* As the CLI does for --parallel 16: a worker per chain, set before the
   * first libuv call (the engine itself leaves the pool alone). */
  setenv("UV_THREADPOOL_SIZE", "16", 0);
  if (argc < 2) {
    bench(1000);
    bench(10000);
  }
  for (int i = 1; i < argc; i++) bench((size_t)atol(argv[i]));
  return 0;
}
