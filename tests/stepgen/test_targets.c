/* Tests for src/stepgen/targets.c: --target and --exclude over a prior
 * snapshot, as refresh, destroy and the delete phase read them. */
#include "stepgen/targets.h"

#include <stdlib.h>
#include <string.h>

#include "testutil.h"

#define U(n) "urn:pulumi:s::p::t:m:T::" n
#define P "urn:pulumi:s::p::pulumi:providers:t::p"

static mp_resource *res(mp_snapshot *s, const char *urn, const char *parent) {
  mp_resource *r = mp_resource_new(urn, "t:m:T", 1);
  r->parent = mp_xstrdup(parent);
  mp_snapshot_append(s, r);
  return r;
}

static void targets_of(mp_targets *t, const char *target, const char *exclude,
                       int tdep, int xdep) {
  mp_strv a, b;
  mp_strv_init(&a);
  mp_strv_init(&b);
  if (target) mp_strv_push(&a, target);
  if (exclude) mp_strv_push(&b, exclude);
  mp_targets_init(t, &a, &b, tdep, xdep);
  mp_strv_destroy(&a);
  mp_strv_destroy(&b);
}

/* "0110..." of sel over |n| entries, owned. */
static char *bits(const unsigned char *sel, size_t n) {
  char *s = mp_xcalloc(n + 1, 1);
  for (size_t i = 0; i < n; i++) s[i] = sel[i] ? '1' : '0';
  return s;
}

/* root > a > b, root > c; d alone. */
static mp_snapshot *tree(void) {
  mp_snapshot *s = mp_snapshot_new();
  res(s, U("root"), NULL);
  res(s, U("a"), U("root"));
  res(s, U("b"), U("a"));
  res(s, U("c"), U("root"));
  res(s, U("d"), NULL);
  return s;
}

static char *select_tree(mp_snapshot *s, const char *target,
                         const char *exclude, int tdep, int xdep) {
  mp_targets t;
  targets_of(&t, target, exclude, tdep, xdep);
  unsigned char sel[16];
  mp_targets_select_refresh(&t, s, sel);
  mp_targets_destroy(&t);
  return bits(sel, s->nres);
}

static void expect_tree(mp_snapshot *s, const char *target,
                        const char *exclude, int tdep, int xdep,
                        const char *want) {
  char *got = select_tree(s, target, exclude, tdep, xdep);
  CHECK_STR(got, want);
  free(got);
}

static void test_targets_select_tree(void) {
  mp_snapshot *s = tree();
  expect_tree(s, NULL, NULL, 0, 0, "11111");
  expect_tree(s, U("a"), NULL, 0, 0, "01000");
  expect_tree(s, U("a"), NULL, 1, 0, "01100");
  expect_tree(s, U("root"), NULL, 1, 0, "11110");
  expect_tree(s, NULL, U("a"), 0, 0, "10111");
  expect_tree(s, NULL, U("a"), 0, 1, "10011");
  expect_tree(s, "**", U("root"), 0, 1, "00001");
  expect_tree(s, U("*"), NULL, 0, 0, "11111");
  mp_snapshot_free(s);
}

/* A parent chain as deep as the state: each entry is resolved once. */
static void test_targets_select_deep_chain(void) {
  mp_snapshot *s = mp_snapshot_new();
  char prev[64] = "", urn[64];
  enum { N = 20000 };
  for (int i = 0; i < N; i++) {
    snprintf(urn, sizeof(urn), U("r%d"), i);
    res(s, urn, i ? prev : NULL);
    strcpy(prev, urn);
  }
  mp_targets t;
  targets_of(&t, U("r10000"), NULL, 1, 0);
  unsigned char *sel = mp_xcalloc(N, 1);
  mp_targets_select_refresh(&t, s, sel);
  size_t on = 0;
  for (int i = 0; i < N; i++) on += sel[i];
  CHECK(on == 10000 && sel[10000] && sel[N - 1] && !sel[9999]);
  mp_targets_destroy(&t);
  /* With excludes the targets are not looked at. */
  targets_of(&t, U("r10000"), U("r15000"), 1, 1);
  mp_targets_select_refresh(&t, s, sel);
  on = 0;
  for (int i = 0; i < N; i++) on += sel[i];
  CHECK(on == 15000 && sel[0] && sel[14999] && !sel[15000]);
  free(sel);
  mp_targets_destroy(&t);
  mp_snapshot_free(s);
}

static void test_targets_unknown_names(void) {
  mp_snapshot *s = tree();
  mp_map known;
  mp_map_init(&known);
  mp_targets_known(s, &known);
  mp_strv names;
  mp_strv_init(&names);
  mp_strv_push(&names, U("a"));
  mp_strv_push(&names, U("nope*")); /* a glob may match nothing */
  CHECK(mp_targets_first_unknown(&names, &known) == NULL);
  mp_strv_push(&names, U("gone"));
  mp_strv_push(&names, U("gone2"));
  CHECK_STR(mp_targets_first_unknown(&names, &known), U("gone"));
  CHECK(mp_targets_first_unknown(NULL, &known) == NULL);
  mp_strv_destroy(&names);
  mp_map_destroy(&known);
  mp_snapshot_free(s);
}

/* b dependsOn a, c is deletedWith b, e takes a property of c, f uses
 * provider p; d alone. */
static mp_snapshot *refs_graph(void) {
  mp_snapshot *s = mp_snapshot_new();
  res(s, U("a"), NULL);
  mp_resource *b = res(s, U("b"), NULL);
  mp_strv_push(&b->dependencies, U("a"));
  mp_resource *c = res(s, U("c"), NULL);
  c->deleted_with = mp_xstrdup(U("b"));
  res(s, U("d"), NULL);
  mp_resource *e = res(s, U("e"), NULL);
  mp_strv_push(&mp_propdeps_get(&e->property_dependencies, "x")->urns, U("c"));
  res(s, P, NULL);
  mp_resource *f = res(s, U("f"), NULL);
  f->provider = mp_xstrdup(P "::id-1");
  return s;
}

/* Deletions follow references of every kind, the provider's too; refresh
 * follows all but the provider. */
static void test_targets_closure(void) {
  mp_snapshot *s = refs_graph();
  mp_strv pats;
  mp_strv_init(&pats);
  mp_strv_push(&pats, U("a"));
  mp_strv_push(&pats, P);
  unsigned char in[8];
  mp_targets_closure(s, &pats, 1, MP_REF_ALL, in);
  char *got = bits(in, s->nres);
  CHECK_STR(got, "1110111");
  free(got);
  mp_targets_closure(s, &pats, 0, MP_REF_ALL, in);
  got = bits(in, s->nres);
  CHECK_STR(got, "1000010");
  free(got);
  mp_strv_destroy(&pats);
  expect_tree(s, U("a"), NULL, 1, 0, "1110100");
  expect_tree(s, P, NULL, 1, 0, "0000010");
  expect_tree(s, NULL, U("b"), 0, 1, "1001011");
  mp_snapshot_free(s);
}

int main(void) {
  RUN(test_targets_select_tree);
  RUN(test_targets_select_deep_chain);
  RUN(test_targets_unknown_names);
  RUN(test_targets_closure);
  return mp_test_summary();
}
