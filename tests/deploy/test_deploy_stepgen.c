/* The step generator's Check and Diff made ahead on the worker pool
 * (stepgen.h, mp_sg_ahead): they overlap, bounded by --parallel, and the
 * steps, state and provider calls are those of --serial-stepgen. */
#include <stdlib.h>
#include <string.h>

#include "deploy_harness.h"
#include "testutil.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define SPAN_NS 150000000LL

static void six_slow(treg *p) {
  static const char *const names[] = {"r1", "r2", "r3", "r4", "r5", "r6"};
  memset(p, 0, 6 * sizeof(*p));
  for (int i = 0; i < 6; i++) {
    p[i].name = names[i];
    p[i].inputs = "{\"__latencyMs\":150}";
  }
}

static void test_stepgen_checks_and_diffs_overlap(void) {
  tenv e;
  tenv_init(&e);
  treg p[6];
  six_slow(p);
  trun(&e, p, 6, &(trun_opts){.concurrent = 1, .parallel = 3});
  CHECK(!e.res.failed);
  CHECK(calls_count(&e, "check") == 6); /* no spare call */
  int most = calls_overlap(&e, "check", SPAN_NS, 0);
  CHECK(most >= 2);
  CHECK(most <= 3);
  int from = calls_lines(&e);
  trun(&e, p, 6, &(trun_opts){.concurrent = 1, .parallel = 3});
  CHECK(!e.res.failed);
  CHECK(e.res.counts[MP_OP_SAME] == 6); /* default providers are not counted */
  CHECK(calls_count(&e, "check") == 12);
  CHECK(calls_count(&e, "diff") == 6);
  most = calls_overlap(&e, "diff", SPAN_NS, from);
  CHECK(most >= 2);
  CHECK(most <= 3);
  tenv_destroy(&e);
}

static void test_stepgen_serial_flag_keeps_one_at_a_time(void) {
  tenv e;
  tenv_init(&e);
  treg p[6];
  six_slow(p);
  trun(&e, p, 6,
       &(trun_opts){.concurrent = 1, .parallel = 3, .serial_stepgen = 1});
  CHECK(!e.res.failed);
  CHECK(calls_count(&e, "check") == 6);
  CHECK(calls_overlap(&e, "check", SPAN_NS, 0) == 1);
  tenv_destroy(&e);
}

/* One deployment sequence: create, then updates, replacements (create
 * before delete and delete before replace with a dependent), a delete and
 * a create; the steps in order, the state, and the calls per kind. */
typedef struct outcome {
  mp_strv steps;
  char *state;
  int checks, diffs;
} outcome;

/* What |e|'s runs did, into |out|; then |e| is destroyed. */
static void take_outcome(tenv *e, outcome *out) {
  mp_strv_init(&out->steps);
  mp_strv_copy(&out->steps, &e->steps);
  out->state = state_names(e);
  out->checks = calls_count(e, "check");
  out->diffs = calls_count(e, "diff");
  tenv_destroy(e);
}

static void sequence(int serial, int concurrent, outcome *out) {
  tenv e;
  tenv_init(&e);
  treg p1[] = {
      {.name = "a", .inputs = "{\"x\":1}"},
      {.name = "b", .inputs = "{\"k\":1,\"__replaceKeys\":[\"k\"]}",
       .deps = {"a"}},
      {.name = "c", .inputs = "{\"x\":1}"},
      {.name = "d",
       .inputs = "{\"k\":1,\"__replaceKeys\":[\"k\"],\"__dbr\":true}"},
      {.name = "e", .inputs = "{\"x\":1}", .deps = {"d"}},
      {.name = "f", .inputs = "{\"x\":1}"}};
  treg p2[] = {
      {.name = "a", .inputs = "{\"x\":2}"},
      {.name = "b", .inputs = "{\"k\":2,\"__replaceKeys\":[\"k\"]}",
       .deps = {"a"}},
      {.name = "c", .inputs = "{\"x\":1}"},
      {.name = "d",
       .inputs = "{\"k\":2,\"__replaceKeys\":[\"k\"],\"__dbr\":true}"},
      {.name = "e", .inputs = "{\"x\":1}", .deps = {"d"}},
      {.name = "g", .inputs = "{\"x\":1}"}};
  trun_opts o = {.concurrent = concurrent, .parallel = 1,
                 .serial_stepgen = serial};
  trun(&e, p1, N(p1), &o);
  CHECK(!e.res.failed);
  trun(&e, p2, N(p2), &o);
  CHECK(!e.res.failed);
  take_outcome(&e, out);
}

static void test_stepgen_same_outcome_as_serial(void) {
  for (int concurrent = 0; concurrent <= 1; concurrent++) {
    outcome s, p;
    sequence(1, concurrent, &s);
    sequence(0, concurrent, &p);
    CHECK(s.steps.len > 0 && s.steps.len == p.steps.len);
    for (size_t i = 0; i < s.steps.len && i < p.steps.len; i++)
      CHECK_STR(p.steps.items[i], s.steps.items[i]);
    CHECK_STR(p.state, s.state);
    CHECK(p.checks == s.checks);
    CHECK(p.diffs == s.diffs);
    mp_strv_destroy(&s.steps);
    mp_strv_destroy(&p.steps);
    free(s.state);
    free(p.state);
  }
}

