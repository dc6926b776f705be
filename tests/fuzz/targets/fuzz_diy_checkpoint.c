/* A stack's checkpoint file of the file:// backend
 * (.pulumi/stacks/proj/dev.json, state/diy_model.c), loaded as `up` loads
 * it, secrets decrypted with the fuzz passphrase. A checkpoint loaded and
 * written back whole (as `stack import` writes) must load again, in a
 * store opened afresh, to a snapshot that exports the same JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/snapshot.h"
#include "fuzz_diy.h"
#include "fuzz_util.h"

/* The deployment's JSON with secrets in plaintext, its time blanked. */
static char *export_plain(const mp_snapshot *s) {
  mp_buf b;
  mp_err err;
  mp_buf_init(&b);
  FUZZ_CHECK(mp_snapshot_export(s, NULL, "fuzz", MP_DEPLOY_JSON_SHOW_SECRETS,
                                &b, &err) == 0,
             "a snapshot loaded does not export");
  char *text = mp_buf_detach(&b, NULL);
  char *t = strstr(text, "\"time\":\"");
  FUZZ_CHECK(t != NULL, "an export has no manifest time");
  for (t += 8; *t && *t != '"'; t++) *t = '0';
  return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fuzz_diy_reset();
  fuzz_diy_put(".pulumi/stacks/proj/dev.json", data, size);
  mp_crypter c = mp_passphrase_crypter(fuzz_passphrase());
  mp_store *s = fuzz_diy_open();
  mp_snapshot *snap = NULL;
  mp_err err;
  if (mp_store_load(s, fuzz_diy_stack, &c, &snap, &err) == 0) {
    char *first = export_plain(snap);
    if (mp_store_replace(s, fuzz_diy_stack, snap, &c, &err) == 0) {
      mp_store_close(s);
      s = fuzz_diy_open();
      mp_snapshot *again = NULL;
      if (mp_store_load(s, fuzz_diy_stack, &c, &again, &err) != 0)
        fprintf(stderr, "written: %s\nreload: %s\n", first, err.msg);
      FUZZ_CHECK(again != NULL, "a checkpoint written does not load");
      char *second = export_plain(again);
      if (strcmp(first, second) != 0)
        fprintf(stderr, "first:\n%s\nsecond:\n%s\n", first, second);
      FUZZ_CHECK(!strcmp(first, second), "a checkpoint changed on a round trip");
      free(second);
      mp_snapshot_free(again);
    }
    free(first);
    mp_snapshot_free(snap);
  }
  mp_store_close(s);
  return 0;
}
