/* `stack import` of a checkpoint: the deployment JSON to a snapshot
 * (secrets decrypted with the fuzz passphrase), its URNs read as the
 * command reads them, pending operations dropped, then the integrity
 * check, as cmd_stack_import.c does before it writes anything. A
 * snapshot read must export (secrets in plaintext) to JSON that imports
 * to a snapshot exporting the same text, and whose integrity check comes
 * out the same. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/snapshot.h"
#include "engine/urn.h"
#include "fuzz_util.h"

/* What the command does with a snapshot read: every URN is parsed (it
 * compares their stacks), pending operations are dropped (with a
 * warning), then the snapshot is checked. Returns the check's result. */
static int as_the_command_does(mp_snapshot *s) {
  mp_err err;
  for (size_t i = 0; i < s->nres; i++) {
    mp_urn u;
    const char *urn = s->res[i]->urn;
    if (mp_urn_parse(urn, strlen(urn), &u, &err) == 0) mp_urn_destroy(&u);
  }
  for (size_t i = 0; i < s->npending; i++) mp_resource_free(s->pending[i].res);
  s->npending = 0;
  return mp_snapshot_verify(s, &err);
}

/* The deployment's JSON with secrets in plaintext and the manifest's time
 * (the time of the export) blanked. */
static char *export_plain(const mp_snapshot *s) {
  mp_buf b;
  mp_err err;
  mp_buf_init(&b);
  FUZZ_CHECK(mp_snapshot_export(s, NULL, "fuzz", MP_DEPLOY_JSON_SHOW_SECRETS,
                                &b, &err) == 0,
             "a snapshot read does not export");
  char *text = mp_buf_detach(&b, NULL);
  char *t = strstr(text, "\"time\":\"");
  FUZZ_CHECK(t != NULL, "an export has no manifest time");
  for (t += 8; *t && *t != '"'; t++) *t = '0';
  return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = fuzz_cstring(data, size);
  mp_crypter c = mp_passphrase_crypter(fuzz_passphrase());
  mp_snapshot *s = NULL;
  mp_err err;
  if (mp_snapshot_import(text, size, &c, &s, &err) == 0) {
    int verified = as_the_command_does(s);
    char *first = export_plain(s);
    mp_snapshot *again = NULL;
    FUZZ_CHECK(mp_snapshot_import(first, strlen(first), NULL, &again, &err) == 0,
               "an exported snapshot does not import");
    FUZZ_CHECK(as_the_command_does(again) == verified,
               "the integrity check changed its mind after a round trip");
    char *second = export_plain(again);
    if (strcmp(first, second) != 0)
      fprintf(stderr, "first export:\n%s\nsecond export:\n%s\n", first, second);
    FUZZ_CHECK(!strcmp(first, second), "a snapshot changed on a round trip");
    free(second);
    free(first);
    mp_snapshot_free(again);
    mp_snapshot_free(s);
  }
  free(text);
  return 0;
}
