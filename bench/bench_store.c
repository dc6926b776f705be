/* Benchmark of the state store's per-step write cost: one short
 * transaction per write (docs/architecture.md, "From the program to the
 * state"), O(1) per step, never a rewrite of the whole snapshot. For stacks
 * of 1k and 10k resources it times steps as the step executor records them:
 *   create: apply(PENDING_ADD), then apply(INSERT_NEW + PENDING_REMOVE)
 *   update: apply(PENDING_ADD), then apply(UPDATE_NEW + PENDING_REMOVE)
 * and prints the median over several runs in microseconds per step.
 * Usage: bench_store [DIR | URL]
 *   DIR  a scratch directory for SQLite files (default $TMPDIR or /tmp)
 *   URL  a PostgreSQL database (postgres://...): the stacks bench-1000 and
 *        bench-10000 are made there and removed afterwards */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "state/store.h"

#define STEPS_PER_RUN 200
#define RUNS 7

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int no_encrypt(void *ctx, const char *p, size_t n, mp_buf *out,
                      mp_err *err) {
  (void)ctx;
  (void)err;
  mp_buf_puts(out, "x1:");
  mp_buf_append(out, p, n); /* the benchmark measures the store, not AES */
  return 0;
}

static mp_resource *make_resource(size_t i) {
  char urn[128], id[32];
  snprintf(urn, sizeof(urn), "urn:pulumi:bench::proj::pkgA:m:typA::res-%zu", i);
  snprintf(id, sizeof(id), "id-%zu", i);
  mp_resource *r = mp_resource_new(urn, "pkgA:m:typA", 1);
  r->id = mp_xstrdup(id);
  r->provider = mp_xstrdup(
      "urn:pulumi:bench::proj::pulumi:providers:pkgA::default::prov-id");
  r->inputs = mp_value_new_object();
  mp_value_object_set(r->inputs, "name", mp_value_new_cstring(urn));
  mp_value_object_set(r->inputs, "size", mp_value_new_number((double)i));
  r->outputs = mp_value_dup(r->inputs);
  mp_value_object_set(r->outputs, "arn", mp_value_new_cstring(id));
  mp_value_object_set(r->outputs, "token",
                      mp_value_new_secret(mp_value_new_cstring("s3cr3t")));
  r->created = mp_now_rfc3339();
  r->modified = mp_xstrdup(r->created);
  return r;
}

