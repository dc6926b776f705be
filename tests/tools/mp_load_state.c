/* mp_load_state: writes a deployment JSON file as a stack's whole snapshot,
 * pending operations included (unlike `minipulumi stack import`, which
 * drops them, S54). The fuzz tests use it to plant a prior snapshot.
 *
 *   mp_load_state STORE PROJECT STACK FILE
 *
 * Creates the stack if needed. The file's secrets_providers (if any) become
 * the stack's; it must not hold encrypted secret values (they are not
 * decrypted here). Exit status: 0 loaded, 1 the file does not parse or the
 * store refused it, 3 usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/snapshot.h"
#include "state/store.h"

static int read_all(const char *path, mp_buf *b) {
  char chunk[8192];
  size_t n;
  FILE *f = fopen(path, "r");
  if (f == NULL)
    return -1;
  while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
    mp_buf_append(b, chunk, n);
  int bad = ferror(f);
  fclose(f);
  return bad ? -1 : 0;
}

static const char *env_lookup(const char *name) { return getenv(name); }

int main(int argc, char **argv) {
  mp_err err;
  mp_store *st = NULL;
  mp_snapshot *snap = NULL;
  mp_buf text;
  int rc, status = 0;
  /* bucket stores read their credentials from the environment */
  mp_store_set_env(env_lookup);
  if (argc != 5) {
    fprintf(stderr, "usage: mp_load_state STORE PROJECT STACK FILE\n");
    return 3;
  }
  mp_stack_ref ref = {argv[2], argv[3]};
  mp_err_clear(&err);
  mp_buf_init(&text);
  if (read_all(argv[4], &text) < 0) {
    fprintf(stderr, "mp_load_state: cannot read '%s'\n", argv[4]);
    mp_buf_destroy(&text);
    return 1;
  }
  rc = mp_snapshot_import(text.data ? text.data : "", text.len, NULL, &snap,
                          &err);
  if (rc == 0)
    rc = mp_store_open(argv[1], &st, &err);
  if (rc == 0 && (rc = mp_store_stack_exists(st, ref, &err)) == 0)
    rc = mp_store_stack_create(st, ref, &err);
  if (rc >= 0)
    rc = mp_store_replace(st, ref, snap, NULL, &err);
  if (rc < 0) {
    fprintf(stderr, "mp_load_state: %s\n", err.msg);
    status = 1;
  }
  mp_snapshot_free(snap);
  mp_store_close(st);
  mp_buf_destroy(&text);
  return status;
}
