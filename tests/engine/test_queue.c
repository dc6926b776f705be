/* The intrusive queue (engine/queue.h): first in, first out; an object in
 * two queues at once; insertion before a link; removal from the middle;
 * moving one queue to the end of another. */
#include "engine/queue.h"
#include "testutil.h"

typedef struct item {
  int v;
  mp_queue a, b; /* two queues at once */
} item;

/* The values of |h| (linked through |a|) in order, as digits. */
static int digits_a(const mp_queue *h) {
  int n = 0;
  for (mp_queue *q = mp_queue_first(h); q; q = mp_queue_after(h, q))
    n = n * 10 + mp_queue_data(q, item, a)->v;
  return n;
}

static void test_queue_fifo(void) {
  item it[4];
  mp_queue h;
  mp_queue_init(&h);
  CHECK(mp_queue_empty(&h));
  CHECK(mp_queue_pop(&h) == NULL);
  for (int i = 0; i < 4; i++) {
    it[i].v = i + 1;
    mp_queue_push(&h, &it[i].a);
  }
  CHECK(digits_a(&h) == 1234);
  for (int i = 0; i < 4; i++)
    CHECK(mp_queue_data(mp_queue_pop(&h), item, a)->v == i + 1);
  CHECK(mp_queue_empty(&h));
  /* Reused after being emptied. */
  mp_queue_push(&h, &it[2].a);
  CHECK(digits_a(&h) == 3);
  CHECK(mp_queue_pop(&h) == &it[2].a);
  CHECK(mp_queue_first(&h) == NULL);
}

static void test_queue_two_queues_insert_remove(void) {
  item it[5];
  mp_queue ha, hb;
  mp_queue_init(&ha);
  mp_queue_init(&hb);
  for (int i = 0; i < 5; i++) {
    it[i].v = i + 1;
    mp_queue_push(&ha, &it[i].a);
    if (i % 2 == 0) mp_queue_push(&hb, &it[i].b); /* 1, 3, 5 */
  }
  mp_queue_remove(&it[2].a); /* 3 leaves a, stays in b */
  CHECK(digits_a(&ha) == 1245);
  int n = 0;
  for (mp_queue *q = mp_queue_first(&hb); q; q = mp_queue_after(&hb, q))
    n = n * 10 + mp_queue_data(q, item, b)->v;
  CHECK(n == 135);
  /* Back in its place, before 4. */
  mp_queue_insert_before(&it[3].a, &it[2].a);
  CHECK(digits_a(&ha) == 12345);
  mp_queue_remove(&it[0].a); /* the first */
  mp_queue_remove(&it[4].a); /* the last */
  CHECK(digits_a(&ha) == 234);
  CHECK(mp_queue_first(&ha) == &it[1].a);
  CHECK(mp_queue_after(&ha, &it[3].a) == NULL);
}

static void test_queue_move(void) {
  item it[5];
  mp_queue from, to;
  mp_queue_init(&from);
  mp_queue_init(&to);
  for (int i = 0; i < 5; i++) it[i].v = i + 1;
  mp_queue_move(&from, &to); /* both empty */
  CHECK(mp_queue_empty(&from) && mp_queue_empty(&to));
  mp_queue_push(&from, &it[0].a);
  mp_queue_push(&from, &it[1].a);
  mp_queue_move(&from, &to); /* into an empty one */
  CHECK(mp_queue_empty(&from));
  CHECK(digits_a(&to) == 12);
  for (int i = 2; i < 5; i++) mp_queue_push(&from, &it[i].a);
  mp_queue_move(&from, &to); /* after what it holds */
  CHECK(digits_a(&to) == 12345);
  CHECK(mp_queue_empty(&from));
  mp_queue_move(&from, &to); /* nothing left to move */
  CHECK(digits_a(&to) == 12345);
  for (int i = 0; i < 5; i++)
    CHECK(mp_queue_data(mp_queue_pop(&to), item, a)->v == i + 1);
  CHECK(mp_queue_empty(&to));
}

int main(void) {
  RUN(test_queue_fifo);
  RUN(test_queue_two_queues_insert_remove);
  RUN(test_queue_move);
  return mp_test_summary();
}
