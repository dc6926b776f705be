/* The plan file of `preview --save-plan`, as `up --plan` reads it
 * (deploy/plan_file.c), secrets decrypted with the fuzz passphrase. A plan
 * read must write back (the stack's config left out) to a file that reads
 * again, and that second file must write the same text again (its time
 * aside, and unless secrets are encrypted anew). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deploy/plan_file.h"
#include "fuzz_util.h"

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  FUZZ_CHECK(f != NULL, "a written plan cannot be opened");
  mp_buf b;
  mp_buf_init(&b);
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) mp_buf_append(&b, chunk, n);
  fclose(f);
  return mp_buf_detach(&b, NULL);
}

/* The manifest's time (of the write) blanked. */
static void blank_time(char *text) {
  char *t = strstr(text, "\"time\":");
  if (t == NULL) return;
  t = strchr(t + 7, '"');
  for (t = t ? t + 1 : NULL; t && *t && *t != '"'; t++) *t = '0';
}

/* Writes |p| to |name| and returns the file's text (owned). */
static char *write_plan(mp_plan *p, const char *name, const mp_crypter *c) {
  char *path = mp_xasprintf("%s/%s", fuzz_dir(), name);
  mp_err err;
  /* the write owes nothing to what the error held before */
  mp_err_set(&err, MP_EIO, "an earlier error");
  int rc = mp_plan_file_write(p, path, NULL, c, &err);
  if (rc != 0) fprintf(stderr, "write: %s\n", err.msg);
  FUZZ_CHECK(rc == 0,
             "a plan read does not write");
  char *text = slurp(path);
  blank_time(text);
  free(path);
  return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *path = fuzz_write_file("plan.json", data, size);
  mp_crypter c = mp_passphrase_crypter(fuzz_passphrase());
  mp_plan *p = NULL;
  mp_err err;
  if (mp_plan_file_read(path, &c, &p, &err) == 0) {
    char *first = write_plan(p, "first.json", &c);
    char *again_path = mp_xasprintf("%s/first.json", fuzz_dir());
    mp_plan *again = NULL;
    if (mp_plan_file_read(again_path, &c, &again, &err) != 0)
      fprintf(stderr, "plan written:\n%s\nread back: %s\n", first, err.msg);
    FUZZ_CHECK(again != NULL, "a plan written does not read back");
    char *second = write_plan(again, "second.json", &c);
    /* secrets are encrypted afresh (a new nonce) on each write */
    int comparable = strstr(first, "ciphertext") == NULL;
    if (comparable && strcmp(first, second) != 0)
      fprintf(stderr, "first:\n%s\nsecond:\n%s\n", first, second);
    FUZZ_CHECK(!comparable || !strcmp(first, second), "a plan changed on a round trip");
    free(second);
    free(first);
    free(again_path);
    mp_plan_free(again);
    mp_plan_free(p);
  }
  free(path);
  return 0;
}
