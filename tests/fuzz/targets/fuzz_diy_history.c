/* An update's history file of the file:// backend
 * (.pulumi/history/proj/dev/dev-<ns>.history.json, state/diy_history.c),
 * read as `stack history` reads it. An entry read has a kind and result
 * that fit their fields and times that are RFC 3339. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_diy.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_diy_reset();
  fuzz_diy_put_empty_stack();
  fuzz_diy_put(".pulumi/history/proj/dev/dev-1700000000000000000.history.json",
               data, size);
  mp_store *s = fuzz_diy_open();
  mp_history_entry *h = NULL;
  size_t n = 0;
  mp_err err;
  int rc = mp_store_history(s, fuzz_diy_stack, &h, &n, &err);
  FUZZ_CHECK(rc == 0 ? n == 1 : n == 0, "a history read half");
  for (size_t i = 0; i < n; i++) {
    FUZZ_CHECK(h[i].id == 1, "the only update is not number 1");
    FUZZ_CHECK(strlen(h[i].start) == 20 && strlen(h[i].end) == 20 &&
                   h[i].start[19] == 'Z' && h[i].end[19] == 'Z',
               "a time is not RFC 3339 in UTC");
    FUZZ_CHECK(h[i].message != NULL, "an entry has no message");
    mp_history_entry_destroy(&h[i]);
  }
  free(h);
  mp_store_close(s);
  return 0;
}
