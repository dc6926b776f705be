/* A stack's lock file of the file:// backend
 * (.pulumi/locks/organization/proj/dev/<uuid>.json, state/diy_lock.c), as
 * `stack` and every update read it: what the lock says is shown (its
 * fields stay NUL-terminated), and an update refused as busy says so in
 * Pulumi's words. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_diy.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_diy_reset();
  fuzz_diy_put_empty_stack();
  fuzz_diy_put(".pulumi/locks/organization/proj/dev/"
               "4a7a8cc5-4ef7-4b25-9c3b-1b2b2c1f0e11.json",
               data, size);
  mp_store *s = fuzz_diy_open();
  mp_lock_info info;
  memset(&info, 0xff, sizeof(info));
  mp_err err;
  int locked = mp_store_lock_get(s, fuzz_diy_stack, &info, &err);
  FUZZ_CHECK(locked == 0 || locked == 1, "a lock read neither locks nor not");
  FUZZ_CHECK(locked == 0 ||memchr(info.host, '\0', sizeof(info.host)) != NULL &&
                 memchr(info.time, '\0', sizeof(info.time)) != NULL &&
                 memchr(info.operation, '\0', sizeof(info.operation)) != NULL,
             "a lock's fields are not terminated");
  mp_store_update *u = NULL;
  mp_lock_info stale = {0};
  mp_crypter c = mp_passphrase_crypter(fuzz_passphrase());
  int rc = mp_store_update_begin(s, fuzz_diy_stack, "update", "", &c, &stale,
                                 &u, &err);
  if (rc == 0) {
    mp_update_counts counts = {0};
    FUZZ_CHECK(mp_store_update_end(u, "succeeded", &counts, &err) == 0,
               "an update begun does not end");
  } else {
    FUZZ_CHECK(rc == MP_EBUSY && strstr(err.msg, "currently locked") != NULL,
               "an update refused by a lock does not say it is locked");
  }
  mp_store_close(s);
  return 0;
}