/* Many registrations whose calls take microseconds (pool works then take
 * several at once, generator.c) and then slow ones: the fast ones decide
 * exactly as the serial generator does, with no spare call, and the slow
 * ones still overlap (a batch that turns slow hands its rest out again). */
enum { FAST = 120, SLOW = 8 };
/* The slow calls' latency, and the window in which their starts count as
 * overlapping: long enough that a loaded machine (the sanitizer trees run
 * beside other tests) does not spread out starts that run at once, while
 * calls run one by one start a whole latency apart. */
#define SLOW_LATENCY "300"
#define SLOW_SPAN_NS 300000000LL

/* The harness registers everything at once from the last to the first,
 * so the slow ones, first in the list, arrive last. */
static void fast_then_slow(treg *p, char **names, int round) {
  memset(p, 0, (FAST + SLOW) * sizeof(*p));
  for (int i = 0; i < FAST + SLOW; i++) {
    p[i].name = names[i];
    if (i < SLOW) p[i].inputs = "{\"__latencyMs\":" SLOW_LATENCY "}";
    else if (round == 1 && i % 7 == 0)
      p[i].inputs = "{\"k\":2,\"__replaceKeys\":[\"k\"]}";
    else if (round == 1 && i % 5 == 0) p[i].inputs = "{\"k\":3}";
    else p[i].inputs = "{\"k\":1,\"__replaceKeys\":[\"k\"]}";
  }
}

static int by_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts the space-separated words of |s| in place. */
static void sort_words(char *s) {
  mp_strv w;
  mp_strv_init(&w);
  for (char *t = strtok(s, " "); t; t = strtok(NULL, " ")) mp_strv_push(&w, t);
  qsort(w.items, w.len, sizeof(char *), by_str);
  char *o = s;
  for (size_t i = 0; i < w.len; i++) {
    size_t n = strlen(w.items[i]);
    if (i) *o++ = ' ';
    memmove(o, w.items[i], n);
    o += n;
  }
  *o = '\0';
  mp_strv_destroy(&w);
}

static void many(int serial, outcome *out, int *slow_overlap) {
  char *names[FAST + SLOW];
  treg p[FAST + SLOW];
  for (int i = 0; i < FAST + SLOW; i++)
    names[i] = mp_xasprintf("%s%d", i < SLOW ? "s" : "f", i);
  tenv e;
  tenv_init(&e);
  trun_opts o = {.concurrent = 1, .parallel = SLOW, .serial_stepgen = serial};
  fast_then_slow(p, names, 0);
  trun(&e, p, FAST + SLOW, &o);
  CHECK(!e.res.failed);
  int from = calls_lines(&e);
  fast_then_slow(p, names, 1);
  trun(&e, p, FAST + SLOW, &o);
  CHECK(!e.res.failed);
  *slow_overlap = calls_overlap_with(&e, "check", "__latencyMs",
                                     SLOW_SPAN_NS, from);
  take_outcome(&e, out);
  for (int i = 0; i < FAST + SLOW; i++) free(names[i]);
}

static void test_stepgen_many_fast_then_slow(void) {
  outcome s, p;
  int s_overlap, p_overlap;
  many(1, &s, &s_overlap);
  many(0, &p, &p_overlap);
  /* Two steps run at once, so they finish, and enter the snapshot, in
   * either order: compare both sorted. */
  CHECK(s.steps.len > FAST && s.steps.len == p.steps.len);
  qsort(s.steps.items, s.steps.len, sizeof(char *), by_str);
  qsort(p.steps.items, p.steps.len, sizeof(char *), by_str);
  for (size_t i = 0; i < s.steps.len && i < p.steps.len; i++)
    CHECK_STR(p.steps.items[i], s.steps.items[i]);
  sort_words(s.state);
  sort_words(p.state);
  CHECK_STR(p.state, s.state);
  CHECK(p.checks == s.checks);
  CHECK(p.diffs == s.diffs);
  CHECK(s_overlap == 1);
  /* Without handing the rest out again, those of one batch run one by
   * one (1, or 2 when they fall in two batches); handed out, they start
   * together, in one wave or, under a sanitizer, sometimes two. */
  CHECK(p_overlap >= SLOW / 2);
  mp_strv_destroy(&s.steps);
  mp_strv_destroy(&p.steps);
  free(s.state);
  free(p.state);
}

int main(void) {
  /* room on the pool for SLOW calls at once (libuv's default is 4) */
  setenv("UV_THREADPOOL_SIZE", "16", 1);
  RUN(test_stepgen_checks_and_diffs_overlap);
  RUN(test_stepgen_serial_flag_keeps_one_at_a_time);
  RUN(test_stepgen_same_outcome_as_serial);
  RUN(test_stepgen_many_fast_then_slow);
  return mp_test_summary();
}
