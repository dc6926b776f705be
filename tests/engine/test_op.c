/* Tests for src/engine/op.c: the one table of step operation facts. */
#include "engine/op.h"

#include <string.h>

#include "engine/resource.h"
#include "testutil.h"

static void test_op_every_row_is_complete(void) {
  for (int i = 0; i < MP_OP__COUNT; i++) {
    const mp_op_info *o = mp_op_info_of((mp_step_op)i);
    CHECK(o->name && o->symbol && o->doing && o->done && o->plan);
    CHECK(strlen(o->symbol) == 2);
    for (int j = 0; j < i; j++)
      CHECK(strcmp(o->name, mp_op_info_of((mp_step_op)j)->name) != 0);
    /* A pending operation is written only before a provider call. */
    if (o->pending >= 0) CHECK(o->flags & MP_OP_CALLS_PROVIDER);
    /* The parts of a replacement never stand for their resource. */
    if (o->flags & MP_OP_REPLACEMENT_PART) CHECK(!(o->flags & MP_OP_LOGICAL));
  }
}

static void test_op_facts_as_pulumi_shows_them(void) {
  const mp_op_info *cr = mp_op_info_of(MP_OP_CREATE_REPLACEMENT);
  CHECK_STR(cr->name, "create-replacement");
  CHECK_STR(cr->symbol, "++");
  CHECK_STR(cr->plan, "create replacement");
  CHECK(cr->pending == MP_PENDING_CREATING);
  CHECK(cr->flags & MP_OP_REPLACEMENT_PART);
  const mp_op_info *same = mp_op_info_of(MP_OP_SAME);
  CHECK(!(same->flags & (MP_OP_SUMMARIZED | MP_OP_CALLS_PROVIDER)));
  CHECK(same->pending < 0);
  CHECK(mp_op_info_of(MP_OP_REPLACE)->flags & MP_OP_SUMMARIZED);
  CHECK(mp_op_info_of(MP_OP_REMOVE_PENDING_REPLACE)->flags == 0);
  CHECK(mp_op_info_of(MP_OP_DELETE)->color == 1);
  CHECK_STR(mp_op_info_of(MP_OP__COUNT)->name, "unknown");
}

int main(void) {
  RUN(test_op_every_row_is_complete);
  RUN(test_op_facts_as_pulumi_shows_them);
  return mp_test_summary();
}
