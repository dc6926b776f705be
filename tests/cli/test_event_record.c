/* The kept events' short way (cli/event_record.c) gives the same text as
 * the general way through cJSON, for the steps it takes (no diff details:
 * every step of a no-op) and hands the others to the general way. */
#include <stdlib.h>
#include <string.h>

#include "cli/json_out.h"
#include "engine/resource.h"
#include "testutil.h"

static void same_text(const mp_event *ev) {
  char *fast = mp_cli_event_record(ev);
  char *general = mp_cli_event_record_general(ev);
  CHECK(fast != NULL && general != NULL);
  if (fast && general) CHECK_STR(fast, general);
  free(fast);
  free(general);
}

static void test_steps(void) {
  mp_resource *old = mp_resource_new("urn:pulumi:dev::p::test:Resource::a",
                                     "test:Resource", 1);
  mp_resource *new_ = mp_resource_new("urn:pulumi:dev::p::test:Resource::a",
                                      "test:Resource", 1);
  mp_strv_push(&new_->dependencies, "urn:pulumi:dev::p::test:Resource::b");
  mp_strv_push(&new_->dependencies, "urn:pulumi:dev::p::test:Resource::\"q\"\n");
  new_->parent = strdup("urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev");
  mp_event ev = {0};
  ev.sequence = 42;
  ev.timestamp = 1795850791.75;
  ev.meta.urn = new_->urn;
  ev.meta.type = new_->type;
  ev.meta.provider = "urn:pulumi:dev::p::pulumi:providers:test::default::1d4e";
  static const mp_step_op ops[] = {MP_OP_SAME, MP_OP_CREATE, MP_OP_DELETE,
                                   MP_OP_READ, MP_OP_REFRESH};
  for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
    for (int kind = 0; kind < 2; kind++)
      for (int flags = 0; flags < 8; flags++) {
        ev.kind = kind ? MP_EVENT_RES_OUTPUTS : MP_EVENT_RESOURCE_PRE;
        ev.meta.op = ops[i];
        ev.meta.logical = flags & 1;
        ev.preview = (flags >> 1) & 1;
        ev.meta.old = old;
        ev.meta.new_ = (flags & 4) ? NULL : new_;
        ev.meta.provider = (flags & 4) ? NULL : ev.meta.provider;
        same_text(&ev);
      }
  /* with diff details: the general way, the same text again */
  mp_strv diffs;
  mp_strv_init(&diffs);
  mp_strv_push(&diffs, "length");
  ev.kind = MP_EVENT_RESOURCE_PRE;
  ev.meta.op = MP_OP_UPDATE;
  ev.meta.new_ = new_;
  ev.meta.diffs = &diffs;
  same_text(&ev);
  /* a sequence that is not a plain integer of cJSON's: still the same */
  ev.meta.diffs = NULL;
  ev.sequence = (uint64_t)1 << 60;
  same_text(&ev);
  /* and the other events */
  ev.sequence = 7;
  ev.kind = MP_EVENT_DIAGNOSTIC;
  ev.severity = "warning";
  ev.message = "careful";
  same_text(&ev);
  mp_strv_destroy(&diffs);
  mp_resource_free(old);
  mp_resource_free(new_);
}

int main(void) {
  RUN(test_steps);
  return mp_test_summary();
}
