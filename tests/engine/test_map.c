/* The string-keyed map (engine/map.h): inserts, replaces, lookups and
 * growth, with keys that share long prefixes as URNs do. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/map.h"
#include "testutil.h"

static void test_map_put_get_replace(void) {
  mp_map m;
  mp_map_init(&m);
  CHECK(mp_map_get(&m, "a") == NULL);
  CHECK(!mp_map_has(&m, "a"));
  int one = 1, two = 2;
  CHECK(mp_map_put(&m, "a", &one) == NULL);
  CHECK(mp_map_get(&m, "a") == &one);
  CHECK(mp_map_put(&m, "a", &two) == &one); /* replaced, previous returned */
  CHECK(mp_map_get(&m, "a") == &two);
  CHECK(m.len == 1);
  CHECK(mp_map_put(&m, "", &one) == NULL); /* the empty key is a key */
  CHECK(mp_map_get(&m, "") == &one);
  CHECK(m.len == 2);
  mp_map_destroy(&m);
  CHECK(m.cap == 0 && m.len == 0);
}

/* 50,000 URN-like keys through many growths: each is found with its own
 * value, a near miss is not, and every slot's key is a distinct entry. */
static void test_map_many_prefixed_keys(void) {
  enum { N = 50000 };
  const char *prefix = "urn:pulumi:dev::bench::test:index:Resource::r";
  mp_map m;
  mp_map_init(&m);
  long *vals = malloc(N * sizeof(*vals));
  char key[128];
  for (long i = 0; i < N; i++) {
    vals[i] = i;
    snprintf(key, sizeof(key), "%s%ld", prefix, i);
    CHECK(mp_map_put(&m, key, &vals[i]) == NULL);
  }
  CHECK(m.len == N);
  CHECK(m.cap >= N + N / 3); /* load stays under three quarters */
  int bad = 0;
  for (long i = 0; i < N; i++) {
    snprintf(key, sizeof(key), "%s%ld", prefix, i);
    long *v = mp_map_get(&m, key);
    if (v == NULL || *v != i) bad++;
    snprintf(key, sizeof(key), "%s%ldx", prefix, i);
    if (mp_map_has(&m, key)) bad++;
  }
  CHECK(bad == 0);
  size_t used = 0;
  for (size_t i = 0; i < m.cap; i++)
    if (m.slots[i].key) used++;
  CHECK(used == N);
  mp_map_destroy(&m);
  free(vals);
}

int main(void) {
  RUN(test_map_put_get_replace);
  RUN(test_map_many_prefixed_keys);
  return mp_test_summary();
}