static mp_snapshot *make_snapshot(size_t n) {
  mp_snapshot *s = mp_snapshot_new();
  mp_resource *p =
      mp_resource_new("urn:pulumi:bench::proj::pulumi:providers:pkgA::default",
                      "pulumi:providers:pkgA", 1);
  p->id = mp_xstrdup("prov-id");
  mp_snapshot_append(s, p);
  for (size_t i = 1; i < n; i++)
    mp_snapshot_append(s, make_resource(i));
  return s;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void fail(const char *what, const mp_err *err) {
  fprintf(stderr, "bench_store: %s: %s\n", what, err->msg);
  exit(1);
}

/* One step; |update| picks UPDATE_NEW of |r| (stored) over INSERT_NEW. */
static void step(mp_store_update *u, mp_resource *r, int update) {
  mp_err err;
  int64_t prow = 0;
  mp_store_change add = {.kind = MP_STORE_PENDING_ADD,
                         .res = r,
                         .type =
                             update ? MP_PENDING_UPDATING : MP_PENDING_CREATING,
                         .pending_row = &prow};
  if (mp_store_apply(u, &add, 1, &err) < 0)
    fail("pending add", &err);
  mp_store_change done[2] = {
      {.kind = update ? MP_STORE_UPDATE_NEW : MP_STORE_INSERT_NEW, .res = r},
      {.kind = MP_STORE_PENDING_REMOVE, .row = prow}};
  if (mp_store_apply(u, done, 2, &err) < 0)
    fail("apply", &err);
}

/* Median microseconds per step over RUNS runs of STEPS_PER_RUN steps. */
static double run(mp_store *s, mp_stack_ref st, const mp_crypter *c,
                  mp_snapshot *snap, int update, size_t *next_new) {
  double per_step[RUNS];
  mp_err err;
  for (int k = 0; k < RUNS; k++) {
    mp_store_update *u;
    if (mp_store_update_begin(s, st, "update", NULL, c, NULL, &u, &err) < 0)
      fail("begin", &err);
    mp_resource *fresh[STEPS_PER_RUN];
    for (size_t i = 0; i < STEPS_PER_RUN; i++)
      fresh[i] = update ? NULL : make_resource((*next_new)++);
    double t0 = now_us();
    for (size_t i = 0; i < STEPS_PER_RUN; i++)
      step(u,
           update ? snap->res[1 + (k * STEPS_PER_RUN + i) % (snap->nres - 1)]
                  : fresh[i],
           update);
    per_step[k] = (now_us() - t0) / STEPS_PER_RUN;
    for (size_t i = 0; i < STEPS_PER_RUN; i++)
      mp_resource_free(fresh[i]);
    if (mp_store_update_end(u, "succeeded", NULL, &err) < 0)
      fail("end", &err);
  }
  qsort(per_step, RUNS, sizeof(per_step[0]), cmp_double);
  return per_step[RUNS / 2];
}

/* Removes the SQLite files of |path| (and its WAL). */
static void unlink_db(const char *path) {
  char *wal = mp_xasprintf("%s-wal", path), *shm = mp_xasprintf("%s-shm", path);
  unlink(path);
  unlink(wal);
  unlink(shm);
  free(wal);
  free(shm);
}

/* |target| is a PostgreSQL URL rather than a directory. */
static int is_url(const char *target) {
  return strncmp(target, "postgres", 8) == 0;
}

static void bench_size(const char *target, size_t n) {
  char name[32];
  snprintf(name, sizeof(name), "bench-%zu", n);
  char *path = is_url(target) ? mp_xstrdup(target)
                              : mp_xasprintf("%s/%s.db", target, name);
  if (!is_url(target))
    unlink_db(path);
  mp_store *s;
  mp_err err;
  mp_stack_ref st = {"proj", name};
  mp_crypter c = {no_encrypt, NULL, NULL, NULL};
  if (mp_store_open(path, &s, &err) < 0)
    fail("open", &err);
  if (mp_store_stack_exists(s, st, &err) == 1 &&
      mp_store_stack_remove(s, st, 1, &err) < 0)
    fail("remove", &err);
  if (mp_store_stack_create(s, st, &err) < 0)
    fail("create", &err);
  mp_snapshot *snap = make_snapshot(n);
  double t0 = now_us();
  if (mp_store_replace(s, st, snap, &c, &err) < 0)
    fail("replace", &err);
  double load_ms = (now_us() - t0) / 1e3;
  size_t next_new = n + 1;
  double create = run(s, st, &c, snap, 0, &next_new);
  double update = run(s, st, &c, snap, 1, &next_new);
  printf("%6zu resources: create step %7.1f us, update step %7.1f us "
         "(median of %d runs x %d steps; initial import %.0f ms)\n",
         n, create, update, RUNS, STEPS_PER_RUN, load_ms);
  mp_snapshot_free(snap);
  if (is_url(target) && mp_store_stack_remove(s, st, 1, &err) < 0)
    fail("remove", &err);
  mp_store_close(s);
  if (!is_url(target))
    unlink_db(path);
  free(path);
}

int main(int argc, char **argv) {
  const char *tmp = getenv("TMPDIR");
  const char *target = argc > 1 ? argv[1] : (tmp && *tmp ? tmp : "/tmp");
  printf("%s\n", is_url(target) ? "PostgreSQL" : "SQLite");
  bench_size(target, 1000);
  bench_size(target, 10000);
  return 0;
}
